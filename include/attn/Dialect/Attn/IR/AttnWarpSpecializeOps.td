//===- AttnWarpSpecializeOps.td - producer/consumer programs -*- tablegen -*-===//
//
// The ops of a warp-specialized program (sm_90a): a producer warpgroup
// copies Q, K and V into shared memory with TMA, consumer warpgroups compute,
// and mbarriers in shared memory tell each side when a stage is full (the
// copy has landed) or empty (every consumer is done reading it).
// `attn-warp-specialize` builds them from the copies `attn-stage-shared`
// made; the GPU lowering turns them into NVVM (WarpSpecializeToNVVM.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNWARPSPECIALIZEOPS_TD
#define ATTN_DIALECT_ATTN_IR_ATTNWARPSPECIALIZEOPS_TD

include "attn/Dialect/Attn/IR/AttnTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attn_MBarrierAllocOp : Attn_Op<"mbarrier_alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Barriers in shared memory, initialized";
  let description = [{
    Allocates the result's barriers in the instance's shared memory and
    initializes each to expect `arrivals` arrivals per phase; every thread
    of the instance sees them initialized after the op (it must be at the
    top level of the program, reached by every thread). `offset` is the
    byte offset `attn-allocate-shared` assigns.

    ```mlir
    %full = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<2>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$arrivals,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset);
  let results = (outs Attn_MBarriersType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Attn_MBarrierWaitOp : Attn_Op<"mbarrier_wait"> {
  let summary = "Wait for a phase of one barrier";
  let description = [{
    Blocks the thread until the phase of barrier `index` whose parity is
    `phase % 2` has completed. A fresh barrier is in phase 0: waiting for
    parity 1 returns at once (the phase before it counts as complete), so a
    producer waits for "empty" with the opposite parity of the consumers'
    "full" wait. Shared memory written before the phase completed (TMA
    copies counted by the barrier, other threads' writes before their
    arrival) is visible to the thread after the wait.

    ```mlir
    attn.mbarrier_wait %full[%stage], %phase : !attn.mbarriers<2>
    ```
  }];
  let arguments = (ins Attn_MBarriersType:$barriers, Index:$index,
                       Index:$phase);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $phase attr-dict `:` qualified(type($barriers))
  }];
}

def Attn_MBarrierArriveOp : Attn_Op<"mbarrier_arrive"> {
  let summary = "Arrive at one barrier";
  let description = [{
    Every thread executing the op arrives once at barrier `index` (release:
    its earlier shared-memory reads and writes happen before the phase
    completes). A consumer arrives at a stage's "empty" barrier once it has
    finished reading the stage, wgmma reads included.

    ```mlir
    attn.mbarrier_arrive %empty[%stage] : !attn.mbarriers<2>
    ```
  }];
  let arguments = (ins Attn_MBarriersType:$barriers, Index:$index);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` qualified(type($barriers))
  }];
}

