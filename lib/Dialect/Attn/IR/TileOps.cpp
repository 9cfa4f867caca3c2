//===- TileOps.cpp - tile-level ops ---------------------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "DiagnosticUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::attn;

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state, Value gridM,
                      Value gridBH,
                      ArrayRef<std::pair<BufferRole, Value>> buffers,
                      TileConfigAttr config, GpuConfigAttr gpuConfig) {
  state.addOperands({gridM, gridBH});
  SmallVector<Attribute> roles;
  for (auto [role, buffer] : buffers) {
    state.addOperands(buffer);
    roles.push_back(BufferRoleAttr::get(builder.getContext(), role));
  }
  state.addAttribute(getRolesAttrName(state.name), builder.getArrayAttr(roles));
  if (config)
    state.addAttribute(getConfigAttrName(state.name), config);
  if (gpuConfig)
    state.addAttribute(getGpuConfigAttrName(state.name), gpuConfig);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  block->addArgument(builder.getIndexType(), state.location);
  block->addArgument(builder.getIndexType(), state.location);
}

Value ProgramOp::getBuffer(BufferRole role) {
  for (unsigned i = 0, e = getBuffers().size(); i < e; ++i)
    if (getRole(i) == role)
      return getBuffers()[i];
  return {};
}

GpuConfigAttr ProgramOp::getGpuConfigOrDefault() {
  if (std::optional<GpuConfigAttr> config = getGpuConfig())
    return *config;
  return GpuConfigAttr::get(getContext(), false, false, false);
}

