// Shared harness of the CPU score-modification tests (not a test itself).
// A test concatenates this file to its own, which defines
//   @attention(q, k, v, o, lse, bias, slopes)   the attn.attention under test;
//   @ref_score(s, b, h, i, j, bias, slopes, Nq, Nk) -> f64
//       the modified score of query i and key j for the scaled score s, in
//       f64, written independently of the dialect (-inf where the test's
//       modification hides the key);
//   @main                                        the cases;
// and replaces with sed:
//   @DT@   element type of Q, K, V and O (f32, f16, bf16)
//   @D@    head dim of Q, K, V and O
//   @BT@   element type of the bias
//   @CVT@  arith.truncf, or arith.bitcast when @DT@ is f32
//   @BCVT@ the same for @BT@
//
// @check_mods builds random Q, K, V, a random bias [Bb, Hb, Nq, Nk] (Bb is 1
// or B, Hb 1 or Hq) and random ALiBi slopes [Hq] in (0, 1), poisons O and
// LSE with NaN, calls @attention, recomputes in f64 (scores, @ref_score, the
// mask given as left/right extents, softmax, weighted sum) and prints
//   out_rel_err  max |O - ref| / max |ref|
//   lse_err      max |LSE - ref| / max(1, |ref|)   (0 where both are -inf)
// and PASS or FAIL against the tolerances. NaN anywhere fails.

func.func @fill_f32(%m: memref<?xf32>, %seed: i32, %lo: f32, %hi: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %mul = arith.constant 1664525 : i32
  %inc = arith.constant 1013904223 : i32
  %sh = arith.constant 8 : i32
  %ulp = arith.constant 5.9604644775390625E-8 : f32
  %w = arith.subf %hi, %lo : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x0 = %seed) -> (i32) {
    %a = arith.muli %x0, %mul : i32
    %x = arith.addi %a, %inc : i32
    %top = arith.shrui %x, %sh : i32
    %f = arith.uitofp %top : i32 to f32
    %u = arith.mulf %f, %ulp : f32
    %s = arith.mulf %u, %w : f32
    %val = arith.addf %s, %lo : f32
    memref.store %val, %m[%i] : memref<?xf32>
    scf.yield %x : i32
  }
  return
}

// Random values in (-amp, amp) into a 4-D buffer of element type @BT@ (the
// bias) or @DT@ (Q, K, V), through a flat f32 buffer.
func.func @fill_bias(%m: memref<?x?x?x?x@BT@>, %seed: i32, %amp: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = memref.dim %m, %c0 : memref<?x?x?x?x@BT@>
  %d1 = memref.dim %m, %c1 : memref<?x?x?x?x@BT@>
  %d2 = memref.dim %m, %c2 : memref<?x?x?x?x@BT@>
  %d3 = memref.dim %m, %c3 : memref<?x?x?x?x@BT@>
  %n01 = arith.muli %d0, %d1 : index
  %n012 = arith.muli %n01, %d2 : index
  %n = arith.muli %n012, %d3 : index
  %flat = memref.alloc(%n) : memref<?xf32>
  %namp = arith.negf %amp : f32
  call @fill_f32(%flat, %seed, %namp, %amp) : (memref<?xf32>, i32, f32, f32) -> ()
  scf.for %i0 = %c0 to %d0 step %c1 {
    scf.for %i1 = %c0 to %d1 step %c1 {
      scf.for %i2 = %c0 to %d2 step %c1 {
        scf.for %i3 = %c0 to %d3 step %c1 {
          %a = arith.muli %i0, %d1 : index
          %b = arith.addi %a, %i1 : index
          %c = arith.muli %b, %d2 : index
          %d = arith.addi %c, %i2 : index
          %e = arith.muli %d, %d3 : index
          %f = arith.addi %e, %i3 : index
          %x = memref.load %flat[%f] : memref<?xf32>
          %y = @BCVT@ %x : f32 to @BT@
          memref.store %y, %m[%i0, %i1, %i2, %i3] : memref<?x?x?x?x@BT@>
        }
      }
    }
  }
  return
}

