#!/usr/bin/env python3
"""The measuring half of tuning (issue 10), for the GPU machine: the kernel
runtime (ctypes) and torch only, no compiler.

    python3 bench/device/tune_measure.py --runtime libattn_runtime.so \
        --out measured.json KEYDIR [KEYDIR ...]

Each KEYDIR holds what `attn-tune in.mlir --n=N1,N2,... --emit=KEYDIR` wrote
on the compiler's machine (report.json: its stdout; the candidates'
artifacts; the heuristic's kernel `<fn>__default`). Per key and sequence
length N (its bucket):
  1. the best --top candidates for N by the cost model (at most 16);
  2. each is checked against the heuristic's kernel on fresh random inputs
     of an odd shape (Nq, Nk not multiples of any block, Nq != Nk; outputs
     poisoned with NaN first): a NaN where the default has none, or a
     relative error over the dtype's tolerance, rejects it, recorded with
     the reason;
  3. the survivors and the default are timed on the benchmark shape
     (B * N = 16384, H * D = 2048) with CUDA events: warm-up, then rounds in
     which every kernel (the default twice, for the noise) runs `reps`
     launches over rotating input sets that together exceed the L2, in an
     order that alternates between rounds; per kernel the median over
     rounds of the per-launch time;
  4. the noise is the median over rounds of |t1 - t2| / t of the default's
     two slots.
Writes the database's import format ({"schema_version": 1, "entries": [...]}:
every timed candidate with its time, and the heuristic's own configuration
with the default kernel's time; the fastest of them is the winner) plus,
per key and N, a summary (default time, winner, speedup, noise,
rejections, the cost model's rank of each timed candidate) under
"summary", which the import ignores.
"""

import argparse
import datetime
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (runtime bindings, Meta, dtypes)

TOLERANCE = {"f16": 1e-2, "bf16": 2e-2}


def rel_err(a, b):
    import torch
    a, b = a.float(), b.float()
    denom = max(float(b.abs().max()), 1e-6)
    return float((a - b).abs().max()) / denom


def check(kernel, ref_kernel, meta, shape, seed, device):
    """`kernel` against the default kernel on one odd shape; returns None
    when they agree, else the reason."""
    import torch
    bsz, hq, hkv, nq, nk = shape
    dt = run.torch_dtype(meta.dtype)
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    q = torch.randn(bsz, hq, nq, meta.d, dtype=dt, device=device, generator=g)
    k = torch.randn(bsz, hkv, nk, meta.d, dtype=dt, device=device, generator=g)
    v = torch.randn(bsz, hkv, nk, meta.dv, dtype=dt, device=device, generator=g)
    outs = []
    for kern in (ref_kernel, kernel):
        o = torch.full((bsz, hq, nq, meta.dv), float("nan"), dtype=dt, device=device)
        lse = (torch.full((bsz, hq, nq), float("nan"), dtype=torch.float32, device=device)
               if meta.has_lse else None)
        kern.launch(q, k, v, o, lse)
        torch.cuda.synchronize()
        outs.append((o, lse))
    (o0, l0), (o1, l1) = outs
    if bool(torch.isnan(o1).any()) and not bool(torch.isnan(o0).any()):
        return "NaN in the output where the default has none"
    err = rel_err(torch.nan_to_num(o1), torch.nan_to_num(o0))
    if err > TOLERANCE[meta.dtype]:
        return "output differs from the default's by %.3g (relative)" % err
    if l0 is not None:
        finite = torch.isfinite(l0)
        if not bool(torch.equal(finite, torch.isfinite(l1))):
            return "LSE finite where the default's is not (or the reverse)"
        if bool(finite.any()) and float((l1[finite] - l0[finite]).abs().max()) > 1e-2:
            return "LSE differs from the default's"
    return None


def timing_inputs(meta, n, gqa, device):
    """Rotating input sets of the benchmark shape whose total exceeds twice
    the L2."""
    import torch
    bsz, h = run.TIMING_TOKENS // n, run.TIMING_HIDDEN // meta.d
    hkv = h // gqa if gqa > 1 and h % gqa == 0 else h
    dt = run.torch_dtype(meta.dtype)
    per_set = 2 * bsz * n * (h * meta.d + hkv * (meta.d + meta.dv) + h * meta.dv)
    l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 50 << 20)
    sets = max(2, min(16, math.ceil(2 * l2 / per_set)))
    out = []
    for _ in range(sets):
        q = torch.randn(bsz, h, n, meta.d, dtype=dt, device=device)
        k = torch.randn(bsz, hkv, n, meta.d, dtype=dt, device=device)
        v = torch.randn(bsz, hkv, n, meta.dv, dtype=dt, device=device)
        o = torch.empty(bsz, h, n, meta.dv, dtype=dt, device=device)
        lse = torch.empty(bsz, h, n, dtype=torch.float32, device=device) if meta.has_lse else None
        out.append((q, k, v, o, lse))
    flops = 2.0 * bsz * h * n * n * (meta.d + meta.dv) / (2 if meta.causal else 1)
    return out, flops


def time_round(kernel, sets, reps):
    import torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for r in range(reps):
        kernel.launch(*sets[r % len(sets)])
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps


def measure_key(report, kernels, n, top, rounds, reps, device, env, log):
    """One key at one sequence length; `kernels` maps the report's kernel
    names (the default's and the candidates') to loaded kernels, or to the
    reason loading failed."""
    key = report["key"]
    bucket = report["n_buckets"][report["ns"].index(n)]
    default_name = report["default_kernels"][0]
    ranked = [r for r in report["ranked"] if r.get("kernels")]
    ranked.sort(key=lambda r: r["cost_by_n"][str(n)])
    ranked = ranked[:top]
    meta = kernels["__meta__"]
    default = kernels[default_name]
    summary = {"key": key, "n": n, "n_bucket": bucket, "default": default_name,
               "candidates": len(ranked), "rejected": []}
    t0 = time.time()
    gqa = key["gqa"] if key["gqa"] > 1 else 1
    odd = (2, 4 * gqa, 4, 333, 517)  # no length a multiple of a block
    good = []
    for i, r in enumerate(ranked):
        kern = kernels[r["kernels"][0]]
        why = kern if isinstance(kern, str) else check(kern, default, meta, odd, 1000 + n + i, device)
        if why:
            summary["rejected"].append({"candidate": r["candidate"], "reason": why})
        else:
            good.append(r)
    sets, flops = timing_inputs(meta, n, gqa, device)
    slots = [("default", default, None), ("default2", default, None)]
    slots += [(r["candidate"], kernels[r["kernels"][0]], r) for r in good]
    for _, kern, _ in slots:
        time_round(kern, sets, 3)
    times = {name: [] for name, _, _ in slots}
    for rd in range(rounds):
        for name, kern, _ in (slots if rd % 2 == 0 else list(reversed(slots))):
            times[name].append(time_round(kern, sets, reps))
    del sets
    med = {name: statistics.median(ts) for name, ts in times.items()}
    noise = statistics.median(abs(a - b) / min(a, b)
                              for a, b in zip(times["default"], times["default2"]))
    base = statistics.median(times["default"] + times["default2"])
    timed = [(med[r["candidate"]], r) for r in good]
    # The heuristic's own configuration is an entry too (unless a candidate
    # has the same one): the database then knows what a tuned choice has to
    # beat, and the fastest of all is the winner.
    heuristic = {"candidate": "heuristic", "config": report["default_config"],
                 "gpu_config": report["default_gpu_config"] or "#attn.gpu_config<>"}
    if not any(r["config"] == heuristic["config"] and r["gpu_config"] == heuristic["gpu_config"]
               for r in good):
        timed.append((base, heuristic))
    timed.sort(key=lambda x: x[0])
    best_ms, best = timed[0] if timed else (None, None)
    wins = best is not None
    entries = [{
        "chip": key["chip"], "dtype": key["dtype"], "d": key["d"], "dv": key["dv"],
        "mask": key["mask"], "mods": key["mods"], "gqa": key["gqa"], "lse": key["lse"],
        "n_bucket": bucket, "config": r["config"], "gpu_config": r["gpu_config"],
        "time_ms": round(ms, 6), "winner": bool(wins and r is best),
        "gpu": env["gpu"], "driver": env["driver"], "compiler": env["compiler"],
        "measured_at": env["measured_at"]} for ms, r in timed]
    summary.update({
        "default_ms": round(base, 6), "default_tflops": round(flops / base / 1e9, 1),
        "noise": round(noise, 4), "timed": len(timed),
        "winner": best["candidate"] if wins else None,
        "best": best["candidate"] if best else None,
        "best_ms": round(best_ms, 6) if best is not None else None,
        "speedup": round(base / best_ms, 4) if best is not None else None,
        "device_s": round(time.time() - t0, 1),
        "ranks": [{"candidate": r["candidate"], "cost_rank": i + 1,
                   "ms": round(med[r["candidate"]], 6) if r["candidate"] in med else None}
                  for i, r in enumerate(ranked)]})
    log("%-24s N=%-5d default %.4f ms (%.0f TF/s) best %-22s %.4f ms x%.3f noise %.3f rejected %d (%.1f s)"
        % (report["key"]["dtype"] + " " + os.path.basename(report["input"]), n, base,
           flops / base / 1e9, best["candidate"] if best else "-", best_ms or 0,
           base / best_ms if best_ms else 0, noise, len(summary["rejected"]),
           summary["device_s"]))
    return entries, summary


