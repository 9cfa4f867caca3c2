"""The compile-on-first-use cache (attn/cache.py), no GPU: a miss compiles
and writes an entry, a hit compiles nothing, an incomplete or corrupt
entry is removed and compiled again, inputs that differ get entries of
their own."""

import json
import os

import pytest

import attn
from attn import cache, compiler


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def compiles(monkeypatch):
    """Counts the compilations (the real compiler runs)."""
    calls = []
    real = compiler.compile

    def counting(*args, **kwargs):
        calls.append(args[0].name)
        return real(*args, **kwargs)
    monkeypatch.setattr(compiler, "compile", counting)
    return calls


SPEC = attn.Spec(dtype="f16", head_dim=64, causal=True, name="cached")


def entry_files(directory):
    return sorted(os.listdir(directory))


def test_miss_then_hit(cache_root, compiles):
    directory, name = cache.compile_cached(SPEC, "sm_90a")
    assert name == "cached" and compiles == ["cached"]
    assert os.path.dirname(directory) == str(cache_root)
    assert cache.why_invalid(directory, name) is None
    assert "cached.json" in entry_files(directory)
    again = cache.compile_cached(SPEC, "sm_90a")
    assert again == (directory, name)
    assert compiles == ["cached"]  # the hit compiled nothing
    # No temporary directory is left next to the entry.
    assert os.listdir(cache_root) == [os.path.basename(directory)]


def test_key_separates_inputs(cache_root, compiles):
    a, _ = cache.compile_cached(SPEC, "sm_90a")
    b, _ = cache.compile_cached(SPEC, "sm_80")
    c, _ = cache.compile_cached(attn.Spec(dtype="f16", head_dim=64, name="cached"), "sm_90a")
    assert len({a, b, c}) == 3 and len(compiles) == 3
    assert cache.entry_dir(SPEC, "sm_90a", "v1") != cache.entry_dir(SPEC, "sm_90a", "v2")
    assert cache.entry_dir(SPEC, "sm_90a", "v1", "db.sqlite") != \
        cache.entry_dir(SPEC, "sm_90a", "v1")


def corrupt_json(directory):
    with open(os.path.join(directory, "cached.json"), "w") as f:
        f.write('{"name": "cached", "ptx"')


def truncate_ptx(directory):
    meta = json.load(open(os.path.join(directory, "cached.json")))
    open(os.path.join(directory, meta["ptx"]), "w").close()


def remove_ptx(directory):
    meta = json.load(open(os.path.join(directory, "cached.json")))
    os.remove(os.path.join(directory, meta["ptx"]))


def other_kernel(directory):
    path = os.path.join(directory, "cached.json")
    meta = json.load(open(path))
    meta["name"] = "another"
    json.dump(meta, open(path, "w"))


def remove_json(directory):
    os.remove(os.path.join(directory, "cached.json"))


@pytest.mark.parametrize("damage, why", [
    (corrupt_json, "is not JSON"),
    (truncate_ptx, "missing or empty"),
    (remove_ptx, "missing or empty"),
    (other_kernel, "does not describe kernel cached"),
    (remove_json, "cannot read"),
])
def test_damaged_entry_is_recompiled(cache_root, compiles, damage, why):
    directory, name = cache.compile_cached(SPEC, "sm_90a")
    damage(directory)
    assert why in cache.why_invalid(directory, name)
    logged = []
    again = cache.compile_cached(SPEC, "sm_90a", log=logged.append)
    assert again == (directory, name)
    assert compiles == ["cached", "cached"]
    assert cache.why_invalid(directory, name) is None
    assert len(logged) == 1 and why in logged[0] and directory in logged[0]


def test_file_in_place_of_entry(cache_root, compiles):
    directory = cache.entry_dir(SPEC, "sm_90a", compiler.compiler_version())
    os.makedirs(cache_root)
    open(directory, "w").write("not a directory")
    got, name = cache.compile_cached(SPEC, "sm_90a")
    assert got == directory and os.path.isdir(directory)
    assert cache.why_invalid(directory, name) is None


def test_compile_error_leaves_no_entry(cache_root):
    bad = attn.Spec(dtype="f16", head_dim=64, name="bad")
    with pytest.raises(attn.CompileError):
        cache.compile_cached(bad, "sm_75")
    assert not os.path.exists(cache_root) or os.listdir(cache_root) == []
