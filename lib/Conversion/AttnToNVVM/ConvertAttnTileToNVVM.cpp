//===- ConvertAttnTileToNVVM.cpp - tile programs to sm_80 kernels ---------===//
//
// Turns each function holding an attn.program (the output of attn-tile and,
// optionally, attn-split-kv-loop) into a gpu.func kernel in the gpu.module
// @attn_kernels, written with gpu, arith, scf, llvm and nvvm ops, and erases
// the host function: a kernel's host side is the runtime (runtime/), which
// launches it from the metadata this pass attaches (attn.launch).
//
// Algorithm:
//  1. Analyse the program: element type, head dims, tile configuration,
//     mask, softmax scale, which buffer plays Q, K, V, O and LSE. Refuse
//     (with a diagnostic) what this lowering does not handle.
//  2. Create the kernel: pointers and i64 sizes/strides as arguments
//     (ABI in docs/gpu-kernels.md), one CTA per program instance, warps of
//     16 query rows each, dynamic shared memory for the Q tile and one K
//     and one V tile.
//  3. Walk the program body in order, lowering each op:
//     - index arithmetic, memref.dim and attn.kv_range: cloned / rebuilt on
//       the kernel's sizes and block ids;
//     - attn.load: cp.async of the block into swizzled shared memory (the K
//       and V loads of one iteration are issued together, in two groups);
//     - scf.for over K/V blocks: an scf.for whose loop-carried values are
//       the per-thread registers of the running max, sum and accumulator;
//     - attn.dot Q K^T and P V: ldmatrix + mma.sync m16n8k16 loops;
//     - attn.mask, attn.online_softmax, attn.finalize: per-register math on
//       the mma accumulator layout, row reductions by quad shuffles;
//     - arith.truncf of P: repacked into A operands in registers;
//     - attn.store: guarded global stores of O (packed pairs) and LSE.
//
//===----------------------------------------------------------------------===//

#include "attn/Conversion/Passes.h"
#include "attn/Dialect/Attn/Transforms/MaskUtils.h"

#include "WarpMMA.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_CONVERTATTNTILETONVVM
#include "attn/Conversion/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {

enum Role { Q = 0, K, V, O, LSE, NumRoles };
static const char *kRoleNames[] = {"q", "k", "v", "o", "lse"};

//===----------------------------------------------------------------------===//
// Step 1: analysis
//===----------------------------------------------------------------------===//

struct ProgramInfo {
  ProgramOp program;
  TileConfigAttr config;
  int64_t blockM = 0, blockN = 0, warps = 0, d = 0, dv = 0;
  /// 16-row m-tiles per warp: each K/V fragment feeds this many mma.sync.
  int64_t mTiles = 1;
  Type elt;
  MaskAttr mask;
  double scaleLog2e = 0;
  bool hasLse = false;
  std::array<Value, NumRoles> buffers{};
  int64_t smemBytes() const { return 2 * (blockM * d + blockN * d + blockN * dv); }
};

static bool isTransposedDot(Operation *op) {
  auto dot = dyn_cast<DotOp>(op);
  return dot && dot.getTransposeB();
}

static FailureOr<ProgramInfo> analyze(ProgramOp program,
                                      int64_t maxSharedBytes) {
  ProgramInfo info;
  info.program = program;
  auto fail = [&](const Twine &why) {
    return program.emitOpError() << "cannot be lowered to an sm_80 kernel: "
                                 << why;
  };
  info.config = program.getConfigAttr();
  if (!info.config)
    return fail("it carries no tile configuration");
  info.blockM = info.config.getBlockM();
  info.blockN = info.config.getBlockN();
  info.warps = info.config.getWarps();

  // Roles of the buffers, from how they are used.
  bool bad = false;
  program.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      Role role = Q;
      if (load->getParentOfType<scf::ForOp>()) {
        bool feedsScores = llvm::any_of(load->getUsers(), [&](Operation *u) {
          return isTransposedDot(u) && cast<DotOp>(u).getB() == load;
        });
        role = feedsScores ? K : V;
      }
      if (info.buffers[role] && info.buffers[role] != load.getSource())
        bad = true;
      info.buffers[role] = load.getSource();
      int64_t cols = load.getType().getDimSize(1);
      if (role == Q || role == K)
        info.d = cols;
      else
        info.dv = cols;
      info.elt = load.getType().getElementType();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      Role role = store.getValue().getType().getRank() == 2 ? O : LSE;
      info.buffers[role] = store.getDest();
      info.hasLse |= role == LSE;
    } else if (auto range = dyn_cast<KVRangeOp>(op)) {
      info.mask = range.getMask();
    } else if (auto softmax = dyn_cast<OnlineSoftmaxOp>(op)) {
      info.scaleLog2e = softmax.getScaleLog2e().convertToDouble();
    }
  });
  if (bad)
    return fail("one role (Q, K or V) is loaded from two buffers");
  for (int r = Q; r <= O; ++r)
    if (!info.buffers[r])
      return fail(Twine("no ") + kRoleNames[r] +
                  " buffer found; expected the program attn-tile builds");
  if (!info.mask || info.scaleLog2e == 0)
    return fail("expected attn.kv_range and attn.online_softmax in the "
                "program attn-tile builds");
  if (!info.elt.isF16() && !info.elt.isBF16())
    return fail("tensor cores take f16 or bf16 here, not " +
                llvm::formatv("{0}", info.elt).str() +
                " (f32 attention runs on the CPU lowering)");
  for (int64_t dim : {info.d, info.dv})
    if (dim % 64 != 0 || dim > 256)
      return fail("head dims must be 64, 128, 192 or 256, got " +
                  Twine(dim));
  if (info.blockM != 16 * info.warps && info.blockM != 32 * info.warps)
    return fail("block_m must be 16 or 32 x warps (one or two 16-row slices "
                "per warp), got block_m = " +
                Twine(info.blockM) + " with " + Twine(info.warps) + " warps");
  info.mTiles = info.blockM / (16 * info.warps);
  if (info.blockN % 16 != 0)
    return fail("block_n must be a multiple of 16");
  if (info.smemBytes() > maxSharedBytes)
    return fail("tiles need " + Twine(info.smemBytes()) +
                " bytes of shared memory, over the target's " +
                Twine(maxSharedBytes));
  return info;
}

