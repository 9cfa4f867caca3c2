#!/usr/bin/env python3
"""Markdown tables from a results.json written by bench/device/run.py.

    python3 bench/device/make_table.py OUTDIR/results.json > results.md

Prints the environment, a correctness summary per kernel (with the failed
points listed), TFLOP/s per dtype / head dim / causal / N for attn against
torch SDPA's cuDNN and FlashAttention-2 backends, and the memory check.
"""

import json
import math
import sys


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def sci(x):
    return "%.2e" % x if num(x) else "-"


def tflops(x):
    if num(x):
        return "%.1f" % x
    if isinstance(x, str) and x.startswith("unavailable"):
        return "n/a"
    return "-"


def p95(t, tag):
    """The p95 of a timing point over its median, '-' where not recorded."""
    a, b = t.get(tag + "_p95_ms"), t.get(tag + "_ms")
    return "%.2f" % (a / b) if num(a) and num(b) and b else "-"


def ms(x):
    return "%.2f" % x if num(x) else "-"


def mask_text(m):
    kind = m.get("mask", "?")
    if kind in ("causal", "window"):
        kind += " " + ("br" if m.get("alignment") == "bottom_right" else "tl")
    if m.get("mask") == "window":
        kind += " (%s, %s)" % (m.get("left"), m.get("right"))
    return kind


def head_dims(m):
    d, dv = m.get("D", "?"), m.get("Dv", "?")
    return str(d) if d == dv else "%s/%s" % (d, dv)


