// RUN: sed s/STAGES/2/ %S/Inputs/two-kv-loops.mlir | attn-opt --attn-assign-layouts --attn-stage-shared --attn-pipeline --attn-allocate-shared | FileCheck %s
// RUN: sed s/STAGES/2/ %S/Inputs/two-kv-loops.mlir | not attn-opt --attn-assign-layouts --attn-stage-shared --attn-pipeline --attn-allocate-shared=max-shared-bytes=20000 2>&1 | FileCheck %s --check-prefix=OVER

// Buffers are placed in program order, 128-byte aligned; the total is the
// program's shared_bytes (the launch's dynamic shared memory). Q is 64 x 64
// f16 (8 KiB), K and V two stages of 64 x 64 each (16 KiB).
// CHECK: attn.program
// CHECK-NEXT: buffers({{.*}}) attributes {{{.*}}shared_bytes = 40960 : i64}
// CHECK: attn.local_alloc {offset = 0 : i64} : !attn.shared<64x64xf16, #attn.swizzled>
// CHECK: attn.local_alloc {offset = 8192 : i64} : !attn.shared<2x64x64xf16, #attn.swizzled>
// CHECK: attn.local_alloc {offset = 24576 : i64} : !attn.shared<2x64x64xf16, #attn.swizzled>

// Over the target's limit: an error at the program, a note per buffer.
// OVER: error: 'attn.program' op needs 40960 bytes of shared memory, over the target's 20000 (max-shared-bytes)
// OVER: note: '!attn.shared<64x64xf16, #attn.swizzled>': 8192 bytes
// OVER: note: '!attn.shared<2x64x64xf16, #attn.swizzled>': 16384 bytes
// OVER: note: '!attn.shared<2x64x64xf16, #attn.swizzled>': 16384 bytes

// A blocked buffer (wgmma's operand layout) starts at a multiple of 1024
// bytes, whatever precedes it.
// RUN: attn-opt %s --attn-allocate-shared | FileCheck %s --check-prefix=BLOCKED
// BLOCKED: shared_bytes = 43008
// BLOCKED-NEXT: attn.local_alloc {offset = 0 : i64} : !attn.shared<1x64xf16, #attn.swizzled>
// BLOCKED-NEXT: attn.local_alloc {offset = 1024 : i64} : !attn.shared<64x64xf16, #attn.swizzled<blocked>>
// BLOCKED-NEXT: attn.local_alloc {offset = 9216 : i64} : !attn.shared<1x64xf16, #attn.swizzled>
// BLOCKED-NEXT: attn.local_alloc {offset = 10240 : i64} : !attn.shared<2x64x128xf16, #attn.swizzled<blocked>>
func.func @blocked(%q: memref<?x?x?x64xf16>) {
  %c1 = arith.constant 1 : index
  attn.program (%pm, %pbh) in (%c1, %c1) buffers(q = %q : memref<?x?x?x64xf16>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %a = attn.local_alloc : !attn.shared<1x64xf16, #attn.swizzled>
    %b = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled<blocked>>
    %c = attn.local_alloc : !attn.shared<1x64xf16, #attn.swizzled>
    %d = attn.local_alloc : !attn.shared<2x64x128xf16, #attn.swizzled<blocked>>
  }
  return
}
