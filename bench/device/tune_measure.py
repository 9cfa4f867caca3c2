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
  2. each is checked on fresh random inputs of an odd shape (Nq, Nk not
     multiples of any block, Nq != Nk; outputs poisoned with NaN first)
     against an fp32 reference (run.reference, run.O_TOL / LSE_TOL) and
     against the heuristic's kernel: a NaN, or an error over the
     tolerance, rejects it, recorded with the reason
     (and, first, the default itself against an fp32 reference);
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


def check_inputs(meta, shape, seed, device):
    """Fresh random inputs of an odd shape and their fp32 reference
    (run.reference: upcast inputs, independent of every kernel)."""
    import torch
    bsz, hq, hkv, nq, nk = shape
    dt = run.torch_dtype(meta.dtype)
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    q = torch.randn(bsz, hq, nq, meta.d, dtype=dt, device=device, generator=g)
    k = torch.randn(bsz, hkv, nk, meta.d, dtype=dt, device=device, generator=g)
    v = torch.randn(bsz, hkv, nk, meta.dv, dtype=dt, device=device, generator=g)
    extra = run.make_extra(meta, shape, g, device)  # a bias, ALiBi slopes
    ref_o, ref_lse = run.reference(q, k, v, meta, extra)
    return (q, k, v, extra), (ref_o, ref_lse)


def check(kernel, ref_kernel, meta, inputs, ref, device):
    """`kernel` on `inputs` (outputs NaN-poisoned first) against the fp32
    reference (run.O_TOL, relative Frobenius error) and against the default
    kernel; returns None when it passes, else the reason."""
    import torch
    q, k, v, extra = inputs
    bsz, hq, nq = q.shape[0], q.shape[1], q.shape[2]
    dt = q.dtype
    outs = []
    for kern in (ref_kernel, kernel):
        o = torch.full((bsz, hq, nq, meta.dv), float("nan"), dtype=dt, device=device)
        lse = (torch.full((bsz, hq, nq), float("nan"), dtype=torch.float32, device=device)
               if meta.has_lse else None)
        kern.launch(q, k, v, o, lse, extra=extra)
        torch.cuda.synchronize()
        outs.append((o, lse))
    (o0, l0), (o1, l1) = outs
    if bool(torch.isnan(o1).any()):
        return "NaN in the output (the inputs and reference have none)"
    err = run.rel_fro(o1, ref[0])
    if not err <= run.O_TOL[meta.dtype]:
        return "O differs from the fp32 reference by %.3g (relative)" % err
    err = rel_err(torch.nan_to_num(o1), torch.nan_to_num(o0))
    if err > TOLERANCE[meta.dtype]:
        return "output differs from the default's by %.3g (relative)" % err
    if l1 is not None:
        rl = ref[1]
        finite = torch.isfinite(rl)
        if not bool(torch.equal(finite, torch.isfinite(l1))):
            return "LSE finite where the reference's is not (or the reverse)"
        if bool(finite.any()):
            ratio = float(((l1[finite] - rl[finite]).abs() /
                           rl[finite].abs().clamp(min=1)).max())
            if not ratio <= run.LSE_TOL:
                return "LSE differs from the fp32 reference by %.3g" % ratio
    return None


def timing_inputs(meta, n, gqa, device):
    """Rotating input sets of the benchmark shape whose total exceeds twice
    the L2."""
    import torch
    bsz, h = run.TIMING_TOKENS // n, run.TIMING_HIDDEN // meta.d
    hkv = h // gqa if gqa > 1 and h % gqa == 0 else h
    sq, skv = run.static_heads(meta)
    if (sq and sq != h) or (skv and skv != hkv):
        raise RuntimeError("the kernel's static heads (%s, %s) are not the benchmark's (%d, %d)"
                           % (sq, skv, h, hkv))
    dt = run.torch_dtype(meta.dtype)
    per_set = 2 * bsz * n * (h * meta.d + hkv * (meta.d + meta.dv) + h * meta.dv)
    l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 50 << 20)
    sets = max(2, min(16, math.ceil(2 * l2 / per_set)))
    out, extras = [], []
    for i in range(sets):
        q = torch.randn(bsz, h, n, meta.d, dtype=dt, device=device)
        k = torch.randn(bsz, hkv, n, meta.d, dtype=dt, device=device)
        v = torch.randn(bsz, hkv, n, meta.dv, dtype=dt, device=device)
        o = torch.empty(bsz, h, n, meta.dv, dtype=dt, device=device)
        lse = torch.empty(bsz, h, n, dtype=torch.float32, device=device) if meta.has_lse else None
        # A bias (B * H * N^2 elements, 8.6 GB at N = 16384) alone exceeds
        # the L2: two of them, taken by the sets in turn.
        if i < 2 or "bias" not in meta.roles:
            extras.append(run.make_extra(meta, (bsz, h, hkv, n, n), None, device))
        out.append((q, k, v, o, lse, extras[i % len(extras)]))
    flops = 2.0 * bsz * h * n * n * (meta.d + meta.dv) / (2 if meta.causal else 1)
    return out, flops


