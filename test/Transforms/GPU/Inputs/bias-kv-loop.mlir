// A hand-written tile program whose K/V loop adds a bias tile loaded from a
// fifth buffer, next to its use (as attn-tile emits it).
!q = memref<?x?x?x64xf16>
!bias = memref<?x?x?x?xf16>
func.func @biased(%q: !q, %k: !q, %v: !q, %o: !q, %bias: !bias) {
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
  %nb = arith.ceildivui %nk, %c64 : index
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q, bias = %bias : !bias)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %bi = arith.divui %pbh, %h : index
    %hi = arith.remui %pbh, %h : index
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%bi, %hi, %r0, %c0] : !q -> tensor<64x64xf16>
    %qf = arith.extf %qt : tensor<64x64xf16> to tensor<64x64xf32>
    %qsum = attn.reduce_rows sum %qf : tensor<64x64xf32> -> tensor<64xf32>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %l0 = arith.constant dense<0.0> : tensor<64xf32>
    %a0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %r:3 = scf.for %j = %c0 to %nb step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
        -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %col = arith.muli %j, %c64 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %s = attn.dot %qt, %kt, %a0 transpose_b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %bt = attn.load %bias[%bi, %hi, %r0, %col] : !bias -> tensor<64x64xf16>
      %bf = arith.extf %bt : tensor<64x64xf16> to tensor<64x64xf32>
      %sb = arith.addf %s, %bf : tensor<64x64xf32>
      %qb = attn.broadcast_rows %qsum : tensor<64xf32> -> tensor<64x64xf32>
      %sq = arith.addf %sb, %qb : tensor<64x64xf32>
      %masked = attn.mask %sq rows %r0 of %nq cols %col of %nk {mask = #attn.mask<none>} : tensor<64x64xf32>
      %p, %nm, %nl, %na = attn.online_softmax %masked, %m, %l, %acc {scale_log2e = 1.442695 : f32}
          : tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>
      %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
      %vt = attn.load %v[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %acc2 = attn.dot %p16, %vt, %na : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %nm, %nl, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %out, %lse = attn.finalize %r#2, %r#0, %r#1 : tensor<64x64xf32>, tensor<64xf32>
    %o16 = arith.truncf %out : tensor<64x64xf32> to tensor<64x64xf16>
    attn.store %o16, %o[%bi, %hi, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}