func.func @fill_qkv(%m: memref<?x?x?x?x@DT@>, %seed: i32, %amp: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = memref.dim %m, %c0 : memref<?x?x?x?x@DT@>
  %d1 = memref.dim %m, %c1 : memref<?x?x?x?x@DT@>
  %d2 = memref.dim %m, %c2 : memref<?x?x?x?x@DT@>
  %d3 = memref.dim %m, %c3 : memref<?x?x?x?x@DT@>
  %n01 = arith.muli %d0, %d1 : index
  %n012 = arith.muli %n01, %d2 : index
  %n = arith.muli %n012, %d3 : index
  %flat = memref.alloc(%n) : memref<?xf32>
  %namp = arith.negf %amp : f32
  call @fill_f32(%flat, %seed, %namp, %amp) : (memref<?xf32>, i32, f32, f32) -> ()
  scf.for %i0 = %c0 to %d0 step %c1 {
    scf.for %i1 = %c0 to %d1 step %c1 {
      scf.for %i2 = %c0 to %d2 step %c1 {
        scf.for %i3 = %c0 to %d3 step %c1 {
          %a = arith.muli %i0, %d1 : index
          %b = arith.addi %a, %i1 : index
          %c = arith.muli %b, %d2 : index
          %d = arith.addi %c, %i2 : index
          %e = arith.muli %d, %d3 : index
          %f = arith.addi %e, %i3 : index
          %x = memref.load %flat[%f] : memref<?xf32>
          %y = @CVT@ %x : f32 to @DT@
          memref.store %y, %m[%i0, %i1, %i2, %i3] : memref<?x?x?x?x@DT@>
        }
      }
    }
  }
  return
}