def time_round(kernel, sets, reps):
    import torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for r in range(reps):
        q, k, v, o, lse, extra = sets[r % len(sets)]
        kernel.launch(q, k, v, o, lse, extra=extra)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps


def confirm_winner(winner, default, meta, n, gqa, device, rounds):
    """Throughput of `winner` over `default` at the benchmark shape, timed
    as run.py and pair.py time (same inputs every launch; run.bench's
    median), `rounds` rounds in alternating order: the median ratio and its
    range."""
    import torch
    bsz, h = run.TIMING_TOKENS // n, run.TIMING_HIDDEN // meta.d
    hkv = h // gqa if gqa > 1 and h % gqa == 0 else h
    dt = run.torch_dtype(meta.dtype)
    q = torch.randn(bsz, h, n, meta.d, dtype=dt, device=device)
    k = torch.randn(bsz, hkv, n, meta.d, dtype=dt, device=device)
    v = torch.randn(bsz, hkv, n, meta.dv, dtype=dt, device=device)
    o = torch.empty(bsz, h, n, meta.dv, dtype=dt, device=device)
    lse = torch.empty(bsz, h, n, dtype=torch.float32, device=device) if meta.has_lse else None
    extra = run.make_extra(meta, (bsz, h, hkv, n, n), None, device)
    tw, td = [], []
    for r in range(rounds):
        order = [(winner, tw), (default, td)]
        for kern, acc in (order if r % 2 == 0 else order[::-1]):
            acc.append(run.bench(lambda: kern.launch(q, k, v, o, lse, extra=extra))[0])
    ratios = [d / w for w, d in zip(tw, td)]
    return {"ratio": round(statistics.median(td) / statistics.median(tw), 4),
            "ratio_min": round(min(ratios), 4), "ratio_max": round(max(ratios), 4)}


