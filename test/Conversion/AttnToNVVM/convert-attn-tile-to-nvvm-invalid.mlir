// RUN: attn-opt %s --attn-default-config --attn-tile -split-input-file \
// RUN:   --convert-attn-template-to-nvvm="max-shared-bytes=166912" -verify-diagnostics

// What the sm_80 lowering does not handle is refused with a reason.

func.func @f32(%q: memref<1x1x64x64xf32>, %o: memref<1x1x64x64xf32>) {
  // expected-error @+1 {{cannot be lowered to an sm_80 kernel: tensor cores take f16 or bf16 here, not f32 (f32 attention runs on the CPU lowering)}}
  attn.attention ins(%q, %q, %q : memref<1x1x64x64xf32>, memref<1x1x64x64xf32>, memref<1x1x64x64xf32>)
                 outs(%o : memref<1x1x64x64xf32>)
  return
}

// -----

func.func @head_dim_32(%q: memref<1x1x64x32xf16>, %o: memref<1x1x64x32xf16>) {
  // expected-error @+1 {{head dims must be 64, 128, 192 or 256, got 32}}
  attn.attention ins(%q, %q, %q : memref<1x1x64x32xf16>, memref<1x1x64x32xf16>, memref<1x1x64x32xf16>)
                 outs(%o : memref<1x1x64x32xf16>)
  return
}

// -----

func.func @warps(%q: memref<1x1x256x64xf16>, %o: memref<1x1x256x64xf16>) {
  // expected-error @+1 {{block_m must be 16 or 32 x warps (one or two 16-row slices per warp), got block_m = 256 with 4 warps}}
  attn.attention ins(%q, %q, %q : memref<1x1x256x64xf16>, memref<1x1x256x64xf16>, memref<1x1x256x64xf16>)
                 outs(%o : memref<1x1x256x64xf16>)
                 {config = #attn.tile_config<block_m = 256, block_n = 64, warps = 4, stages = 2>}
  return
}

// -----

func.func @shared_memory(%q: memref<1x1x64x256xf16>, %o: memref<1x1x64x256xf16>) {
  // expected-error @+1 {{tiles need 196608 bytes of shared memory, over the target's 166912}}
  attn.attention ins(%q, %q, %q : memref<1x1x64x256xf16>, memref<1x1x64x256xf16>, memref<1x1x64x256xf16>)
                 outs(%o : memref<1x1x64x256xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 1>}
  return
}

// -----

// Every stage holds one K and one V block: 64 x 256 Q + 3 x (2 x 64 x 256).
func.func @shared_memory_stages(%q: memref<1x1x64x256xf16>, %o: memref<1x1x64x256xf16>) {
  // expected-error @+1 {{tiles need 229376 bytes of shared memory, over the target's 166912}}
  attn.attention ins(%q, %q, %q : memref<1x1x64x256xf16>, memref<1x1x64x256xf16>, memref<1x1x64x256xf16>)
                 outs(%o : memref<1x1x64x256xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 3>}
  return
}
