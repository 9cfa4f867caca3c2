// RUN: attn-opt %s --attn-default-config=chip=sm_90a --attn-tile --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-stage-shared --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a -verify-diagnostics

// The GPU pipeline outlines whole functions: an attention under control flow
// is refused at the op, in the user's terms (it named an internal op
// before).
func.func @under_if(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>, %c: i1) {
  scf.if %c {
    // expected-error @+1 {{the GPU pipeline makes a kernel of an attention at the top level of a func.func body; this one is inside 'scf.if' (move it into a function of its own and call that)}}
    attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                   outs(%o : memref<?x?x?x64xf16>)
  }
  return
}
