//===- LoweringUtils.cpp - what the sm_80 patterns share ------------------===//

#include "LoweringUtils.h"
#include "WarpMMA.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

TileTypeConverter::TileTypeConverter(MLIRContext *ctx) {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type, SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    auto layout = dyn_cast_or_null<RegisterLayoutInterface>(type.getEncoding());
    if (!layout)
      return std::nullopt;
    results.append(layout.getElementsPerThread(type.getShape()),
                   type.getElementType());
    return success();
  });
  addConversion([](SharedBufferType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  addConversion([](MBarriersType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  addConversion([ctx](MemRefType type, SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    results.push_back(LLVM::LLVMPointerType::get(ctx, 1));
    results.append(2 * type.getRank(), IntegerType::get(ctx, 64));
    return success();
  });
  auto cast = [](OpBuilder &b, TypeRange types, ValueRange inputs,
                 Location loc) -> SmallVector<Value> {
    return UnrealizedConversionCastOp::create(b, loc, types, inputs)
        .getResults();
  };
  addSourceMaterialization([](OpBuilder &b, Type type, ValueRange inputs,
                              Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  });
  addTargetMaterialization(cast);
}

GpuConfigAttr nvgpu::getGpuConfig(Operation *op) {
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  if (kernel)
    if (auto config = kernel->getAttrOfType<GpuConfigAttr>("attn.gpu_config"))
      return config;
  return GpuConfigAttr::get(op->getContext(), false, false, false);
}

ThreadIds nvgpu::getThreadIds(ImplicitLocOpBuilder &b, Operation *op) {
  // The ids are computed where every code of the kernel (or of the loop,
  // for loop-local ids) can use them: at the start of the kernel, or of the
  // K/V loop's body. Built at the op instead, code in a branch (the copies
  // of the next block) would compute them where later code of the loop
  // body cannot reuse them.
  OpBuilder::InsertionGuard guard(b);
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  b.setInsertionPointToStart(&kernel.getBody().front());
  Value x = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  Value tid = arith::IndexCastOp::create(b, b.getI32Type(), x);
  if (getGpuConfig(op).getLoopLocalIds()) {
    // The outermost loop of the kernel body around `op`.
    scf::ForOp loop;
    for (Operation *p = op->getParentOp(); p && !isa<gpu::GPUFuncOp>(p);
         p = p->getParentOp())
      if (auto f = dyn_cast<scf::ForOp>(p))
        loop = f;
    if (loop) {
      b.setInsertionPointToStart(loop.getBody());
      Value zero = arith::ShRUIOp::create(
          b, toI32(b, loop.getInductionVar()), i32(b, 31));
      tid = arith::OrIOp::create(b, tid, zero);
    }
  }
  ThreadIds ids;
  ids.tid = tid;
  ids.warp = arith::DivUIOp::create(b, tid, i32(b, 32));
  ids.lane = arith::RemUIOp::create(b, tid, i32(b, 32));
  ids.group = arith::DivUIOp::create(b, ids.lane, i32(b, 4));
  ids.quadLane = arith::RemUIOp::create(b, ids.lane, i32(b, 4));
  return ids;
}

Value nvgpu::getSharedBase(ImplicitLocOpBuilder &b) {
  return LLVM::AddressOfOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext(), 3), "attn_smem");
}

Value nvgpu::i32(ImplicitLocOpBuilder &b, int64_t v) {
  return arith::ConstantIntOp::create(b, v, 32);
}
Value nvgpu::i64(ImplicitLocOpBuilder &b, int64_t v) {
  return arith::ConstantIntOp::create(b, v, 64);
}
Value nvgpu::f32(ImplicitLocOpBuilder &b, double v) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
}
Value nvgpu::toI32(ImplicitLocOpBuilder &b, Value index) {
  return arith::IndexCastOp::create(b, b.getI32Type(), index);
}
Value nvgpu::toIndex(ImplicitLocOpBuilder &b, Value i32v) {
  return arith::IndexCastOp::create(b, b.getIndexType(), i32v);
}

Value nvgpu::rowOf(ImplicitLocOpBuilder &b, const ThreadIds &ids,
                   int64_t mTiles, int64_t delta) {
  // warp * 16 * MT + (group + delta)
  return arith::AddIOp::create(
      b, arith::MulIOp::create(b, ids.warp, i32(b, 16 * mTiles)),
      arith::AddIOp::create(b, ids.group, i32(b, delta)));
}

