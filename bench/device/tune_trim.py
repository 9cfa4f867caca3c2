#!/usr/bin/env python3
"""The committed tuning database from exports: what attn-apply-tuning reads
and nothing else, one entry per line.

Reads database exports (`attn-tuning-db export`; JSON with "entries"),
later files replacing every entry of the keys they hold (a key tuned again
replaces its old measurement whole, never mixes with it), and keeps per
key (target and problem class, all buckets together):
  - each bucket's winner and its fastest entry (the lookup with a length
    takes the winner; the robust choice measures against the fastest);
  - every entry of the robust choice, the configuration timed in every
    bucket whose worst bucket is nearest that bucket's fastest (what a
    dynamic-length op takes; lib/Tuning/ApplyTuning.cpp, robustChoice).
So that every choice the pass makes is the same from the output as from
the inputs; the losers' times stay in the SQLite files and results/.

    python3 bench/device/tune_trim.py OLD.json [NEW.json ...] > data/tuning/h200-sm_90a.json

Prints per key the entries kept and the robust choice on stderr."""
import json
import sys

KEY = ("chip", "gpu", "dtype", "d", "dv", "mask", "mods", "gqa", "lse")


def key_of(e):
    return tuple(e[k] for k in KEY)


def trim(entries):
    by_key = {}
    for e in entries:
        by_key.setdefault(key_of(e), []).append(e)
    kept = []
    for key, es in by_key.items():
        best = {}
        for e in es:
            b = e["n_bucket"]
            if b not in best or e["time_ms"] < best[b]["time_ms"]:
                best[b] = e
        times = {}
        for e in es:
            t = times.setdefault((e["config"], e["gpu_config"]), {})
            t[e["n_bucket"]] = min(t.get(e["n_bucket"], e["time_ms"]), e["time_ms"])
        robust, worst = None, None
        # Ties: the first configuration in (config, gpu_config) order, as
        # the pass's std::map iteration takes it.
        for cfg in sorted(times):
            t = times[cfg]
            if len(t) != len(best):
                continue
            w = max(ms / best[b]["time_ms"] for b, ms in t.items())
            if worst is None or w < worst:
                robust, worst = cfg, w
        keep = [e for e in es
                if e.get("winner") or best[e["n_bucket"]] is e
                or (e["config"], e["gpu_config"]) == robust]
        print("%s: %d of %d entries, robust %s (worst %.3fx)" % (
            "/".join(str(k) for k in key[2:]), len(keep), len(es),
            robust and (robust[0].replace("#attn.tile_config", "") + " "
                        + robust[1].replace("#attn.gpu_config", "")), worst or 0),
            file=sys.stderr)
        kept.extend(keep)
    return kept


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    merged = {}
    for path in sys.argv[1:]:
        with open(path) as f:
            doc = json.load(f)
        fresh = {}
        for e in doc["entries"]:
            fresh.setdefault(key_of(e), []).append(e)
        merged.update(fresh)  # a key in a later file replaces the earlier one
    entries = trim([e for es in merged.values() for e in es])
    entries.sort(key=lambda e: (e["dtype"], e["d"], e["dv"], e["mask"], e["mods"],
                                e["gqa"], e["lse"], e["n_bucket"], not e.get("winner"),
                                e["config"], e["gpu_config"]))
    print('{"schema_version": %d, "entries": [' % doc.get("schema_version", 1))
    print(",\n".join(json.dumps(e, sort_keys=True) for e in entries))
    print("]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