def measure_key(report, kernels, n, top, rounds, reps, device, env, log, confirm_rounds=4):
    """One key at one sequence length; `kernels` maps the report's kernel
    names (the default's and the candidates') to loaded kernels, or to the
    reason loading failed."""
    key = report["key"]
    bucket = report["n_buckets"][report["ns"].index(n)]
    # What the heuristic picks at this length (it may choose by length, as
    # attn-compile's length dispatch does); older reports have one default.
    by_n = report.get("default_by_n", {}).get(str(n))
    default_name = by_n["kernels"][0] if by_n else report["default_kernels"][0]
    default_config = by_n["config"] if by_n else report["default_config"]
    default_gpu_config = by_n["gpu_config"] if by_n else report["default_gpu_config"]
    # The cost model's order; candidates pruned by ptxas (emitted only by
    # `attn-tune --emit-all`, for the full-space study) come last.
    # A candidate is compiled once per key-length schedule (attn-tune):
    # each row is the kernel for the lengths in its "ns".
    ranked = [r for r in report["ranked"] if r.get("kernels") and n in r.get("ns", [n])]
    ranked.sort(key=lambda r: r["cost_by_n"][str(n)] if "cost_by_n" in r else math.inf)
    if top:
        ranked = [r for r in ranked if "rejected" not in r][:top]
    meta = kernels["__meta__"]
    default = kernels[default_name]
    summary = {"key": key, "n": n, "n_bucket": bucket, "default": default_name,
               "candidates": len(ranked), "rejected": []}
    t0 = time.time()
    gqa = key["gqa"] if key["gqa"] > 1 else 1
    hq, hkv = run.static_heads(meta)
    # No length a multiple of a block. With a bias, 520 keys: a staged
    # bias (stage_loads) is copied by TMA, whose rows must be a multiple of
    # 16 bytes, and attn-tune compiles no TMA fallbacks.
    nk = 520 if meta.mods and "bias" in meta.mods else 517
    odd = (2, hq or 4 * gqa, hkv or (hq or 4 * gqa) // gqa, 333, nk)
    seed = int.from_bytes(os.urandom(4), "little")
    summary["check_seed"] = seed
    inputs, ref = check_inputs(meta, odd, seed, device)
    why = check(default, default, meta, inputs, ref, device)
    if why:
        raise RuntimeError("the heuristic's kernel %s fails its check: %s" % (default_name, why))
    good = []
    for i, r in enumerate(ranked):
        kern = kernels[r["kernels"][0]]
        why = kern if isinstance(kern, str) else check(kern, default, meta, inputs, ref, device)
        if why:
            summary["rejected"].append({"candidate": r["candidate"], "reason": why})
        else:
            good.append(r)
    del inputs, ref
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
    heuristic = {"candidate": "heuristic", "config": default_config,
                 "gpu_config": default_gpu_config or "#attn.gpu_config<>"}
    if not any(r["config"] == heuristic["config"] and r["gpu_config"] == heuristic["gpu_config"]
               for r in good):
        timed.append((base, heuristic))
    timed.sort(key=lambda x: x[0])
    best_ms, best = timed[0] if timed else (None, None)
    # The winner is confirmed by a second, independent measurement before
    # it goes into the database: the harness's method (run.bench: the same
    # inputs every launch, warm-up, median of many), against the heuristic,
    # in alternating rounds. Where it is slower than the heuristic by more
    # than the first measurement's noise (and 1%), the heuristic stays the
    # winner of this bucket: the database never holds a choice that one of
    # the two methods measured slower.
    confirm = None
    if top and best is not None and best is not heuristic and best["candidate"] != "heuristic":
        confirm = confirm_winner(kernels[best["kernels"][0]], default, meta, n, gqa, device,
                                 confirm_rounds)
        if confirm["ratio"] < 1.0 - max(noise, 0.01):
            confirm["overruled"] = True
            best_ms, best = base, heuristic
            if not any(r is heuristic for _, r in timed):
                # A candidate had the heuristic's configuration: it wins.
                best = next(r for _, r in timed if r["config"] == heuristic["config"]
                            and r["gpu_config"] == heuristic["gpu_config"])
    wins = best is not None
    # An entry holds the GQA group it was measured at: an unknown group (0,
    # dynamic head counts) was timed with as many K/V heads as query heads.
    entries = [{
        "chip": key["chip"], "dtype": key["dtype"], "d": key["d"], "dv": key["dv"],
        "mask": key["mask"], "mods": key["mods"], "gqa": gqa, "lse": key["lse"],
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
        "confirm": confirm,
        "device_s": round(time.time() - t0, 1),
        "full_space": not top,
        "ranks": [{"candidate": r["candidate"],
                   "cost_rank": i + 1 if "rejected" not in r else None,
                   "pruned": r.get("rejected"),
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
    defaults = [default_name] + sorted({d["kernels"][0] for d in
                                        report.get("default_by_n", {}).values()} - {default_name})
    names = defaults + [r["kernels"][0] for r in report["ranked"] if r.get("kernels")]
    for name in names:
        try:
            kernels[name] = rt.load(keydir, name)
        except RuntimeError as e:
            if name in defaults:
                raise
            kernels[name] = "load failed: %s" % e
    return kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--top", type=int, default=16)
    ap.add_argument("--full-space", action="store_true",
                    help="time every candidate the key directory holds (attn-tune "
                         "--emit-all): the study of what pruning and the cost model drop, "
                         "not a tuning run; its entries are not for the database")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--budget-s", type=float, default=540,
                    help="stop starting keys after this many seconds")
    ap.add_argument("--skip-measured", metavar="JSON",
                    help="an earlier run's output: the (key, N) points it measured are skipped")
    ap.add_argument("keydirs", nargs="+")
    args = ap.parse_args()
    if args.top > 16:
        ap.error("--top is at most 16 (the issue's bound on timed candidates)")
    if args.full_space:
        args.top = 0  # every emitted candidate, pruned ones included
    import torch
    device = torch.device("cuda")
    rt = run.Runtime(args.runtime)
    full = run.environment(argparse.Namespace(commit=None, runtime=args.runtime,
                                              artifacts=args.keydirs[0], quick=False))
    env = {"gpu": full.get("gpu", ""), "driver": full.get("driver", ""), "compiler": "",
           "measured_at": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%dT%H:%M:%SZ")}
    entries, summaries, failed = [], [], []
    skip = set()
    if args.skip_measured and os.path.exists(args.skip_measured):
        skip = {(json.dumps(m["key"], sort_keys=True), m["n"])
                for m in json.load(open(args.skip_measured)).get("summary", [])}

    def write():
        # After every key, atomically: a run stopped by its time limit keeps
        # what it measured (attn-tune measure merges it and resumes from there).
        tmp = args.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"schema_version": 1, "entries": entries, "summary": summaries,
                       "failed": failed}, f, indent=1)
        os.replace(tmp, args.out)

    start = time.time()
    for keydir in args.keydirs:
        if time.time() - start > args.budget_s:
            print("budget spent: %s and later keys not measured" % keydir, flush=True)
            break
        report = json.load(open(os.path.join(keydir, "report.json")))
        key = json.dumps(report["key"], sort_keys=True)
        ns = [n for n in report["ns"] if (key, n) not in skip]
        kernels = {}
        try:
            kernels = load_key(rt, keydir, report)
            env["compiler"] = kernels["__meta__"].raw.get("compiler", "")
            for n in ns:
                if time.time() - start > args.budget_s:
                    print("budget spent: %s N=%d and later not measured" % (keydir, n), flush=True)
                    break
                e, s = measure_key(report, kernels, n, args.top, args.rounds, args.reps,
                                   device, env, lambda m: print(m, flush=True))
                if not args.full_space:  # a study, not database entries
                    entries += e
                summaries.append(s)
        except Exception as e:  # one key's failure (its default fails its check, a
            # load error) is recorded; the other keys go on
            print("%s: not measured: %s" % (keydir, e), flush=True)
            failed.append({"keydir": os.path.basename(keydir.rstrip("/")), "error": str(e)})
        finally:
            for k in kernels.values():
                if isinstance(k, run.Kernel):
                    k.unload()
        write()
    write()
    print("wrote %s: %d entries, %d key/length points, %d keys failed"
          % (args.out, len(entries), len(summaries), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
