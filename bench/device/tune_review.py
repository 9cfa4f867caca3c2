#!/usr/bin/env python3
"""The review step between a tuning run and the database in the repository:
keeps the keys whose tuned kernel, timed against the heuristic's in an
independent run (bench/device/tune_validate.sh, then pair.py), was not
slower beyond that run's round-to-round range at any N (the ratio's
maximum over rounds >= 1), and drops the others, so that they keep the
heuristic.

    python3 bench/device/tune_review.py measured.json pairs.json REPORTDIR... > reviewed.json

REPORTDIR: the tune_prepare.sh directories (report.json names each key).
Prints the decision per key on stderr."""
import json
import os
import sys


def main():
    measured = json.load(open(sys.argv[1]))
    pairs = json.load(open(sys.argv[2]))["pairs"]
    keys = {}
    for d in sys.argv[3:]:
        r = json.load(open(os.path.join(d, "report.json")))
        keys[os.path.basename(os.path.normpath(d))] = r["key"]
    drop = []
    for name, key in sorted(keys.items()):
        rows = [p for p in pairs if p["a"] == name]
        worst = min(rows, key=lambda p: p["ratio_max"]) if rows else None
        keep = bool(rows) and worst["ratio_max"] >= 1.0
        print("%-24s %s (worst N=%s: %.3f [%.3f, %.3f])" % (
            name, "kept" if keep else "dropped", worst and worst["N"],
            worst and worst["ratio"], worst and worst["ratio_min"], worst and worst["ratio_max"]),
            file=sys.stderr)
        if not keep:
            drop.append(key)
    def dropped(e):
        return any(all(e[f] == k[f] for f in k) for k in drop)
    out = {"schema_version": measured["schema_version"],
           "entries": [e for e in measured["entries"] if not dropped(e)]}
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
