// RUN: attn-opt %s --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax -verify-diagnostics \
// RUN:   | FileCheck %s

// loads_ahead loads the last block of one K/V loop a block ahead as the
// next loop's first: the loops of a chain must load the same tiles as the
// same function of the position. Here the middle loop of attn-tile's
// three (causal, split) reads the bias at column %arg7 instead of
// %arg7 * 64: the chain is still overlapped, with a warning, and every
// loop keeps its own bias load in its body.
// CHECK-LABEL: func.func @two
// CHECK-NOT: attn.load %arg4
// CHECK: scf.for
// CHECK: attn.load %arg4
// CHECK: attn.online_softmax
// CHECK: attn.dot {{.*}} async
// CHECK: scf.for
// CHECK: attn.load %arg4[%c0, %c0, %{{[^ ]+}}, %arg7]
// CHECK: attn.online_softmax
// CHECK: scf.for
// CHECK: attn.load %arg4
// CHECK: attn.online_softmax
module {
  func.func @two(%arg0: memref<?x?x?x64xf16>, %arg1: memref<?x?x?x64xf16>, %arg2: memref<?x?x?x64xf16>, %arg3: memref<?x?x?x64xf16>, %arg4: memref<1x1x?x?xf16>) {
    %c0 = arith.constant 0 : index
    %dim = memref.dim %arg1, %c0 : memref<?x?x?x64xf16>
    %dim_0 = memref.dim %arg0, %c0 : memref<?x?x?x64xf16>
    %0 = arith.cmpi eq, %dim_0, %dim : index
    cf.assert %0, "attn.attention: batch size of 'key' differs from 'query'"
    %dim_1 = memref.dim %arg2, %c0 : memref<?x?x?x64xf16>
    %1 = arith.cmpi eq, %dim_0, %dim_1 : index
    cf.assert %1, "attn.attention: batch size of 'value' differs from 'query'"
    %dim_2 = memref.dim %arg3, %c0 : memref<?x?x?x64xf16>
    %2 = arith.cmpi eq, %dim_0, %dim_2 : index
    cf.assert %2, "attn.attention: batch size of 'output' differs from 'query'"
    %c1 = arith.constant 1 : index
    %dim_3 = memref.dim %arg3, %c1 : memref<?x?x?x64xf16>
    %dim_4 = memref.dim %arg0, %c1 : memref<?x?x?x64xf16>
    %3 = arith.cmpi eq, %dim_4, %dim_3 : index
    cf.assert %3, "attn.attention: head count of 'output' differs from 'query'"
    %dim_5 = memref.dim %arg2, %c1 : memref<?x?x?x64xf16>
    %dim_6 = memref.dim %arg1, %c1 : memref<?x?x?x64xf16>
    %4 = arith.cmpi eq, %dim_6, %dim_5 : index
    cf.assert %4, "attn.attention: head count of 'value' differs from 'key'"
    %c2 = arith.constant 2 : index
    %dim_7 = memref.dim %arg3, %c2 : memref<?x?x?x64xf16>
    %dim_8 = memref.dim %arg0, %c2 : memref<?x?x?x64xf16>
    %5 = arith.cmpi eq, %dim_8, %dim_7 : index
    cf.assert %5, "attn.attention: length of 'output' differs from 'query'"
    %dim_9 = memref.dim %arg2, %c2 : memref<?x?x?x64xf16>
    %dim_10 = memref.dim %arg1, %c2 : memref<?x?x?x64xf16>
    %6 = arith.cmpi eq, %dim_10, %dim_9 : index
    cf.assert %6, "attn.attention: length of 'value' differs from 'key'"
    %dim_11 = memref.dim %arg4, %c0 : memref<1x1x?x?xf16>
    %7 = arith.cmpi eq, %dim_11, %dim_0 : index
    %8 = arith.cmpi eq, %dim_11, %c1 : index
    %9 = arith.ori %7, %8 : i1
    cf.assert %9, "attn.attention: batch size of 'bias' is neither 1 nor that of 'query'"
    %dim_12 = memref.dim %arg4, %c1 : memref<1x1x?x?xf16>
    %10 = arith.cmpi eq, %dim_12, %dim_4 : index
    %11 = arith.cmpi eq, %dim_12, %c1 : index
    %12 = arith.ori %10, %11 : i1
    cf.assert %12, "attn.attention: head count of 'bias' is neither 1 nor that of 'query'"
    %dim_13 = memref.dim %arg4, %c2 : memref<1x1x?x?xf16>
    %13 = arith.cmpi eq, %dim_8, %dim_13 : index
    cf.assert %13, "attn.attention: length of 'bias' differs from 'query'"
    %c3 = arith.constant 3 : index
    %dim_14 = memref.dim %arg4, %c3 : memref<1x1x?x?xf16>
    %14 = arith.cmpi eq, %dim_10, %dim_14 : index
    cf.assert %14, "attn.attention: key length of 'bias' differs from 'key'"
    %15 = arith.cmpi sgt, %dim_6, %c0 : index
    %16 = arith.select %15, %dim_6, %c1 : index
    %17 = arith.remui %dim_4, %16 : index
    %18 = arith.cmpi eq, %17, %c0 : index
    %19 = arith.andi %15, %18 : i1
    cf.assert %19, "attn.attention: the query head count must be a multiple of the key/value head count"
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %20 = arith.ceildivui %dim_8, %c128 : index
    %21 = arith.muli %dim_0, %dim_4 : index
    %22 = arith.divui %dim_4, %dim_6 : index
    attn.program (%arg5, %arg6) in (%20, %21)
        buffers(q = %arg0 : memref<?x?x?x64xf16>, k = %arg1 : memref<?x?x?x64xf16>, v = %arg2 : memref<?x?x?x64xf16>, o = %arg3 : memref<?x?x?x64xf16>, bias = %arg4 : memref<1x1x?x?xf16>) attributes {attn.mask = #attn.mask<causal, bottom_right>, attn.scale = 1.250000e-01 : f64, attn.score_mods = ["bias"], config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, loads_ahead = true>} {
      %23 = arith.divui %arg6, %dim_4 : index
      %24 = arith.remui %arg6, %dim_4 : index
      %25 = arith.divui %24, %22 : index
      %26 = arith.subi %20, %c1 : index
      %27 = arith.subi %26, %arg5 : index
      %28 = arith.muli %27, %c128 : index
      %29 = attn.load %arg0[%23, %24, %28, %c0] : memref<?x?x?x64xf16> -> tensor<128x64xf16>
      %cst = arith.constant dense<0xFF800000> : tensor<128xf32>
      %cst_15 = arith.constant dense<0.000000e+00> : tensor<128xf32>
      %cst_16 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
      %lower, %upper = attn.kv_range visible %28, %dim_8, %dim_10 {block_m = 128 : i64, block_n = 64 : i64, mask = #attn.mask<causal, bottom_right>}
      %lower_17, %upper_18 = attn.kv_range unmasked %28, %dim_8, %dim_10 {block_m = 128 : i64, block_n = 64 : i64, mask = #attn.mask<causal, bottom_right>}
      %30 = arith.maxsi %lower_17, %lower : index
      %31 = arith.minsi %30, %upper : index
      %32 = arith.maxsi %upper_18, %31 : index
      %33 = arith.minsi %32, %upper : index
      // expected-warning @+1 {{loads_ahead: not applied: the K/V loops of the chain do not load the same tiles for their scores}}
      %34:3 = scf.for %arg7 = %lower to %31 step %c1 iter_args(%arg8 = %cst, %arg9 = %cst_15, %arg10 = %cst_16) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %38 = arith.muli %arg7, %c64 : index
        %39 = attn.load %arg1[%23, %25, %38, %c0] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
        %40 = attn.dot %29, %39, %cst_16 transpose_b : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
        %cst_19 = arith.constant dense<1.250000e-01> : tensor<128x64xf32>
        %41 = arith.mulf %40, %cst_19 fastmath<contract> : tensor<128x64xf32>
        %42 = attn.load %arg4[%c0, %c0, %28, %38] : memref<1x1x?x?xf16> -> tensor<128x64xf16>
        %43 = arith.extf %42 : tensor<128x64xf16> to tensor<128x64xf32>
        %44 = arith.addf %41, %43 fastmath<contract> : tensor<128x64xf32>
        %45 = attn.mask %44 rows %28 of %dim_8 cols %38 of %dim_10 {mask = #attn.mask<causal, bottom_right>} : tensor<128x64xf32>
        %probs, %new_max, %new_sum, %new_acc = attn.online_softmax %45, %arg8, %arg9, %arg10 {scale_log2e = 1.44269502 : f32} : tensor<128x64xf32>, tensor<128xf32>, tensor<128x64xf32>
        %46 = arith.truncf %probs : tensor<128x64xf32> to tensor<128x64xf16>
        %47 = attn.load %arg2[%23, %25, %38, %c0] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
        %48 = attn.dot %46, %47, %new_acc : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
        scf.yield %new_max, %new_sum, %48 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      }
      %35:3 = scf.for %arg7 = %31 to %33 step %c1 iter_args(%arg8 = %34#0, %arg9 = %34#1, %arg10 = %34#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %38 = arith.muli %arg7, %c64 : index
        %39 = attn.load %arg1[%23, %25, %38, %c0] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
        %40 = attn.dot %29, %39, %cst_16 transpose_b : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
        %cst_19 = arith.constant dense<1.250000e-01> : tensor<128x64xf32>
        %41 = arith.mulf %40, %cst_19 fastmath<contract> : tensor<128x64xf32>
        %42 = attn.load %arg4[%c0, %c0, %28, %arg7] : memref<1x1x?x?xf16> -> tensor<128x64xf16>
        %43 = arith.extf %42 : tensor<128x64xf16> to tensor<128x64xf32>
        %44 = arith.addf %41, %43 fastmath<contract> : tensor<128x64xf32>
        %probs, %new_max, %new_sum, %new_acc = attn.online_softmax %44, %arg8, %arg9, %arg10 {scale_log2e = 1.44269502 : f32} : tensor<128x64xf32>, tensor<128xf32>, tensor<128x64xf32>
        %45 = arith.truncf %probs : tensor<128x64xf32> to tensor<128x64xf16>
        %46 = attn.load %arg2[%23, %25, %38, %c0] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
        %47 = attn.dot %45, %46, %new_acc : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
        scf.yield %new_max, %new_sum, %47 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      }
      %36:3 = scf.for %arg7 = %33 to %upper step %c1 iter_args(%arg8 = %35#0, %arg9 = %35#1, %arg10 = %35#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %38 = arith.muli %arg7, %c64 : index
        %39 = attn.load %arg1[%23, %25, %38, %c0] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
        %40 = attn.dot %29, %39, %cst_16 transpose_b : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
        %cst_19 = arith.constant dense<1.250000e-01> : tensor<128x64xf32>
        %41 = arith.mulf %40, %cst_19 fastmath<contract> : tensor<128x64xf32>
        %42 = attn.load %arg4[%c0, %c0, %28, %38] : memref<1x1x?x?xf16> -> tensor<128x64xf16>
        %43 = arith.extf %42 : tensor<128x64xf16> to tensor<128x64xf32>
        %44 = arith.addf %41, %43 fastmath<contract> : tensor<128x64xf32>
        %45 = attn.mask %44 rows %28 of %dim_8 cols %38 of %dim_10 {mask = #attn.mask<causal, bottom_right>} : tensor<128x64xf32>
        %probs, %new_max, %new_sum, %new_acc = attn.online_softmax %45, %arg8, %arg9, %arg10 {scale_log2e = 1.44269502 : f32} : tensor<128x64xf32>, tensor<128xf32>, tensor<128x64xf32>
        %46 = arith.truncf %probs : tensor<128x64xf32> to tensor<128x64xf16>
        %47 = attn.load %arg2[%23, %25, %38, %c0] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
        %48 = attn.dot %46, %47, %new_acc : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
        scf.yield %new_max, %new_sum, %48 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      }
      %output, %lse = attn.finalize %36#2, %36#0, %36#1 : tensor<128x64xf32>, tensor<128xf32>
      %37 = arith.truncf %output : tensor<128x64xf32> to tensor<128x64xf16>
      attn.store %37, %arg3[%23, %24, %28, %c0] : tensor<128x64xf16>, memref<?x?x?x64xf16>
    }
    return
  }
}