//===----------------------------------------------------------------------===//
// Steps 2-3: kernel emission
//===----------------------------------------------------------------------===//

/// Per-thread registers of tile values in the mma accumulator layout.
/// Row values of a thread: for m-tile mt, rows g (2 mt) and g + 8 (2 mt + 1).
struct RowState {
  SmallVector<Value, 4> rows;
};
/// Accumulator registers: m-tile mt, n8 column tile nt at [mt * NT + nt].
struct AccTile {
  SmallVector<std::array<Value, 4>> tiles;
};
/// P rounded to f16/bf16 and repacked as A operands: m-tile mt, k16 step kk
/// at [mt * KS + kk].
struct PackedA {
  SmallVector<std::array<Value, 4>> steps;
};

class KernelEmitter {
public:
  KernelEmitter(ProgramInfo &info, gpu::GPUFuncOp kernel, ImplicitLocOpBuilder &b,
                Value smemBase)
      : info(info), b(b),
        mma(b, info.elt, smemBase, 32 * info.warps) {
    Block &entry = kernel.getBody().front();
    for (int r = 0; r < NumRoles; ++r)
      ptr[r] = entry.getArgument(r);
    auto arg = [&](int i) -> Value { return entry.getArgument(NumRoles + i); };
    auto asIndex = [&](Value v) -> Value {
      return arith::IndexCastOp::create(b, b.getIndexType(), v);
    };
    batch = asIndex(arg(0));
    hq = asIndex(arg(1));
    hkv = asIndex(arg(2));
    nq = asIndex(arg(3));
    nk = asIndex(arg(4));
    for (int r = 0; r < NumRoles; ++r)
      for (int s = 0; s < 3; ++s)
        if (r != LSE || s < 2)
          strides[r][s] = arg(5 + 3 * r + s);
    // Values from outside the program (sizes, constants, block ids) are
    // materialised before this op, at the top of the kernel, so that they
    // dominate every use whichever loop asks for them first.
    prologueEnd = mma.i32(0).getDefiningOp();
  }

  LogicalResult emit();

private:
  // Values of the host function / program, materialised in the kernel.
  FailureOr<Value> lookup(Value v);
  LogicalResult cloneScalarOp(Operation *op);

  // Tile ops.
  LogicalResult emitLoad(LoadOp load, int64_t smemOffset, Role role,
                         Value row0Override = Value());
  FailureOr<Value> rowOffset(Role role, ValueRange indices);
  AccTile emitScores(DotOp dot);
  void emitMask(MaskOp op, AccTile &s, Value row0, Value col0);
  void emitOnlineSoftmax(AccTile &s, RowState &m, RowState &l, AccTile &acc);
  PackedA packProbs(const AccTile &p);
  void emitPV(const PackedA &p, AccTile &acc, Value col0Unused);
  LogicalResult emitLoop(scf::ForOp loop);
  void unflatten(ValueRange values, RowState &m, RowState &l, AccTile &acc);
  LogicalResult emitStores(FinalizeOp fin, ArrayRef<StoreOp> stores);

  /// Row of this thread within the block (i32) for m-tile `mt`, half 0/1.
  Value rowOf(int64_t mt, int half);
  Value toI32(Value index) {
    return arith::IndexCastOp::create(b, b.getI32Type(), index);
  }
  Value toIndex(Value i32v) {
    return arith::IndexCastOp::create(b, b.getIndexType(), i32v);
  }

  ProgramInfo &info;
  ImplicitLocOpBuilder &b;
  WarpMMA mma;
  std::array<Value, NumRoles> ptr;
  std::array<std::array<Value, 3>, NumRoles> strides{};
  Value batch, hq, hkv, nq, nk;
  IRMapping mapping;
  // Per-role global offset (element units, i64) of the (batch, head) plane
  // and the first row of the block, for the loads/stores seen.
  DenseMap<Value, RowState> rowStates;
  DenseMap<Value, AccTile> accTiles;
  DenseMap<Value, PackedA> packed;
  DenseMap<Value, double> splats;
  Operation *prologueEnd;
  // K prefetch across the K/V loops (see emit()): the K load to repeat for
  // the next block and the end of the visible block range.
  LoadOp prefetchK;
  Value kvUpper;
  LogicalResult issueK(Value blockIndex);
  bool findPrefetchable(ArrayRef<scf::ForOp> loops);
};

FailureOr<Value> KernelEmitter::lookup(Value v) {
  if (Value mapped = mapping.lookupOrNull(v))
    return mapped;
  OpBuilder::InsertionGuard guard(b);
  if (!info.program->isAncestor(v.getParentBlock()->getParentOp()) ||
      isa<BlockArgument>(v))
    b.setInsertionPoint(prologueEnd);
  if (auto blockArg = dyn_cast<BlockArgument>(v)) {
    if (blockArg.getOwner() == &info.program.getBody().front()) {
      Value id = gpu::BlockIdOp::create(
          b, blockArg.getArgNumber() == 0 ? gpu::Dimension::x
                                          : gpu::Dimension::y);
      mapping.map(v, id);
      return id;
    }
    return emitError(v.getLoc()) << "unexpected block argument in the program";
  }
  Operation *def = v.getDefiningOp();
  if (auto dim = dyn_cast<memref::DimOp>(def)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    Value source = dim.getSource();
    Value result;
    if (index && source == info.buffers[Q]) {
      if (*index == 0)
        result = batch;
      else if (*index == 1)
        result = hq;
      else if (*index == 2)
        result = nq;
    } else if (index && (source == info.buffers[K] ||
                         source == info.buffers[V])) {
      if (*index == 0)
        result = batch;
      else if (*index == 1)
        result = hkv;
      else if (*index == 2)
        result = nk;
    }
    if (!result)
      return dim.emitOpError() << "is not a size the kernel receives";
    mapping.map(v, result);
    return result;
  }
  if (failed(cloneScalarOp(def)))
    return failure();
  return mapping.lookup(v);
}

LogicalResult KernelEmitter::cloneScalarOp(Operation *op) {
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
      llvm::any_of(op->getResultTypes(),
                   [](Type t) { return isa<ShapedType>(t); }))
    return op->emitOpError() << "has no sm_80 lowering inside attn.program";
  for (Value operand : op->getOperands())
    if (failed(lookup(operand)))
      return failure();
  b.clone(*op, mapping);
  return success();
}

Value KernelEmitter::rowOf(int64_t mt, int half) {
  // warp * 16 * MT + 16 * mt + g + 8 * half
  return arith::AddIOp::create(
      b, arith::MulIOp::create(b, mma.warp, mma.i32(16 * info.mTiles)),
      arith::AddIOp::create(b, mma.group, mma.i32(16 * mt + 8 * half)));
}

/// Element offset (i64) of row 0 of the (batch, head) plane addressed by
/// `indices` = [b, h, row, col] in the buffer of `role`.
FailureOr<Value> KernelEmitter::rowOffset(Role role, ValueRange indices) {
  Value offset = mma.i64(0);
  for (int s = 0; s < 2; ++s) {
    FailureOr<Value> idx = lookup(indices[s]);
    if (failed(idx))
      return failure();
    Value i64v = arith::IndexCastOp::create(b, b.getI64Type(), *idx);
    offset = arith::AddIOp::create(
        b, offset, arith::MulIOp::create(b, i64v, strides[role][s]));
  }
  return offset;
}

LogicalResult KernelEmitter::emitLoad(LoadOp load, int64_t smemOffset,
                                      Role role, Value row0Override) {
  ValueRange idx = load.getIndices();
  if (idx.size() != 4 || !matchPattern(idx[3], m_Zero()))
    return load.emitOpError() << "the sm_80 lowering loads whole rows only";
  FailureOr<Value> plane = rowOffset(role, idx);
  FailureOr<Value> row0 =
      row0Override ? FailureOr<Value>(row0Override) : lookup(idx[2]);
  if (failed(plane) || failed(row0))
    return failure();
  Value base = LLVM::GEPOp::create(b, ptr[role].getType(), info.elt,
                                   ptr[role], ArrayRef<LLVM::GEPArg>{*plane});
  Value bound = toI32(role == Q ? nq : nk);
  RankedTensorType type = load.getType();
  mma.copyTileAsync(base, strides[role][2], toI32(*row0), bound,
                    type.getDimSize(0), type.getDimSize(1), smemOffset);
  return success();
}

AccTile KernelEmitter::emitScores(DotOp dot) {
  // S[16 MT x bn] per warp = Q[16 MT x d] K^T; Q at smem 0, K after it.
  int64_t kOffset = 2 * info.blockM * info.d;
  int64_t nTiles = info.blockN / 8, mTiles = info.mTiles;
  AccTile s;
  Value zero = mma.f32(0.0);
  s.tiles.assign(mTiles * nTiles, {zero, zero, zero, zero});
  Value lane = mma.lane;
  Value sub = arith::DivUIOp::create(b, lane, mma.i32(8)); // matrix 0..3
  Value r8 = arith::RemUIOp::create(b, lane, mma.i32(8));
  // A (Q): matrix i covers rows 8*(i%2).., cols 8*(i/2)..
  Value aRow0 = arith::AddIOp::create(
      b,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, mma.warp, mma.i32(16 * mTiles)), r8),
      arith::MulIOp::create(b, arith::RemUIOp::create(b, sub, mma.i32(2)),
                            mma.i32(8)));
  Value aColOff = arith::MulIOp::create(
      b, arith::DivUIOp::create(b, sub, mma.i32(2)), mma.i32(8));
  // B (K rows = keys): matrix i covers keys 8*(i/2).., d cols 8*(i%2)..
  Value bRowOff = arith::AddIOp::create(
      b, r8,
      arith::MulIOp::create(b, arith::DivUIOp::create(b, sub, mma.i32(2)),
                            mma.i32(8)));
  Value bColOff = arith::MulIOp::create(
      b, arith::RemUIOp::create(b, sub, mma.i32(2)), mma.i32(8));
  for (int64_t kk = 0; kk < info.d / 16; ++kk) {
    Value aCol = arith::AddIOp::create(b, aColOff, mma.i32(16 * kk));
    SmallVector<std::array<Value, 4>> a;
    for (int64_t mt = 0; mt < mTiles; ++mt) {
      Value aRow = arith::AddIOp::create(b, aRow0, mma.i32(16 * mt));
      a.push_back(mma.ldmatrixX4(mma.swizzled(aRow, aCol, info.d), false));
    }
    Value bCol = arith::AddIOp::create(b, bColOff, mma.i32(16 * kk));
    for (int64_t nt = 0; nt < nTiles; nt += 2) {
      Value bRow = arith::AddIOp::create(b, bRowOff, mma.i32(8 * nt));
      Value off = arith::AddIOp::create(b, mma.i32(kOffset),
                                        mma.swizzled(bRow, bCol, info.d));
      std::array<Value, 4> kb = mma.ldmatrixX4(off, false);
      // One K fragment feeds every m-tile of the warp.
      for (int64_t mt = 0; mt < mTiles; ++mt) {
        auto &t0 = s.tiles[mt * nTiles + nt], &t1 = s.tiles[mt * nTiles + nt + 1];
        t0 = mma.mma(a[mt], {kb[0], kb[1]}, t0);
        t1 = mma.mma(a[mt], {kb[2], kb[3]}, t1);
      }
    }
  }
  (void)dot;
  return s;
}

void KernelEmitter::emitMask(MaskOp op, AccTile &s, Value row0, Value col0) {
  // Per row, the visible keys are one interval [lo, hi); per element, two
  // compares against the key's offset from the block start.
  Value negInf = mma.f32(-std::numeric_limits<double>::infinity());
  int64_t nTiles = info.blockN / 8;
  Value col0i = toI32(col0);
  Value laneCol = arith::MulIOp::create(b, mma.quadLane, mma.i32(2));
  for (int64_t mt = 0; mt < info.mTiles; ++mt) {
    for (int half = 0; half < 2; ++half) {
      Value row = arith::AddIOp::create(b, row0, toIndex(rowOf(mt, half)));
      auto [lo, hi] =
          buildVisibleKeys(b, b.getLoc(), op.getMask(), row, nq, nk);
      // Bounds relative to this thread's first column in the block.
      Value base = arith::AddIOp::create(b, col0i, laneCol);
      Value loRel = arith::SubIOp::create(b, toI32(lo), base);
      Value hiRel = arith::SubIOp::create(b, toI32(hi), base);
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        for (int e = 0; e < 2; ++e) {
          Value c = mma.i32(8 * nt + e);
          Value visible = arith::AndIOp::create(
              b,
              arith::CmpIOp::create(b, arith::CmpIPredicate::sge, c, loRel),
              arith::CmpIOp::create(b, arith::CmpIPredicate::slt, c, hiRel));
          Value &reg = s.tiles[mt * nTiles + nt][2 * half + e];
          reg = arith::SelectOp::create(b, visible, reg, negInf);
        }
      }
    }
  }
}

void KernelEmitter::emitOnlineSoftmax(AccTile &s, RowState &m, RowState &l,
                                      AccTile &acc) {
  Value scale = mma.f32(info.scaleLog2e);
  Value negInf = mma.f32(-std::numeric_limits<double>::infinity());
  Value zero = mma.f32(0.0);
  // With a positive scale the row max of the raw scores, scaled once, is the
  // max of the scaled ones, and s * scale - ref is one FMA per element.
  bool positive = info.scaleLog2e > 0;
  int64_t nTiles = info.blockN / 8, dTiles = info.dv / 8;
  for (int64_t mt = 0; mt < info.mTiles; ++mt)
  for (int half = 0; half < 2; ++half) {
    auto sTiles = MutableArrayRef(s.tiles).slice(mt * nTiles, nTiles);
    auto accTiles = MutableArrayRef(acc.tiles).slice(mt * dTiles, dTiles);
    int64_t r = 2 * mt + half;
    Value rowMax = negInf;
    for (auto &tile : sTiles)
      for (int e = 0; e < 2; ++e) {
        Value &reg = tile[2 * half + e];
        if (!positive)
          reg = arith::MulFOp::create(b, reg, scale);
        rowMax = arith::MaximumFOp::create(b, rowMax, reg);
      }
    rowMax = mma.quadReduce(rowMax, /*isMax=*/true);
    if (positive)
      rowMax = arith::MulFOp::create(b, rowMax, scale);
    Value newMax = arith::MaximumFOp::create(b, m.rows[r], rowMax);
    Value empty = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, newMax,
                                        negInf);
    Value ref = arith::SelectOp::create(b, empty, zero, newMax);
    Value negRef = arith::NegFOp::create(b, ref);
    Value sum = zero;
    for (auto &tile : sTiles)
      for (int e = 0; e < 2; ++e) {
        Value &reg = tile[2 * half + e];
        Value t = positive ? Value(LLVM::FMAOp::create(b, reg, scale, negRef))
                           : Value(arith::AddFOp::create(b, reg, negRef));
        reg = mma.exp2(t);
        sum = arith::AddFOp::create(b, sum, reg);
      }
    sum = mma.quadReduce(sum, /*isMax=*/false);
    Value alpha = mma.exp2(arith::AddFOp::create(b, m.rows[r], negRef));
    l.rows[r] = arith::AddFOp::create(
        b, arith::MulFOp::create(b, l.rows[r], alpha), sum);
    m.rows[r] = newMax;
    for (auto &tile : accTiles)
      for (int e = 0; e < 2; ++e)
        tile[2 * half + e] =
            arith::MulFOp::create(b, tile[2 * half + e], alpha);
  }
}

PackedA KernelEmitter::packProbs(const AccTile &p) {
  // The accumulator of two adjacent n8 tiles is exactly the A operand of one
  // k16 step: a0 = (g, 2t..) of tile 2k, a1 = (g+8, ..) of tile 2k,
  // a2 = (g, ..) of tile 2k+1, a3 = (g+8, ..) of tile 2k+1.
  PackedA out;
  int64_t nTiles = info.blockN / 8;
  for (int64_t mt = 0; mt < info.mTiles; ++mt)
    for (int64_t k = 0; k < nTiles; k += 2) {
      const auto &lo = p.tiles[mt * nTiles + k], &hi = p.tiles[mt * nTiles + k + 1];
      out.steps.push_back({mma.pack(lo[0], lo[1]), mma.pack(lo[2], lo[3]),
                           mma.pack(hi[0], hi[1]), mma.pack(hi[2], hi[3])});
    }
  return out;
}

