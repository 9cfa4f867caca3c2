// RUN: attn-opt %s -split-input-file -verify-diagnostics

// The verifiers of the warp-specialization ops.

!buf = !attn.shared<64x64xf16, #attn.swizzled<blocked>>
func.func @tma_outside_producer(%k: memref<?x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  attn.program (%m, %bh) in (%n, %n) buffers(k = %k : memref<?x64xf16>) {
    %buf = attn.local_alloc : !buf
    %bar = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<1>
    // expected-error @+1 {{is issued by the producer thread: it must be inside the producer region of attn.warp_specialize}}
    attn.tma_copy %k[%c0, %c0] into %buf, %bar[%c0] : memref<?x64xf16>, !buf, !attn.mbarriers<1>
  }
  return
}

// -----

func.func @tma_unblocked(%k: memref<?x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  attn.program (%m, %bh) in (%n, %n) buffers(k = %k : memref<?x64xf16>) {
    %buf = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
    %bar = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<1>
    attn.warp_specialize attributes {consumer_warpgroups = 1 : i64, producer_registers = 24 : i64, consumer_registers = 232 : i64} producer {
      // expected-error @+1 {{the destination needs #attn.swizzled<blocked>}}
      attn.tma_copy %k[%c0, %c0] into %buf, %bar[%c0] : memref<?x64xf16>, !attn.shared<64x64xf16, #attn.swizzled>, !attn.mbarriers<1>
    } consumers {
    }
  }
  return
}

// -----

func.func @not_last(%n: index) {
  attn.program (%m, %bh) in (%n, %n) {
    // expected-error @+1 {{must be the last op of an attn.program}}
    attn.warp_specialize attributes {consumer_warpgroups = 1 : i64, producer_registers = 24 : i64, consumer_registers = 232 : i64} producer {
    } consumers {
    }
    %bar = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<1>
  }
  return
}

// -----

func.func @registers(%n: index) {
  attn.program (%m, %bh) in (%n, %n) {
    // expected-error @+1 {{register budgets are multiples of 8 in [24, 256] (setmaxnreg), got 20}}
    attn.warp_specialize attributes {consumer_warpgroups = 1 : i64, producer_registers = 20 : i64, consumer_registers = 232 : i64} producer {
    } consumers {
    }
  }
  return
}

// -----

func.func @barrier_not_top_level(%n: index) {
  attn.program (%m, %bh) in (%n, %n) {
    attn.warp_specialize attributes {consumer_warpgroups = 1 : i64, producer_registers = 24 : i64, consumer_registers = 232 : i64} producer {
    } consumers {
      // expected-error @+1 {{must be at the top level of an attn.program}}
      %bar = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<1>
    }
  }
  return
}

// -----

func.func @too_many_threads(%n: index) {
  attn.program (%m, %bh) in (%n, %n) {
    // expected-error @+1 {{needs 1152 threads (consumers and the producer warpgroup), over 1024}}
    attn.warp_specialize attributes {consumer_warpgroups = 8 : i64, producer_registers = 24 : i64, consumer_registers = 56 : i64} producer {
    } consumers {
    }
  }
  return
}

// -----

// expected-error @+1 {{!attn.mbarriers holds 1 to 64 barriers, got 0}}
func.func @no_barriers(%b: !attn.mbarriers<0>) {
  return
}

// -----

func.func @turn_outside_consumers(%n: index) {
  attn.program (%m, %bh) in (%n, %n) {
    // expected-error @+1 {{takes turns among consumer warpgroups: it must be inside the consumers region of attn.warp_specialize}}
    attn.turn_wait
  }
  return
}

// -----

!obuf = !attn.shared<128x64xf16, #attn.swizzled<blocked>>
func.func @tma_store_outside_consumers(%o: memref<?x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  attn.program (%m, %bh) in (%n, %n) buffers(o = %o : memref<?x64xf16>) {
    %buf = attn.local_alloc : !obuf
    attn.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_registers = 24 : i64, consumer_registers = 232 : i64} producer {
      // expected-error @+1 {{is issued per consumer warpgroup: it must be inside the consumers region of attn.warp_specialize}}
      attn.tma_store %buf into %o[%c0, %c0] : !obuf, memref<?x64xf16>
    } consumers {
    }
  }
  return
}

// -----

func.func @tma_store_unblocked(%o: memref<?x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  attn.program (%m, %bh) in (%n, %n) buffers(o = %o : memref<?x64xf16>) {
    %buf = attn.local_alloc : !attn.shared<128x64xf16, #attn.unswizzled>
    attn.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_registers = 24 : i64, consumer_registers = 232 : i64} producer {
    } consumers {
      // expected-error @+1 {{the source needs #attn.swizzled<blocked>}}
      attn.tma_store %buf into %o[%c0, %c0] : !attn.shared<128x64xf16, #attn.unswizzled>, memref<?x64xf16>
    }
  }
  return
}

// -----

func.func @tma_store_rows(%o: memref<?x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  attn.program (%m, %bh) in (%n, %n) buffers(o = %o : memref<?x64xf16>) {
    %buf = attn.local_alloc : !attn.shared<96x64xf16, #attn.swizzled<blocked>>
    attn.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_registers = 24 : i64, consumer_registers = 232 : i64} producer {
    } consumers {
      // expected-error @+1 {{stores 64 rows per consumer warpgroup: the tile's rows must be a multiple of 64, got 96}}
      attn.tma_store %buf into %o[%c0, %c0] : !attn.shared<96x64xf16, #attn.swizzled<blocked>>, memref<?x64xf16>
    }
  }
  return
}

// -----

!obuf = !attn.shared<128x64xf16, #attn.swizzled<blocked>>
func.func @tma_store_types(%o: memref<?x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  attn.program (%m, %bh) in (%n, %n) buffers(o = %o : memref<?x64xbf16>) {
    %buf = attn.local_alloc : !obuf
    attn.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_registers = 24 : i64, consumer_registers = 232 : i64} producer {
    } consumers {
      // expected-error @+1 {{element types differ: 'f16' vs 'bf16'}}
      attn.tma_store %buf into %o[%c0, %c0] : !obuf, memref<?x64xbf16>
    }
  }
  return
}

// -----

func.func @tma_store_wait_outside_consumers(%n: index) {
  attn.program (%m, %bh) in (%n, %n) {
    // expected-error @+1 {{waits for a consumer warpgroup's TMA stores: it must be inside the consumers region of attn.warp_specialize}}
    attn.tma_store_wait
  }
  return
}
