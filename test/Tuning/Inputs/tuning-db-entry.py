"""Writes OUT<i>.json: the database document IN with its first entry edited
by the i-th FIELD=VALUE argument (numbers stay numbers). `winner2=T` instead
makes the second entry a winner of the first one's key and bucket too, with
time T."""
import copy
import json
import sys

doc = json.load(open(sys.argv[1]))
for i, edit in enumerate(sys.argv[3:]):
    field, value = edit.split("=", 1)
    out = copy.deepcopy(doc)
    first = out["entries"][0]
    if field == "winner2":
        second = out["entries"][1]
        for k in ("chip", "dtype", "d", "dv", "mask", "mods", "gqa", "lse", "n_bucket"):
            second[k] = first[k]
        first["winner"] = second["winner"] = True
        second["time_ms"] = float(value)
    else:
        original = first[field]
        first[field] = type(original)(value) if not isinstance(original, str) else value
    with open(f"{sys.argv[2]}{i}.json", "w") as f:
        json.dump(out, f)
