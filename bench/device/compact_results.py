#!/usr/bin/env python3
"""results.json (bench/device/run.py) -> the compact summary committed to
results/h200/: what make_table.py and the docs read (per correctness point
its label, shape, pass, failures and worst errors; the timing and memory
records; the environment), without the per-point details and tracebacks.
Optionally sets the commit the artifacts were built from (the device
machine's checkout does not know it).

    python3 bench/device/compact_results.py results.json OUT.json [--commit SHA]"""
import json
import sys

KEEP_POINT = ("label", "shape", "layout", "pass", "failures", "o_rel_err",
              "lse_max_scaled_err", "o_vs_sdpa", "rows_without_keys")


def main():
    src, dst = sys.argv[1], sys.argv[2]
    doc = json.load(open(src))
    if "--commit" in sys.argv:
        doc["env"]["commit"] = sys.argv[sys.argv.index("--commit") + 1]
    for k in doc["kernels"]:
        k["correctness"] = [{f: p[f] for f in KEEP_POINT if f in p}
                            for p in k.get("correctness", [])]
        k["runtime_checks"] = [{"check": c["check"], "pass": c["pass"]}
                               for c in k.get("runtime_checks", [])]
        k.pop("traceback", None)
    with open(dst, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
