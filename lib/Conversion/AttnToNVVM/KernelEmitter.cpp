//===- KernelEmitter.cpp - one attn.program to one sm_80 kernel -----------===//

#include "KernelEmitter.h"
#include "attn/Dialect/Attn/Transforms/MaskUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::sm80;

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
                                      Role role, Value row0Override,
                                      Value stageOffset) {
  ValueRange idx = load.getIndices();
  if (idx.size() != 4 || !matchPattern(idx[3], m_Zero()))
    return load.emitOpError() << "the sm_80 lowering loads whole rows only";
  FailureOr<Value> row0 =
      row0Override ? FailureOr<Value>(row0Override) : lookup(idx[2]);
  if (failed(row0))
    return failure();
  // A fresh plan per copy: LLVM hoists each loop's share out of that loop,
  // and one plan shared by all loops would stay live across the unmasked
  // loop into the masked one (measured: more spills, docs/perf-log.md).
  FailureOr<WarpMMA::CopyPlan> plan = planCopy(load, role);
  if (failed(plan))
    return failure();
  Value bound = toI32(role == Q ? nq : nk);
  RankedTensorType type = load.getType();
  mma.copyTileAsync(*plan, toI32(*row0), bound, type.getDimSize(0),
                    smemOffset, stageOffset);
  return success();
}


FailureOr<Value> KernelEmitter::planeBase(LoadOp load, Role role) {
  if (Value cached = planeBases[role])
    return cached;
  FailureOr<Value> plane = rowOffset(role, load.getIndices());
  if (failed(plane))
    return failure();
  return Value(LLVM::GEPOp::create(b, ptr[role].getType(), info.elt,
                                   ptr[role],
                                   ArrayRef<LLVM::GEPArg>{*plane}));
}

FailureOr<WarpMMA::CopyPlan> KernelEmitter::planCopy(LoadOp load, Role role) {
  FailureOr<Value> base = planeBase(load, role);
  if (failed(base))
    return failure();
  return mma.planCopy(*base, strides[role][2], load.getType().getDimSize(1));
}

bool KernelEmitter::isBlockAt(Value offset, Value iv) {
  if (isBlockStart(offset, iv, info.blockN))
    return !reversedFrom;
  auto mul = offset.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return false;
  for (Value blockIndex : {mul.getLhs(), mul.getRhs()}) {
    auto sub = blockIndex.getDefiningOp<arith::SubIOp>();
    if (!sub || sub.getRhs() != iv || !isBlockStart(offset, blockIndex,
                                                    info.blockN))
      continue;
    // `last` is defined outside every loop of the chain.
    Value last = sub.getLhs();
    if (auto *def = last.getDefiningOp();
        def && def->getParentOp() != info.program.getOperation())
      return false;
    if (reversedFrom && reversedFrom != last)
      return false;
    reversedFrom = last;
    return true;
  }
  return false;
}

FailureOr<Value> KernelEmitter::blockAt(Value position) {
  if (!reversedFrom)
    return position;
  FailureOr<Value> last = lookup(reversedFrom);
  if (failed(last))
    return failure();
  return Value(arith::SubIOp::create(b, *last, position));
}

bool KernelEmitter::findPrefetchable(ArrayRef<scf::ForOp> loops) {
  // The loops must cover one contiguous range of positions, step 1, each
  // loading the same K plane at the first key of the block of its position.
  LoadOp first;
  reversedFrom = Value();
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
    // One direction for the whole chain (isBlockAt refuses a forward loop
    // once a reversed one was seen, and a `last` other than the first).
    bool forwardSoFar = i > 0 && !reversedFrom;
    if (!kLoad || !isBlockAt(kLoad.getIndices()[2], loop.getInductionVar()) ||
        (forwardSoFar && reversedFrom))
      return false;
    if (first && (first.getIndices()[0] != kLoad.getIndices()[0] ||
                  first.getIndices()[1] != kLoad.getIndices()[1]))
      return false;
    // With several stages V is copied ahead too: the other load, of the
    // same rows (the same index values) of the same plane.
    LoadOp vLoad;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto load = dyn_cast<LoadOp>(op); load && load != kLoad)
        vLoad = load;
    if (info.stages > 1 &&
        (!vLoad ||
         !llvm::equal(vLoad.getIndices().take_front(3),
                      kLoad.getIndices().take_front(3))))
      return false;
    if (!first) {
      first = kLoad;
      firstV = vLoad;
    }
  }
  prefetchK = first;
  return bool(first);
}

