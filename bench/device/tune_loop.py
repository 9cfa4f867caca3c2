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


def key_points(keydir):
    """The (key, N) points a prepared key directory asks to measure."""
    report = json.load(open(os.path.join(keydir, "report.json")))
    key = json.dumps(report["key"], sort_keys=True)
    return [(key, n) for n in report["ns"]]


def measure(directory, out, runtime, budget):
    if os.path.exists(out):
        done = json.load(open(out))
    else:
        done = {"schema_version": 1, "entries": [], "summary": []}
    have = {(json.dumps(s["key"], sort_keys=True), s["n"]) for s in done["summary"]}
    keydirs = sorted(d for d in (os.path.join(directory, x) for x in os.listdir(directory))
                     if os.path.exists(os.path.join(d, "report.json")))
    pending = []
    for keydir in keydirs:
        if all(p in have for p in key_points(keydir)):
            print("%s: measured already" % os.path.basename(keydir), flush=True)
        else:
            pending.append((keydir, len(key_points(keydir))))
    if not pending:
        return
    # One measuring process for every pending key (torch and the runtime
    # start once); it skips the (key, N) points measured before, stops
    # starting points when the budget is spent and rewrites its output after
    # every key, so whatever it measured is merged here even if it fails or
    # is stopped.
    tmp = out + ".part"
    if os.path.exists(tmp):
        os.remove(tmp)
    # ATTN_TUNE_MEASURE replaces the measuring script (the lit test's fake).
    script = os.environ.get("ATTN_TUNE_MEASURE", os.path.join(HERE, "tune_measure.py"))
    cmd = [sys.executable, script, "--runtime", runtime,
           "--out", tmp, "--budget-s", str(budget)]
    if os.path.exists(out):
        cmd += ["--skip-measured", out]
    cmd += [k for k, _ in pending]
    start = time.time()
    total = sum(n for _, n in pending)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    points = 0
    for line in proc.stdout:  # progress with an ETA per measured point
        sys.stdout.write(line)
        if " N=" in line and " default " in line:
            points += 1
            progress(points, total, start, line.split(" N=")[0].strip())
    rc = proc.wait()
    if os.path.exists(tmp):
        part = json.load(open(tmp))
        done["entries"] += part["entries"]
        done["summary"] += part["summary"]
        done.setdefault("failed", []).extend(part.get("failed", []))
        json.dump(done, open(out, "w"), indent=1)
        os.remove(tmp)
    measured = {(json.dumps(m["key"], sort_keys=True), m["n"]) for m in done["summary"]}
    left = [os.path.basename(k) for k, _ in pending if not all(
        (key, n) in measured for key, n in key_points(k))]
    print("measured %d points in %.0f s (exit %d); %d keys not complete%s"
          % (points, time.time() - start, rc, len(left),
             ": %s (budget spent or a key failed; run again to resume)" % " ".join(left)
             if left else ""), flush=True)


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
