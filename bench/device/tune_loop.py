#!/usr/bin/env python3
"""The tuning loop as one command (issue 10): prepare (on the compiler's
machine) -> measure (on the GPU) -> import into the database, each phase
resumable (what is done is skipped), with a progress line and an ETA per
key, and a time budget for the measuring phase. `all` runs the three on a
machine that has both the compiler and a GPU.

    tune_loop.py prepare KEYS DIR            # attn-tune per key (tune_prepare.sh's keys)
    tune_loop.py measure DIR OUT.json --runtime LIB [--budget-s S]
    tune_loop.py import OUT.json DB.sqlite
    tune_loop.py all KEYS DIR OUT.json DB.sqlite --runtime LIB

KEYS: one key per line, `NAME DTYPE D[:DV] MASK` (bench/device/probes/tune-keys.txt).
A key is prepared when DIR/NAME/report.json exists and is newer than
attn-tune; measured when OUT.json holds its summary for every bucket.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def progress(i, n, start, what):
    done = time.time() - start
    eta = done / i * (n - i) if i else 0
    print("[%d/%d] %-40s %6.1f s elapsed, ETA %6.1f s" % (i, n, what, done, eta), flush=True)


def read_keys(path):
    keys = []
    for line in open(path):
        parts = line.split()
        if parts and not parts[0].startswith("#"):
            keys.append(line.strip())
    return keys


def prepare(keys_file, directory):
    tool = os.path.join(ROOT, "build", "bin", "attn-tune")
    keys = read_keys(keys_file)
    start = time.time()
    for i, line in enumerate(keys):
        name = line.split()[0]
        report = os.path.join(directory, name, "report.json")
        if os.path.exists(report) and os.path.getmtime(report) > os.path.getmtime(tool):
            progress(i + 1, len(keys), start, name + " (prepared already)")
            continue
        subprocess.run(["bash", os.path.join(HERE, "tune_prepare.sh"), directory],
                       input=line + "\n", text=True, check=True)
        progress(i + 1, len(keys), start, name)


def measure(directory, out, runtime, budget):
    sys.path.insert(0, HERE)
    done = {}
    if os.path.exists(out):
        prev = json.load(open(out))
        done = prev
    else:
        done = {"schema_version": 1, "entries": [], "summary": []}
    have = {(json.dumps(s["key"], sort_keys=True), s["n"]) for s in done["summary"]}
    keydirs = sorted(d for d in (os.path.join(directory, x) for x in os.listdir(directory))
                     if os.path.exists(os.path.join(d, "report.json")))
    start = time.time()
    for i, keydir in enumerate(keydirs):
        report = json.load(open(os.path.join(keydir, "report.json")))
        key = json.dumps(report["key"], sort_keys=True)
        if all((key, n) in have for n in report["ns"]):
            progress(i + 1, len(keydirs), start, os.path.basename(keydir) + " (measured already)")
            continue
        if time.time() - start > budget:
            print("budget of %.0f s spent; %d keys left for the next run"
                  % (budget, len(keydirs) - i), flush=True)
            break
        tmp = out + ".part"
        rc = subprocess.run([sys.executable, os.path.join(HERE, "tune_measure.py"), "--runtime",
                             runtime, "--out", tmp, keydir]).returncode
        if rc != 0:
            # A key whose measurement fails (its default kernel fails its
            # check, a load error) is reported and left for the next run;
            # the others go on.
            print("%s: tune_measure.py failed (exit %d); not recorded"
                  % (os.path.basename(keydir), rc), flush=True)
            progress(i + 1, len(keydirs), start, os.path.basename(keydir) + " (failed)")
            continue
        part = json.load(open(tmp))
        done["entries"] += part["entries"]
        done["summary"] += part["summary"]
        json.dump(done, open(out, "w"), indent=1)  # after every key: resumable
        os.remove(tmp)
        progress(i + 1, len(keydirs), start, os.path.basename(keydir))


def import_db(out, db):
    tool = os.path.join(ROOT, "build", "bin", "attn-tuning-db")
    subprocess.run([tool, "import", out, db], check=True)
    print("imported %s into %s" % (out, db), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="phase", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("keys")
    p.add_argument("dir")
    m = sub.add_parser("measure")
    m.add_argument("dir")
    m.add_argument("out")
    m.add_argument("--runtime", required=True)
    m.add_argument("--budget-s", type=float, default=540)
    i = sub.add_parser("import")
    i.add_argument("out")
    i.add_argument("db")
    a = sub.add_parser("all")
    a.add_argument("keys")
    a.add_argument("dir")
    a.add_argument("out")
    a.add_argument("db")
    a.add_argument("--runtime", required=True)
    a.add_argument("--budget-s", type=float, default=540)
    args = ap.parse_args()
    if args.phase in ("prepare", "all"):
        prepare(args.keys, args.dir)
    if args.phase in ("measure", "all"):
        measure(args.dir, args.out, args.runtime, args.budget_s)
    if args.phase in ("import", "all"):
        import_db(args.out, args.db)


if __name__ == "__main__":
    main()