LogicalResult KernelEmitter::issueBlock(Value position, Value stage) {
  FailureOr<Value> blockIndex = blockAt(position);
  if (failed(blockIndex))
    return failure();
  Value row0 = arith::MulIOp::create(
      b, *blockIndex, arith::ConstantIndexOp::create(b, info.blockN));
  if (!stage) // one stage: the K prefetch into the single K buffer
    return emitLoad(prefetchK, info.kOffset(), K, row0);
  Value kOff = arith::MulIOp::create(b, stage, mma.i32(info.kBytes()));
  Value vOff = arith::MulIOp::create(b, stage, mma.i32(info.vBytes()));
  if (failed(emitLoad(prefetchK, info.kOffset(), K, row0, kOff)))
    return failure();
  return emitLoad(firstV, info.vOffset(), V, row0, vOff);
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

  if (info.loopLocalIds) {
    // The thread index OR an opaque zero (a block index or loop position,
    // < 2^31, shifted right by 31): LLVM can neither hoist what is derived
    // from it out of this loop nor share it with the other loops, so no
    // lane base, copy plan or mask offset stays live across a loop that
    // does not use it. ptxas does not rematerialise such values; at 255
    // registers they are what it spills (docs/gpu-kernels.md).
    Value zero = arith::ShRUIOp::create(
        b, toI32(newLoop.getInductionVar()), mma.i32(31));
    outerIds = {mma.tid, mma.warp, mma.lane, mma.group, mma.quadLane};
    mma.setThreadIds(arith::OrIOp::create(b, mma.tid, zero));
  }
  int64_t kOffset = info.kOffset();
  int64_t vOffset = info.vOffset();
  bool staged = info.stages > 1;
  if (staged) {
    // Block j lives in buffer j % stages. It was issued
    // stages - 1 blocks ago: wait for it, and behind one barrier (every warp
    // is done with block j - 1) reuse block j - 1's buffer for block
    // j + stages - 1.
    Value j = toI32(newLoop.getInductionVar());
    Value s = mma.i32(info.stages);
    // Buffers are assigned by absolute block index (j % stages), which needs
    // no first-block register across the loop.
    Value stage = arith::RemUIOp::create(b, j, s);
    kStage = arith::MulIOp::create(b, stage, mma.i32(info.kBytes()));
    vStage = arith::MulIOp::create(b, stage, mma.i32(info.vBytes()));
    NVVM::CpAsyncWaitGroupOp::create(b, info.stages - 2);
    gpu::BarrierOp::create(b);
    Value iv = newLoop.getInductionVar();
    issueAhead = [this, iv, stage, s]() -> LogicalResult {
      Value ahead = arith::AddIOp::create(
          b, iv, arith::ConstantIndexOp::create(b, info.stages - 1));
      Value more =
          arith::CmpIOp::create(b, arith::CmpIPredicate::slt, ahead, kvUpper);
      auto ifOp = scf::IfOp::create(b, more, /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        Value aheadStage = arith::RemUIOp::create(
            b, arith::AddIOp::create(b, stage, mma.i32(info.stages - 1)), s);
        if (failed(issueBlock(ahead, aheadStage)))
          return failure();
      }
      // One group per block whether or not it holds a copy, so that the
      // wait count stays the same in every iteration.
      NVVM::CpAsyncCommitGroupOp::create(b);
      return success();
    };
    if (failed(takeIssueAhead()))
      return failure();
  }
  LoadOp vLoad;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (staged && isa<LoadOp>(op)) {
      // Issued stages - 1 blocks ahead (above); all values they use are
      // defined outside the loop or from the induction variable.
      continue;
    }
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
      if (dot.getTransposeB() && staged) {
        accTiles[dot.getResult()] = emitScores(dot);
        if (failed(takeIssueAhead()))
          return failure();
        continue;
      }
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
            if (failed(issueBlock(next, Value())))
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
      if (!staged) {
        NVVM::CpAsyncWaitGroupOp::create(b, prefetchK ? 1 : 0);
        gpu::BarrierOp::create(b);
      }
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
  // Every warp is done with this K/V block before the next one overwrites it
  // (with several stages, the barrier at the top of the next iteration).
  if (!staged)
    gpu::BarrierOp::create(b);
  kStage = vStage = Value();
  if (outerIds) {
    std::tie(mma.tid, mma.warp, mma.lane, mma.group, mma.quadLane) =
        std::tuple_cat(*outerIds);
    outerIds.reset();
  }
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
  if (info.stages > 1 && !loops.empty() && !prefetch)
    return info.program.emitOpError()
           << "stages = " << info.stages
           << " needs K/V loops over one contiguous block range with K and "
              "V loaded at the block start (as attn-tile builds them)";
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
      if (failed(lo) || failed(hi))
        return failure();
      // Again: the Q copy above ran without the prefetch state.
      if (!findPrefetchable(loops))
        return loop.emitOpError() << "K/V loops changed while being lowered";
      kvUpper = *hi;
      // The K and V plane pointers, for every K/V loop: two registers each
      // across the loops, rather than the batch and head offsets they are
      // made of (which LLVM otherwise keeps live across the unmasked loop
      // to rebuild them for the masked one).
      for (auto [load, role] : {std::pair(prefetchK, K), std::pair(firstV, V)}) {
        if (!load)
          continue;
        FailureOr<Value> base = planeBase(load, role);
        if (failed(base))
          return failure();
        planeBases[role] = *base;
      }
      // One stage: the first block's K. Several: the first stages - 1
      // blocks' K and V, one commit group each.
      int64_t ahead = std::max<int64_t>(info.stages - 1, 1);
      for (int64_t i = 0; i < ahead; ++i) {
        Value blk = arith::AddIOp::create(b, *lo,
                                          arith::ConstantIndexOp::create(b, i));
        Value any =
            arith::CmpIOp::create(b, arith::CmpIPredicate::slt, blk, *hi);
        auto ifOp = scf::IfOp::create(b, any, /*withElseRegion=*/false);
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(ifOp.thenBlock());
          Value stage;
          if (info.stages > 1)
            stage = arith::RemUIOp::create(b, toI32(blk), mma.i32(info.stages));
          if (failed(issueBlock(blk, stage)))
            return failure();
        }
        NVVM::CpAsyncCommitGroupOp::create(b);
      }
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
