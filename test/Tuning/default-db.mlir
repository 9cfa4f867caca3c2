// attn-compile --chip=sm_90a takes its configurations from the build's
// tuning database (data/tuning/h200-sm_90a.json, built into
// share/attn/tuning-sm_90a.sqlite) where it holds the op's problem class:
// for the f16 D = 128 bottom-right window (left 256) with LSE the robust
// choice over the four buckets is 64 x 64 on one warpgroup with one stage
// (the heuristic's two stages with --tuning-db=none); a key the database
// lacks (bf16) keeps the heuristic.
// When a new reviewed database changes the choice, this test changes with
// it.
// RUN: rm -rf %t && mkdir -p %t/db %t/none
// RUN: attn-compile %s --chip=sm_90a -o %t/db > /dev/null
// RUN: attn-compile %s --chip=sm_90a --tuning-db=none -o %t/none > /dev/null
// RUN: FileCheck %s --check-prefix=DB < %t/db/f16_window.json
// RUN: FileCheck %s --check-prefix=NONE < %t/none/f16_window.json
// RUN: FileCheck %s --check-prefix=NONE < %t/db/bf16_window.json
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a" \
// RUN:   | FileCheck %s --check-prefix=SOURCE

// DB: "block_m": 64,
// DB: "stages": 1,
// NONE: "block_m": 64,
// NONE: "stages": 2,
// SOURCE-LABEL: func.func @f16_window
// SOURCE: attn.tuning = "db robust over 4 buckets (worst {{[0-9.]+}}x the bucket's best)"
// SOURCE-LABEL: func.func @bf16_window
// SOURCE: attn.tuning = "heuristic"

func.func @f16_window(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                      %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                      %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>) {mask = #attn.mask<window, bottom_right, left = 256, right = 0>}
  return
}

func.func @bf16_window(%q: memref<?x?x?x128xbf16>, %k: memref<?x?x?x128xbf16>,
                       %v: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>,
                       %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                 outs(%o, %lse : memref<?x?x?x128xbf16>, memref<?x?x?xf32>) {mask = #attn.mask<window, bottom_right, left = 256, right = 0>}
  return
}