void KernelEmitter::emitPV(const PackedA &p, AccTile &acc, Value) {
  // V[bn x dv] at smem after Q and K; B operands via ldmatrix.trans:
  // matrix i covers keys 8*(i%2).., value cols 8*(i/2)..
  int64_t vOffset = 2 * (info.blockM * info.d + info.blockN * info.d);
  Value sub = arith::DivUIOp::create(b, mma.lane, mma.i32(8));
  Value r8 = arith::RemUIOp::create(b, mma.lane, mma.i32(8));
  Value keyOff = arith::AddIOp::create(
      b, r8,
      arith::MulIOp::create(b, arith::RemUIOp::create(b, sub, mma.i32(2)),
                            mma.i32(8)));
  Value colOff = arith::MulIOp::create(
      b, arith::DivUIOp::create(b, sub, mma.i32(2)), mma.i32(8));
  int64_t kSteps = info.blockN / 16, dTiles = info.dv / 8;
  for (int64_t kk = 0; kk < kSteps; ++kk) {
    Value key = arith::AddIOp::create(b, keyOff, mma.i32(16 * kk));
    for (int64_t dt = 0; dt < dTiles; dt += 2) {
      Value col = arith::AddIOp::create(b, colOff, mma.i32(8 * dt));
      Value off = arith::AddIOp::create(b, mma.i32(vOffset),
                                        mma.swizzled(key, col, info.dv));
      std::array<Value, 4> vb = mma.ldmatrixX4(off, /*transpose=*/true);
      // One V fragment feeds every m-tile of the warp.
      for (int64_t mt = 0; mt < info.mTiles; ++mt) {
        const auto &a = p.steps[mt * kSteps + kk];
        auto &t0 = acc.tiles[mt * dTiles + dt], &t1 = acc.tiles[mt * dTiles + dt + 1];
        t0 = mma.mma(a, {vb[0], vb[1]}, t0);
        t1 = mma.mma(a, {vb[2], vb[3]}, t1);
      }
    }
  }
}

/// The K row of block `j` in the tile program is `j * block_n`.
static bool isBlockStart(Value row, Value iv, int64_t blockN) {
  auto mul = row.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return false;
  Value lhs = mul.getLhs(), rhs = mul.getRhs();
  if (rhs == iv)
    std::swap(lhs, rhs);
  APInt factor;
  return lhs == iv && matchPattern(rhs, m_ConstantInt(&factor)) &&
         factor.getSExtValue() == blockN;
}

bool KernelEmitter::findPrefetchable(ArrayRef<scf::ForOp> loops) {
  // The loops must cover one contiguous block range, step 1, each loading
  // the same K plane at row j * block_n.
  LoadOp first;
  for (size_t i = 0; i < loops.size(); ++i) {
    scf::ForOp loop = loops[i];
    if (!matchPattern(loop.getStep(), m_One()))
      return false;
    if (i > 0 && scf::ForOp(loops[i - 1]).getUpperBound() != loop.getLowerBound())
      return false;
    LoadOp kLoad;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto load = dyn_cast<LoadOp>(op))
        if (llvm::any_of(load->getUsers(), isTransposedDot))
          kLoad = load;
    if (!kLoad || !isBlockStart(kLoad.getIndices()[2],
                                loop.getInductionVar(), info.blockN))
      return false;
    if (first && (first.getIndices()[0] != kLoad.getIndices()[0] ||
                  first.getIndices()[1] != kLoad.getIndices()[1]))
      return false;
    if (!first)
      first = kLoad;
  }
  prefetchK = first;
  return bool(first);
}

LogicalResult KernelEmitter::issueK(Value blockIndex) {
  Value row0 = arith::MulIOp::create(
      b, blockIndex, arith::ConstantIndexOp::create(b, info.blockN));
  return emitLoad(prefetchK, 2 * info.blockM * info.d, K, row0);
}

/// The inverse of flatten().
void KernelEmitter::unflatten(ValueRange values, RowState &m, RowState &l,
                              AccTile &acc) {
  int64_t rows = 2 * info.mTiles;
  m.rows.assign(values.begin(), values.begin() + rows);
  l.rows.assign(values.begin() + rows, values.begin() + 2 * rows);
  for (int64_t i = 2 * rows; i + 3 < (int64_t)values.size(); i += 4)
    acc.tiles.push_back({values[i], values[i + 1], values[i + 2], values[i + 3]});
}

/// Flattens (m, l, acc) into the scf.for's loop-carried registers.
static SmallVector<Value> flatten(const RowState &m, const RowState &l,
                                  const AccTile &acc) {
  SmallVector<Value> out(m.rows.begin(), m.rows.end());
  out.append(l.rows.begin(), l.rows.end());
  for (const auto &tile : acc.tiles)
    out.append(tile.begin(), tile.end());
  return out;
}

