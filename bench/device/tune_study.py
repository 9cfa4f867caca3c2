#!/usr/bin/env python3
"""How honest is the pruning? (issue 10) Reads what
`tune_measure.py --full-space` wrote for keys whose whole legal space was
timed (`attn-tune --emit-all`: every candidate that compiled, the ones ptxas
pruning rejects included) and says, per key and sequence length:

- the true winner (the fastest timed candidate or the heuristic's kernel);
- what a normal tuning run would have picked: the fastest of the cost
  model's best --top (16) among the candidates ptxas accepted;
- whether that run would have dropped the true winner, and by what: ptxas
  pruning (spills, stack, ignored setmaxnreg) or the cost model's rank;
  and what the drop costs (the pick's time over the winner's);
- the cost model's Spearman rank correlation with the measured times over
  every accepted candidate.

    python3 bench/device/tune_study.py study.json [--top 16] [--json out.json] > study.md

Pure Python (no torch): it runs here, on the device's output.
"""

import argparse
import json
import sys


def ranks(values):
    """Average ranks (1-based) of `values`, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs, ys):
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else None


def study(summary, top):
    timed = [r for r in summary["ranks"] if r.get("ms") is not None]
    if not timed:
        return None
    default = {"candidate": "heuristic", "ms": summary["default_ms"], "cost_rank": None,
               "pruned": None}
    pool = timed + [default]
    best = min(pool, key=lambda r: r["ms"])
    accepted = [r for r in timed if r.get("cost_rank") is not None]
    shortlist = [r for r in accepted if r["cost_rank"] <= top]
    pick = min(shortlist + [default], key=lambda r: r["ms"])
    if best is default or best in shortlist:
        dropped_by = None
    elif best.get("pruned"):
        dropped_by = "ptxas pruning (%s)" % best["pruned"]
    else:
        dropped_by = "cost model (rank %d)" % best["cost_rank"]
    rho = spearman([r["cost_rank"] for r in accepted], [r["ms"] for r in accepted])
    return {
        "key": summary["key"], "n": summary["n"], "timed": len(timed),
        "pruned_timed": sum(1 for r in timed if r.get("pruned")),
        "rejected_by_check": len(summary.get("rejected", [])),
        "noise": summary.get("noise"),
        "winner": best["candidate"], "winner_ms": best["ms"],
        "winner_cost_rank": best.get("cost_rank"),
        "pick": pick["candidate"], "pick_ms": pick["ms"],
        "loss": pick["ms"] / best["ms"], "dropped_by": dropped_by,
        "heuristic_ms": summary["default_ms"],
        "spearman": rho,
    }


def label(key):
    mask = key["mask"].replace("#attn.mask<", "").rstrip(">")
    s = "%s D%d" % (key["dtype"], key["d"])
    if key["dv"] != key["d"]:
        s += "/%d" % key["dv"]
    s += " " + mask
    if key.get("gqa", 0) > 1:
        s += " gqa %d" % key["gqa"]
    if key.get("mods"):
        s += " " + key["mods"]
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("measured")
    ap.add_argument("--top", type=int, default=16)
    ap.add_argument("--json")
    args = ap.parse_args()
    data = json.load(open(args.measured))
    rows = [r for r in (study(s, args.top) for s in data["summary"]
                        if s.get("full_space")) if r]
    if not rows:
        sys.exit("no full-space summaries in %s (tune_measure.py --full-space)" % args.measured)
    print("| key | N | timed (pruned) | true winner (cost rank) | top-%d pick | pick / winner | "
          "dropped by | noise | Spearman |" % args.top)
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %d | %d (%d) | %s (%s) | %s | %.3f | %s | %.3f | %s |" % (
            label(r["key"]), r["n"], r["timed"], r["pruned_timed"], r["winner"],
            r["winner_cost_rank"] if r["winner_cost_rank"] is not None else "-",
            r["pick"], r["pick_ms"] / r["winner_ms"], r["dropped_by"] or "-",
            r["noise"] or 0, "%.2f" % r["spearman"] if r["spearman"] is not None else "-"))
    dropped = [r for r in rows if r["dropped_by"]]
    beyond = [r for r in dropped if r["loss"] - 1 > (r["noise"] or 0)]
    print()
    print("%d key/length points; the true winner was dropped in %d (by ptxas pruning %d, by the "
          "cost model %d), %d of them by more than the measured noise; worst pick/winner %.3f; "
          "median Spearman %.2f." % (
              len(rows), len(dropped),
              sum(1 for r in dropped if r["dropped_by"].startswith("ptxas")),
              sum(1 for r in dropped if r["dropped_by"].startswith("cost")),
              len(beyond), max(r["loss"] for r in rows),
              sorted(r["spearman"] for r in rows if r["spearman"] is not None)[
                  len([r for r in rows if r["spearman"] is not None]) // 2]
              if any(r["spearman"] is not None for r in rows) else float("nan")))
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