// Naive attention in f64 with the test's @ref_score, compared with O, LSE.
func.func @compare_mods(%q: memref<?x?x?x?x@DT@>, %k: memref<?x?x?x?x@DT@>,
                        %v: memref<?x?x?x?x@DT@>, %o: memref<?x?x?x?x@DT@>,
                        %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                        %slopes: memref<?xf32>, %scale: f64, %left: index,
                        %right: index, %bottom_right: i1) -> (f64, f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %B = memref.dim %q, %c0 : memref<?x?x?x?x@DT@>
  %Hq = memref.dim %q, %c1 : memref<?x?x?x?x@DT@>
  %Nq = memref.dim %q, %c2 : memref<?x?x?x?x@DT@>
  %D = memref.dim %q, %c3 : memref<?x?x?x?x@DT@>
  %Hkv = memref.dim %k, %c1 : memref<?x?x?x?x@DT@>
  %Nk = memref.dim %k, %c2 : memref<?x?x?x?x@DT@>
  %group = arith.divui %Hq, %Hkv : index
  %diff = arith.subi %Nk, %Nq : index
  %shift = arith.select %bottom_right, %diff, %c0 : index
  %noLeft = arith.cmpi slt, %left, %c0 : index
  %noRight = arith.cmpi slt, %right, %c0 : index
  %p = memref.alloc(%Nk) : memref<?xf64>
  %res:3 = scf.for %b = %c0 to %B step %c1 iter_args(%e0 = %zero, %r0 = %zero, %l0 = %zero) -> (f64, f64, f64) {
   %rb:3 = scf.for %h = %c0 to %Hq step %c1 iter_args(%e1 = %e0, %r1 = %r0, %l1 = %l0) -> (f64, f64, f64) {
    %hk = arith.divui %h, %group : index
    %ri:3 = scf.for %i = %c0 to %Nq step %c1 iter_args(%e2 = %e1, %r2 = %r1, %l2 = %l1) -> (f64, f64, f64) {
      %diag = arith.addi %i, %shift : index
      %lo = arith.subi %diag, %left : index
      %hi = arith.addi %diag, %right : index
      %mx = scf.for %j = %c0 to %Nk step %c1 iter_args(%m = %ninf) -> (f64) {
        %geLo = arith.cmpi sge, %j, %lo : index
        %leHi = arith.cmpi sle, %j, %hi : index
        %okL = arith.ori %noLeft, %geLo : i1
        %okR = arith.ori %noRight, %leHi : i1
        %vis = arith.andi %okL, %okR : i1
        %s = scf.if %vis -> (f64) {
          %dot = scf.for %d = %c0 to %D step %c1 iter_args(%acc_d = %zero) -> (f64) {
            %qe = memref.load %q[%b, %h, %i, %d] : memref<?x?x?x?x@DT@>
            %ke = memref.load %k[%b, %hk, %j, %d] : memref<?x?x?x?x@DT@>
            %qf = arith.extf %qe : @DT@ to f64
            %kf = arith.extf %ke : @DT@ to f64
            %pr = arith.mulf %qf, %kf : f64
            %nx = arith.addf %acc_d, %pr : f64
            scf.yield %nx : f64
          }
          %sc = arith.mulf %dot, %scale : f64
          %mod = func.call @ref_score(%sc, %b, %h, %i, %j, %bias, %slopes, %Nq, %Nk)
              : (f64, index, index, index, index, memref<?x?x?x?x@BT@>, memref<?xf32>, index, index) -> f64
          scf.yield %mod : f64
        } else {
          scf.yield %ninf : f64
        }
        memref.store %s, %p[%j] : memref<?xf64>
        %m2 = arith.maximumf %m, %s : f64
        scf.yield %m2 : f64
      }
      %empty = arith.cmpf oeq, %mx, %ninf : f64
      %mref = arith.select %empty, %zero, %mx : f64
      %sum = scf.for %j = %c0 to %Nk step %c1 iter_args(%acc_s = %zero) -> (f64) {
        %s = memref.load %p[%j] : memref<?xf64>
        %t = arith.subf %s, %mref : f64
        %w = math.exp %t : f64
        memref.store %w, %p[%j] : memref<?xf64>
        %ns = arith.addf %acc_s, %w : f64
        scf.yield %ns : f64
      }
      %safeSum = arith.select %empty, %one, %sum : f64
      %ed:2 = scf.for %d = %c0 to %D step %c1 iter_args(%e3 = %e2, %r3 = %r2) -> (f64, f64) {
        %ws = scf.for %j = %c0 to %Nk step %c1 iter_args(%acc_o = %zero) -> (f64) {
          %w = memref.load %p[%j] : memref<?xf64>
          %ve = memref.load %v[%b, %hk, %j, %d] : memref<?x?x?x?x@DT@>
          %vf = arith.extf %ve : @DT@ to f64
          %pr = arith.mulf %w, %vf : f64
          %no = arith.addf %acc_o, %pr : f64
          scf.yield %no : f64
        }
        %ref = arith.divf %ws, %safeSum : f64
        %oe = memref.load %o[%b, %h, %i, %d] : memref<?x?x?x?x@DT@>
        %of = arith.extf %oe : @DT@ to f64
        %dd = arith.subf %of, %ref : f64
        %ad = math.absf %dd : f64
        %ar = math.absf %ref : f64
        // NaN in O propagates into the maximum (maximumf) and fails.
        %e4 = arith.maximumf %e3, %ad : f64
        %r4 = arith.maximumf %r3, %ar : f64
        scf.yield %e4, %r4 : f64, f64
      }
      %le = memref.load %lse[%b, %h, %i] : memref<?x?x?xf32>
      %lf = arith.extf %le : f32 to f64
      %logSum = math.log %safeSum : f64
      %refL = arith.addf %mx, %logSum : f64
      %dl = arith.subf %lf, %refL : f64
      %adl = math.absf %dl : f64
      %arl = math.absf %refL : f64
      %den = arith.maximumf %arl, %one : f64
      %relL = arith.divf %adl, %den : f64
      %bothNinf = arith.cmpf oeq, %lf, %ninf : f64
      %emptyErr = arith.select %bothNinf, %zero, %inf : f64
      %errL = arith.select %empty, %emptyErr, %relL : f64
      %l3 = arith.maximumf %l2, %errL : f64
      scf.yield %ed#0, %ed#1, %l3 : f64, f64, f64
    }
    scf.yield %ri#0, %ri#1, %ri#2 : f64, f64, f64
   }
   scf.yield %rb#0, %rb#1, %rb#2 : f64, f64, f64
  }
  return %res#0, %res#1, %res#2 : f64, f64, f64
}

