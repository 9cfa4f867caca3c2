//===- Wgmma.h - Hopper warpgroup MMA building blocks ------------*- C++ -*-===//
//
// What the sm_90a lowering of attn.dot is made of: shared-memory matrix
// descriptors, wgmma.mma_async with both operands in shared memory (the
// NVVM op) and with A in registers or under a guard (no NVVM op in LLVM
// 22: one inline-PTX helper, here and nowhere else), and the
// fence / commit / wait that order them. The conventions these rely on
// (the 128-byte-swizzle canonical layouts, K-major and MN-major, their
// LBO/SBO, the accumulator and the register A fragment) were checked on an
// H200 by bench/device/probes/wgmma_probe.cu before they were folded in
// here.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTONVVM_WGMMA_H
#define ATTN_LIB_CONVERSION_ATTNTONVVM_WGMMA_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace attn {
namespace nvgpu {

/// The 64-bit descriptor (PTX ISA, "Matrix Descriptor Format") of a
/// 128-byte-swizzled operand whose first 8-row atom starts `byteOffset`
/// (i32) bytes into dynamic shared memory `smem` (!llvm.ptr<3>): start
/// address / 16 in bits 0-13, `lbo` / 16 in bits 16-29, `sbo` / 16 in bits
/// 32-45, swizzle mode 1 (128 bytes) in bits 62-63. A descriptor plus
/// (bytes / 16) addresses `bytes` further (shared addresses stay under
/// 2^18, so the start field never carries), which is how the k-steps and
/// column blocks of one operand are addressed from one base.
Value wgmmaDescriptor(ImplicitLocOpBuilder &b, Value smem, Value byteOffset,
                      int64_t lbo, int64_t sbo);

/// `desc` advanced by `bytes` (a multiple of 16).
Value advanceDescriptor(ImplicitLocOpBuilder &b, Value desc, int64_t bytes);

/// The accumulator of one m64nN wgmma: !llvm.struct of N / 2 f32.
Type wgmmaAccumulatorType(MLIRContext *ctx, int64_t n);

/// acc + A B for one m64nNk16 step, A and B from shared memory (`descA`,
/// `descB`); B is K-major (stored [N, K]) unless `bMNMajor` (stored
/// [K, N], MN-major). `elt` is f16 or bf16. With `overwrite`, A B alone
/// (scale-d 0: `acc`'s values are not read, so it may be undef).
Value wgmmaSS(ImplicitLocOpBuilder &b, Value acc, Value descA, Value descB,
              int64_t n, Type elt, bool bMNMajor, bool overwrite = false);

/// acc + A B for one m64nNk16 step, A from registers (four packed i32: the
/// mma.m16n8k16 A fragment of the warp's 16 rows), B from shared memory.
/// Inline PTX: LLVM 22's NVVM dialect has no register-A wgmma.
Value wgmmaRS(ImplicitLocOpBuilder &b, Value acc, ArrayRef<Value> a,
              Value descB, int64_t n, Type elt, bool bMNMajor);

/// One k-step of a product: A from registers (`aRegs`, four packed i32)
/// or, when there are none, from shared memory (`descA`); B's descriptor.
struct WgmmaStep {
  SmallVector<Value, 4> aRegs;
  Value descA, descB;
};

/// acc + the sum of the steps' A B, m64nNk16 each, issued only when
/// `guard` (an i1) holds and otherwise acc: one inline-PTX statement that
/// branches over all the steps (the NVVM op has no guard, and ptxas
/// serializes wgmma predicated one by one).
Value wgmmaGuarded(ImplicitLocOpBuilder &b, Value acc,
                   ArrayRef<WgmmaStep> steps, int64_t n, Type elt,
                   bool bMNMajor, Value guard);

/// `acc` (an accumulator struct) passed through an empty inline-asm
/// statement with side effects, placed right after the wgmma wait: no read
/// of the accumulator can then be scheduled above the wait (the registers
/// are the wgmma's until it completes, and LLVM sees no dependence between
/// the wait intrinsic and arithmetic on them; CUTLASS's
/// warpgroup_fence_operand does the same).
Value fenceAccumulator(ImplicitLocOpBuilder &b, Value acc);

/// The same fence on f32 registers (an accumulator tile's scalars): the
/// fenced values, in order.
SmallVector<Value> fenceRegisters(ImplicitLocOpBuilder &b, ValueRange regs);

} // namespace nvgpu
} // namespace attn
} // namespace mlir

#endif // ATTN_LIB_CONVERSION_ATTNTONVVM_WGMMA_H
