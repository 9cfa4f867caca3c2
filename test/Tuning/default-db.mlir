// attn-compile --chip=sm_90a takes its configurations from the build's
// tuning database (data/tuning/h200-sm_90a.json, built into
// share/attn/tuning-sm_90a.sqlite) where it holds the op's problem class.
// For f16 D = 192 with LSE (unmasked) the database's winners differ by
// length: 128 x 64 (N = 512) and 128 x 80 (from 1024), both on the
// persistent overlapped warp-specialized kernel, and up to 1024 keys the
// configuration passes add the short-key schedule (peel_last_block), so
// attn-compile emits two length variants and a main kernel with 80 keys
// per block; the heuristic (--tuning-db=none) has the 128 x 80 kernel at
// every length, its one variant the short-key schedule's. A key the
// database lacks (bf16 D = 192 under a top-left causal mask) keeps the
// heuristic. attn-apply-tuning without a length takes the robust choice
// over the buckets.
// When a new reviewed database changes the choice, this test changes with
// it.
// RUN: rm -rf %t && mkdir -p %t/db %t/none
// RUN: attn-compile %s --chip=sm_90a -o %t/db > /dev/null
// RUN: attn-compile %s --chip=sm_90a --tuning-db=none -o %t/none > /dev/null
// RUN: FileCheck %s --check-prefix=DB < %t/db/f16_d192.json
// RUN: FileCheck %s --check-prefix=DB512 < %t/db/f16_d192__n512.json
// RUN: FileCheck %s --check-prefix=NONE < %t/none/f16_d192.json
// RUN: FileCheck %s --check-prefix=HEUR < %t/db/bf16_d192_causal.json
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a" \
// RUN:   | FileCheck %s --check-prefix=SOURCE

// DB: "block_m": 128,
// DB: "block_n": 80,
// DB: "dispatch": {
// DB: "kernel": "f16_d192__n512",
// DB-NEXT: "max": 512
// DB: "kernel": "f16_d192__n1024",
// DB-NEXT: "max": 1024
// DB512: "block_n": 64,
// DB512: "tensor_maps": [
// NONE: "block_m": 128,
// NONE: "block_n": 80,
// NONE: "dispatch": {
// NONE-NEXT: "on": "k.size2",
// NONE-NEXT: "variants": [
// NONE-NEXT: {
// NONE-NEXT: "kernel": "f16_d192__n1024",
// NONE-NEXT: "max": 1024
// NONE-NEXT: }
// NONE-NEXT: ]
// HEUR: "block_n": 80,
// HEUR: "kernel": "bf16_d192_causal__n1024",
// HEUR-NOT: "persistent"
// HEUR: "tensor_maps": [
// SOURCE-LABEL: func.func @f16_d192
// SOURCE: attn.tuning = "db robust over 6 buckets (worst {{[0-9.]+}}x the bucket's best)"
// SOURCE-LABEL: func.func @bf16_d192_causal
// SOURCE: attn.tuning = "heuristic"
// A bias is part of the problem class, and so is its broadcast: the
// database's unmasked f16 D = 128 keys with a full [B, H, Nq, Nk] bias and
// with a batch-broadcast one ([1, H, Nq, Nk]) give each its own robust
// configuration (128 x 128 persistent without the overlap, 128 x 112
// async_pv persistent: the nineteenth session's staged re-tune; f16
// unmasked on async_pv, so withKeyLengthSchedule adds the slack), and a
// head-broadcast bias
// under a causal mask, which no key has, keeps the heuristic.
// SOURCE-LABEL: func.func @f16_d128_bias
// SOURCE: attn.tuning = "db robust over 6 buckets
// SOURCE-SAME: block_n = 128{{.*}}gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, persistent = true, stage_loads = true
// SOURCE-LABEL: func.func @f16_d128_bias_b1
// SOURCE: attn.tuning = "db robust over 6 buckets
// SOURCE-SAME: block_n = 112{{.*}}gpu_config = #attn.gpu_config<lazy_rescale = true, {{.*}}persistent = true, rescale_slack = 8, async_pv = true
// SOURCE-LABEL: func.func @f16_d128_bias_h1_causal
// SOURCE: attn.tuning = "heuristic"

func.func @f16_d192(%q: memref<?x?x?x192xf16>, %k: memref<?x?x?x192xf16>,
                    %v: memref<?x?x?x192xf16>, %o: memref<?x?x?x192xf16>,
                    %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x192xf16>, memref<?x?x?x192xf16>, memref<?x?x?x192xf16>)
                 outs(%o, %lse : memref<?x?x?x192xf16>, memref<?x?x?xf32>)
  return
}

func.func @bf16_d192_causal(%q: memref<?x?x?x192xbf16>, %k: memref<?x?x?x192xbf16>,
                            %v: memref<?x?x?x192xbf16>, %o: memref<?x?x?x192xbf16>,
                            %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x192xbf16>, memref<?x?x?x192xbf16>, memref<?x?x?x192xbf16>)
                 outs(%o, %lse : memref<?x?x?x192xbf16>, memref<?x?x?xf32>) {mask = #attn.mask<causal, top_left>}
  return
}

func.func @f16_d128_bias(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                         %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                         %lse: memref<?x?x?xf32>, %b: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%b : memref<?x?x?x?xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
  return
}

func.func @f16_d128_bias_b1(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                            %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                            %lse: memref<?x?x?xf32>, %b: memref<1x?x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%b : memref<1x?x?x?xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
  return
}

func.func @f16_d128_bias_h1_causal(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                                   %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                                   %lse: memref<?x?x?xf32>, %b: memref<?x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%b : memref<?x1x?x?xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>) {mask = #attn.mask<causal, top_left>}
  return
}

// Without an LSE output an op takes the entries of its own key where the
// database has them (since the twentieth session: f16 / bf16, D = 64 /
// 128 / 256, unmasked and causal bottom-right), else the entries measured
// with one (causal top-left here): the same kernel but for the LSE's store.
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a seq-len=16384" \
// RUN:   | FileCheck %s --check-prefix=NOLSE
// SOURCE-LABEL: func.func @f16_d128_nolse
// SOURCE: attn.tuning = "db robust over 6 buckets (worst {{[0-9.]+}}x the bucket's best)"
// SOURCE-LABEL: func.func @f16_d128_causal_tl_nolse
// SOURCE: attn.tuning = "db exact 4096 (measured with an LSE output)"
// NOLSE-LABEL: func.func @f16_d128_nolse
// NOLSE: attn.tuning = "db exact 16384"
// NOLSE-SAME: config = #attn.tile_config<block_m = 128, block_n = 192
// NOLSE-LABEL: func.func @f16_d128_causal_tl_nolse
// NOLSE: attn.tuning = "db exact 16384 (measured with an LSE output)"
// NOLSE-SAME: config = #attn.tile_config<block_m = 128, block_n = 176
// NOLSE-LABEL: func.func @f16_d128_causal_tl_lse
// NOLSE: attn.tuning = "db exact 16384"
// NOLSE-SAME: config = #attn.tile_config<block_m = 128, block_n = 176
func.func @f16_d128_nolse(%q: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
  return
}
func.func @f16_d128_causal_tl_nolse(%q: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, top_left>}
  return
}
func.func @f16_d128_causal_tl_lse(%q: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>) {mask = #attn.mask<causal, top_left>}
  return
}