def load_key(rt, keydir, report):
    """Every kernel of a key, loaded once: {name: kernel or the reason}."""
    kernels = {}
    default_name = report["default_kernels"][0]
    kernels["__meta__"] = run.Meta(os.path.join(keydir, default_name + ".json"))
    names = [default_name] + [r["kernels"][0] for r in report["ranked"] if r.get("kernels")]
    for name in names:
        try:
            kernels[name] = rt.load(keydir, name)
        except RuntimeError as e:
            if name == default_name:
                raise
            kernels[name] = "load failed: %s" % e
    return kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--top", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--budget-s", type=float, default=540,
                    help="stop starting keys after this many seconds")
    ap.add_argument("keydirs", nargs="+")
    args = ap.parse_args()
    if args.top > 16:
        ap.error("--top is at most 16 (the issue's bound on timed candidates)")
    import torch
    device = torch.device("cuda")
    rt = run.Runtime(args.runtime)
    full = run.environment(argparse.Namespace(commit=None, runtime=args.runtime,
                                              artifacts=args.keydirs[0], quick=False))
    env = {"gpu": full.get("gpu", ""), "driver": full.get("driver", ""), "compiler": "",
           "measured_at": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%dT%H:%M:%SZ")}
    entries, summaries = [], []
    start = time.time()
    for keydir in args.keydirs:
        report = json.load(open(os.path.join(keydir, "report.json")))
        kernels = load_key(rt, keydir, report)
        env["compiler"] = kernels["__meta__"].raw.get("compiler", "")
        try:
            for n in report["ns"]:
                if time.time() - start > args.budget_s:
                    print("budget spent: %s N=%d and later not measured" % (keydir, n), flush=True)
                    break
                e, s = measure_key(report, kernels, n, args.top, args.rounds, args.reps,
                                   device, env, lambda m: print(m, flush=True))
                entries += e
                summaries.append(s)
        finally:
            for k in kernels.values():
                if isinstance(k, run.Kernel):
                    k.unload()
    with open(args.out, "w") as f:
        json.dump({"schema_version": 1, "entries": entries, "summary": summaries}, f, indent=1)
    print("wrote %s: %d entries, %d keys" % (args.out, len(entries), len(summaries)))


if __name__ == "__main__":
    main()
