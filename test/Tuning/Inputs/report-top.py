"""Prints, per --n of an attn-tune report, the TOP accepted candidates with
the lowest cost there (what --emit writes for that length), one line each."""
import json
import sys

report = json.load(open(sys.argv[1]))
top = int(sys.argv[2])
for n in report["ns"]:
    costs = sorted((row["cost_by_n"][str(n)], row["candidate"])
                   for row in report["ranked"]
                   if str(n) in row.get("cost_by_n", {}))
    for _, name in costs[:top]:
        print(n, name)
