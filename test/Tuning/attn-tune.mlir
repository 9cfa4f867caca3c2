// attn-tune: the search space for sm_90a (54 mma.sync + 12 wgmma + 4
// warp-specialized wgmma candidates with the overlapped Q K^T, 4 with it
// and async_pv and 4 without, and those 12 persistent; 42 warp-specialized
// 128-row tiles with K/V blocks of 80 .. 192 keys, the same knobs, a
// 128 x 192 wgmma tile, 24 192-row tiles of three consumer warpgroups
// (K/V blocks of 64 .. 112 keys, the same knobs), 6 async_pv forms
// with early_qk (128 x 80 .. 112, persistent or not) and 6 192 x 128
// tiles (the 192-row knobs): 169), each compiled
// and assembled with
// ptxas -v, rejected when it
// spills, the rest ranked by the cost model; --emit writes the best ones'
// artifacts under names of their own, and the heuristic's kernel beside
// them.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-tune %s --chip=sm_90a --n=2048 --top=2 --emit=%t/out > %t/report.json
// RUN: FileCheck %s < %t/report.json
// RUN: ls %t/out | grep -c '^attn__c[0-9]*\.json$' | FileCheck %s --check-prefix=EMIT
// RUN: ls %t/out | grep -c '^attn-tune__c[0-9]*\.sm_90a\.ptx$' | FileCheck %s --check-prefix=EMIT
// RUN: ls %t/out | grep -c '^attn__default\.json$' | FileCheck %s --check-prefix=ONE
// RUN: attn-tune %s --chip=sm_80 --n=512,16384 | FileCheck %s --check-prefix=SM80
// RUN: not attn-tune %s --chip=sm_75 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not attn-tune %s --chip=sm_90 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not attn-tune %s --n=0 2>&1 | FileCheck %s --check-prefix=N
// RUN: not attn-tune %s --n=512,-1 2>&1 | FileCheck %s --check-prefix=N
// RUN: echo 'func.func @f() { return }' > %t/none.mlir
// RUN: not attn-tune %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NONE

// The report names the key the measurements go under (the database's:
// the mask as printed, no score modifications, a dynamic GQA group 0 = any,
// no LSE) and the heuristic's kernel, emitted next to the candidates for
// the device to check them against; each candidate carries its printed
// configurations and per --n cost.
// CHECK: "accepted": {{[1-9][0-9]*}},
// CHECK: "candidates": 169,
// CHECK: "causal": true,
// CHECK: "chip": "sm_90a",
// CHECK: "d": 64,
// CHECK: "default_kernels": [
// CHECK-NEXT: "attn__default"
// CHECK: "key": {
// CHECK-NEXT: "chip": "sm_90a",
// CHECK-NEXT: "d": 64,
// CHECK-NEXT: "dtype": "f16",
// CHECK-NEXT: "dv": 64,
// CHECK-NEXT: "gqa": 0,
// CHECK-NEXT: "lse": false,
// CHECK-NEXT: "mask": "#attn.mask<causal, top_left>",
// CHECK-NEXT: "mods": ""
// CHECK: "n_buckets": [
// CHECK-NEXT: 2048
// CHECK: "candidate": "{{(wgmma|mma.sync) [0-9]+x[0-9]+ w(4|8|12) s[123].*}}",
// CHECK-NEXT: "config": "#attn.tile_config<block_m = {{[0-9]+}}, block_n = {{[0-9]+}}, warps = {{4|8|12}}, stages = {{[123]}}>",
// CHECK-NEXT: "cost": {{.*}},
// CHECK-NEXT: "cost_bound_by_n": {
// CHECK-NEXT: "2048": {{.*}}
// CHECK-NEXT: },
// CHECK-NEXT: "cost_by_n": {
// CHECK-NEXT: "2048": {{.*}}
// CHECK: "gpu_config": "#attn.gpu_config<{{.*}}>",
// CHECK: "kernels": [
// CHECK-NEXT: "attn__c{{[0-9]+}}"
// CHECK: "rank": 1,
// CHECK: "registers": {{[1-9][0-9]*}},
// CHECK: "rank": 2,

// The warp-specialized candidates (with the overlapped Q K^T, as the
// defaults) carry the knobs in their strings: 4 at 128 x 64/128 and
// 7 with wider K/V blocks, for each combination of the knobs; with the
// 192-row tiles (5 K/V widths) 16 configurations each.
// RUN: grep -c '"gpu_config": "#attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>"' %t/report.json | FileCheck %s --check-prefix=WSALL
// WS: {{^}}11{{$}}
// WSALL: {{^}}16{{$}}
// RUN: grep -c '"gpu_config": "#attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true>"' %t/report.json | FileCheck %s --check-prefix=WSALL
// RUN: grep -c '"candidate": "wgmma 128x[0-9]* w8 s[23] ws overlap persistent"' %t/report.json | FileCheck %s --check-prefix=WS
// The wide 128-row tiles: 42, and the 6 early_qk forms.
// RUN: grep -c '"candidate": "wgmma 128x\(80\|96\|112\|144\|160\|176\|192\) w8 s2 ws' %t/report.json | FileCheck %s --check-prefix=WIDE
// WIDE: {{^}}48{{$}}
// RUN: grep -c '"candidate": "wgmma 128x\(80\|96\|112\) w8 s2 ws overlap async_pv early_qk' %t/report.json | FileCheck %s --check-prefix=EARLY
// EARLY: {{^}}6{{$}}
// RUN: grep -c '"candidate": "wgmma 192x\(64\|80\|96\|112\|128\) w12 s2 ws' %t/report.json | FileCheck %s --check-prefix=THREE
// THREE: {{^}}30{{$}}
// With P V in flight across the iteration too (async_pv).
// RUN: grep -c '"gpu_config": "#attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true>"' %t/report.json | FileCheck %s --check-prefix=WSALL
// RUN: grep -c '"gpu_config": "#attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, async_pv = true>"' %t/report.json | FileCheck %s --check-prefix=WSALL
// RUN: grep -c '"candidate": "wgmma 128x[0-9]* w8 s[23] ws overlap async_pv persistent"' %t/report.json | FileCheck %s --check-prefix=WS
// And those without the overlap.
// RUN: grep -c '"gpu_config": "#attn.gpu_config<wgmma = true, warp_specialize = true>"' %t/report.json | FileCheck %s --check-prefix=WSALL
// RUN: grep -c '"gpu_config": "#attn.gpu_config<wgmma = true, warp_specialize = true, persistent = true>"' %t/report.json | FileCheck %s --check-prefix=WSALL
// RUN: grep -c '"candidate": "wgmma 128x[0-9]* w8 s[23] ws persistent"' %t/report.json | FileCheck %s --check-prefix=WS

// Two emitted candidates: PTX and a kernel JSON each, renamed apart.
// EMIT: {{^}}2{{$}}

// sm_80 has no wgmma: the 54 mma.sync candidates only; with two --n, a
// cost per sequence length and a bucket each.
// SM80: "candidates": 54,
// SM80: "n_buckets": [
// SM80-NEXT: 512,
// SM80-NEXT: 16384
// SM80: "cost_by_n": {
// SM80-NEXT: "16384": {{.*}},
// SM80-NEXT: "512": {{.*}}
// SM80-NOT: "wgmma": true
// ONE: {{^}}1{{$}}

// CHIP: attn-tune: chip='sm_75' is not a GPU target of attn
// SM90: attn-tune: no search space for chip 'sm_90' (sm_80, sm_90a)
// N: attn-tune: --n, --top and -j must be positive
// NONE: attn-tune: {{.*}}none.mlir holds no attn.attention

func.func @attn(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>) {mask = #attn.mask<causal, top_left>}
  return
}
