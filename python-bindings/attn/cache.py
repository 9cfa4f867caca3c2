"""The on-disk kernel cache of compile-on-first-use (attn.torch uses it; no
torch needed here, so CI tests it).

An entry is a directory `<ATTN_CACHE_DIR>/<digest>` holding one
compilation's artifacts, the digest taken over the spec's MLIR, the chip,
the compiler version and the tuning database, so that any of them
changing makes a new entry. An entry is written under a temporary name and
renamed into place, so readers never see half of one; an entry that is
not what a compilation writes (a JSON that does not parse or names another
kernel, a PTX or cubin it names that is missing or empty: a crash while
copying, a disk that filled up, a hand edit) is removed and compiled
again."""

import hashlib
import json
import os
import shutil


def cache_dir():
    """ATTN_CACHE_DIR, default ~/.cache/attn."""
    return os.environ.get("ATTN_CACHE_DIR",
                          os.path.join(os.path.expanduser("~"), ".cache", "attn"))


def entry_dir(spec, chip, version, tuning_db=""):
    """The directory of the entry for these inputs (it may not exist)."""
    digest = hashlib.sha256("\n".join([spec.to_mlir(), chip, version, tuning_db]).encode()
                            ).hexdigest()[:20]
    return os.path.join(cache_dir(), digest)


def why_invalid(directory, name):
    """None if `directory` holds a complete entry for kernel `name`, else
    what is wrong with it."""
    path = os.path.join(directory, name + ".json")
    try:
        with open(path) as f:
            meta = json.load(f)
    except OSError as e:
        return "cannot read %s: %s" % (path, e.strerror)
    except ValueError as e:
        return "%s is not JSON: %s" % (path, e)
    if not isinstance(meta, dict) or meta.get("name") != name:
        return "%s does not describe kernel %s" % (path, name)
    for key in ("ptx", "cubin"):
        file = meta.get(key)
        if key == "cubin" and file is None:
            continue
        if not isinstance(file, str) or not file:
            return "%s has no %s file" % (path, key)
        target = os.path.join(directory, file)
        if not os.path.isfile(target) or os.path.getsize(target) == 0:
            return "%s's %s file %s is missing or empty" % (path, key, file)
    return None


def evict(directory):
    """Removes an entry (a directory, or anything else at its path)."""
    if os.path.isdir(directory) and not os.path.islink(directory):
        shutil.rmtree(directory, ignore_errors=True)
    elif os.path.lexists(directory):
        os.remove(directory)


def compile_cached(spec, chip, *, tuning_db="", cubin=False, log=None):
    """(directory, kernel name) of `spec` compiled for `chip`: the cache's
    entry if it is complete, else compiled now (an incomplete entry is
    removed first; `log(message)` is told why). Raises the compiler's
    CompilerUnavailable or CompileError."""
    from . import compiler
    directory = entry_dir(spec, chip, compiler.compiler_version(), tuning_db)
    if os.path.lexists(directory):
        why = why_invalid(directory, spec.name)
        if why is None:
            return directory, spec.name
        if log:
            log("attn cache: recompiling %s (%s)" % (directory, why))
        evict(directory)
    art = compiler.compile(spec, chip=chip, cubin=cubin, tuning_db=tuning_db or None)
    tmp = directory + ".tmp%d" % os.getpid()
    evict(tmp)
    art.write(tmp)
    os.makedirs(cache_dir(), exist_ok=True)
    try:
        os.replace(tmp, directory)
    except OSError:  # another process got there first: keep theirs
        evict(tmp)
    return directory, spec.name
