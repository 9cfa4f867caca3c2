"""The compiler half of the Python package, no GPU: specs to modules,
compilation to PTX and to the CPU, diagnostics as exceptions."""

import json
import os

import pytest

import attn


def test_versions():
    assert attn.api_version() == 1
    assert "attn" in attn.compiler_version()


def test_spec_module_text():
    text = attn.Spec(dtype="bf16", head_dim=64, value_head_dim=128, causal=True,
                     alignment="bottom_right", lse=True, scale=0.5, name="k").to_mlir()
    assert "func.func @k(%q: memref<?x?x?x64xbf16>" in text
    assert "outs(%o, %lse : memref<?x?x?x128xbf16>, memref<?x?x?xf32>)" in text
    assert "mask = #attn.mask<causal, bottom_right>" in text
    assert "scale = 0.5 : f64" in text


@pytest.mark.parametrize("bad, why", [
    (dict(dtype="f64"), "dtype"),
    (dict(head_dim=0), "head_dim"),
    (dict(causal=True, window=(4, 0)), "exclude"),
    (dict(window=(-1, 0)), "window"),
    (dict(scale=float("nan")), "scale"),
    (dict(alignment="center"), "alignment"),
    (dict(name="not a name"), "identifier"),
    (dict(tile_config="block_m = 64"), "tile_config"),
    (dict(gpu_config="#attn.gpu_config<wgmma = true>} {"), "gpu_config"),
    (dict(bias="b2"), "bias must be"),
    (dict(bias_dtype="f16"), "without a bias"),
    (dict(bias="full", bias_dtype="f64"), "bias_dtype"),
    (dict(alibi=1), "alibi"),
])
def test_spec_refuses(bad, why):
    with pytest.raises(attn.SpecError, match=why):
        attn.Spec(**bad)


def test_spec_modifications_text():
    text = attn.Spec(bias="h1", bias_dtype="f32", alibi=True, softcap=30.0, lse=True,
                     name="m").to_mlir()
    assert ("%lse: memref<?x?x?xf32>, %bias: memref<?x1x?x?xf32>, "
            "%slopes: memref<?xf32>)") in text
    assert "bias(%bias : memref<?x1x?x?xf32>)" in text
    assert "alibi_slopes(%slopes : memref<?xf32>)" in text
    assert "softcap = 30.0 : f64" in text


def test_compile_gpu_bias():
    # A [1, 1, Nq, Nk] bias: a kernel with a bias buffer of that static
    # shape and its TMA fallback on sm_90a.
    a = attn.compile(attn.Spec(bias="b1h1", name="biased"), chip="sm_90a")
    meta = a.kernels["biased"]
    assert meta["score_mods"] == ["bias"]
    bias = [b for b in meta["buffers"] if b["roles"] == ["bias"]]
    assert bias and bias[0]["static_shape"] == [1, 1, -1, -1]
    assert bias[0]["element_type"] == "f16"


def test_compile_gpu_softcap_metadata():
    # The softcap's value is in the kernel's JSON (attn.torch matches
    # prebuilt kernels to calls by it), with ALiBi's slopes as a buffer.
    a = attn.compile(attn.Spec(softcap=20.5, alibi=True, name="capped"), chip="sm_90a")
    meta = a.kernels["capped"]
    assert meta["score_mods"] == ["softcap", "alibi"]
    assert meta["softcap"] == 20.5
    assert [b["roles"] for b in meta["buffers"]][-1] == ["alibi_slopes"]
    assert "softcap" not in attn.compile(attn.Spec(name="plain"), chip="sm_90a").kernels["plain"]


def test_compile_gpu_ptx(tmp_path):
    spec = attn.Spec(dtype="f16", head_dim=128, causal=True, name="causal128")
    a = attn.compile(spec, chip="sm_90a")
    assert list(a.kernels) == ["causal128"]
    meta = a.kernels["causal128"]
    assert meta["mask"]["kind"] == "causal"
    assert meta["scale"] == pytest.approx(128 ** -0.5)
    # The wgmma default for sm_90a, the mma.sync one for sm_80.
    assert "wgmma.mma_async" in a.ptx
    assert "mma.sync.aligned" in attn.compile(spec, chip="sm_80").ptx
    a.write(str(tmp_path))
    files = sorted(os.listdir(tmp_path))
    assert files == ["causal128.json", "causal128.sm_90a.ptx"]
    assert json.load(open(tmp_path / "causal128.json"))["entry"] == "causal128"


def test_spec_configuration():
    # A configuration the spec carries wins over the heuristic's; one that
    # no lowering builds is refused by the compiler's verifier.
    tile = "#attn.tile_config<block_m = 128, block_n = 176, warps = 8, stages = 2>"
    gpu = ("#attn.gpu_config<wgmma = true, overlap_softmax = true, "
           "warp_specialize = true, async_pv = true, persistent = true>")
    spec = attn.Spec(head_dim=128, tile_config=tile, gpu_config=gpu, name="k")
    assert "config = %s, gpu_config = %s}" % (tile, gpu) in spec.to_mlir()
    meta = attn.compile(spec, chip="sm_90a").kernels["k"]
    assert (meta["block_m"], meta["block_n"], meta["warps"]) == (128, 176, 8)
    with pytest.raises(attn.CompileError, match="async_pv .* needs overlap_softmax"):
        attn.compile(attn.Spec(head_dim=128, tile_config=tile,
                               gpu_config="#attn.gpu_config<async_pv = true>"), chip="sm_90a")


def test_compile_cpu():
    a = attn.compile(attn.Spec(head_dim=64), chip="cpu")
    assert "llvm.func" in a.cpu_module
    assert a.kernels == {}


def test_compile_error_has_location():
    bad = ("func.func @f(%q: memref<?x?x?x64xf16>, %v: memref<?x?x?x32xf16>) {\n"
           "  attn.attention ins(%q, %q, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>,"
           " memref<?x?x?x32xf16>)\n"
           "                 outs(%q : memref<?x?x?x64xf16>)\n  return\n}\n")
    with pytest.raises(attn.CompileError) as e:
        attn.compile(bad, name="bad")
    errors = [d for d in e.value.diagnostics if d.severity == "error"]
    assert errors and errors[0].location.startswith("bad.mlir:2:")
    assert str(e.value).startswith("bad.mlir:2:")


def test_parse_error():
    with pytest.raises(attn.CompileError, match="bad.mlir:1:"):
        attn.compile("func.func @f(", name="bad")


def test_unknown_target():
    with pytest.raises(attn.CompileError, match="unknown target 'sm_75'"):
        attn.compile(attn.Spec(), chip="sm_75")
