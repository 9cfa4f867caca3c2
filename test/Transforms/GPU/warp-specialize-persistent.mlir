// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-pipeline --attn-allocate-shared \
// RUN:   -split-input-file -verify-diagnostics | FileCheck %s

// attn-warp-specialize with `persistent`: both roles loop over the tiles
// t = block_id.x, block_id.x + grid_dim.x, ... < grid_m * grid_bh, each
// tile's ids recomputed from t (t mod grid_m, t / grid_m); the rings go on
// from tile to tile (every position adds the blocks of the tiles before,
// carried by the loops; the K ring, whose first block of each tile takes
// the position in front of the tile's chain, adds the tiles before too);
// the copies before the chain (Q) get an "empty" barrier of 256 consumer
// arrivals, which the producer waits for with the parity of the tile
// before and the consumers arrive at after the chain.

// Unmasked (tiles of equal work): worker w takes tiles w, w + workers, ...
// CHECK: #[[$LICM:.+]] = #llvm.loop_licm<disable = true>
// CHECK: #[[$LOOP:.+]] = #llvm.loop_annotation<licm = #[[$LICM]]>
// CHECK-LABEL: func.func @unmasked
// CHECK: attn.program (%[[M:[^,]+]], %[[BH:[^)]+]]) in (%[[GM:[^,]+]], %[[GBH:[^)]+]])
// CHECK-NEXT: persistent = true, peel_last_block = true>, persistent, shared_bytes
// CHECK: %[[PRE:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64, {{.*}}} : !attn.mbarriers<1>
// CHECK-NEXT: %[[PREEMPTY:[^ ]+]] = attn.mbarrier_alloc {arrivals = 256 : i64, {{.*}}} : !attn.mbarriers<1>
// CHECK: %[[EMPTYK:[^ ]+]] = attn.mbarrier_alloc {arrivals = 256 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK: attn.warp_specialize {{.*}} producer {
// CHECK-NEXT: %[[W:[^ ]+]] = gpu.block_id x
// CHECK-NEXT: %[[NW:[^ ]+]] = gpu.grid_dim x
// CHECK-NEXT: %[[TILES:[^ ]+]] = arith.muli %[[GM]], %[[GBH]]
// CHECK-NEXT: %[[C0:[^ ]+]] = arith.constant 0
// CHECK-NEXT: arith.constant 1
// CHECK-NEXT: scf.for %[[T:[^ ]+]] = %[[W]] to %[[TILES]] step %[[NW]] iter_args(%[[BASE:[^ ]+]] = %[[C0]], %[[IT:[^ ]+]] = %[[C0]])
// CHECK-NEXT: %[[TM:[^ ]+]] = arith.remui %[[T]], %[[GM]]
// CHECK-NEXT: = arith.divui %[[T]], %[[GM]]
// CHECK: %[[LO:[^ ,]+]], %[[HI:[^ ,]+]] = attn.kv_range visible
// CHECK: %[[BEFORE:[^ ]+]] = arith.addi %[[IT]], %{{.*}}
// CHECK: attn.mbarrier_wait %[[PREEMPTY]][%{{.*}}], %[[BEFORE]]
// CHECK-NEXT: attn.tma_copy %arg0{{.*}}, %[[PRE]]
// The first K block: position 0 of the tile's K ring.
// CHECK: %[[KB:[^ ]+]] = arith.addi %{{.*}}, %[[BASE]]
// CHECK-NEXT: %[[KP:[^ ]+]] = arith.addi %[[KB]], %[[IT]]
// CHECK: %[[KS:[^ ]+]] = arith.remui %[[KP]], %{{.*}}
// CHECK: attn.mbarrier_wait %[[EMPTYK]][%[[KS]]]
// CHECK: attn.tma_copy %arg1
// CHECK: scf.for %[[J:[^ ]+]] = %[[LO]] to %[[HI]]
// CHECK-NEXT: %[[REL:[^ ]+]] = arith.subi %[[J]], %[[LO]]
// CHECK: %[[LEAD:[^ ]+]] = arith.addi %[[REL]], %c1
// CHECK-NEXT: %[[POS0:[^ ]+]] = arith.addi %[[LEAD]], %[[BASE]]
// CHECK-NEXT: %[[POS:[^ ]+]] = arith.addi %[[POS0]], %[[IT]]
// CHECK: %[[ST:[^ ]+]] = arith.remui %[[POS]], %{{.*}}
// CHECK: attn.mbarrier_wait %[[EMPTYK]][%[[ST]]]
// V's ring has no lead position.
// CHECK: %[[VREL:[^ ]+]] = arith.subi %[[J]], %[[LO]]
// CHECK-NEXT: %[[VPOS:[^ ]+]] = arith.addi %[[VREL]], %[[BASE]]
// CHECK-NEXT: arith.constant 2
// CHECK-NEXT: arith.remui %[[VPOS]]
// The next tile starts where this one's blocks end.
// CHECK: %[[N:[^ ]+]] = arith.subi %[[HI]], %[[LO]]
// CHECK: %[[NPOS:[^ ]+]] = arith.maxsi %[[N]], %{{.*}}
// CHECK: %[[NEXT:[^ ]+]] = arith.addi %[[BASE]], %[[NPOS]]
// CHECK: %[[NIT:[^ ]+]] = arith.addi %[[IT]], %{{.*}}
// CHECK-NEXT: scf.yield %[[NEXT]], %[[NIT]]
// CHECK: } consumers {
// CHECK: scf.for %{{.*}} iter_args(%[[CBASE:[^ ]+]] = %{{.*}}, %[[CIT:[^ ]+]] = %{{.*}})
// CHECK: attn.mbarrier_wait %[[PRE]][%{{.*}}], %[[CIT]]
// CHECK: %[[CKB:[^ ]+]] = arith.addi %{{.*}}, %[[CBASE]]
// CHECK-NEXT: %[[CKP:[^ ]+]] = arith.addi %[[CKB]], %[[CIT]]
// CHECK: %[[CKS:[^ ]+]] = arith.remui %[[CKP]]
// CHECK-NEXT: %[[CKPH:[^ ]+]] = arith.divui %[[CKP]]
// CHECK-NEXT: attn.mbarrier_wait %{{.*}}[%[[CKS]]], %[[CKPH]]
// The three K/V loops and the peeled last block, each offset by the
// consumers' own count.
// CHECK-COUNT-3: arith.addi %{{.*}}, %[[CBASE]]
// CHECK: attn.mbarrier_arrive %[[PREEMPTY]]
// CHECK-NEXT: arith.cmpi slt
// CHECK-NEXT: scf.if
// CHECK: arith.addi %{{.*}}, %[[CBASE]]
// CHECK: attn.finalize
// CHECK: attn.store
// CHECK: scf.yield
// Each tile's own code stays in the tile loop (LLVM's LICM off there).
// CHECK-NEXT: } {llvm.loop_annotation = #[[$LOOP]]}
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @unmasked(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                    %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true>}
  return
}

