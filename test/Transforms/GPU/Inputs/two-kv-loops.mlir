// A hand-written tile program with the two K/V loops attn-split-kv-loop
// makes of an unmasked attention (whole blocks, then the masked last one).
// STAGES is replaced by the test (sed) with the configuration's stages.
!q = memref<?x?x?x64xf16>
!t = tensor<64x64xf16>
!acc = tensor<64x64xf32>
!row = tensor<64xf32>
func.func @two_loops(%q: !q, %k: !q, %v: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %nk = memref.dim %k, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  %full = arith.divui %nk, %c64 : index
  %nb = arith.ceildivui %nk, %c64 : index
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = STAGES>} {
    %bi = arith.divui %pbh, %h : index
    %hi = arith.remui %pbh, %h : index
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%bi, %hi, %r0, %c0] : !q -> !t
    %m0 = arith.constant dense<0xFF800000> : !row
    %l0 = arith.constant dense<0.0> : !row
    %a0 = arith.constant dense<0.0> : !acc
    // Whole K/V blocks: no mask.
    %r:3 = scf.for %j = %c0 to %full step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0) -> (!row, !row, !acc) {
      %col = arith.muli %j, %c64 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> !t
      %s = attn.dot %qt, %kt, %a0 transpose_b : !t, !t -> !acc
      %p, %nm, %nl, %na = attn.online_softmax %s, %m, %l, %acc {scale_log2e = 0.18 : f32} : !acc, !row, !acc
      %p16 = arith.truncf %p : !acc to !t
      %vt = attn.load %v[%bi, %hi, %col, %c0] : !q -> !t
      %acc2 = attn.dot %p16, %vt, %na : !t, !t -> !acc
      scf.yield %nm, %nl, %acc2 : !row, !row, !acc
    }
    // The partial last block: masked past Nk.
    %e:3 = scf.for %j = %full to %nb step %c1 iter_args(%m = %r#0, %l = %r#1, %acc = %r#2) -> (!row, !row, !acc) {
      %col = arith.muli %j, %c64 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> !t
      %s = attn.dot %qt, %kt, %a0 transpose_b : !t, !t -> !acc
      %sm = attn.mask %s rows %r0 of %nq cols %col of %nk {mask = #attn.mask<none>} : !acc
      %p, %nm, %nl, %na = attn.online_softmax %sm, %m, %l, %acc {scale_log2e = 0.18 : f32} : !acc, !row, !acc
      %p16 = arith.truncf %p : !acc to !t
      %vt = attn.load %v[%bi, %hi, %col, %c0] : !q -> !t
      %acc2 = attn.dot %p16, %vt, %na : !t, !t -> !acc
      scf.yield %nm, %nl, %acc2 : !row, !row, !acc
    }
    %out, %lse = attn.finalize %e#2, %e#0, %e#1 : !acc, !row
    %o16 = arith.truncf %out : !acc to !t
    attn.store %o16, %o[%bi, %hi, %r0, %c0] : !t, !q
  }
  return
}