def Attn_TmaCopyOp : Attn_Op<"tma_copy", [AttrSizedOperandSegments]> {
  let summary = "Copy a tile into a shared buffer with the tensor memory accelerator";
  let description = [{
    Copies the tile of `attn.load` semantics (the buffer's shape, spanning
    the source's last two dimensions from `indices`, zero outside the
    source's bounds) into `dest` with `cp.async.bulk.tensor`, and announces
    its bytes to barrier `index`: the barrier's phase completes once they
    have landed (and its arrivals are in). Executed by one thread (inside
    the producer region of `attn.warp_specialize`), that thread arriving
    once at the barrier. `dest` must have the `#attn.swizzled<blocked>`
    layout: each 64-column block is one TMA box of the 128-byte swizzle.

    The source is a kernel buffer (an operand of the program); the GPU
    lowering passes its TMA descriptor (`tensor_map`, added when the kernel
    is outlined) by value.

    ```mlir
    attn.tma_copy %k[%b, %h, %row, %c0] into %kbuf, %full[%stage]
        : memref<?x?x?x128xf16>, !attn.shared<128x128xf16, #attn.swizzled<blocked>>, !attn.mbarriers<2>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       Attn_SharedBuffer:$dest, Attn_MBarriersType:$barriers,
                       Index:$index, Optional<AnyType>:$tensor_map);
  let assemblyFormat = [{
    $source `[` $indices `]` `into` $dest `,` $barriers `[` $index `]`
    (`tensor_map` $tensor_map^ `:` type($tensor_map))? attr-dict `:`
    type($source) `,` qualified(type($dest)) `,` qualified(type($barriers))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes the copy brings in (the whole tile, zeros included).
    int64_t getBytes() { return getDest().getType().getSizeInBytes(); }
  }];
}

def Attn_TmaStoreOp : Attn_Op<"tma_store", [AttrSizedOperandSegments]> {
  let summary = "Store a shared tile into a buffer with the tensor memory accelerator";
  let description = [{
    Copies `source`, a tile the consumer warpgroups wrote (each warpgroup
    its own 64 rows, in order: the `#attn.mma<version = 3>` rows), into
    `dest` at `indices` (the tile of `attn.store` semantics; rows and
    columns outside `dest`'s bounds are not written) with
    `cp.async.bulk.tensor`: each warpgroup waits until all of its threads
    have written their rows (a named barrier of the warpgroup) and one of
    its threads issues the copy of those rows and commits it. The copy
    reads `source` asynchronously: before the buffer is written again, and
    before the kernel ends, `attn.tma_store_wait`. `source` must have the
    `#attn.swizzled<blocked>` layout (64-column blocks, TMA's 128-byte
    swizzle). Inside the consumers region of `attn.warp_specialize` only.

    The destination is a kernel buffer (an operand of the program); the
    GPU lowering passes its TMA descriptor (`tensor_map`, added when the
    kernel is outlined) by value.

    ```mlir
    attn.local_store %o, %obuf : tensor<128x128xf16, #mma>, !attn.shared<128x128xf16, #attn.swizzled<blocked>>
    attn.tma_store %obuf into %out[%b, %h, %row, %c0]
        : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, memref<?x?x?x128xf16>
    ```
  }];
  let arguments = (ins Attn_SharedBuffer:$source, AnyMemRef:$dest,
                       Variadic<Index>:$indices, Optional<AnyType>:$tensor_map);
  let assemblyFormat = [{
    $source `into` $dest `[` $indices `]`
    (`tensor_map` $tensor_map^ `:` type($tensor_map))? attr-dict `:`
    qualified(type($source)) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def Attn_TmaStoreWaitOp : Attn_Op<"tma_store_wait"> {
  let summary = "Wait until this warpgroup's TMA stores have read their tiles";
  let description = [{
    Blocks the executing consumer warpgroup until every `attn.tma_store`
    it issued has read its shared tile (`cp.async.bulk.wait_group.read 0`
    by the thread that issued them, then a named barrier of the
    warpgroup), so that its threads may write the buffer again. Inside the
    consumers region of `attn.warp_specialize` only.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Attn_WarpSpecializeOp : Attn_Op<"warp_specialize", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects]> {
  let summary = "Split a program instance into a producer and consumer warpgroups";
  let description = [{
    The program's threads are its `consumer_warpgroups` x 128 consumer
    threads (the ones its tile layouts describe) and one producer
    warpgroup after them. The consumers run `consumers`; one thread of the
    producer runs `producer`. Each side first sets its register budget
    (`setmaxnreg`: `producer_registers` and `consumer_registers` per
    thread), so that the producer's unused registers go to the consumers.
    The two sides meet only at mbarriers; barriers inside `consumers` are
    among the consumer threads alone. Nothing follows the op in the
    program.

    ```mlir
    attn.warp_specialize attributes {consumer_warpgroups = 2 : i64,
                                     producer_registers = 24 : i64, consumer_registers = 240 : i64}
    producer {
      attn.tma_copy ...
    } consumers {
      attn.mbarrier_wait ...
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$consumer_warpgroups,
                       ConfinedAttr<I64Attr, [IntPositive]>:$producer_registers,
                       ConfinedAttr<I64Attr, [IntPositive]>:$consumer_registers);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumers);
  let assemblyFormat = [{
    attr-dict-with-keyword `producer` $producer `consumers` $consumers
  }];
  let hasVerifier = 1;
}

def Attn_TurnWaitOp : Attn_Op<"turn_wait"> {
  let summary = "Wait for this warpgroup's turn among the consumer warpgroups";
  let description = [{
    Blocks the executing consumer warpgroup until the one before it (round
    robin, warpgroup 0 first) has passed the turn on with
    `attn.turn_signal`. Every consumer warpgroup must take the same number
    of turns; `attn.warp_specialize` starts the round at warpgroup 0 and
    takes the last turn back at the end. Inside the consumers region of
    `attn.warp_specialize` only.

    ```mlir
    attn.turn_wait
    %s = attn.dot %q, %k, %z transpose_b : ...
    attn.turn_signal
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Attn_TurnSignalOp : Attn_Op<"turn_signal"> {
  let summary = "Pass the turn to the next consumer warpgroup";
  let description = [{
    Lets the next consumer warpgroup (round robin) past its
    `attn.turn_wait`, without waiting. Inside the consumers region of
    `attn.warp_specialize` only.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNWARPSPECIALIZEOPS_TD
