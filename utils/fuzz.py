#!/usr/bin/env python3
"""A mutation fuzzer for the attn tools (issue 11): mutates the test files
(the corpus: test/**/*.mlir and any crash kept under test/Fuzz/crashes/),
runs each mutant through an attn-opt pipeline, and reports inputs that
crash (a signal, an LLVM fatal error or stack dump), hang (over the time
limit) or print an error and exit 0. Deterministic for a seed.

    utils/fuzz.py --attn-opt build/bin/attn-opt --seconds 60 [--seed N] \
        [--save DIR]

Exit 1 if anything was found (each finding written to --save, with the
command that failed), 0 otherwise. libFuzzer needs coverage-instrumented
code, which the gcc build of attn and Debian's libMLIR.so are not; this
driver only mutates and watches."""

import argparse
import glob
import hashlib
import os
import random
import re
import subprocess
import sys
import time

PIPELINES = [
    ["--attn-default-config=chip=sm_90a"],
    ["--attn-tile"],
    ["--attn-default-config", "--attn-tile", "--attn-split-kv-loop",
     "--attn-reverse-kv-loops", "--attn-decompose-online-softmax"],
    ["--attn-lower-to-cpu"],
    ["--attn-assign-layouts=chip=sm_90a", "--attn-stage-shared",
     "--attn-pipeline", "--attn-allocate-shared",
     "--convert-attn-tile-to-nvvm=chip=sm_90a"],
    ["--attn-assign-layouts=chip=sm_80", "--attn-stage-shared",
     "--attn-pipeline", "--attn-allocate-shared",
     "--convert-attn-tile-to-nvvm=chip=sm_80"],
    ["--attn-default-config=chip=sm_90a", "--attn-tile", "--cse",
     "--attn-assign-layouts=chip=sm_90a", "--attn-stage-shared",
     "--attn-pipeline", "--attn-allocate-shared",
     "--convert-attn-tile-to-nvvm=chip=sm_90a"],
]
INTERESTING = ["0", "1", "-1", "2", "3", "7", "8", "16", "17", "63", "64",
               "65", "127", "128", "192", "255", "256", "257", "512", "1024",
               "4096", "65536", "2147483647", "-2147483648",
               "9223372036854775807", "?"]
TYPES = ["f16", "bf16", "f32", "f64", "i8", "i32", "index", "f8E4M3FN"]
CRASH = re.compile(r"Stack dump|PLEASE submit a bug report|LLVM ERROR|"
                   r"Assertion .* failed|terminate called|Segmentation fault")


def mutate(text, rng):
    lines = text.split("\n")
    kind = rng.randrange(8)
    if kind == 0 and len(lines) > 1:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 1 and lines:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
    elif kind == 2:  # a number becomes another
        nums = [m for m in re.finditer(r"(?<![\w.%#@])-?\d+(?![\w.])", text)]
        if nums:
            m = rng.choice(nums)
            return text[:m.start()] + rng.choice(INTERESTING) + text[m.end():]
    elif kind == 3:  # an element type becomes another
        ts = [m for m in re.finditer(r"\b(f16|bf16|f32|f64|i1|i8|i32|i64)\b",
                                     text)]
        if ts:
            m = rng.choice(ts)
            return text[:m.start()] + rng.choice(TYPES) + text[m.end():]
    elif kind == 4:  # truncate
        return text[:rng.randrange(len(text) + 1)]
    elif kind == 5:  # swap two SSA names
        names = list(set(re.findall(r"%[\w]+", text)))
        if len(names) > 1:
            a, b = rng.sample(names, 2)
            return text.replace(a, "\0").replace(b, a).replace("\0", b)
    elif kind == 6:  # delete a token
        toks = [m for m in re.finditer(r"\S+", text)]
        if toks:
            m = rng.choice(toks)
            return text[:m.start()] + text[m.end():]
    else:  # swap two lines
        if len(lines) > 2:
            i, j = rng.sample(range(len(lines)), 2)
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attn-opt", required=True)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--save", default="")
    args = ap.parse_args()
    corpus = []
    for path in sorted(glob.glob(os.path.join(args.root, "test", "**", "*.mlir"),
                                 recursive=True)):
        if "/Integration/" in path:  # large runner inputs, slow to lower
            continue
        with open(path) as f:
            # One case per split-input-file chunk; RUN/CHECK lines dropped.
            for chunk in f.read().split("// -----"):
                body = "\n".join(l for l in chunk.split("\n")
                                 if not l.lstrip().startswith("//"))
                if "attn." in body:
                    corpus.append(body)
    rng = random.Random(args.seed)
    start, runs, found = time.time(), 0, []
    while time.time() - start < args.seconds:
        text = rng.choice(corpus)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        pipeline = rng.choice(PIPELINES)
        cmd = [args.attn_opt, "-", *pipeline, "-o", os.devnull]
        try:
            r = subprocess.run(cmd, input=text, capture_output=True, text=True,
                               timeout=args.timeout)
            err = r.stderr
            bad = None
            if r.returncode < 0 or CRASH.search(err):
                bad = "crash (exit %d)" % r.returncode
            elif r.returncode == 0 and re.search(r"\berror:", err):
                bad = "printed an error and exited 0"
            elif r.returncode not in (0, 1):
                bad = "exit %d" % r.returncode
        except subprocess.TimeoutExpired:
            bad, err = "hang (over %gs)" % args.timeout, ""
        runs += 1
        if bad:
            h = hashlib.sha1(text.encode()).hexdigest()[:12]
            found.append((bad, h))
            print("FOUND %s: %s (%s)" % (h, bad, " ".join(pipeline)), flush=True)
            print("\n".join(err.splitlines()[:6]), flush=True)
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                with open(os.path.join(args.save, h + ".mlir"), "w") as f:
                    f.write("// %s: attn-opt %s\n%s" % (bad, " ".join(pipeline), text))
    print("%d runs in %.0f s, %d corpus inputs, %d found"
          % (runs, time.time() - start, len(corpus), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