// attn.program (%m, %bh) in (%gm, %gbh)
//     buffers(q = %q : memref<...>, ...) attributes {...} { ... }
ParseResult ProgramOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument, 2> ids;
  SmallVector<OpAsmParser::UnresolvedOperand, 2> grid;
  Builder &builder = parser.getBuilder();
  Type index = builder.getIndexType();
  if (parser.parseArgumentList(ids, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parser.parseOperandList(grid, OpAsmParser::Delimiter::Paren))
    return failure();
  if (ids.size() != 2 || grid.size() != 2)
    return parser.emitError(parser.getNameLoc())
           << "expected two program ids and two grid sizes";
  for (OpAsmParser::Argument &id : ids)
    id.type = index;
  if (parser.resolveOperands(grid, index, result.operands))
    return failure();
  SmallVector<Attribute> roles;
  if (succeeded(parser.parseOptionalKeyword("buffers")) &&
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            SMLoc loc = parser.getCurrentLocation();
            StringRef name;
            OpAsmParser::UnresolvedOperand operand;
            Type type;
            if (parser.parseKeyword(&name) || parser.parseEqual() ||
                parser.parseOperand(operand) || parser.parseColonType(type) ||
                parser.resolveOperand(operand, type, result.operands))
              return failure();
            std::optional<BufferRole> role = symbolizeBufferRole(name);
            if (!role)
              return parser.emitError(loc)
                     << "unknown buffer role '" << name
                     << "' (expected q, k, v, o, lse, bias, alibi_slopes, "
                        "input or output)";
            roles.push_back(BufferRoleAttr::get(builder.getContext(), *role));
            return success();
          }))
    return failure();
  result.addAttribute(getRolesAttrName(result.name),
                      builder.getArrayAttr(roles));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ids))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void ProgramOp::print(OpAsmPrinter &p) {
  p << " (" << getBlockIdM() << ", " << getBlockIdBH() << ") in ("
    << getGridM() << ", " << getGridBh() << ")";
  if (!getBuffers().empty()) {
    p.printNewline();
    p << "    buffers(";
    for (unsigned i = 0, e = getBuffers().size(); i < e; ++i) {
      if (i)
        p << ", ";
      Value buffer = getBuffers()[i];
      p << stringifyBufferRole(getRole(i)) << " = " << buffer << " : "
        << buffer.getType();
    }
    p << ")";
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getRolesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ProgramOp::verify() {
  if (getRoles().size() != getBuffers().size())
    return emitOpError() << "has " << getBuffers().size() << " buffers but "
                         << getRoles().size() << " roles";
  // Each named role at most once (a kernel built from the program takes
  // one argument per role; the GPU lowering also needs q, k, v and o);
  // `input` and `output` are any further buffers, in order.
  llvm::SmallDenseSet<unsigned> seen;
  for (unsigned i = 0, e = getBuffers().size(); i < e; ++i)
    if (getRole(i) != BufferRole::Input && getRole(i) != BufferRole::Output &&
        !seen.insert(static_cast<unsigned>(getRole(i))).second)
      return emitOpError() << "lists two buffers with role '"
                           << stringifyBufferRole(getRole(i)) << "'";
  return success();
}

LogicalResult ProgramOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != 2 ||
      !llvm::all_of(block.getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return emitOpError() << "body must take two index program ids";
  // A persistent body computes its tiles from the worker id; a use of the
  // program ids would be the id of a program instance that does not exist.
  if (getPersistent() &&
      llvm::any_of(block.getArguments(), [](Value id) { return !id.use_empty(); }))
    return emitOpError() << "is persistent (its body loops over the tiles "
                            "itself) but uses its program ids";
  // Every memref from above that the body touches is a listed buffer: the
  // roles are what a lowering passes as which kernel argument.
  llvm::SmallPtrSet<Value, 8> listed(getBuffers().begin(),
                                     getBuffers().end());
  WalkResult walk = getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()) || listed.contains(operand))
        continue;
      Region *defRegion = operand.getParentRegion();
      if (getBody().isAncestor(defRegion))
        continue;
      op->emitOpError() << "uses a memref from outside the enclosing "
                           "attn.program that is not one of its buffers";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// KVRangeOp
//===----------------------------------------------------------------------===//

void KVRangeOp::build(OpBuilder &builder, OperationState &state,
                      KVRangeKind kind, Value rowStart, Value numQueries,
                      Value numKeys, MaskAttr mask, int64_t blockM,
                      int64_t blockN) {
  build(builder, state, kind, rowStart, numQueries, numKeys, /*from=*/Value(),
        /*to=*/Value(), /*batch_head=*/ValueRange(), mask, blockM, blockN);
}

void KVRangeOp::build(OpBuilder &builder, OperationState &state,
                      KVRangeKind kind, Value rowStart, Value numQueries,
                      Value numKeys, Value from, Value to, Value batch,
                      Value head, MaskAttr mask, int64_t blockM,
                      int64_t blockN) {
  build(builder, state, kind, rowStart, numQueries, numKeys, from, to,
        ValueRange{batch, head}, mask, blockM, blockN);
}

/// The checks of a mask_mod region on a tile op (attn.kv_range, attn.mask):
/// (batch, head) operands exactly when there is a region, which takes four
/// indices and yields an i1.
static LogicalResult verifyMaskModOperands(Operation *op, Region &region,
                                           ValueRange batchHead) {
  if (region.empty()) {
    if (!batchHead.empty())
      return op->emitOpError() << "takes a batch and head only with a "
                                  "mask_mod region";
    return success();
  }
  if (batchHead.size() != 2)
    return op->emitOpError() << "with a mask_mod region takes (batch, head), "
                                "got "
                             << batchHead.size() << " values";
  Type index = IndexType::get(op->getContext());
  return verifyModRegion(op, region, "mask_mod", {index, index, index, index},
                         IntegerType::get(op->getContext(), 1));
}

LogicalResult KVRangeOp::verifyRegions() {
  if (bool(getFrom()) != bool(getTo()))
    return emitOpError() << "takes 'from' and 'to' together";
  if (getFrom() && (getKind() == KVRangeKind::Visible || getMaskMod().empty()))
    return emitOpError() << "takes 'from' and 'to' only as an 'unmasked' or "
                            "'hidden' range with a mask_mod region (the blocks "
                            "its search covers)";
  if (getKind() == KVRangeKind::Hidden && !getFrom())
    return emitOpError() << "a 'hidden' range needs a mask_mod region and "
                            "'from' and 'to' (the blocks its search covers)";
  return verifyMaskModOperands(*this, getMaskMod(), getBatchHead());
}

void MaskOp::build(OpBuilder &builder, OperationState &state, Type type,
                   Value scores, Value rowStart, Value numQueries,
                   Value colStart, Value numKeys, MaskAttr mask) {
  build(builder, state, type, scores, rowStart, numQueries, colStart, numKeys,
        /*batch_head=*/ValueRange(), mask);
}

LogicalResult MaskOp::verifyRegions() {
  return verifyMaskModOperands(*this, getMaskMod(), getBatchHead());
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

/// Shared checks of attn.load and attn.store: index count, tile rank and
/// element type against the buffer.
static LogicalResult verifyBlockAccess(Operation *op, MemRefType buffer,
                                       RankedTensorType tile,
                                       size_t numIndices) {
  if (numIndices != static_cast<size_t>(buffer.getRank()))
    return op->emitOpError() << "expected " << buffer.getRank()
                             << " indices for " << buffer << ", got "
                             << numIndices;
  if (tile.getRank() == 0 || tile.getRank() > buffer.getRank())
    return op->emitOpError() << "tile rank " << tile.getRank()
                             << " must be in [1, " << buffer.getRank()
                             << "] (the buffer's rank)";
  if (tile.getElementType() != buffer.getElementType())
    return op->emitOpError() << "tile element type " << tile.getElementType()
                             << " differs from the buffer's "
                             << buffer.getElementType();
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyBlockAccess(*this, getSource().getType(), getType(),
                           getIndices().size());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult StoreOp::verify() {
  return verifyBlockAccess(*this, getDest().getType(), getValue().getType(),
                           getIndices().size());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getDestMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

/// Shape and element type of a dot operand: a tile, or a shared buffer that
/// holds one.
static std::pair<ArrayRef<int64_t>, Type> operandTile(Value v) {
  if (auto buffer = dyn_cast<SharedBufferType>(v.getType()))
    return {buffer.getShape(), buffer.getElementType()};
  auto tile = cast<RankedTensorType>(v.getType());
  return {tile.getShape(), tile.getElementType()};
}

/// The layout checks of a dot on laid-out tiles: the result in an
/// `#attn.mma` layout, A in the dot-operand layout of the same parent or in
/// shared memory, B in shared memory.
static LogicalResult verifyDotLayouts(DotOp op) {
  Attribute resultLayout = op.getResult().getType().getEncoding();
  auto encodingOf = [](Value v) -> Attribute {
    if (auto tile = dyn_cast<RankedTensorType>(v.getType()))
      return tile.getEncoding();
    return cast<SharedBufferType>(v.getType()).getLayout();
  };
  Attribute a = encodingOf(op.getA()), b = encodingOf(op.getB());
  if (!resultLayout) {
    if (a || b)
      return op.emitOpError()
             << "operands have layouts but the result has none";
    return success();
  }
  auto mma = dyn_cast<MmaLayoutAttr>(resultLayout);
  if (!mma)
    return op.emitOpError() << "result layout must be #attn.mma, got "
                            << resultLayout;
  // wgmma's descriptors and ldmatrix read the 128-byte swizzle only.
  auto isOperandShared = [](Attribute layout) {
    auto swizzled = dyn_cast_or_null<SwizzledSharedLayoutAttr>(layout);
    return swizzled && swizzled.getSpan() == 128;
  };
  auto aOperand = dyn_cast_or_null<DotOperandLayoutAttr>(a);
  if (!isOperandShared(a) && !(aOperand && aOperand.getParent() == mma))
    return op.emitOpError()
           << "operand A must be in shared memory (#attn.swizzled, 128-byte "
              "span) or in the dot-operand layout of the result's "
           << mma << ", got " << (a ? a : Attribute());
  if (!isOperandShared(b))
    return op.emitOpError() << "operand B must be in shared memory "
                               "(#attn.swizzled, 128-byte span), got "
                            << (b ? b : Attribute());
  return success();
}

LogicalResult DotOp::verify() {
  auto [aShape, aElt] = operandTile(getA());
  auto [bShape, bElt] = operandTile(getB());
  if (aShape.size() != 2 || bShape.size() != 2)
    return emitOpError() << "operands must be 2-D tiles";
  for (Type elt : {aElt, bElt})
    if (!elt.isF16() && !elt.isBF16() && !elt.isF32())
      return emitOpError() << "operand element type must be f16, bf16 or "
                              "f32, got "
                           << elt;
  if (aElt != bElt)
    return emitOpError() << "operand element types differ: " << aElt
                         << " vs " << bElt;
  RankedTensorType acc = getAcc().getType();
  int64_t m = aShape[0], k = aShape[1];
  int64_t bk = getTransposeB() ? bShape[1] : bShape[0];
  int64_t n = getTransposeB() ? bShape[0] : bShape[1];
  if (bk != k)
    return emitOpError() << "contraction sizes differ: a has K = " << k
                         << ", b has K = " << bk;
  if (acc.getDimSize(0) != m || acc.getDimSize(1) != n)
    return emitOpError() << "accumulator must be " << m << "x" << n
                         << ", got " << acc;
  if (getAsync()) {
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(getType().getEncoding());
    if (!mma || !mma.isWarpgroup())
      return emitOpError() << "is async, which only wgmma products are: the "
                              "result needs a #attn.mma<version = 3> layout";
    // Until the wait, the result's registers are the tensor cores'.
    for (Operation *user : getResult().getUsers())
      if (!isa<DotWaitOp>(user) && !user->hasTrait<OpTrait::IsTerminator>())
        return emitOpError()
               << "is async: its result may only be waited for "
                  "(attn.dot_wait) or yielded, but '"
               << user->getName() << "' uses it";
  }
  return verifyDotLayouts(*this);
}

void DotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand *operand : {&getAMutable(), &getBMutable()})
    if (isa<SharedBufferType>(operand->get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), operand,
                           SideEffects::DefaultResource::get());
  // An async product occupies the tensor cores and counts in the waits'
  // `pending`: it is neither removed nor moved as if it were pure.
  if (getAsync())
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// IotaOp
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  int64_t rank = getType().getRank();
  if (rank != 1 && rank != 2)
    return emitOpError() << "makes 1-D or 2-D tiles, got rank " << rank;
  if (static_cast<int64_t>(getDim()) >= rank)
    return emitOpError() << "dim " << getDim() << " is not a dim of a rank-"
                         << rank << " tile";
  return success();
}

//===----------------------------------------------------------------------===//
// Row ops
//===----------------------------------------------------------------------===//

/// `rows` (a 1-D tile) must have one element per row of `tile`.
static LogicalResult verifyRowsMatch(Operation *op, RankedTensorType tile,
                                     RankedTensorType rows, StringRef what) {
  if (rows.getDimSize(0) != tile.getDimSize(0))
    return op->emitOpError() << what << " has " << rows.getDimSize(0)
                             << " rows but the tile has "
                             << tile.getDimSize(0);
  return success();
}

LogicalResult ReduceRowsOp::verify() {
  return verifyRowsMatch(*this, getInput().getType(), getType(), "result");
}

LogicalResult BroadcastRowsOp::verify() {
  return verifyRowsMatch(*this, getType(), getInput().getType(), "input");
}

LogicalResult OnlineSoftmaxOp::verify() {
  RankedTensorType max = getMax().getType(), acc = getAcc().getType();
  if (failed(verifyRowsMatch(*this, getScores().getType(), max, "running max")))
    return failure();
  if (acc.getDimSize(0) != max.getDimSize(0))
    return emitOpError() << "accumulator has " << acc.getDimSize(0)
                         << " rows but the running max has "
                         << max.getDimSize(0);
  double scale = getScaleLog2e().convertToDouble();
  if (!std::isfinite(scale))
    return emitOpError() << "scale_log2e must be finite, got "
                         << formatFloatForDiagnostic(scale);
  if (std::optional<APFloat> bound = getMaxBound()) {
    double b = bound->convertToDouble();
    if (!std::isfinite(b))
      return emitOpError() << "max_bound must be finite, got "
                           << formatFloatForDiagnostic(b);
  }
  if (std::optional<APFloat> bound = getScoreBound()) {
    double r = bound->convertToDouble();
    if (!std::isfinite(r) || !(r > 0))
      return emitOpError() << "score_bound must be positive and finite, got "
                           << formatFloatForDiagnostic(r);
  }
  // block_max stands for rowmax(scores), which the scale maps to rowmax(t)
  // only when it is positive; with a max_bound there is no row maximum.
  if (getBlockMax()) {
    if (!(scale > 0))
      return emitOpError() << "block_max needs a positive scale_log2e, got "
                           << formatFloatForDiagnostic(scale);
    if (getMaxBound())
      return emitOpError()
             << "block_max and max_bound both give the row maximum";
  }
  return success();
}

LogicalResult FinalizeOp::verify() {
  return verifyRowsMatch(*this, getAcc().getType(), getMax().getType(),
                         "running max");
}

#define GET_OP_CLASSES
#include "attn/Dialect/Attn/IR/AttnOps.cpp.inc"