LogicalResult KernelEmitter::emitLoop(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 3)
    return loop.emitOpError() << "expected the (max, sum, acc) loop of attn-tile";
  // Loop-carried state on entry.
  auto stateOf = [&](Value v, RowState &m) -> LogicalResult {
    if (rowStates.count(v)) {
      m = rowStates[v];
      return success();
    }
    if (!splats.count(v))
      return loop.emitOpError() << "loop-carried row state of unknown origin";
    Value c = mma.f32(splats[v]);
    m.rows.assign(2 * info.mTiles, c);
    return success();
  };
  RowState m0, l0;
  AccTile acc0;
  if (failed(stateOf(loop.getInitArgs()[0], m0)) ||
      failed(stateOf(loop.getInitArgs()[1], l0)))
    return failure();
  Value accInit = loop.getInitArgs()[2];
  if (accTiles.count(accInit)) {
    acc0 = accTiles[accInit];
  } else if (splats.count(accInit)) {
    Value c = mma.f32(splats[accInit]);
    acc0.tiles.assign(info.mTiles * info.dv / 8, {c, c, c, c});
  } else {
    return loop.emitOpError() << "accumulator of unknown origin";
  }
  FailureOr<Value> lb = lookup(loop.getLowerBound());
  FailureOr<Value> ub = lookup(loop.getUpperBound());
  FailureOr<Value> step = lookup(loop.getStep());
  if (failed(lb) || failed(ub) || failed(step))
    return failure();

  SmallVector<Value> init = flatten(m0, l0, acc0);
  auto newLoop = scf::ForOp::create(b, *lb, *ub, *step, init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(newLoop.getBody());
  mapping.map(loop.getInductionVar(), newLoop.getInductionVar());
  // Unflatten the region arguments.
  ValueRange args = newLoop.getRegionIterArgs();
  RowState m, l;
  AccTile acc;
  unflatten(args, m, l, acc);
  rowStates[loop.getRegionIterArgs()[0]] = m;
  rowStates[loop.getRegionIterArgs()[1]] = l;
  accTiles[loop.getRegionIterArgs()[2]] = acc;

  int64_t kOffset = 2 * info.blockM * info.d;
  int64_t vOffset = kOffset + 2 * info.blockN * info.d;
  LoadOp vLoad;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (load == vLoad)
        continue; // issued with K
      bool isK = llvm::any_of(load->getUsers(), isTransposedDot);
      if (!isK)
        return load.emitOpError() << "expected K to be loaded before V";
      // With prefetching, K of this block is already in flight.
      if (!prefetchK) {
        if (failed(emitLoad(load, kOffset, K)))
          return failure();
        NVVM::CpAsyncCommitGroupOp::create(b);
      }
      // Issue V right behind K so that both copies are in flight at once.
      for (Operation &later : loop.getBody()->without_terminator())
        if (auto other = dyn_cast<LoadOp>(later))
          if (other != load)
            vLoad = other;
      if (!vLoad)
        return loop.emitOpError() << "expected a V load in the loop";
      for (Value idx : vLoad.getIndices())
        if (failed(lookup(idx)))
          return failure();
      if (failed(emitLoad(vLoad, vOffset, V)))
        return failure();
      NVVM::CpAsyncCommitGroupOp::create(b);
      continue;
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      if (dot.getTransposeB()) {
        // Q and K have landed (V may still be in flight).
        NVVM::CpAsyncWaitGroupOp::create(b, 1);
        gpu::BarrierOp::create(b);
        accTiles[dot.getResult()] = emitScores(dot);
        if (prefetchK) {
          // Every warp is done with K: fetch the next block's K into the
          // same buffer while the softmax and P x V run.
          gpu::BarrierOp::create(b);
          Value next = arith::AddIOp::create(
              b, newLoop.getInductionVar(),
              arith::ConstantIndexOp::create(b, 1));
          Value more = arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                             next, kvUpper);
          auto ifOp = scf::IfOp::create(b, more, /*withElseRegion=*/false);
          {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(ifOp.thenBlock());
            if (failed(issueK(next)))
              return failure();
          }
          // One group per block whether or not it holds a copy, so that
          // the wait counts below stay the same in every iteration.
          NVVM::CpAsyncCommitGroupOp::create(b);
        }
        continue;
      }
      if (!packed.count(dot.getA()) || !accTiles.count(dot.getAcc()))
        return dot.emitOpError() << "expected P x V into the accumulator";
      // V has landed; with prefetching the next K may still be in flight.
      NVVM::CpAsyncWaitGroupOp::create(b, prefetchK ? 1 : 0);
      gpu::BarrierOp::create(b);
      AccTile out = accTiles[dot.getAcc()];
      emitPV(packed[dot.getA()], out, Value());
      accTiles[dot.getResult()] = out;
      continue;
    }
    if (auto maskOp = dyn_cast<MaskOp>(op)) {
      AccTile s = accTiles[maskOp.getScores()];
      FailureOr<Value> row0 = lookup(maskOp.getRowStart());
      FailureOr<Value> col0 = lookup(maskOp.getColStart());
      if (failed(row0) || failed(col0))
        return failure();
      emitMask(maskOp, s, *row0, *col0);
      accTiles[maskOp.getResult()] = s;
      continue;
    }
    if (auto softmax = dyn_cast<OnlineSoftmaxOp>(op)) {
      if (!accTiles.count(softmax.getScores()) ||
          !rowStates.count(softmax.getMax()) ||
          !rowStates.count(softmax.getSum()) ||
          !accTiles.count(softmax.getAcc()))
        return softmax.emitOpError() << "operands of unknown origin";
      AccTile s = accTiles[softmax.getScores()];
      RowState mm = rowStates[softmax.getMax()];
      RowState ll = rowStates[softmax.getSum()];
      AccTile a = accTiles[softmax.getAcc()];
      emitOnlineSoftmax(s, mm, ll, a);
      accTiles[softmax.getProbs()] = s;
      rowStates[softmax.getNewMax()] = mm;
      rowStates[softmax.getNewSum()] = ll;
      accTiles[softmax.getNewAcc()] = a;
      continue;
    }
    if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
      if (!accTiles.count(trunc.getIn()))
        return trunc.emitOpError() << "expected to round P";
      packed[trunc.getResult()] = packProbs(accTiles[trunc.getIn()]);
      continue;
    }
    if (failed(cloneScalarOp(&op)))
      return failure();
  }
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  ValueRange yielded = yield.getOperands();
  if (!rowStates.count(yielded[0]) || !rowStates.count(yielded[1]) ||
      !accTiles.count(yielded[2]))
    return yield.emitOpError() << "yields state of unknown origin";
  // Every warp is done with this K/V block before the next one overwrites it.
  gpu::BarrierOp::create(b);
  scf::YieldOp::create(b, flatten(rowStates[yielded[0]], rowStates[yielded[1]],
                                  accTiles[yielded[2]]));

  // Results.
  ValueRange res = newLoop.getResults();
  RowState mr, lr;
  AccTile ar;
  unflatten(res, mr, lr, ar);
  rowStates[loop.getResult(0)] = mr;
  rowStates[loop.getResult(1)] = lr;
  accTiles[loop.getResult(2)] = ar;
  return success();
}

