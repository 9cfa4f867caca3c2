#!/usr/bin/env python3
"""A mutation fuzzer for the attn tools (issue 11): mutates the test files
(the corpus: test/**/*.mlir and any crash kept under test/Fuzz/crashes/),
runs each mutant through an attn-opt pipeline, and reports inputs that
crash (a signal, an LLVM fatal error or stack dump), hang (over the time
limit) or print an error and exit 0. Deterministic for a seed.

    utils/fuzz.py --attn-opt build/bin/attn-opt --seconds 60 [--seed N] \
        [--save DIR] [--attn-tuning-db build/bin/attn-tuning-db]

With --attn-tuning-db a share of the runs (--db) mutates a tuning database
document instead (test/Tuning/Inputs/*.json, data/tuning/*.json), imports
it into a fresh SQLite file and, where the import succeeds, compiles an
unmutated corpus input with attn-apply-tuning reading that database: the
parts of lib/Tuning that no attn-opt pipeline reaches otherwise.

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
import shutil
import subprocess
import sys
import tempfile
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
    # Every tile-level GPU pass of attn-lower-to-nvvm, in its order, with
    # the options that are off by default turned on.
    ["--attn-assign-layouts=chip=sm_90a", "--attn-overlap-softmax",
     "--attn-stage-loads=narrow-swizzles=true", "--attn-stage-shared",
     "--attn-warp-specialize", "--attn-stage-stores", "--attn-pipeline",
     "--attn-prefetch-loads", "--attn-allocate-shared",
     "--convert-attn-tile-to-nvvm=chip=sm_90a ldmatrix-local-loads=true"],
    # The whole pipelines, down to PTX (no ptxas).
    ["--attn-lower-to-nvvm=chip=sm_90a format=isa"],
    ["--attn-lower-to-nvvm=chip=sm_90a format=isa narrow-swizzles=true "
     "ldmatrix-local-loads=true"],
    ["--attn-lower-to-nvvm=chip=sm_80 format=isa"],
]
INTERESTING = ["0", "1", "-1", "2", "3", "7", "8", "16", "17", "63", "64",
               "65", "127", "128", "192", "255", "256", "257", "512", "1024",
               "4096", "65536", "2147483647", "-2147483648",
               "9223372036854775807", "?"]
TYPES = ["f16", "bf16", "f32", "f64", "i8", "i32", "index", "f8E4M3FN"]
CRASH = re.compile(r"Stack dump|PLEASE submit a bug report|LLVM ERROR|"
                   r"Assertion .* failed|terminate called|Segmentation fault")


GPU_FLAGS = ["lazy_rescale", "reverse_kv", "loop_local_ids", "wgmma",
             "overlap_softmax", "warp_specialize", "ping_pong", "persistent",
             "peel_last_block", "async_pv", "early_qk", "prefetch_loads",
             "stage_loads", "loads_ahead", "accumulate_bias"]


def random_config(rng, wgmma=0.7, dv=256):
    """A tile and GPU configuration: mostly a consistent one (the flags'
    prerequisites drawn first, as attn-tune's space does), sometimes any
    combination, so that both the lowerings' corners and the verifiers'
    refusals are reached. Drawn again while a thread's share of the score
    and output tiles, block_m (block_n + dv) / (32 warps), is over 1024
    elements: such kernels are legal but take LLVM seconds (a 128 x 192
    tile on one warp at D = 192 took 8-13 s), which the time limit would
    report as a hang on a loaded machine."""
    while True:
        tile, gpu = _random_config(rng, wgmma)
        bm, bn, warps = (int(x) for x in re.search(
            r"block_m = (\d+), block_n = (\d+), warps = (\d+)", tile).groups())
        if bm * (bn + dv) <= 1024 * 32 * warps:
            return tile, gpu


def _random_config(rng, wgmma):
    split = rng.choice(["", "", ", split_kv = false"])
    if rng.random() < 0.15:
        tile = "#attn.tile_config<block_m = %d, block_n = %d, warps = %d, stages = %d%s>" % (
            rng.choice([16, 32, 64, 128, 192, 256, 48]),
            rng.choice([16, 32, 48, 64, 80, 96, 112, 128, 144, 176, 192, 256, 24]),
            rng.choice([1, 2, 4, 8, 12, 16, 3]), rng.choice([1, 2, 3, 4, 0]), split)
        flags = [f for f in GPU_FLAGS if rng.random() < 0.4]
    else:
        on = lambda p: rng.random() < p
        flags = []
        stages = rng.choice([1, 2, 2, 3])
        bn = rng.choice([16, 32, 64, 64, 80, 96, 112, 128, 176, 192])
        if on(wgmma):  # wgmma (sm_90a; sm_80 refuses it with a diagnostic)
            warps = rng.choice([4, 8, 8, 12])
            bm = 16 * warps
            flags.append("wgmma")
            ws = on(0.7)
            overlap = stages >= 2 and on(0.6)
            if ws:
                flags.append("warp_specialize")
                for f, p in (("persistent", 0.5), ("stage_loads", 0.3)):
                    if on(p):
                        flags.append(f)
                if warps >= 8 and on(0.3):
                    flags.append("ping_pong")
            if overlap:
                flags.append("overlap_softmax")
                if ws and on(0.5):
                    flags.append("async_pv")
                    if on(0.4):
                        flags.append("early_qk")
                elif ws and on(0.3):
                    flags.append("peel_last_block")
                if ws and on(0.3):
                    flags.append("loads_ahead")
        else:
            warps = rng.choice([1, 2, 4, 8])
            bm = rng.choice([m for m in (16, 32, 64, 128) if m % (16 * warps) == 0]
                            or [16 * warps])
            flags += [f for f in ("lazy_rescale", "reverse_kv", "loop_local_ids")
                      if on(0.3)]
        if on(0.15):
            flags.append("prefetch_loads")
        tile = "#attn.tile_config<block_m = %d, block_n = %d, warps = %d, stages = %d%s>" % (
            bm, bn, warps, stages, split)
    if rng.random() < 0.2:
        flags.append("accumulate_bias")
    if rng.random() < 0.1:
        flags.append("fma_exp2 = %d" % rng.choice([1, 3, 8, 9]))
    if rng.random() < 0.1:
        flags.append("rescale_slack = %d" % rng.choice([4, 8, 15, 16]))
    if rng.random() < (0.4 if "persistent" in flags else 0.03):
        flags.append("group_m = %d" % rng.choice([1, 3, 16, 64]))
    gpu = "#attn.gpu_config<%s>" % ", ".join(
        f if "=" in f else f + " = true" for f in flags)
    return tile, gpu


def random_attention(rng):
    """An attn.attention with a random configuration on random shapes,
    element types, masks and score modifications."""
    dt = rng.choice(["f16", "bf16", "f16", "bf16", "f32"])
    d = rng.choice([64, 128, 128, 256, 192, 32, 80])
    dv = d if rng.random() < 0.8 else rng.choice([64, 128])
    dim = lambda: rng.choice(["?", "?", "1", "7", "128", "1000"])
    b, hq, nq, nk = dim(), rng.choice(["?", "4", "8"]), dim(), dim()
    hk = hq if rng.random() < 0.7 else rng.choice(["?", "1", "2"])
    qt = "memref<%s x%s x%s x%sx%s>" % (b, hq, nq, d, dt)
    kt = "memref<%s x%s x%s x%sx%s>" % (b, hk, nk, d, dt)
    vt = "memref<%s x%s x%s x%sx%s>" % (b, hk, nk, dv, dt)
    ot = "memref<%s x%s x%s x%sx%s>" % (b, hq, nq, dv, dt)
    qt, kt, vt, ot = (t.replace(" x", "x") for t in (qt, kt, vt, ot))
    args = ["%%q: %s" % qt, "%%k: %s" % kt, "%%v: %s" % vt, "%%o: %s" % ot]
    outs, otypes, ops = ["%o"], [ot], ""
    if rng.random() < 0.5:
        lt = "memref<%sx%sx%sxf32>" % (b, hq, nq)
        args.append("%%lse: %s" % lt)
        outs.append("%lse")
        otypes.append(lt)
    attrs = []
    mask = rng.choice(["", "", "causal, top_left", "causal, bottom_right",
                       "window, bottom_right, left = 100, right = 0",
                       "window, top_left, left = 0, right = 37"])
    if mask:
        attrs.append("mask = #attn.mask<%s>" % mask)
    mod = rng.choice(["", "", "softcap", "bias", "alibi"])
    if mod == "softcap":
        attrs.append("softcap = %s : f64" % rng.choice(["30.0", "1.0", "50.0"]))
    elif mod == "bias":
        bt = "memref<%sx%sx%sx%sx%s>" % (rng.choice([b, "1"]), rng.choice([hq, "1"]),
                                       nq, nk, dt)
        args.append("%%bias: %s" % bt)
        ops = " bias(%%bias : %s)" % bt
    elif mod == "alibi":
        args.append("%slopes: memref<?xf32>")
        ops = " alibi_slopes(%slopes : memref<?xf32>)"
    tile, gpu = random_config(rng, dv=dv)
    attrs += ["config = " + tile, "gpu_config = " + gpu]
    return ("func.func @f(%s) {\n  attn.attention ins(%%q, %%k, %%v : %s, %s, %s)%s"
            " outs(%s : %s) {%s}\n  return\n}\n" % (
                ", ".join(args), qt, kt, vt, ops, ", ".join(outs),
                ", ".join(otypes), ", ".join(attrs)))


def mutate(text, rng):
    lines = text.split("\n")
    kind = rng.randrange(9)
    if kind == 8:  # a configuration becomes another
        tile, gpu = random_config(rng)
        text = re.sub(r"#attn\.tile_config<[^>]*>", tile, text)
        return re.sub(r"#attn\.gpu_config<[^>]*>", gpu, text)
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


def run(cmd, text, timeout):
    """Runs `cmd` on `text` (stdin); (what was wrong or None, stderr)."""
    try:
        r = subprocess.run(cmd, input=text, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang (over %gs)" % timeout, ""
    err = r.stderr
    if r.returncode < 0 or CRASH.search(err):
        return "crash (exit %d)" % r.returncode, err
    if r.returncode == 0 and re.search(r"\berror:", err):
        return "printed an error and exited 0", err
    if r.returncode not in (0, 1):
        return "exit %d" % r.returncode, err
    return None, err


DB_RUNS = {"imports": 0, "accepted": 0}


def fuzz_db(args, rng, text, corpus, scratch):
    """Imports the database document `text` into a fresh SQLite file; where
    that succeeds, runs attn-apply-tuning and the default configuration on
    a corpus input with it. (what was wrong or None, stderr, command)."""
    doc, db = os.path.join(scratch, "db.json"), os.path.join(scratch, "db.sqlite")
    with open(doc, "w") as f:
        f.write(text)
    if os.path.exists(db):
        os.remove(db)
    cmd = [args.attn_tuning_db, "import", doc, db]
    bad, err = run(cmd, "", args.timeout)
    DB_RUNS["imports"] += 1
    if bad or not os.path.exists(db) or "import:" in err:
        return bad, err, cmd
    DB_RUNS["accepted"] += 1
    chip = rng.choice(["sm_90a", "sm_80"])
    cmd = [args.attn_opt, "-", "--attn-apply-tuning=db=%s chip=%s seq-len=%d"
           % (db, chip, rng.choice([0, 512, 1000, 4096, 16384])),
           "--attn-default-config=chip=" + chip, "-o", os.devnull]
    bad, err = run(cmd, rng.choice(corpus), args.timeout)
    return bad, err, cmd


def report(args, found, bad, err, text, cmd, suffix):
    h = hashlib.sha1(text.encode()).hexdigest()[:12]
    found.append((bad, h))
    print("FOUND %s: %s (%s)" % (h, bad, " ".join(cmd)), flush=True)
    print("\n".join(err.splitlines()[:6]), flush=True)
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        with open(os.path.join(args.save, h + suffix), "w") as f:
            if suffix == ".mlir":
                f.write("// %s: %s\n%s" % (bad, " ".join(cmd), text))
            else:  # JSON has no comments: the command beside it
                f.write(text)
                with open(os.path.join(args.save, h + ".cmd"), "w") as c:
                    c.write("%s: %s\n" % (bad, " ".join(cmd)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attn-opt", required=True)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--save", default="")
    ap.add_argument("--fresh", type=float, default=0.25,
                    help="share of inputs that are fresh, randomly configured ops")
    ap.add_argument("--attn-tuning-db", default="",
                    help="also fuzz tuning database imports with this tool")
    ap.add_argument("--db", type=float, default=0.1,
                    help="share of runs that fuzz a database import")
    args = ap.parse_args()
    db_corpus = []
    if args.attn_tuning_db:
        for pattern in ("test/Tuning/Inputs/*.json", "data/tuning/*.json"):
            for path in sorted(glob.glob(os.path.join(args.root, pattern))):
                with open(path) as f:
                    text = f.read()
                if '"schema_version"' in text:
                    db_corpus.append(text)
    scratch = tempfile.mkdtemp(prefix="attn-fuzz-")
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
        if db_corpus and rng.random() < args.db:
            text = rng.choice(db_corpus)
            for _ in range(rng.randrange(1, 4)):
                text = mutate(text, rng)
            bad, err, pipeline = fuzz_db(args, rng, text, corpus, scratch)
            runs += 1
            if bad:
                report(args, found, bad, err, text, pipeline, ".json")
            continue
        if rng.random() < args.fresh:  # a fresh op, configured at random
            text = random_attention(rng)
        else:
            text = rng.choice(corpus)
            for _ in range(rng.randrange(1, 4)):
                text = mutate(text, rng)
        pipeline = rng.choice(PIPELINES)
        cmd = [args.attn_opt, "-", *pipeline, "-o", os.devnull]
        bad, err = run(cmd, text, args.timeout)
        runs += 1
        if bad:
            report(args, found, bad, err, text, ["attn-opt", *pipeline], ".mlir")
    shutil.rmtree(scratch, ignore_errors=True)
    print("%d runs in %.0f s, %d corpus inputs, %d found"
          % (runs, time.time() - start, len(corpus) + len(db_corpus), len(found)))
    if db_corpus:
        print("database imports: %d, %d accepted and applied"
              % (DB_RUNS["imports"], DB_RUNS["accepted"]))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
