// RUN: attn-opt %s --attn-warp-specialize -verify-diagnostics | FileCheck %s

// attn-warp-specialize moves a tile that the program loads into registers
// before its K/V loops (loads_ahead's first bias tile, here read back from
// its staged buffer) to the consumers, in front of the loops: whatever
// reads it must come after it there, and side-effect free code computed
// from it moves with it (accumulate-bias.mlir). Here (attn-stage-shared's
// output of loads-ahead.mlir's @async_pv, edited) a memory read before the
// loops, which stays where the producer's threads run too, takes its index
// from the tile: refused with a warning, and the program keeps its
// cp.async copies (no attn.warp_specialize, no TMA).
// CHECK-LABEL: func.func @async_pv
// CHECK-NOT: attn.warp_specialize
// CHECK-NOT: attn.tma_copy
// CHECK: attn.async_copy
module {
  func.func @async_pv(%arg0: memref<?x?x?x128xf16>, %arg1: memref<?x?x?x128xf16>, %arg2: memref<?x?x?x128xf16>, %arg3: memref<?x?x?x128xf16>, %arg4: memref<1x1x?x?xf16>) {
    %c0 = arith.constant 0 : index
    %dim = memref.dim %arg1, %c0 : memref<?x?x?x128xf16>
    %dim_0 = memref.dim %arg0, %c0 : memref<?x?x?x128xf16>
    %0 = arith.cmpi eq, %dim_0, %dim : index
    cf.assert %0, "attn.attention: batch size of 'key' differs from 'query'"
    %dim_1 = memref.dim %arg2, %c0 : memref<?x?x?x128xf16>
    %1 = arith.cmpi eq, %dim_0, %dim_1 : index
    cf.assert %1, "attn.attention: batch size of 'value' differs from 'query'"
    %dim_2 = memref.dim %arg3, %c0 : memref<?x?x?x128xf16>
    %2 = arith.cmpi eq, %dim_0, %dim_2 : index
    cf.assert %2, "attn.attention: batch size of 'output' differs from 'query'"
    %c1 = arith.constant 1 : index
    %dim_3 = memref.dim %arg3, %c1 : memref<?x?x?x128xf16>
    %dim_4 = memref.dim %arg0, %c1 : memref<?x?x?x128xf16>
    %3 = arith.cmpi eq, %dim_4, %dim_3 : index
    cf.assert %3, "attn.attention: head count of 'output' differs from 'query'"
    %dim_5 = memref.dim %arg2, %c1 : memref<?x?x?x128xf16>
    %dim_6 = memref.dim %arg1, %c1 : memref<?x?x?x128xf16>
    %4 = arith.cmpi eq, %dim_6, %dim_5 : index
    cf.assert %4, "attn.attention: head count of 'value' differs from 'key'"
    %c2 = arith.constant 2 : index
    %dim_7 = memref.dim %arg3, %c2 : memref<?x?x?x128xf16>
    %dim_8 = memref.dim %arg0, %c2 : memref<?x?x?x128xf16>
    %5 = arith.cmpi eq, %dim_8, %dim_7 : index
    cf.assert %5, "attn.attention: length of 'output' differs from 'query'"
    %dim_9 = memref.dim %arg2, %c2 : memref<?x?x?x128xf16>
    %dim_10 = memref.dim %arg1, %c2 : memref<?x?x?x128xf16>
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
    %c96 = arith.constant 96 : index
    %20 = arith.ceildivui %dim_8, %c128 : index
    %21 = arith.muli %dim_0, %dim_4 : index
    %22 = arith.divui %dim_4, %dim_6 : index
    // expected-warning @+1 {{warp_specialize: not applied, the copies keep the cp.async schedule of attn-pipeline: a tile loaded before the K/V loops is read before them by 'memref.load', which stays where the producer's threads run (a product, a load or side-effect free code would move to the consumers with the tile)}}
    attn.program (%arg5, %arg6) in (%20, %21)
        buffers(q = %arg0 : memref<?x?x?x128xf16>, k = %arg1 : memref<?x?x?x128xf16>, v = %arg2 : memref<?x?x?x128xf16>, o = %arg3 : memref<?x?x?x128xf16>, bias = %arg4 : memref<1x1x?x?xf16>) attributes {attn.mask = #attn.mask<none>, attn.scale = 0.088388347648318433 : f64, attn.score_mods = ["bias"], config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, stage_loads = true, loads_ahead = true>} {
      %23 = arith.divui %arg6, %dim_4 : index
      %24 = arith.remui %arg6, %dim_4 : index
      %25 = arith.divui %24, %22 : index
      %26 = arith.muli %arg5, %c128 : index
      %c2_15 = arith.constant 2 : index
      %dim_16 = memref.dim %arg0, %c2_15 : memref<?x?x?x128xf16>
      %subview = memref.subview %arg0[%23, %24, 0, 0] [1, 1, %dim_16, 128] [1, 1, 1, 1] : memref<?x?x?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %27 = attn.local_alloc : !attn.shared<128x128xf16, #attn.swizzled<blocked>>
      attn.async_copy %subview[%26, %c0] into %27 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<128x128xf16, #attn.swizzled<blocked>>
      attn.async_commit
      %cst = arith.constant dense<0xFF800000> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
      %cst_17 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
      %cst_18 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
      %cst_19 = arith.constant dense<0.000000e+00> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
      %lower, %upper = attn.kv_range visible %26, %dim_8, %dim_10 {block_m = 128 : i64, block_n = 96 : i64, mask = #attn.mask<none>}
      %lower_20, %upper_21 = attn.kv_range unmasked %26, %dim_8, %dim_10 {block_m = 128 : i64, block_n = 96 : i64, mask = #attn.mask<none>}
      %28 = arith.maxsi %lower_20, %lower : index
      %29 = arith.minsi %28, %upper : index
      %30 = arith.maxsi %upper_21, %29 : index
      %31 = arith.minsi %30, %upper : index
      %32 = arith.muli %lower, %c96 : index
      %c2_22 = arith.constant 2 : index
      %dim_23 = memref.dim %arg4, %c2_22 : memref<1x1x?x?xf16>
      %c3_24 = arith.constant 3 : index
      %dim_25 = memref.dim %arg4, %c3_24 : memref<1x1x?x?xf16>
      %subview_26 = memref.subview %arg4[%c0, %c0, 0, 0] [1, 1, %dim_23, %dim_25] [1, 1, 1, 1] : memref<1x1x?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
      %33 = attn.local_alloc : !attn.shared<128x96xf16, #attn.unswizzled>
      attn.async_copy %subview_26[%26, %32] into %33 : memref<?x?xf16, strided<[?, 1], offset: ?>>, !attn.shared<128x96xf16, #attn.unswizzled>
      attn.async_commit
      attn.async_wait {pending = 0 : i64}
      gpu.barrier
      %34 = attn.local_load %33 : !attn.shared<128x96xf16, #attn.unswizzled> -> tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
      %e = tensor.extract %34[%c0, %c0] : tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
      %ei = arith.fptosi %e : f16 to i32
      %ix = arith.index_cast %ei : i32 to index
      %read = memref.load %arg4[%c0, %c0, %ix, %ix] : memref<1x1x?x?xf16>
      %35 = arith.muli %lower, %c96 : index
      %c2_27 = arith.constant 2 : index
      %dim_28 = memref.dim %arg1, %c2_27 : memref<?x?x?x128xf16>
      %subview_29 = memref.subview %arg1[%23, %25, 0, 0] [1, 1, %dim_28, 128] [1, 1, 1, 1] : memref<?x?x?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %36 = attn.local_alloc : !attn.shared<96x128xf16, #attn.swizzled<blocked>>
      attn.async_copy %subview_29[%35, %c0] into %36 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
      attn.async_commit
      attn.async_wait {pending = 0 : i64}
      gpu.barrier
      %37 = attn.dot %27, %36, %cst_19 transpose_b : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>> -> tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
      %cst_30 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
      %c2_31 = arith.constant 2 : index
      %dim_32 = memref.dim %arg1, %c2_31 : memref<?x?x?x128xf16>
      %subview_33 = memref.subview %arg1[%23, %25, 0, 0] [1, 1, %dim_32, 128] [1, 1, 1, 1] : memref<?x?x?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %38 = attn.local_alloc : !attn.shared<96x128xf16, #attn.swizzled<blocked>>
      %c2_34 = arith.constant 2 : index
      %dim_35 = memref.dim %arg2, %c2_34 : memref<?x?x?x128xf16>
      %subview_36 = memref.subview %arg2[%23, %25, 0, 0] [1, 1, %dim_35, 128] [1, 1, 1, 1] : memref<?x?x?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %39 = attn.local_alloc : !attn.shared<96x128xf16, #attn.swizzled<blocked>>
      %c2_37 = arith.constant 2 : index
      %dim_38 = memref.dim %arg4, %c2_37 : memref<1x1x?x?xf16>
      %c3_39 = arith.constant 3 : index
      %dim_40 = memref.dim %arg4, %c3_39 : memref<1x1x?x?xf16>
      %subview_41 = memref.subview %arg4[%c0, %c0, 0, 0] [1, 1, %dim_38, %dim_40] [1, 1, 1, 1] : memref<1x1x?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
      %40 = attn.local_alloc : !attn.shared<128x96xf16, #attn.unswizzled>
      %41:5 = scf.for %arg7 = %lower to %29 step %c1 iter_args(%arg8 = %cst, %arg9 = %cst_17, %arg10 = %cst_18, %arg11 = %34, %arg12 = %37) -> (tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>) {
        %46 = arith.muli %arg7, %c96 : index
        %c1_42 = arith.constant 1 : index
        %47 = arith.addi %arg7, %c1_42 : index
        %48 = arith.subi %upper, %c1_42 : index
        %49 = arith.minsi %47, %48 : index
        %50 = arith.muli %49, %c96 : index
        attn.async_copy %subview_33[%50, %c0] into %38 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
        attn.async_commit
        %cst_43 = arith.constant dense<0.0883883461> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %51 = arith.mulf %arg12, %cst_43 fastmath<contract> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %52 = arith.extf %arg11 : tensor<128x96xf16, #attn.mma<warps = 8, version = 3>> to tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %53 = arith.addf %51, %52 fastmath<contract> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %54 = attn.mask %53 rows %26 of %dim_8 cols %46 of %dim_10 {mask = #attn.mask<none>} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %probs, %new_max, %new_sum, %new_acc = attn.online_softmax %54, %arg8, %arg9, %cst_30 {scale_log2e = 1.44269502 : f32} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %55:2 = attn.dot_wait %arg10, %probs {pending = 0 : i64} : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %cst_44 = arith.constant dense<0xFF800000> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %56 = arith.cmpf oeq, %new_max, %cst_44 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %cst_45 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %57 = arith.select %56, %cst_45, %new_max : tensor<128xi1, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %58 = arith.subf %arg8, %57 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %59 = math.exp2 %58 fastmath<afn> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %60 = attn.broadcast_rows %59 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>> -> tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %61 = arith.mulf %55#0, %60 : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %62 = arith.truncf %55#1 : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>> to tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
        attn.async_copy %subview_36[%46, %c0] into %39 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
        attn.async_commit
        %63 = attn.convert_layout %62 : tensor<128x96xf16, #attn.mma<warps = 8, version = 3>> -> tensor<128x96xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %64 = attn.dot %27, %38, %cst_19 transpose_b async : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>> -> tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %65 = attn.dot %63, %39, %61 async : tensor<128x96xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>> -> tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %66 = arith.muli %49, %c96 : index
        attn.async_copy %subview_41[%26, %66] into %40 : memref<?x?xf16, strided<[?, 1], offset: ?>>, !attn.shared<128x96xf16, #attn.unswizzled>
        attn.async_commit
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %67 = attn.local_load %40 : !attn.shared<128x96xf16, #attn.unswizzled> -> tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
        %68 = attn.dot_wait %64 {pending = 1 : i64} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        gpu.barrier
        scf.yield %new_max, %new_sum, %65, %67, %68 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
      }
      %42:5 = scf.for %arg7 = %29 to %31 step %c1 iter_args(%arg8 = %41#0, %arg9 = %41#1, %arg10 = %41#2, %arg11 = %41#3, %arg12 = %41#4) -> (tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>) {
        %46 = arith.muli %arg7, %c96 : index
        %c1_42 = arith.constant 1 : index
        %47 = arith.addi %arg7, %c1_42 : index
        %48 = arith.subi %upper, %c1_42 : index
        %49 = arith.minsi %47, %48 : index
        %50 = arith.muli %49, %c96 : index
        attn.async_copy %subview_33[%50, %c0] into %38 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
        attn.async_commit
        %cst_43 = arith.constant dense<0.0883883461> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %51 = arith.mulf %arg12, %cst_43 fastmath<contract> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %52 = arith.extf %arg11 : tensor<128x96xf16, #attn.mma<warps = 8, version = 3>> to tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %53 = arith.addf %51, %52 fastmath<contract> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %probs, %new_max, %new_sum, %new_acc = attn.online_softmax %53, %arg8, %arg9, %cst_30 {scale_log2e = 1.44269502 : f32} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %54:2 = attn.dot_wait %arg10, %probs {pending = 0 : i64} : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %cst_44 = arith.constant dense<0xFF800000> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %55 = arith.cmpf oeq, %new_max, %cst_44 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %cst_45 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %56 = arith.select %55, %cst_45, %new_max : tensor<128xi1, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %57 = arith.subf %arg8, %56 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %58 = math.exp2 %57 fastmath<afn> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %59 = attn.broadcast_rows %58 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>> -> tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %60 = arith.mulf %54#0, %59 : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %61 = arith.truncf %54#1 : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>> to tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
        attn.async_copy %subview_36[%46, %c0] into %39 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
        attn.async_commit
        %62 = attn.convert_layout %61 : tensor<128x96xf16, #attn.mma<warps = 8, version = 3>> -> tensor<128x96xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %63 = attn.dot %27, %38, %cst_19 transpose_b async : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>> -> tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %64 = attn.dot %62, %39, %60 async : tensor<128x96xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>> -> tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %65 = arith.muli %49, %c96 : index
        attn.async_copy %subview_41[%26, %65] into %40 : memref<?x?xf16, strided<[?, 1], offset: ?>>, !attn.shared<128x96xf16, #attn.unswizzled>
        attn.async_commit
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %66 = attn.local_load %40 : !attn.shared<128x96xf16, #attn.unswizzled> -> tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
        %67 = attn.dot_wait %63 {pending = 1 : i64} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        gpu.barrier
        scf.yield %new_max, %new_sum, %64, %66, %67 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
      }
      %43:5 = scf.for %arg7 = %31 to %upper step %c1 iter_args(%arg8 = %42#0, %arg9 = %42#1, %arg10 = %42#2, %arg11 = %42#3, %arg12 = %42#4) -> (tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>) {
        %46 = arith.muli %arg7, %c96 : index
        %c1_42 = arith.constant 1 : index
        %47 = arith.addi %arg7, %c1_42 : index
        %48 = arith.subi %upper, %c1_42 : index
        %49 = arith.minsi %47, %48 : index
        %50 = arith.muli %49, %c96 : index
        attn.async_copy %subview_33[%50, %c0] into %38 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
        attn.async_commit
        %cst_43 = arith.constant dense<0.0883883461> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %51 = arith.mulf %arg12, %cst_43 fastmath<contract> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %52 = arith.extf %arg11 : tensor<128x96xf16, #attn.mma<warps = 8, version = 3>> to tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %53 = arith.addf %51, %52 fastmath<contract> : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %54 = attn.mask %53 rows %26 of %dim_8 cols %46 of %dim_10 {mask = #attn.mask<none>} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %probs, %new_max, %new_sum, %new_acc = attn.online_softmax %54, %arg8, %arg9, %cst_30 {scale_log2e = 1.44269502 : f32} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %55:2 = attn.dot_wait %arg10, %probs {pending = 0 : i64} : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        %cst_44 = arith.constant dense<0xFF800000> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %56 = arith.cmpf oeq, %new_max, %cst_44 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %cst_45 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %57 = arith.select %56, %cst_45, %new_max : tensor<128xi1, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %58 = arith.subf %arg8, %57 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %59 = math.exp2 %58 fastmath<afn> : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
        %60 = attn.broadcast_rows %59 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>> -> tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %61 = arith.mulf %55#0, %60 : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %62 = arith.truncf %55#1 : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>> to tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
        attn.async_copy %subview_36[%46, %c0] into %39 : memref<?x128xf16, strided<[128, 1], offset: ?>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
        attn.async_commit
        %63 = attn.convert_layout %62 : tensor<128x96xf16, #attn.mma<warps = 8, version = 3>> -> tensor<128x96xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %64 = attn.dot %27, %38, %cst_19 transpose_b async : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>> -> tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %65 = attn.dot %63, %39, %61 async : tensor<128x96xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>> -> tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
        %66 = arith.muli %49, %c96 : index
        attn.async_copy %subview_41[%26, %66] into %40 : memref<?x?xf16, strided<[?, 1], offset: ?>>, !attn.shared<128x96xf16, #attn.unswizzled>
        attn.async_commit
        attn.async_wait {pending = 0 : i64}
        gpu.barrier
        %67 = attn.local_load %40 : !attn.shared<128x96xf16, #attn.unswizzled> -> tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
        %68 = attn.dot_wait %64 {pending = 1 : i64} : tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
        gpu.barrier
        scf.yield %new_max, %new_sum, %65, %67, %68 : tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>, tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>, tensor<128x96xf32, #attn.mma<warps = 8, version = 3>>
      }
      %44 = attn.dot_wait %43#2 {pending = 0 : i64} : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>
      %output, %lse = attn.finalize %44, %43#0, %43#1 : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>>, tensor<128xf32, #attn.rows<#attn.mma<warps = 8, version = 3>>>
      %45 = arith.truncf %output : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>> to tensor<128x128xf16, #attn.mma<warps = 8, version = 3>>
      attn.store %45, %arg3[%23, %24, %26, %c0] : tensor<128x128xf16, #attn.mma<warps = 8, version = 3>>, memref<?x?x?x128xf16>
    }
    return
  }
}