def kernel_passed(k):
    return (k.get("load", {}).get("ok", False) and not k.get("errors")
            and bool(k.get("correctness"))
            and all(p.get("pass") for p in k.get("correctness", []))
            and all(c.get("pass") for c in k.get("runtime_checks", [])))


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("error: cannot read %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    env = doc.get("env", {})
    kernels = doc.get("kernels", [])
    out = []

    out.append("## Environment\n")
    out.append(table(["", ""], [
        ["GPU", "%s (sm %s)" % (env.get("gpu", "?"), env.get("capability", "?"))],
        ["driver", env.get("driver", "?")],
        ["torch / CUDA / cuDNN", "%s / %s / %s" % (env.get("torch"), env.get("cuda_torch"),
                                                 env.get("cudnn"))],
        ["commit", env.get("commit") or "-"],
        ["date", env.get("date", "?")],
    ]))

    out.append("\n## Correctness\n")
    s = doc.get("summary", {})
    out.append("%s of %s kernels passed; %s of %s points.\n" % (
        s.get("kernels_passed", "?"), s.get("kernels", len(kernels)),
        s.get("points_passed", "?"), s.get("points", "?")))
    rows, failures = [], []
    for k in kernels:
        m = k.get("meta", {})
        pts = k.get("correctness", [])
        npass = sum(1 for p in pts if p.get("pass"))
        worst_o = max([p["o_rel_err"] for p in pts if num(p.get("o_rel_err"))] or [None],
                      key=lambda x: -1 if x is None else x)
        worst_l = max([p["lse_max_scaled_err"] for p in pts
                       if num(p.get("lse_max_scaled_err"))] or [None],
                      key=lambda x: -1 if x is None else x)
        sdpa = [p["o_vs_sdpa"] for p in pts if num(p.get("o_vs_sdpa"))]
        load = k.get("load", {})
        rows.append([k.get("name", "?"), m.get("dtype", "?"), head_dims(m), mask_text(m),
                     "yes" if m.get("has_lse") else "no",
                     load.get("loaded_from", "load failed") if load.get("ok") else "load failed",
                     "%d/%d" % (npass, len(pts)), sci(worst_o), sci(worst_l),
                     sci(max(sdpa)) if sdpa else "-",
                     "pass" if kernel_passed(k) else "**FAIL**"])
        why = []
        if not load.get("ok"):
            why.append("load: %s" % load.get("error", "failed"))
        why += list(k.get("errors", []))
        for p in pts:
            if not p.get("pass"):
                sh = p.get("shape", {})
                why.append("%s B=%s Hq=%s Hkv=%s Nq=%s Nk=%s: %s" % (
                    p.get("label"), sh.get("B"), sh.get("Hq"), sh.get("Hkv"),
                    sh.get("Nq"), sh.get("Nk"), "; ".join(p.get("failures", []))))
        for c in k.get("runtime_checks", []):
            if not c.get("pass"):
                why.append("runtime check %s: %s" % (c.get("check"), c.get("message")))
        if why:
            failures.append((k.get("name", "?"), why))
    out.append(table(["kernel", "dtype", "D", "mask", "LSE", "from", "points",
                      "worst O rel err", "worst LSE err", "max O vs SDPA", "result"], rows))
    if failures:
        out.append("\nFailures:\n")
        for name, why in failures:
            out.append("* `%s`" % name)
            for w in why[:10]:
                out.append("  * %s" % (w.splitlines()[0][:300] if w else ""))
            if len(why) > 10:
                out.append("  * ... %d more" % (len(why) - 10))

    trows = []
    for k in kernels:
        m = k.get("meta", {})
        for t in k.get("timing", []) or []:
            a, c, f = t.get("attn_tflops"), t.get("cudnn_tflops"), t.get("flash2_tflops")
            trows.append(((m.get("dtype", ""), m.get("D", 0), bool(t.get("causal")), t.get("N", 0),
                           k.get("name", "")),
                          [m.get("dtype", "?"), head_dims(m), "yes" if t.get("causal") else "no",
                           t.get("N"), "%s x %s" % (t.get("B"), t.get("H")), k.get("name", "?"),
                           tflops(a), tflops(c), tflops(f),
                           "%.2f" % (a / c) if num(a) and num(c) and c else "-",
                           "%.2f" % (a / f) if num(a) and num(f) and f else "-",
                           p95(t, "attn"), p95(t, "cudnn")]))
    if trows:
        trows.sort(key=lambda r: r[0])
        out.append("\n## Performance (TFLOP/s)\n")
        cfg = doc.get("config", {})
        out.append("B * N = %s tokens, H * D = %s; median of %s reps after %s warm-ups "
                   "(CUDA events). FLOPs = 4 B H N^2 D (2 B H N^2 (D + Dv) if they differ), "
                   "halved when causal. cuDNN and flash2 are torch SDPA's "
                   "CUDNN_ATTENTION and FLASH_ATTENTION backends on the same inputs.\n" % (
                       cfg.get("timing_tokens", "?"), cfg.get("timing_hidden", "?"),
                       cfg.get("reps", "?"), cfg.get("warmup", "?")))
        out.append(table(["dtype", "D", "causal", "N", "B x H", "kernel", "attn", "cuDNN",
                          "flash2", "attn/cuDNN", "attn/flash2", "attn p95/median",
                          "cuDNN p95/median"], [r[1] for r in trows]))
        unavailable = sorted({"%s: %s" % (tag, t[tag + "_tflops"])
                              for k in kernels for t in (k.get("timing") or [])
                              for tag in ("attn", "cudnn", "flash2")
                              if isinstance(t.get(tag + "_tflops"), str)})
        if unavailable:
            out.append("\nn/a:\n")
            out += ["* %s" % u[:300] for u in unavailable]

    # FlexAttention with the same score_mod (run.py times it at one N for
    # kernels whose harness asks), and without any modification.
    frows = [[k.get("name", "?"), t.get("N"), "%s x %s" % (t.get("B"), t.get("H")),
              tflops(t.get("attn_tflops")), tflops(t.get("flex_tflops")),
              tflops(t.get("flex_plain_tflops")),
              "%.2f" % (t["attn_tflops"] / t["flex_tflops"])
              if num(t.get("attn_tflops")) and num(t.get("flex_tflops")) else "-"]
             for k in kernels for t in (k.get("timing") or []) if "flex_tflops" in t]
    if frows:
        out.append("\n## FlexAttention (same score_mod)\n")
        out.append("torch.compile(flex_attention) with the kernel's score_mod and "
                   "mask (compiled and warmed before timing), and without them "
                   "(flex plain), on the same inputs.\n")
        out.append(table(["kernel", "N", "B x H", "attn", "flex", "flex plain",
                          "attn/flex"], frows))

    crows = [[k.get("name", "?"), ms(k["load"].get("load_ms")),
              ms(k["load"].get("first_launch_ms")), ms(k["load"].get("second_launch_ms"))]
             for k in kernels if "load_ms" in k.get("load", {})]
    if crows:
        out.append("\n## Cold start\n")
        out.append("Host wall time: attn_kernel_load (JSON, module load, contract check), "
                   "then launch + synchronize for the first and the second launch on "
                   "B = 1, H = 16, N = 1024.\n")
        out.append(table(["kernel", "load ms", "first launch ms", "second launch ms"], crows))

    mrows = []
    for k in kernels:
        mem = k.get("memory") or {}
        for p in mem.get("points", []):
            mrows.append([k.get("name", "?"), p.get("N"), p.get("H"),
                          "%.1f" % (p.get("io_bytes", 0) / 2**20),
                          "%.1f" % (p.get("allocated_over_baseline", 0) / 2**20),
                          p.get("peak_growth"),
                          "yes" if mem.get("linear") else "no"])
    if mrows:
        out.append("\n## Memory (B = 1)\n")
        out.append("Allocated = torch allocations for the inputs and outputs; peak growth = "
                   "max_memory_allocated after the launch minus before (0: the kernel "
                   "allocates nothing).\n")
        out.append(table(["kernel", "N", "H", "inputs+outputs MiB", "allocated MiB",
                          "peak growth (bytes)", "linear in N"], mrows))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
