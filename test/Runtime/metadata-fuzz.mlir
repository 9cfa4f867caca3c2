// The runtime's metadata reader and launch checks on mutants of the kernel
// descriptions attn-compile writes (runtime/test/metadata_fuzz.cpp, under
// ASan + UBSan): each mutant is refused with a message that names the file,
// or is accepted and then queried, dispatched, has its variant and TMA
// fallback files read, and has random launches checked (each passing with
// a plan within the header's capacities, or refused with a message). The
// seeds: sm_90a kernels with tensor maps, a dispatch table, a persistent
// grid and a TMA fallback, and their sm_80 forms (format_version 2). A run
// that accepts nothing or refuses nothing would test little, so the counts
// must not be 0. A fixed seed; longer runs: see docs/testing.md.

// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-compile %s --chip=sm_90a -o %t/s90 > /dev/null
// RUN: attn-compile %s --chip=sm_80 -o %t/s80 > /dev/null
// RUN: %attn_runtime_metadata_fuzz 20261207 3000 %t/work %t/s90/*.json %t/s80/*.json 2>&1 | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK-NOT: runtime error:
// CHECK: 3000 documents: {{[1-9][0-9]*}} accepted, {{[1-9][0-9]*}} refused; {{[1-9][0-9]*}} variant or fallback reads ({{[0-9]+}} refused); {{[1-9][0-9]*}} launches checked ({{[1-9][0-9]*}} refused)
// CHECK-NEXT: {{[1-9][0-9]*}} checks, 0 failed

func.func @bias(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<1x1x?x?xf16>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
  return
}

func.func @alibi_causal(%q: memref<?x8x?x64xbf16>, %k: memref<?x2x?x64xbf16>, %v: memref<?x2x?x64xbf16>, %o: memref<?x8x?x64xbf16>, %slopes: memref<8xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x8x?x64xbf16>, memref<?x2x?x64xbf16>, memref<?x2x?x64xbf16>) alibi_slopes(%slopes : memref<8xf32>)
                 outs(%o : memref<?x8x?x64xbf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}
