#!/usr/bin/env python3
"""Times kernels against each other in one process, interleaved.

A kernel change (a refactor, a new lowering) is judged by the ratio of its
time to the time of the kernel it replaces. Timed in separate processes, or
one after the other, that ratio also carries the drift of the GPU's clocks
and temperature between the two; here each pair runs in ROUNDS rounds, the
order alternating (A B, B A, ...), on the same inputs, and the ratio is
taken over the per-round medians. An A/A pair (a kernel against itself)
gives the noise floor of the same method. B may also be `cudnn`,
`flash2` or `efficient`: torch SDPA with that backend on the same inputs
(A without score modifications, Hq = Hkv), interleaved the same way. A
kernel whose only modification is an additive bias is compared with
`cudnn` or `efficient` given the same bias as SDPA's float `attn_mask`
(FlashAttention-2 takes none), so the vendor's cost of a bias is timed
beside ours.

    python3 bench/device/pair.py --artifacts DIR --runtime libattn_runtime.so \
        --out pairs.json [--pairs 'attn_x=tpl_x,...' | --paired] [--ns 512,4096]

--paired takes every kernel whose <name>.harness.json says "pair_of": B is
that kernel, A its twin. Prints one line per pair and N: A's TFLOP/s, the
ratio A/B of throughputs (median over rounds) and its range over rounds.
"""

import argparse
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness: runtime bindings, Meta, bench, inputs)


def pairs_from_harness(artifacts, pattern, key):
    """(A, B) for each harness sidecar with `key`: pair_of (A = the twin,
    B = this kernel) or base (A = this kernel with score modifications,
    B = the same kernel without them)."""
    import fnmatch
    out = []
    for side in sorted(glob.glob(os.path.join(artifacts, "*.harness.json"))):
        name = os.path.basename(side)[: -len(".harness.json")]
        with open(side) as f:
            h = json.load(f)
        other = h.get(key)
        if not other:
            continue
        a, b = (other, name) if key == "pair_of" else (name, other)
        if not pattern or fnmatch.fnmatch(a, pattern):
            out.append((a, b))
    return out


PEERS = ("cudnn", "flash2", "efficient")


def peer_launch(name, meta, q, k, v, extra):
    """SDPA with backend `name` (PEERS) on the inputs of kernel `meta`; a
    bias (the only modification SDPA has) goes in as its float attn_mask."""
    from torch.nn.attention import SDPBackend
    backend = {"cudnn": SDPBackend.CUDNN_ATTENTION,
               "flash2": SDPBackend.FLASH_ATTENTION,
               "efficient": SDPBackend.EFFICIENT_ATTENTION}[name]
    mods = sorted(m for m, on in meta.mods.items() if on)
    bias = None
    if mods == ["bias"] and name != "flash2":
        bias = extra["bias"]
    elif mods or meta.kind not in ("none", "causal"):
        raise ValueError("%s has no %s%s" % (name, meta.describe(),
                                             " with " + "+".join(mods) if mods else ""))
    return lambda: run.sdpa(q, k, v, meta, meta.causal, backend, attn_mask=bias)


