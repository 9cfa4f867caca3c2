#!/usr/bin/env python3
"""The review step between a tuning run and the database in the repository:
keeps the keys whose tuned kernel, timed against the heuristic's in an
independent run (bench/device/tune_validate.sh, then pair.py), was not
slower than it by more than TOLERANCE (3%, the spread between rounds at
N = 16384 there) at any N (the median ratio over rounds), and drops the
others, so that they keep the heuristic. (A first criterion, the ratio's
maximum over rounds >= 1, kept causal D = 64 at a median 0.927 at
N = 16384, which the next full run confirmed as a loss.)

    python3 bench/device/tune_review.py measured.json pairs.json REPORTDIR... > reviewed.json

REPORTDIR: the attn-tune prepare directories (report.json names each key).
Prints the decision per key on stderr."""
import json
import os
import sys

TOLERANCE = 0.03


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
        worst = min(rows, key=lambda p: p["ratio"]) if rows else None
        keep = bool(rows) and worst["ratio"] >= 1.0 - TOLERANCE
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