LogicalResult KernelEmitter::emitStores(FinalizeOp fin,
                                        ArrayRef<StoreOp> stores) {
  if (!accTiles.count(fin.getAcc()) || !rowStates.count(fin.getMax()) ||
      !rowStates.count(fin.getSum()))
    return fin.emitOpError() << "operands of unknown origin";
  AccTile acc = accTiles[fin.getAcc()];
  RowState m = rowStates[fin.getMax()], l = rowStates[fin.getSum()];
  Value zero = mma.f32(0.0), one = mma.f32(1.0);
  Value negInf = mma.f32(-std::numeric_limits<double>::infinity());
  StoreOp oStore, lseStore;
  for (StoreOp s : stores)
    (s.getValue().getType().getRank() == 2 ? oStore : lseStore) = s;
  FailureOr<Value> oPlane = rowOffset(O, oStore.getIndices());
  FailureOr<Value> row0 = lookup(oStore.getIndices()[2]);
  if (failed(oPlane) || failed(row0))
    return failure();
  FailureOr<Value> lsePlane =
      lseStore ? rowOffset(LSE, lseStore.getIndices()) : FailureOr<Value>();
  if (lseStore && failed(lsePlane))
    return failure();
  int64_t dTiles = info.dv / 8;
  for (int64_t mt = 0; mt < info.mTiles; ++mt)
  for (int half = 0; half < 2; ++half) {
    int64_t r = 2 * mt + half;
    Value positive = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT,
                                           l.rows[r], zero);
    Value inv = arith::SelectOp::create(
        b, positive, arith::DivFOp::create(b, one, l.rows[r]), zero);
    Value row = arith::AddIOp::create(b, *row0, toIndex(rowOf(mt, half)));
    Value inBounds =
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, row, nq);
    auto ifOp = scf::IfOp::create(b, inBounds, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value row64 = arith::IndexCastOp::create(b, b.getI64Type(), row);
    Value rowBase = arith::AddIOp::create(
        b, *oPlane, arith::MulIOp::create(b, row64, strides[O][2]));
    for (int64_t dt = 0; dt < dTiles; ++dt) {
      Value x = arith::MulFOp::create(b, acc.tiles[mt * dTiles + dt][2 * half], inv);
      Value y = arith::MulFOp::create(b, acc.tiles[mt * dTiles + dt][2 * half + 1], inv);
      Value col = arith::AddIOp::create(
          b, arith::MulIOp::create(b, mma.quadLane, mma.i32(2)),
          mma.i32(8 * dt));
      Value off = arith::AddIOp::create(
          b, rowBase, arith::ExtUIOp::create(b, b.getI64Type(), col));
      Value dst = LLVM::GEPOp::create(b, ptr[O].getType(), info.elt, ptr[O],
                                      ArrayRef<LLVM::GEPArg>{off});
      LLVM::StoreOp::create(b, mma.pack(x, y), dst, /*alignment=*/4);
    }
    if (lseStore) {
      Value lse = arith::MulFOp::create(
          b,
          arith::AddFOp::create(
              b, m.rows[r],
              mma.log2(arith::SelectOp::create(b, positive, l.rows[r], one))),
          mma.f32(M_LN2));
      lse = arith::SelectOp::create(b, positive, lse, negInf);
      Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                          mma.quadLane, mma.i32(0));
      auto lseIf = scf::IfOp::create(b, first, false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(lseIf.thenBlock());
      Value off = arith::AddIOp::create(b, *lsePlane, row64);
      Value dst = LLVM::GEPOp::create(b, ptr[LSE].getType(), b.getF32Type(),
                                      ptr[LSE], ArrayRef<LLVM::GEPArg>{off});
      LLVM::StoreOp::create(b, lse, dst, /*alignment=*/4);
    }
  }
  return success();
}