MmaLayoutAttr nvgpu::getMmaParent(Type type) {
  auto tile = dyn_cast<RankedTensorType>(type);
  if (!tile)
    return {};
  Attribute encoding = tile.getEncoding();
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(encoding))
    return mma;
  if (auto rows = dyn_cast_or_null<RowsLayoutAttr>(encoding))
    return rows.getParent();
  if (auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(encoding))
    return operand.getParent();
  return {};
}

std::pair<Value, int64_t> nvgpu::splitSharedOffset(Value offset) {
  APInt c;
  if (matchPattern(offset, m_ConstantInt(&c)))
    return {Value(), c.getSExtValue()};
  if (auto add = offset.getDefiningOp<arith::AddIOp>()) {
    if (matchPattern(add.getRhs(), m_ConstantInt(&c)))
      return {add.getLhs(), c.getSExtValue()};
    if (matchPattern(add.getLhs(), m_ConstantInt(&c)))
      return {add.getRhs(), c.getSExtValue()};
  }
  return {offset, 0};
}

Value nvgpu::planeOffset(ImplicitLocOpBuilder &b, ValueRange memref,
                         ValueRange indices, int64_t leading) {
  int64_t rank = (memref.size() - 1) / 2;
  ValueRange strides = memref.drop_front(1 + rank);
  Value offset = i64(b, 0);
  for (int64_t d = 0; d < leading; ++d) {
    Value idx = arith::IndexCastOp::create(b, b.getI64Type(), indices[d]);
    offset = arith::AddIOp::create(
        b, offset, arith::MulIOp::create(b, idx, strides[d]));
  }
  return offset;
}

Value nvgpu::planePointer(ImplicitLocOpBuilder &b, ValueRange memref,
                          ValueRange indices, int64_t leading, Type elt) {
  Value offset = planeOffset(b, memref, indices, leading);
  return LLVM::GEPOp::create(b, memref[0].getType(), elt, memref[0],
                             ArrayRef<LLVM::GEPArg>{offset});
}

SmallVector<Value> nvgpu::scalarIndices(ArrayRef<ValueRange> indices) {
  SmallVector<Value> idx;
  for (ValueRange v : indices)
    idx.push_back(v.front());
  return idx;
}

WarpMMA nvgpu::makeWarpMMA(ImplicitLocOpBuilder &b, Operation *op, Type elt) {
  ThreadIds ids = getThreadIds(b, op);
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  int64_t threads = (*kernel.getKnownBlockSize())[0];
  return WarpMMA(b, elt, getSharedBase(b), threads,
                 {ids.tid, ids.warp, ids.lane, ids.group, ids.quadLane});
}

void nvgpu::fenceAsyncProxy(ImplicitLocOpBuilder &b) {
  NVVM::FenceProxyOp::create(
      b,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

Value nvgpu::packPair(ImplicitLocOpBuilder &b, Value x, Value y) {
  Type vecT = VectorType::get({2}, x.getType());
  Value v = LLVM::UndefOp::create(b, vecT);
  v = LLVM::InsertElementOp::create(b, v, x, i32(b, 0));
  v = LLVM::InsertElementOp::create(b, v, y, i32(b, 1));
  return LLVM::BitcastOp::create(b, b.getI32Type(), v);
}

std::pair<Value, Value> nvgpu::unpackPair(ImplicitLocOpBuilder &b, Type elt,
                                          Value pair) {
  Value v = LLVM::BitcastOp::create(b, VectorType::get({2}, elt), pair);
  return {LLVM::ExtractElementOp::create(b, v, i32(b, 0)),
          LLVM::ExtractElementOp::create(b, v, i32(b, 1))};
}

bool nvgpu::storesQuadVectors(StoreOp store, bool warpSpecialized) {
  RankedTensorType tile = store.getValue().getType();
  MemRefType dest = store.getDest().getType();
  int64_t last = dest.getRank() - 1;
  APInt c0;
  return warpSpecialized && tile.getRank() == 2 &&
         tile.getElementType().getIntOrFloatBitWidth() == 16 &&
         tile.getDimSize(1) % 32 == 0 &&
         matchPattern(store.getIndices().back(), m_ConstantInt(&c0)) &&
         c0.isZero() && !dest.isDynamicDim(last) &&
         tile.getDimSize(1) <= dest.getDimSize(last);
}
