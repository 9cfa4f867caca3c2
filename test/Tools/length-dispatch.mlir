// attn-compile and the key length. For a dynamic key length whose
// configuration depends on it (here causal D = 128 on sm_90a: the
// persistent kernel up to 8192 keys, one CTA per tile above) it
// writes one kernel per run of length buckets and a dispatch table in the
// main kernel's JSON; where the configuration is the same for every length
// (unmasked D = 128, but for the short-key schedule: the last block
// peeled up to 1024 keys), one variant fewer. --seq-len compiles for
// lengths up to N only; --no-length-dispatch one kernel for all lengths.

// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-compile %s --chip=sm_90a --tuning-db=none -o %t/d | FileCheck %s --check-prefix=OUT
// OUT: causal: {{.*}}/causal.json
// OUT-NEXT: key length <= 1024: {{.*}}/causal__n1024.json
// OUT-NEXT: key length <= 8192: {{.*}}/causal__n8192.json
// OUT-NEXT: none: {{.*}}/none.json
// OUT-NEXT: key length <= 1024: {{.*}}/none__n1024.json
// OUT-NOT: key length

// RUN: FileCheck %s --check-prefix=MAIN < %t/d/causal.json
// MAIN: "block_m": 128,
// MAIN: "dispatch": {
// MAIN-NEXT: "on": "k.size2",
// MAIN-NEXT: "variants": [
// MAIN-NEXT: {
// MAIN-NEXT: "kernel": "causal__n1024",
// MAIN-NEXT: "max": 1024
// MAIN-NEXT: },
// MAIN-NEXT: {
// MAIN-NEXT: "kernel": "causal__n8192",
// MAIN-NEXT: "max": 8192
// MAIN-NEXT: }
// MAIN-NEXT: ]
// MAIN: "format_version": 3,
// MAIN: "name": "causal",
// MAIN-NOT: "persistent"
// MAIN: "ptx": "length-dispatch.sm_90a.ptx",
// MAIN: "warps": 8

// The variant is a kernel of its own, in its own PTX file, without a table.
// RUN: FileCheck %s --check-prefix=SHORT --implicit-check-not='"dispatch"' < %t/d/causal__n8192.json
// SHORT: "block_m": 128,
// SHORT: "block_n": 128,
// SHORT: "format_version": 3,
// SHORT: "name": "causal__n8192",
// SHORT: "persistent": {
// SHORT-NEXT: "ctas_per_sm": 1
// SHORT: "ptx": "length-dispatch__n8192.sm_90a.ptx",
// SHORT: "warps": 8
// RUN: FileCheck %s --check-prefix=SHORTPTX < %t/d/length-dispatch__n8192.sm_90a.ptx
// SHORTPTX: .entry causal__n8192(
// SHORTPTX-NOT: .entry none__n8192(
// RUN: FileCheck %s --check-prefix=NONE < %t/d/none.json
// NONE: "kernel": "none__n1024",
// NONE-NEXT: "max": 1024
// NONE-NOT: "kernel"

// RUN: attn-compile %s --chip=sm_90a --tuning-db=none --seq-len=512 -o %t/s | FileCheck %s --check-prefix=SEQ
// SEQ-NOT: key length
// RUN: FileCheck %s --check-prefix=SHORT-ONLY < %t/s/causal.json
// SHORT-ONLY: "persistent": {

// RUN: attn-compile %s --chip=sm_90a --tuning-db=none --no-length-dispatch -o %t/n | FileCheck %s --check-prefix=NODISPATCH
// NODISPATCH-NOT: key length
// RUN: FileCheck %s --check-prefix=LONG-ONLY < %t/n/causal.json
// LONG-ONLY: "name": "causal",
// LONG-ONLY-NOT: "persistent"
// LONG-ONLY: "ptx":
// RUN: not ls %t/n/causal__n8192.json

// The variants compile on other threads, each in a context of its own;
// what they report comes back located in this file, and a warning that
// the main compilation gave too (a database that cannot be read) once.
// RUN: attn-compile %s --chip=sm_90a --tuning-db=%t/missing.sqlite -o %t/m 2>&1 >/dev/null | FileCheck %s --check-prefix=ONCE
// ONCE: length-dispatch.mlir:0:0: warning: tuning database '{{.*}}missing.sqlite': no such file; using the heuristic configurations
// ONCE-NOT: warning
// RUN: ls %t/m/causal__n8192.json %t/m/causal__n1024.json %t/m/none__n1024.json

func.func @causal(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                  %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                  %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, bottom_right>}
  return
}

func.func @none(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
  return
}

// A function that already has a variant's name is an error, located at the
// function that needs the name.
// RUN: not attn-compile %S/Inputs/length-dispatch-clash.mlir --chip=sm_90a --tuning-db=none -o %t/c 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: length-dispatch-clash.mlir:1:1: error: the length variant of 'causal' for key lengths up to 8192 would be named 'causal__n8192', which another function has; rename it or compile with --no-length-dispatch
