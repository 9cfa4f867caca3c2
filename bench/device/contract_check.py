#!/usr/bin/env python3
"""The launch contract on the GPU machine (issue 11): a kernel compiled with
the contract loads; copies of its JSON with one field changed (block_m,
shared_bytes, the mask kind, warps) are refused at load with a message
naming the field; a kernel built before the contract loads with a note.

    ATTN_RUNTIME_LIBRARY=LIB python3 bench/device/contract_check.py DIR KERNEL [OLD_DIR OLD_KERNEL]
Exit 1 when a check fails."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python-bindings"))
from attn.runtime import Runtime  # noqa: E402

directory, name = sys.argv[1], sys.argv[2]
rt = Runtime()
bad = 0


def report(ok, what):
    global bad
    bad += not ok
    print("%-4s %s" % ("ok" if ok else "FAIL", what), flush=True)


k = rt.load(directory, name)
note = k.info("load_note")
report("no launch contract" not in note, "%s loads, contract checked (note: %r)" % (name, note))
k.unload()
meta = json.load(open(os.path.join(directory, name + ".json")))
cases = [
    ("block_m", lambda m: m.update(block_m=m["block_m"] * 2)),
    ("shared_bytes", lambda m: m.update(shared_bytes=m["shared_bytes"] + 1024)),
    ("warps", lambda m: m.update(warps=m["warps"] * 2)),
    ("mask kind", lambda m: m.update(mask=dict(m["mask"], kind="causal"))),
]
for field, edit in cases:
    tmp = tempfile.mkdtemp()
    for f in os.listdir(directory):
        if f.startswith(name + ".") or f == name + ".json":
            shutil.copy(os.path.join(directory, f), tmp)
    m = json.loads(json.dumps(meta))
    edit(m)
    json.dump(m, open(os.path.join(tmp, name + ".json"), "w"))
    try:
        rt.load(tmp, name).unload()
        report(False, "JSON with %s changed loaded" % field)
    except RuntimeError as e:
        report(field in str(e), "JSON with %s changed refused: %s" % (field, str(e)[-160:]))
if len(sys.argv) > 4:
    k = rt.load(sys.argv[3], sys.argv[4])
    note = k.info("load_note")
    report("no launch contract" in note, "a kernel built before the contract loads with the note %r" % note)
    k.unload()
sys.exit(1 if bad else 0)
