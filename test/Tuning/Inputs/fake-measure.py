"""A stand-in for bench/device/tune_measure.py (which needs a GPU) with its
command line and output contract, for test/Tuning/tune-loop-measure.test:
one summary and one entry per (key, N) not in --skip-measured, the output
rewritten after every key; FAKE_FAIL=NAME fails that key as a failing check
would (recorded under "failed", exit 1). The entries are the
database's import format."""
import argparse
import json
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--runtime")
ap.add_argument("--out")
ap.add_argument("--budget-s")
ap.add_argument("--skip-measured")
ap.add_argument("keydirs", nargs="+")
args = ap.parse_args()
skip = set()
if args.skip_measured:
    skip = {(json.dumps(m["key"], sort_keys=True), m["n"])
            for m in json.load(open(args.skip_measured))["summary"]}
print("fake: %d points to skip, keys %s" % (
    len(skip), " ".join(os.path.basename(k) for k in args.keydirs)), flush=True)
# What the fake "measured" (attn-tune import refuses configurations that do
# not parse): the report's heuristic, else one of its own.
CONFIG = "#attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>"
GPU_CONFIG = "#attn.gpu_config<wgmma = true>"
out = {"schema_version": 1, "entries": [], "summary": [], "failed": []}
for keydir in args.keydirs:
    name = os.path.basename(keydir)
    report = json.load(open(os.path.join(keydir, "report.json")))
    if name == os.environ.get("FAKE_FAIL"):
        print("%s: not measured: the heuristic's kernel fails its check" % keydir)
        out["failed"].append({"keydir": name, "error": "fails its check"})
    else:
        for n in report["ns"]:
            if (json.dumps(report["key"], sort_keys=True), n) in skip:
                continue
            print("f16 %s N=%d default 0.1 ms best c1" % (name, n), flush=True)
            out["summary"].append({"key": report["key"], "n": n})
            out["entries"].append(dict(report["key"], n_bucket=n, config=report.get("default_config", CONFIG),
                                       gpu_config=report.get("default_gpu_config", GPU_CONFIG), time_ms=0.1, winner=True,
                                       gpu="fake", driver="0", compiler="fake",
                                       measured_at="2026-12-03T00:00:00"))
    json.dump(out, open(args.out, "w"))
sys.exit(1 if out["failed"] else 0)