// One case: B, Hq, Hkv, Nq, Nk; the bias's batch and head extents (1, or B
// and Hq); input seed and amplitude of Q and K (V in [-1, 1]) and of the
// bias; the scale the reference uses; the mask as left/right extents (-1 =
// unbounded) and alignment; tolerances for O and LSE.
func.func @check_mods(%B: index, %Hq: index, %Hkv: index, %Nq: index,
                      %Nk: index, %Bb: index, %Hb: index, %seed: i32,
                      %amp: f32, %bamp: f32, %scale: f64, %left: index,
                      %right: index, %bottom_right: i1, %tolOut: f64,
                      %tolLse: f64) {
  %q = memref.alloc(%B, %Hq, %Nq) : memref<?x?x?x@D@x@DT@>
  %k = memref.alloc(%B, %Hkv, %Nk) : memref<?x?x?x@D@x@DT@>
  %v = memref.alloc(%B, %Hkv, %Nk) : memref<?x?x?x@D@x@DT@>
  %o = memref.alloc(%B, %Hq, %Nq) : memref<?x?x?x@D@x@DT@>
  %lse = memref.alloc(%B, %Hq, %Nq) : memref<?x?x?xf32>
  %bias = memref.alloc(%Bb, %Hb, %Nq, %Nk) : memref<?x?x?x?x@BT@>
  %slopes = memref.alloc(%Hq) : memref<?xf32>
  %q4 = memref.cast %q : memref<?x?x?x@D@x@DT@> to memref<?x?x?x?x@DT@>
  %k4 = memref.cast %k : memref<?x?x?x@D@x@DT@> to memref<?x?x?x?x@DT@>
  %v4 = memref.cast %v : memref<?x?x?x@D@x@DT@> to memref<?x?x?x?x@DT@>
  %o4 = memref.cast %o : memref<?x?x?x@D@x@DT@> to memref<?x?x?x?x@DT@>
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %s1 = arith.constant 1 : i32
  %s2 = arith.constant 2 : i32
  %s3 = arith.constant 3 : i32
  %s4 = arith.constant 4 : i32
  %seedK = arith.addi %seed, %s1 : i32
  %seedV = arith.addi %seed, %s2 : i32
  %seedB = arith.addi %seed, %s3 : i32
  %seedS = arith.addi %seed, %s4 : i32
  call @fill_qkv(%q4, %seed, %amp) : (memref<?x?x?x?x@DT@>, i32, f32) -> ()
  call @fill_qkv(%k4, %seedK, %amp) : (memref<?x?x?x?x@DT@>, i32, f32) -> ()
  call @fill_qkv(%v4, %seedV, %one) : (memref<?x?x?x?x@DT@>, i32, f32) -> ()
  call @fill_bias(%bias, %seedB, %bamp) : (memref<?x?x?x?x@BT@>, i32, f32) -> ()
  call @fill_f32(%slopes, %seedS, %zero, %one) : (memref<?xf32>, i32, f32, f32) -> ()
  %nan32 = arith.constant 0x7FC00000 : f32
  %nan = @CVT@ %nan32 : f32 to @DT@
  linalg.fill ins(%nan : @DT@) outs(%o : memref<?x?x?x@D@x@DT@>)
  linalg.fill ins(%nan32 : f32) outs(%lse : memref<?x?x?xf32>)

  call @attention(%q, %k, %v, %o, %lse, %bias, %slopes)
      : (memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>,
         memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>,
         memref<?x?x?xf32>, memref<?x?x?x?x@BT@>, memref<?xf32>) -> ()

  %err:3 = call @compare_mods(%q4, %k4, %v4, %o4, %lse, %bias, %slopes,
                              %scale, %left, %right, %bottom_right)
      : (memref<?x?x?x?x@DT@>, memref<?x?x?x?x@DT@>, memref<?x?x?x?x@DT@>,
         memref<?x?x?x?x@DT@>, memref<?x?x?xf32>, memref<?x?x?x?x@BT@>,
         memref<?xf32>, f64, index, index, i1) -> (f64, f64, f64)
  %tiny = arith.constant 1.0e-30 : f64
  %den = arith.maximumf %err#1, %tiny : f64
  %rel = arith.divf %err#0, %den : f64
  vector.print str "out_rel_err "
  vector.print %rel : f64
  vector.print str "lse_err "
  vector.print %err#2 : f64
  %okO = arith.cmpf olt, %rel, %tolOut : f64
  %okL = arith.cmpf olt, %err#2, %tolLse : f64
  %ok = arith.andi %okO, %okL : i1
  scf.if %ok {
    vector.print str "PASS\n"
  } else {
    vector.print str "FAIL\n"
  }
  return
}
