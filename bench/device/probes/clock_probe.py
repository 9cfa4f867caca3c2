#!/usr/bin/env python3
"""Is a modification's cost over its base kernel a cost in cycles or in clock?

pair.py times A against B in short bursts (WARMUP + REPS calls). Here each
kernel runs for SECONDS of sustained calls, alternating A and B over ROUNDS
rounds on the same inputs, while a thread samples the SM clock, power and
the clock-event (throttle) reasons (NVML through nvidia-smi). For each
segment: ms a call (CUDA events over the segment's second half, when the
clock has settled), the median SM clock in that half, and so cycles a call.
If A/B in cycles equals A/B in time, the clock plays no part in the cost.

    python3 clock_probe.py --artifacts DIR --runtime libattn_runtime.so \
        --pairs mod_f16_d128_softcap=attn_f16_d128_none --ns 4096,16384 --out F
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import run  # noqa: E402

FIELDS = "clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active"


class Sampler(threading.Thread):
    """(host time, SM MHz, W, C, reasons) about every 50 ms."""

    def __init__(self):
        super().__init__(daemon=True)
        self.samples, self.stop = [], False

    def run(self):
        while not self.stop:
            t = time.time()
            r = subprocess.run(["nvidia-smi", "--query-gpu=" + FIELDS,
                                "--format=csv,noheader,nounits"],
                               capture_output=True, text=True)
            f = [x.strip() for x in r.stdout.strip().split(",")]
            if len(f) == 4:
                try:
                    self.samples.append((t, float(f[0]), float(f[1]), float(f[2]), f[3]))
                except ValueError:
                    pass
            time.sleep(0.05)

    def between(self, t0, t1):
        return [s for s in self.samples if t0 <= s[0] <= t1]


def segment(fn, seconds, sampler):
    """Calls fn for `seconds`; times the second half with one event pair."""
    import torch
    t_start = time.time()
    while time.time() - t_start < seconds / 2:
        for _ in range(4):
            fn()
        torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0 = time.time()
    e0.record()
    calls = 0
    while time.time() - t0 < seconds / 2:
        for _ in range(4):
            fn()
        calls += 4
        if calls % 16 == 0:
            torch.cuda.synchronize()  # keep the host near the GPU's clock samples
    e1.record()
    torch.cuda.synchronize()
    t1 = time.time()
    s = sampler.between(t0, t1)
    ms = e0.elapsed_time(e1) / calls
    mhz = statistics.median(x[1] for x in s) if s else float("nan")
    return {"ms": ms, "calls": calls, "mhz": mhz,
            "watts": statistics.median(x[2] for x in s) if s else None,
            "temp": max(x[3] for x in s) if s else None,
            "reasons": sorted({x[4] for x in s}), "samples": len(s),
            "kcycles": ms * mhz}  # ms * MHz = 1e3 cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--pairs", required=True, help="A=B,...")
    ap.add_argument("--ns", default="4096,16384")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    import torch
    device = torch.device("cuda")
    torch.zeros(1, device=device)
    rt = run.Runtime(args.runtime)
    sampler = Sampler()
    sampler.start()
    out = {"seconds": args.seconds, "rounds": args.rounds, "fields": FIELDS, "pairs": []}
    for pair in args.pairs.split(","):
        a, b = pair.split("=", 1)
        ma = run.Meta(os.path.join(args.artifacts, a + ".json"))
        mb = run.Meta(os.path.join(args.artifacts, b + ".json"))
        ka, kb = rt.load(args.artifacts, a), rt.load(args.artifacts, b)
        h = run.TIMING_HIDDEN // ma.d
        dt = run.torch_dtype(ma.dtype)
        for n in [int(x) for x in args.ns.split(",")]:
            bsz = run.TIMING_TOKENS // n
            flops = 2.0 * bsz * h * n * n * (ma.d + ma.dv) / (2 if ma.causal else 1)
            q = torch.randn(bsz, h, n, ma.d, dtype=dt, device=device)
            k = torch.randn(bsz, h, n, ma.d, dtype=dt, device=device)
            v = torch.randn(bsz, h, n, ma.dv, dtype=dt, device=device)
            oa, ob = (torch.empty(bsz, h, n, ma.dv, dtype=dt, device=device) for _ in "ab")
            la = torch.empty(bsz, h, n, dtype=torch.float32, device=device) if ma.has_lse else None
            lb = torch.empty(bsz, h, n, dtype=torch.float32, device=device) if mb.has_lse else None
            g = torch.Generator(device=device)
            g.manual_seed(n)
            xa = run.make_extra(ma, (bsz, h, h, n, n), g, device)
            xb = run.make_extra(mb, (bsz, h, h, n, n), g, device)
            fa = lambda: ka.launch(q, k, v, oa, la, extra=xa)
            fb = lambda: kb.launch(q, k, v, ob, lb, extra=xb)
            sa, sb = [], []
            for r in range(args.rounds):
                order = ((fa, sa), (fb, sb)) if r % 2 == 0 else ((fb, sb), (fa, sa))
                for fn, acc in order:
                    acc.append(segment(fn, args.seconds, sampler))
            med = lambda segs, key: statistics.median(s[key] for s in segs)
            rec = {"a": a, "b": b, "N": n, "B": bsz, "H": h, "a_segments": sa, "b_segments": sb,
                   "a_tflops": flops / (med(sa, "ms") * 1e-3) / 1e12,
                   "b_tflops": flops / (med(sb, "ms") * 1e-3) / 1e12,
                   "cost_time": med(sa, "ms") / med(sb, "ms"),
                   "cost_cycles": med(sa, "kcycles") / med(sb, "kcycles"),
                   "a_mhz": med(sa, "mhz"), "b_mhz": med(sb, "mhz")}
            out["pairs"].append(rec)
            print("%-24s / %-20s N=%-5d time %.3f  cycles %.3f  MHz %.0f / %.0f  W %s / %s  "
                  "TFLOP/s %.1f / %.1f  reasons %s / %s"
                  % (a, b, n, rec["cost_time"], rec["cost_cycles"], rec["a_mhz"], rec["b_mhz"],
                     sa[-1]["watts"], sb[-1]["watts"], rec["a_tflops"], rec["b_tflops"],
                     sa[-1]["reasons"], sb[-1]["reasons"]), flush=True)
            with open(args.out, "w") as f:
                json.dump(out, f, indent=1)
        ka.unload()
        kb.unload()
    sampler.stop = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