def time_pair(rt, artifacts, a, b, ns, rounds, device, artifacts_b=None, q_scale=1.0):
    import torch
    artifacts_b = artifacts_b or artifacts
    ma = run.Meta(os.path.join(artifacts, a + ".json"))
    peer = b in PEERS
    mb = ma if peer else run.Meta(os.path.join(artifacts_b, b + ".json"))
    # Same problem; score modifications may differ (a modified kernel
    # against its base measures what the modification costs).
    for key in ("dtype", "d", "dv", "has_lse", "kind", "alignment", "left", "right"):
        if getattr(ma, key) != getattr(mb, key):
            raise ValueError("%s and %s differ in %s" % (a, b, key))
    if run.static_heads(ma) != run.static_heads(mb):
        raise ValueError("%s and %s differ in their static head counts" % (a, b))
    ka = rt.load(artifacts, a)
    kb = None if peer else rt.load(artifacts_b, b)
    recs = []
    try:
        # Head counts the kernels' types fix (a GQA key's Hq and Hkv), else
        # the benchmark's H * D = 2048 with as many K/V heads as query heads.
        sq, skv = run.static_heads(ma)
        h = sq or run.TIMING_HIDDEN // ma.d
        hkv = skv or h
        dt = run.torch_dtype(ma.dtype)
        for n in ns:
            bsz = run.TIMING_TOKENS // n
            flops = 2.0 * bsz * h * n * n * (ma.d + ma.dv)
            if ma.causal:
                flops /= 2
            q = torch.randn(bsz, h, n, ma.d, dtype=dt, device=device) * q_scale
            k = torch.randn(bsz, hkv, n, ma.d, dtype=dt, device=device)
            v = torch.randn(bsz, hkv, n, ma.dv, dtype=dt, device=device)
            oa = torch.empty(bsz, h, n, ma.dv, dtype=dt, device=device)
            ob = torch.empty_like(oa)
            la = torch.empty(bsz, h, n, dtype=torch.float32, device=device) if ma.has_lse else None
            lb = torch.empty_like(la) if la is not None else None
            g = torch.Generator(device=device)
            g.manual_seed(n)
            xa = run.make_extra(ma, (bsz, h, hkv, n, n), g, device)
            xb = run.make_extra(mb, (bsz, h, hkv, n, n), g, device)
            fa = lambda: ka.launch(q, k, v, oa, la, extra=xa)
            fb = (peer_launch(b, ma, q, k, v, xa) if peer
                  else lambda: kb.launch(q, k, v, ob, lb, extra=xb))
            ta, tb = [], []
            for r in range(rounds):
                order = ((fa, ta), (fb, tb)) if r % 2 == 0 else ((fb, tb), (fa, ta))
                for fn, acc in order:
                    acc.append(run.bench(fn)[0])  # the median
            torch.cuda.synchronize()
            if peer:  # SDPA returns its output: compare it with A's
                ob.copy_(fb())
            same = (oa.isnan() == ob.isnan()).all().item() and \
                torch.equal(torch.nan_to_num(oa), torch.nan_to_num(ob))
            ratios = [y / x for x, y in zip(ta, tb)]  # throughput A / B
            rec = {"a": a, "b": b, "N": n, "B": bsz, "H": h, "flops": flops,
                   "a_ms": ta, "b_ms": tb,
                   "a_tflops": flops / (statistics.median(ta) * 1e-3) / 1e12,
                   "ratio": statistics.median(tb) / statistics.median(ta),
                   "ratio_min": min(ratios), "ratio_max": max(ratios),
                   "outputs_identical": bool(same), "mods_a": ma.mods, "mods_b": mb.mods}
            if "bias" in xa and not peer:  # a peer pair's difference is not the bias's cost
                rec["bias_bytes"] = xa["bias"].numel() * xa["bias"].element_size()
                rec["bias_copy_ceiling_ms"] = rec["bias_bytes"] / run.COPY_BYTES_PER_S * 1e3
                rec["extra_ms"] = statistics.median(ta) - statistics.median(tb)
            recs.append(rec)
            print("  %-28s N=%-5d A %7.1f TFLOP/s  A/B %.3f  [%.3f, %.3f]  %s%s"
                  % (a, n, rec["a_tflops"], rec["ratio"], rec["ratio_min"],
                     rec["ratio_max"], "same O" if same else "O differs",
                     "  bias %.0f MB: +%.3f ms, copy ceiling %.3f ms"
                     % (rec["bias_bytes"] / 1e6, rec["extra_ms"], rec["bias_copy_ceiling_ms"])
                     if "bias_bytes" in rec else ""), flush=True)
            del q, k, v, oa, ob, la, lb, xa, xb
            torch.cuda.empty_cache()
    finally:
        ka.unload()
        if kb is not None:
            kb.unload()
    return recs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--out", required=True, help="JSON file to write")
    ap.add_argument("--pairs", default="", help="A=B,... (A is the new kernel)")
    ap.add_argument("--paired", default=None, metavar="GLOB",
                    help="every harness pair_of twin matching GLOB ('' for all)")
    ap.add_argument("--bases", default=None, metavar="GLOB",
                    help="every kernel matching GLOB whose harness names a base")
    ap.add_argument("--artifacts-b", default=None, metavar="DIR",
                    help="load the B kernels from DIR (the same names built "
                         "by another compiler: a change timed against main)")
    ap.add_argument("--ns", default=",".join(str(n) for n in run.TIMING_NS))
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--q-scale", type=float, default=1.0,
                    help="multiply the random queries by this (larger scores: "
                         "a lowering whose speed depends on their range)")
    args = ap.parse_args()
    import torch
    device = torch.device("cuda")
    torch.zeros(1, device=device)
    rt = run.Runtime(args.runtime)
    pairs = [tuple(p.split("=", 1)) for p in args.pairs.split(",") if "=" in p]
    if args.paired is not None:
        pairs += pairs_from_harness(args.artifacts, args.paired, "pair_of")
    if args.bases is not None:
        pairs += pairs_from_harness(args.artifacts, args.bases, "base")
    ns = [int(x) for x in args.ns.split(",")]
    out = {"environment": run.environment(argparse.Namespace(
        commit=None, runtime=args.runtime, artifacts=args.artifacts, quick=False)),
           "rounds": args.rounds, "q_scale": args.q_scale, "warmup": run.WARMUP, "reps": run.REPS, "pairs": []}
    rc = 0
    for a, b in pairs:
        print("%s vs %s" % (a, b), flush=True)
        try:
            out["pairs"] += time_pair(rt, args.artifacts, a, b, ns, args.rounds, device,
                                      args.artifacts_b, args.q_scale)
        except Exception as e:
            print("  ERROR: %s" % e, flush=True)
            out["pairs"].append({"a": a, "b": b, "error": str(e)})
            rc = 1
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
