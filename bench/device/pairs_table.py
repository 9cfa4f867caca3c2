#!/usr/bin/env python3
"""pairs.json (bench/device/pair.py) -> a compact CSV (--csv) or a
Markdown table (default): one row per pair, one cell per N with the
throughput ratio A / B (median over rounds) and its range over rounds.

    python3 bench/device/pairs_table.py pairs.json [--csv]"""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    recs = [r for r in doc["pairs"] if "error" not in r]
    if "--csv" in sys.argv:
        print("a,b,N,B,H,a_tflops,ratio,ratio_min,ratio_max,outputs_identical,bias_bytes,extra_ms,bias_copy_ceiling_ms")
        for r in recs:
            print("%s,%s,%d,%d,%d,%.1f,%.4f,%.4f,%.4f,%d,%s,%s,%s" % (
                r["a"], r["b"], r["N"], r["B"], r["H"], r["a_tflops"], r["ratio"],
                r["ratio_min"], r["ratio_max"], r["outputs_identical"],
                r.get("bias_bytes", ""), "%.4f" % r["extra_ms"] if "extra_ms" in r else "",
                "%.4f" % r["bias_copy_ceiling_ms"] if "bias_copy_ceiling_ms" in r else ""))
        return 0
    env = doc.get("environment", {})
    print("%s, torch %s, %s rounds x (%s warm-up + median of %s); A/B = throughput ratio "
          "(median over rounds) [min, max over rounds]\n"
          % (env.get("gpu"), env.get("torch"), doc.get("rounds"), doc.get("warmup"), doc.get("reps")))
    ns = sorted({r["N"] for r in recs})
    print("| A | B | " + " | ".join("N=%d" % n for n in ns) + " |")
    print("|---|---|" + "---|" * len(ns))
    seen = []
    for r in recs:
        if (r["a"], r["b"]) not in seen:
            seen.append((r["a"], r["b"]))
    for a, b in seen:
        cells = []
        for n in ns:
            x = [r for r in recs if r["a"] == a and r["b"] == b and r["N"] == n]
            cells.append("%.3f [%.3f, %.3f]" % (x[0]["ratio"], x[0]["ratio_min"], x[0]["ratio_max"])
                         if x else "-")
        print("| %s | %s | %s |" % (a, b, " | ".join(cells)))
    for e in doc["pairs"]:
        if "error" in e:
            print("\n%s vs %s: %s" % (e["a"], e["b"], e["error"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