LogicalResult KernelEmitter::emit() {
  Block &body = info.program.getBody().front();
  FinalizeOp fin;
  SmallVector<StoreOp> stores;
  SmallVector<scf::ForOp> loops;
  for (Operation &op : body)
    if (auto loop = dyn_cast<scf::ForOp>(op))
      loops.push_back(loop);
  bool prefetch = !loops.empty() && findPrefetchable(loops);
  prefetchK = LoadOp();
  for (Operation &op : body) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (failed(emitLoad(load, /*smemOffset=*/0, Q)))
        return failure();
      NVVM::CpAsyncCommitGroupOp::create(b);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && prefetch && loop == loops.front()) {
      // Prologue of the K prefetch: the first visible block's K.
      FailureOr<Value> lo = lookup(loop.getLowerBound());
      FailureOr<Value> hi = lookup(loops.back().getUpperBound());
      if (failed(lo) || failed(hi) || !findPrefetchable(loops))
        return failure();
      kvUpper = *hi;
      Value any = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, *lo, *hi);
      auto ifOp = scf::IfOp::create(b, any, /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        if (failed(issueK(*lo)))
          return failure();
      }
      NVVM::CpAsyncCommitGroupOp::create(b);
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue())) {
        if (!dense.isSplat())
          return cst.emitOpError() << "only splat tile constants lower here";
        splats[cst.getResult()] =
            dense.getSplatValue<APFloat>().convertToDouble();
        continue;
      }
    }
    if (auto range = dyn_cast<KVRangeOp>(op)) {
      FailureOr<Value> r0 = lookup(range.getRowStart());
      FailureOr<Value> q = lookup(range.getNumQueries());
      FailureOr<Value> k = lookup(range.getNumKeys());
      if (failed(r0) || failed(q) || failed(k))
        return failure();
      auto [lo, hi] = buildKVRange(b, range.getLoc(), range.getKind(),
                                   range.getMask(), range.getBlockM(),
                                   range.getBlockN(), *r0, *q, *k);
      mapping.map(range.getLower(), lo);
      mapping.map(range.getUpper(), hi);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (failed(emitLoop(loop)))
        return failure();
      continue;
    }
    if (auto f = dyn_cast<FinalizeOp>(op)) {
      fin = f;
      continue;
    }
    if (isa<arith::TruncFOp>(op))
      continue; // O is rounded as it is stored.
    if (auto store = dyn_cast<StoreOp>(op)) {
      stores.push_back(store);
      continue;
    }
    if (failed(cloneScalarOp(&op)))
      return failure();
  }
  if (!fin || stores.empty())
    return info.program.emitOpError() << "expected attn.finalize and attn.store";
  return emitStores(fin, stores);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module) {
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>("attn_kernels"))
    return existing;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
  OpBuilder inner(gpuModule.getBodyRegion());
  // Dynamic shared memory: one extern array, sized at launch.
  LLVM::GlobalOp::create(
      inner, module.getLoc(),
      LLVM::LLVMArrayType::get(inner.getI8Type(), 0), /*isConstant=*/false,
      LLVM::Linkage::External, "attn_smem", Attribute(), /*alignment=*/128,
      /*addrSpace=*/3);
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(module.getContext()));
  return gpuModule;
}

static LogicalResult lowerFunction(func::FuncOp func, ProgramOp program,
                                   gpu::GPUModuleOp gpuModule,
                                   int64_t maxSharedBytes) {
  FailureOr<ProgramInfo> info = analyze(program, maxSharedBytes);
  if (failed(info))
    return failure();
  MLIRContext *ctx = func.getContext();
  Location loc = program.getLoc();
  OpBuilder mb(gpuModule.getBodyRegion());
  mb.setInsertionPointToEnd(gpuModule.getBody());
  auto ptrG = LLVM::LLVMPointerType::get(ctx, 1);
  SmallVector<Type> args(NumRoles, ptrG);
  // B, Hq, Hkv, Nq, Nk, then (batch, head, row) strides of q, k, v, o and
  // (batch, head) strides of lse, all i64 and in elements.
  args.append(5 + 3 * 4 + 2, mb.getI64Type());
  auto kernel = gpu::GPUFuncOp::create(mb, loc, func.getSymName(),
                                       mb.getFunctionType(args, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), mb.getUnitAttr());
  int64_t threads = 32 * info->warps;
  kernel.setKnownBlockSizeAttr(
      mb.getDenseI32ArrayAttr({(int32_t)threads, 1, 1}));
  NamedAttrList launch;
  launch.append("block_m", mb.getI64IntegerAttr(info->blockM));
  launch.append("block_n", mb.getI64IntegerAttr(info->blockN));
  launch.append("warps", mb.getI64IntegerAttr(info->warps));
  launch.append("stages", mb.getI64IntegerAttr(info->config.getStages()));
  launch.append("threads", mb.getI64IntegerAttr(threads));
  launch.append("shared_bytes", mb.getI64IntegerAttr(info->smemBytes()));
  launch.append("head_dim", mb.getI64IntegerAttr(info->d));
  launch.append("value_head_dim", mb.getI64IntegerAttr(info->dv));
  launch.append("element_type", TypeAttr::get(info->elt));
  launch.append("mask", info->mask);
  launch.append("has_lse", mb.getBoolAttr(info->hasLse));
  launch.append("scale_log2e", mb.getF64FloatAttr(info->scaleLog2e));
  kernel->setAttr("attn.launch", launch.getDictionary(ctx));

  ImplicitLocOpBuilder b(loc, mb);
  b.setInsertionPointToStart(&kernel.getBody().front());
  Value smem = LLVM::AddressOfOp::create(
      b, LLVM::LLVMPointerType::get(ctx, 3), "attn_smem");
  KernelEmitter emitter(*info, kernel, b, smem);
  if (failed(emitter.emit())) {
    kernel.erase();
    return failure();
  }
  gpu::ReturnOp::create(b);
  func.erase();
  return success();
}

struct ConvertAttnTileToNVVMPass
    : public attn::impl::ConvertAttnTileToNVVMBase<ConvertAttnTileToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, ProgramOp>> work;
    bool failedAny = false;
    module.walk([&](func::FuncOp func) {
      SmallVector<ProgramOp> programs;
      func.walk([&](ProgramOp p) { programs.push_back(p); });
      if (programs.size() > 1) {
        func.emitOpError() << "holds " << programs.size()
                           << " attn.program ops; the GPU lowering makes one "
                              "kernel per function";
        failedAny = true;
      } else if (programs.size() == 1) {
        work.push_back({func, programs.front()});
      }
    });
    if (failedAny)
      return signalPassFailure();
    if (work.empty())
      return;
    gpu::GPUModuleOp gpuModule = getOrCreateKernelModule(module);
    for (auto [func, program] : work)
      if (failed(lowerFunction(func, program, gpuModule, maxSharedBytes)))
        failedAny = true;
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