// -----

// Under a mask (tiles of unequal work) the loop goes over rounds of the
// workers: round r's tiles are [r * workers, (r + 1) * workers), worker w
// takes the w-th in even rounds and the (workers - 1 - w)-th in odd ones,
// so that a heavy tile is followed by a light one; its last, partial
// round only if its position there is below the remainder. The round
// counts the tiles done (Q's barrier phases).
// CHECK-LABEL: func.func @causal
// CHECK: producer {
// CHECK-NEXT: %[[W:[^ ]+]] = gpu.block_id x
// CHECK-NEXT: %[[NW:[^ ]+]] = gpu.grid_dim x
// CHECK-NEXT: %[[TILES:[^ ]+]] = arith.muli
// CHECK-NEXT: %[[C0:[^ ]+]] = arith.constant 0
// CHECK-NEXT: %[[C1:[^ ]+]] = arith.constant 1
// CHECK-NEXT: %[[FULL:[^ ]+]] = arith.divui %[[TILES]], %[[NW]]
// CHECK-NEXT: %[[REST:[^ ]+]] = arith.remui %[[TILES]], %[[NW]]
// CHECK-NEXT: %[[LASTW:[^ ]+]] = arith.subi %[[NW]], %[[C1]]
// CHECK-NEXT: %[[MIRROR:[^ ]+]] = arith.subi %[[LASTW]], %[[W]]
// CHECK-NEXT: %[[LODD:[^ ]+]] = arith.andi %[[FULL]], %[[C1]]
// CHECK-NEXT: %[[LISODD:[^ ]+]] = arith.cmpi ne, %[[LODD]], %[[C0]]
// CHECK-NEXT: %[[LPOS:[^ ]+]] = arith.select %[[LISODD]], %[[MIRROR]], %[[W]]
// CHECK-NEXT: %[[INLAST:[^ ]+]] = arith.cmpi ult, %[[LPOS]], %[[REST]]
// CHECK-NEXT: %[[EXTRA:[^ ]+]] = arith.select %[[INLAST]], %[[C1]], %[[C0]]
// CHECK-NEXT: %[[ROUNDS:[^ ]+]] = arith.addi %[[FULL]], %[[EXTRA]]
// CHECK-NEXT: scf.for %[[R:[^ ]+]] = %[[C0]] to %[[ROUNDS]] step %[[C1]] iter_args(%{{[^ ]+}} = %[[C0]]) -> (index)
// CHECK-NEXT: %[[ODDBIT:[^ ]+]] = arith.andi %[[R]], %[[C1]]
// CHECK-NEXT: %[[ODD:[^ ]+]] = arith.cmpi ne, %[[ODDBIT]], %[[C0]]
// CHECK-NEXT: %[[POS:[^ ]+]] = arith.select %[[ODD]], %[[MIRROR]], %[[W]]
// CHECK-NEXT: %[[FIRST:[^ ]+]] = arith.muli %[[R]], %[[NW]]
// CHECK-NEXT: %[[TILE:[^ ]+]] = arith.addi %[[FIRST]], %[[POS]]
// CHECK-NEXT: = arith.remui %[[TILE]],
// CHECK-NEXT: = arith.divui %[[TILE]],
// CHECK: %[[BEFORE:[^ ]+]] = arith.addi %[[R]], %{{.*}}
// CHECK: attn.mbarrier_wait %{{[^ ]+}}[%{{.*}}], %[[BEFORE]]
// CHECK-NEXT: attn.tma_copy %arg0
// CHECK: } consumers {
// CHECK: scf.for %[[CR:[^ ]+]] = %{{.*}} iter_args
// CHECK: attn.mbarrier_wait %{{[^ ]+}}[%{{.*}}], %[[CR]]
func.func @causal(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                  %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {mask = #attn.mask<causal, top_left>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true>}
  return
}

// -----

// With group_m = 16 the tiles go round in groups of 16 query blocks of
// every batch-head: tile t is in group t / (16 grid_bh), whose first query
// block is 16 times that; the last group has min(16, grid_m - first) rows;
// within the group, r = t mod (16 grid_bh) is query block first + r mod
// rows of batch-head r / rows.
// CHECK-LABEL: func.func @grouped
// CHECK: attn.program (%{{[^,]+}}, %{{[^)]+}}) in (%[[GM:[^,]+]], %[[GBH:[^)]+]])
// CHECK: producer {
// CHECK: scf.for %[[T:[^ ]+]] = %{{[^ ]+}} to %{{[^ ]+}} step
// CHECK-NEXT: %[[G:[^ ]+]] = arith.constant 16 : index
// CHECK-NEXT: %[[PER:[^ ]+]] = arith.muli %[[G]], %[[GBH]]
// CHECK-NEXT: %[[GROUP:[^ ]+]] = arith.divui %[[T]], %[[PER]]
// CHECK-NEXT: %[[FIRST:[^ ]+]] = arith.muli %[[GROUP]], %[[G]]
// CHECK-NEXT: %[[LEFT:[^ ]+]] = arith.subi %[[GM]], %[[FIRST]]
// CHECK-NEXT: %[[ROWS:[^ ]+]] = arith.minui %[[G]], %[[LEFT]]
// CHECK-NEXT: %[[R:[^ ]+]] = arith.remui %[[T]], %[[PER]]
// CHECK-NEXT: %[[RM:[^ ]+]] = arith.remui %[[R]], %[[ROWS]]
// CHECK-NEXT: %[[M:[^ ]+]] = arith.addi %[[FIRST]], %[[RM]]
// CHECK-NEXT: %[[BH:[^ ]+]] = arith.divui %[[R]], %[[ROWS]]
// CHECK-NEXT: arith.divui %[[BH]],
// CHECK-NEXT: arith.remui %[[BH]],
// CHECK: arith.muli %[[M]], %c128
// CHECK: } consumers {
// CHECK: arith.constant 16 : index
func.func @grouped(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                   %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, group_m = 16>}
  return
}

// -----

// Where the program cannot be warp-specialized, it is not persistent
// either: one CTA per tile, as the runtime launches a kernel whose
// contract does not say persistent.
// CHECK-LABEL: func.func @not_specialized
// CHECK: attn.program
// CHECK-NEXT: persistent = true>, shared_bytes
// CHECK-NOT: attn.warp_specialize
func.func @not_specialized(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                           %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  // expected-warning @+1 {{warp_specialize: not applied}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = false, warp_specialize = true, persistent = true>}
  return
}
