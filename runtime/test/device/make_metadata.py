#!/usr/bin/env python3
"""Writes the metadata of the kernels in kernels.cu into DIR (k5.json,
kv.json: format_version 2; t3.json: format_version 3; v1.json:
format_version 1), as attn-compile would for kernels of those ABIs.
Usage: make_metadata.py DIR"""
import json
import os
import sys


def params(buffers):
    out = []
    for b in buffers:
        name = "+".join(b["roles"])
        out.append(name)
        for what in (".size", ".stride"):
            out += [f"{name}{what}{d}" for d in range(b["rank"])]
    return out


def rank4(roles, access, align):
    return dict(roles=roles, element_type="f16", rank=4,
                static_shape=[-1, -1, -1, 128], access=access, align=align)


def main(out):
    common = dict(target="sm_90a", compiler="runtime/test/device",
                  ptx="kernels.sm_90a.ptx", cubin=None, block_m=128,
                  block_n=64, warps=4, stages=1, threads=128, shared_bytes=0,
                  grid=["ceildiv(q.size2, block_m)", "q.size0 * q.size1", "1"])
    k5 = [rank4(["q"], "read", 16), rank4(["k"], "read", 16),
          rank4(["v"], "read", 16), rank4(["o"], "write", 4),
          dict(roles=["lse"], element_type="f32", rank=3,
               static_shape=[-1, -1, -1], access="write", align=4)]
    docs = {
        # The cubin path for this one, JIT of the PTX for the others.
        "k5": dict(common, format_version=2, name="k5", entry="k5",
                   cubin="kernels.sm_90a.cubin", buffers=k5,
                   params=params(k5),
                   equal_sizes=[["q.size0", "k.size0"], ["q.size0", "v.size0"],
                                ["q.size0", "o.size0"], ["q.size1", "o.size1"],
                                ["k.size1", "v.size1"], ["q.size2", "o.size2"],
                                ["k.size2", "v.size2"],
                                ["q.size0", "lse.size0"],
                                ["q.size1", "lse.size1"],
                                ["q.size2", "lse.size2"]],
                   divisible_sizes=[["k.size1", "q.size1"]]),
    }
    # k5's buffers, read through tensor maps: Q in tiles of 128 rows, one
    # row of K and of V (128 columns of f16: 256 bytes, so no swizzle).
    maps = [dict(buffer=0, box=[128, 128, 1, 1], swizzle=0),
            dict(buffer=1, box=[128, 1, 1, 1], swizzle=0),
            dict(buffer=2, box=[128, 1, 1, 1], swizzle=0)]
    docs["t3"] = dict(docs["k5"], format_version=3, name="t3", entry="t3",
                      cubin=None, tensor_maps=maps,
                      params=params(k5) + ["q.tensor_map", "k.tensor_map",
                                           "v.tensor_map"])
    kv = [rank4(["q"], "read", 16), rank4(["k", "v"], "read", 16),
          rank4(["o"], "write", 4)]
    docs["kv"] = dict(common, format_version=2, name="kv", entry="kv",
                      buffers=kv, params=params(kv),
                      equal_sizes=[["q.size0", "k+v.size0"],
                                   ["q.size0", "o.size0"],
                                   ["q.size1", "o.size1"],
                                   ["q.size2", "o.size2"]],
                      divisible_sizes=[["k+v.size1", "q.size1"]])
    docs["v1"] = dict(common, format_version=1, name="v1", entry="v1",
                      head_dim=128, value_head_dim=128, element_type="f16",
                      has_lse=True, scale_log2e=0.1, mask={"kind": "none"},
                      grid=["ceildiv(Nq, block_m)", "B * Hq", "1"],
                      params=["q", "k", "v", "o", "lse", "B", "Hq", "Hkv",
                              "Nq", "Nk", "q_sb", "q_sh", "q_sr", "k_sb",
                              "k_sh", "k_sr", "v_sb", "v_sh", "v_sr", "o_sb",
                              "o_sh", "o_sr", "lse_sb", "lse_sh"])
    for name, doc in docs.items():
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
