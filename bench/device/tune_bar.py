#!/usr/bin/env python3
"""Issue 10's bar, read off a tuning run's output (tune_measure.py /
attn-tune measure): per key and sequence length, the heuristic's time,
the winner, the speedup the tuning measurement saw and the confirmation's
(the harness's method, an independent second measurement: the figure the
bar uses; 1.0 where the heuristic kept the bucket), the noise; then

- the average confirmed speedup over the points where the heuristic is
  weakest (N <= 1024, D = 192, windows, Dv != D, GQA 8:1) and over all;
- the points where the chosen kernel is slower than the heuristic's beyond
  the noise (the bar: none);
- timed candidates and device seconds per key (the bar: <= 16, < 30 s).

A point (key, length) in several files counts once, from the last file
that has it: a key measured again is tuned anew.

    python3 bench/device/tune_bar.py measured.json [more.json ...] > bar.md
    python3 bench/device/tune_bar.py --compact OUT.json measured.json ...

A compact file (results/h200/*-tuning-*.json) reads like a measurement.

--compact writes what results/ keeps of a run (tens of KB, not the MBs of
every entry): per point the key, the times, the winner, the confirmation,
the noise and each timed candidate's cost rank and time ([rank, ms]).

Pure Python: it runs here, on the device's output."""

import json
import statistics
import sys


def weak(s):
    k = s["key"]
    return (s["n"] <= 1024 or k["d"] == 192 or k["mask"].startswith("window")
            or k["dv"] != k["d"] or k["gqa"] == 8)


def name(k):
    mods = "" if k["mods"] == "none" else " " + k["mods"]
    dv = "" if k["dv"] == k["d"] else "/%d" % k["dv"]
    gqa = " gqa%d" % k["gqa"] if k["gqa"] > 1 else ""
    return "%s %s D%d%s %s%s%s" % (k["chip"], k["dtype"], k["d"], dv, k["mask"], gqa, mods)


def confirmed(s):
    """The speedup the bar counts: the confirmation's ratio when a candidate
    won and was not overruled, else 1.0 (the heuristic's own kernel)."""
    c = s.get("confirm")
    if not c or c.get("overruled") or s.get("winner") in (None, "heuristic"):
        return 1.0
    return c["ratio"]


def compact(summary, out):
    keep = ("n", "default_ms", "noise", "winner", "best_ms", "speedup", "confirm", "timed",
            "device_s", "check_seed", "full_space")
    points = []
    for s in summary:
        p = {"key": s["key"]}
        p.update({k: s[k] for k in keep if k in s})
        p["rejected"] = len(s.get("rejected", []))
        p["ranks"] = [[r["cost_rank"], r["ms"]] for r in s.get("ranks", [])]
        points.append(p)
    with open(out, "w") as f:
        json.dump({"points": points}, f, separators=(",", ":"))


def main():
    args = sys.argv[1:]
    out = None
    if args[:1] == ["--compact"]:
        out, args = args[1], args[2:]
    # A later file's point of the same key and length replaces an earlier
    # one: a key measured again (a wider search space) is tuned anew, and
    # the database takes the new run's winner.
    by_point, replaced = {}, 0
    for path in args:  # a measurement, or what --compact kept of one
        doc = json.load(open(path))
        for s in doc["summary"] if "summary" in doc else doc["points"]:
            k = (json.dumps(s["key"], sort_keys=True), s["n"])
            replaced += k in by_point
            by_point[k] = s
    summary = list(by_point.values())
    if out:
        compact(summary, out)
        return
    summary.sort(key=lambda s: (name(s["key"]), s["n"]))
    print("| key | N | heuristic ms | winner | tuning x | confirmed x [range] | noise | weak |")
    print("|---|---|---|---|---|---|---|---|")
    slower, per_key = [], {}
    for s in summary:
        c = s.get("confirm") or {}
        conf = confirmed(s)
        rng = " [%.3f, %.3f]" % (c["ratio_min"], c["ratio_max"]) if c else ""
        note = " (overruled)" if c.get("overruled") else ""
        print("| %s | %d | %.4f | %s%s | %.3f | %.3f%s | %.3f | %s |" % (
            name(s["key"]), s["n"], s["default_ms"], s.get("winner"), note,
            s.get("speedup") or 1.0, conf, rng, s["noise"], "yes" if weak(s) else ""))
        if conf < 1.0 - max(s["noise"], 0.01):
            slower.append((name(s["key"]), s["n"], conf))
        pk = per_key.setdefault(name(s["key"]), {"timed": 0, "device_s": 0.0})
        pk["timed"] = max(pk["timed"], s.get("timed", 0))
        pk["device_s"] += s.get("device_s", 0.0)
    w = [confirmed(s) for s in summary if weak(s)]
    a = [confirmed(s) for s in summary]
    print()
    if w:
        print("Weak points (N <= 1024, D = 192, windows, Dv != D, GQA 8:1): %d, average "
              "confirmed speedup %.3f (bar: >= 1.05), median %.3f" % (len(w), statistics.mean(w),
                                                                      statistics.median(w)))
    if a:
        print("All points: %d, average %.3f, worst %.3f" % (len(a), statistics.mean(a), min(a)))
    if replaced:
        print("Points measured again in a later file (the later counts): %d" % replaced)
    print("Points slower than the heuristic beyond the noise (bar: none): %s" % (
        ", ".join("%s N=%d %.3f" % p for p in slower) or "none"))
    if per_key:
        print("Per key: at most %d timed candidates (bar: <= 16 + the heuristic), device time "
              "%.1f-%.1f s (bar: < 30 s)" % (
                  max(p["timed"] for p in per_key.values()),
                  min(p["device_s"] for p in per_key.values()),
                  max(p["device_s"] for p in per_key.values())))


if __name__ == "__main__":
    main()
