//===- KernelArguments.cpp - a kernel's buffers as the runtime sees them -===//
//
// See KernelArguments.h.
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

std::pair<bool, int64_t> nvgpu::accessOf(ProgramOp program, Value buffer) {
  bool writes = false;
  auto type = cast<MemRefType>(buffer.getType());
  int64_t align = type.getElementType().getIntOrFloatBitWidth() / 8;
  // The buffer and the views made of it (the planes of attn-stage-shared).
  SmallVector<Value> views{buffer};
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers()) {
      if (user == program.getOperation() || !program->isAncestor(user))
        continue;
      if (auto view = dyn_cast<memref::SubViewOp>(user))
        views.push_back(view.getResult());
      else if (isa<AsyncCopyOp, TmaCopyOp>(user))
        align = std::max<int64_t>(align, 16);
      else if (isa<TmaStoreOp>(user)) {
        // What TMA asks of the tensor (the runtime checks it with the
        // tensor map too).
        writes = true;
        align = std::max<int64_t>(align, 16);
      } else if (auto store = dyn_cast<StoreOp>(user)) {
        writes = true;
        RankedTensorType tile = store.getValue().getType();
        MemRefType dest = store.getDest().getType();
        APInt c0;
        if (tile.getRank() == 2 &&
            tile.getElementType().getIntOrFloatBitWidth() == 16 &&
            matchPattern(store.getIndices().back(), m_ConstantInt(&c0)) &&
            c0.isZero() && !dest.isDynamicDim(dest.getRank() - 1) &&
            tile.getDimSize(1) <= dest.getDimSize(dest.getRank() - 1))
          align = std::max<int64_t>(
              align,
              storesQuadVectors(
                  store, program.getGpuConfigOrDefault().getWarpSpecialize())
                  ? 16
                  : 4);
      } else if (!isa<LoadOp, memref::LoadOp, memref::DimOp>(user)) {
        writes |= !isMemoryEffectFree(user);
      }
    }
  return {writes, align};
}

DictionaryAttr nvgpu::describeBuffer(MLIRContext *ctx, MemRefType type,
                                     ArrayRef<StringRef> roles, bool writes,
                                     int64_t align) {
  Builder b(ctx);
  SmallVector<Attribute> names;
  for (StringRef role : roles)
    names.push_back(b.getStringAttr(role));
  NamedAttrList attrs;
  attrs.append("roles", b.getArrayAttr(names));
  attrs.append("element_type", TypeAttr::get(type.getElementType()));
  attrs.append("rank", b.getI64IntegerAttr(type.getRank()));
  SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
  attrs.append("static_shape", b.getI64ArrayAttr(shape));
  attrs.append("access", b.getStringAttr(writes ? "write" : "read"));
  attrs.append("align", b.getI64IntegerAttr(align));
  return attrs.getDictionary(ctx);
}

TensorMap nvgpu::copyMap(TmaCopyOp copy, unsigned arg) {
  SharedBufferType dest = copy.getDest().getType();
  int64_t rows = dest.getShape()[0];
  int64_t bytes = dest.getElementType().getIntOrFloatBitWidth() / 8;
  if (auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(dest.getLayout()))
    return {arg, rows, bytes, swizzled.getSpan() / bytes, swizzled.getSpan()};
  return {arg, rows, bytes, dest.getShape()[1], 0};
}

SmallVector<TensorMap> nvgpu::tensorMapsOf(ProgramOp program,
                                           ArrayRef<Value> args) {
  SmallVector<TensorMap> maps;
  // A TMA store's box: a consumer warpgroup's 64 rows of 64-column blocks
  // in the 128-byte swizzle.
  program.walk([&](TmaStoreOp store) {
    unsigned arg = llvm::find(args, store.getDest()) - args.begin();
    if (llvm::any_of(maps, [&](const TensorMap &m) { return m.arg == arg; }))
      return;
    int64_t bytes = store.getDest().getType().getElementTypeBitWidth() / 8;
    maps.push_back({arg, 64, bytes, 128 / bytes, 128});
  });
  program.walk([&](TmaCopyOp copy) {
    TensorMap map =
        copyMap(copy, llvm::find(args, copy.getSource()) - args.begin());
    if (!llvm::is_contained(maps, map))
      maps.push_back(map);
  });
  llvm::stable_sort(maps, [](const TensorMap &a, const TensorMap &b) {
    return a.arg < b.arg;
  });
  return maps;
}
