//===- AttentionOp.cpp - the high-level attention op ----------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "DiagnosticUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::attn;

MaskAttr AttentionOp::getMaskOrDefault() {
  if (std::optional<MaskAttr> mask = getMask())
    return *mask;
  return MaskAttr::get(getContext());
}

double AttentionOp::getScaleOrDefault() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToDouble();
  return 1.0 / std::sqrt(static_cast<double>(getQueryType().getDimSize(3)));
}

MutableOperandRange AttentionOp::getDpsInitsMutable() {
  // `output` and the optional `lse` are consecutive operands.
  unsigned begin = getOutputMutable().getOperandNumber();
  return MutableOperandRange(getOperation(), begin, getLse() ? 2 : 1);
}

void AttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!hasBufferSemantics())
    return;
  for (OpOperand *in : {&getQueryMutable(), &getKeyMutable(),
                        &getValueMutable()})
    effects.emplace_back(MemoryEffects::Read::get(), in,
                         SideEffects::DefaultResource::get());
  for (OpOperand &in : getBiasMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &in,
                         SideEffects::DefaultResource::get());
  for (OpOperand &in : getAlibiSlopesMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &in,
                         SideEffects::DefaultResource::get());
  for (OpOperand &out : getDpsInitsMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &out,
                         SideEffects::DefaultResource::get());
}

namespace {
/// One named dimension of one named operand, for shape checks.
struct Dim {
  StringRef operand;
  ShapedType type;
  unsigned index;
  int64_t size() const { return type.getDimSize(index); }
};
} // namespace

/// Checks that all static sizes among `dims` agree; `what` names the
/// dimension in the message.
static LogicalResult checkSameSize(AttentionOp op, StringRef what,
                                   ArrayRef<Dim> dims) {
  const Dim *first = nullptr;
  for (const Dim &d : dims) {
    if (ShapedType::isDynamic(d.size()))
      continue;
    if (!first) {
      first = &d;
      continue;
    }
    if (d.size() != first->size())
      return op.emitOpError() << what << " mismatch: " << first->operand
                              << " has " << first->size() << " but "
                              << d.operand << " has " << d.size();
  }
  return success();
}

LogicalResult AttentionOp::verify() {
  ShapedType q = getQueryType(), k = getKeyType(), v = getValueType(),
             o = getOutputType();
  auto lse = getLse() ? cast<ShapedType>(getLse().getType()) : ShapedType();

  // Tensors and memrefs do not mix. The output decides which the op works
  // on, so the message names it and the first operand of the other kind.
  bool buffers = isa<MemRefType>(o);
  SmallVector<std::pair<StringRef, ShapedType>> all = {
      {"query", q}, {"key", k}, {"value", v}, {"output", o}};
  if (lse)
    all.push_back({"lse", lse});
  auto bias = getBias() ? cast<ShapedType>(getBias().getType()) : ShapedType();
  auto slopes = getAlibiSlopes() ? cast<ShapedType>(getAlibiSlopes().getType())
                                 : ShapedType();
  if (bias)
    all.push_back({"bias", bias});
  if (slopes)
    all.push_back({"alibi_slopes", slopes});
  auto kind = [](bool isBuffer) { return isBuffer ? "a memref" : "a tensor"; };
  for (auto [name, type] : all)
    if (isa<MemRefType>(type) != buffers)
      return emitOpError() << "operands must be all tensors or all memrefs, "
                           << "but 'output' is " << kind(buffers) << " while '"
                           << name << "' is " << kind(!buffers);

  // Ranks.
  for (auto [name, type] : all) {
    int64_t want = name == "lse" ? 3 : name == "alibi_slopes" ? 1 : 4;
    StringRef shape = name == "lse"            ? "[B, H, N]"
                      : name == "alibi_slopes" ? "[Hq]"
                      : name == "bias"         ? "[B or 1, Hq or 1, Nq, Nk]"
                                               : "[B, H, N, D]";
    if (type.getRank() != want)
      return emitOpError() << "'" << name << "' must have rank " << want
                           << " (" << shape << "), got " << type;
  }

  // Element types.
  Type elt = q.getElementType();
  if (!elt.isF16() && !elt.isBF16() && !elt.isF32())
    return emitOpError() << "element type must be f16, bf16 or f32, got "
                         << elt;
  for (auto [name, type] : ArrayRef(all).take_front(4))
    if (type.getElementType() != elt)
      return emitOpError() << "'" << name << "' has element type "
                           << type.getElementType() << " but 'query' has "
                           << elt;
  if (lse && !lse.getElementType().isF32())
    return emitOpError() << "'lse' must have element type f32, got "
                         << lse.getElementType();
  if (bias) {
    Type b = bias.getElementType();
    if (!b.isF16() && !b.isBF16() && !b.isF32())
      return emitOpError() << "'bias' must have element type f16, bf16 or "
                              "f32, got "
                           << b;
  }
  if (slopes && !slopes.getElementType().isF32())
    return emitOpError() << "'alibi_slopes' must have element type f32, got "
                         << slopes.getElementType();

  // Shapes.
  SmallVector<Dim> batch = {{"query", q, 0}, {"key", k, 0}, {"value", v, 0},
                            {"output", o, 0}};
  SmallVector<Dim> qHeads = {{"query", q, 1}, {"output", o, 1}};
  SmallVector<Dim> qLen = {{"query", q, 2}, {"output", o, 2}};
  if (lse) {
    batch.push_back({"lse", lse, 0});
    qHeads.push_back({"lse", lse, 1});
    qLen.push_back({"lse", lse, 2});
  }
  if (bias) {
    // [B or 1, Hq or 1, Nq, Nk]: a static 1 broadcasts, anything else must
    // match.
    if (bias.getDimSize(0) != 1)
      batch.push_back({"bias", bias, 0});
    if (bias.getDimSize(1) != 1)
      qHeads.push_back({"bias", bias, 1});
    qLen.push_back({"bias", bias, 2});
  }
  if (slopes)
    qHeads.push_back({"alibi_slopes", slopes, 0});
  SmallVector<Dim> kLen = {{"key", k, 2}, {"value", v, 2}};
  if (bias)
    kLen.push_back({"bias", bias, 3});
  if (failed(checkSameSize(*this, "batch size", batch)) ||
      failed(checkSameSize(*this, "query head count", qHeads)) ||
      failed(checkSameSize(*this, "key/value head count",
                           {{"key", k, 1}, {"value", v, 1}})) ||
      failed(checkSameSize(*this, "query length", qLen)) ||
      failed(checkSameSize(*this, "key/value length", kLen)) ||
      failed(checkSameSize(*this, "head dim (D)",
                           {{"query", q, 3}, {"key", k, 3}})) ||
      failed(checkSameSize(*this, "value head dim (Dv)",
                           {{"value", v, 3}, {"output", o, 3}})))
    return failure();

  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"head dim (D)", q},
                            {"value head dim (Dv)", v}})
    if (!ShapedType::isDynamic(type.getDimSize(3)) && type.getDimSize(3) <= 0)
      return emitOpError() << name << " must be positive, got "
                           << type.getDimSize(3);

  int64_t hq = q.getDimSize(1), hkv = k.getDimSize(1);
  if (!ShapedType::isDynamic(hq) && !ShapedType::isDynamic(hkv) &&
      (hkv == 0 || hq % hkv != 0))
    return emitOpError() << "query head count (" << hq
                         << ") must be a multiple of the key/value head count ("
                         << hkv << ")";

  // Results: tensors return the destinations, memrefs return nothing.
  if (buffers && getNumResults() != 0)
    return emitOpError() << "on memrefs the op has no results";
  if (!buffers) {
    unsigned want = lse ? 2 : 1;
    if (getNumResults() != want)
      return emitOpError() << "on tensors the op returns one result per "
                           << "destination (" << want << "), got "
                           << getNumResults();
    if (getResult(0).getType() != o ||
        (lse && getResult(1).getType() != lse))
      return emitOpError() << "result types must match the destinations";
  }

  if (std::optional<APFloat> cap = getSoftcap()) {
    double c = cap->convertToDouble();
    if (!std::isfinite(c) || c <= 0.0)
      return emitOpError() << "softcap must be finite and positive, got "
                           << formatFloatForDiagnostic(c);
  }
  if (std::optional<APFloat> scale = getScale()) {
    double s = scale->convertToDouble();
    if (!std::isfinite(s) || s == 0.0)
      return emitOpError() << "scale must be finite and non-zero, got "
                           << formatFloatForDiagnostic(s);
    // Every lowering computes scale * log2(e) in f32 (the softmax's
    // exponent base): a scale that leaves f32's normal range there would
    // compute another function (all scores equal, or infinities).
    float scaled = static_cast<float>(s * 1.4426950408889634);
    if (!std::isnormal(scaled))
      return emitOpError() << "scale " << formatFloatForDiagnostic(s)
                           << " is out of the f32 range the kernels compute "
                              "in (scale * log2(e) must be a normal f32)";
  }
  return success();
}

LogicalResult mlir::attn::verifyModRegion(Operation *op, Region &region,
                                          StringRef name, TypeRange args,
                                          Type result) {
  if (region.empty())
    return success();
  if (!region.hasOneBlock())
    return op->emitOpError() << "'" << name << "' must have one block";
  Block &block = region.front();
  if (block.getArgumentTypes() != args) {
    auto diag = op->emitOpError() << "'" << name << "' must take (";
    llvm::interleaveComma(args, diag);
    return diag << ")";
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues()[0].getType() != result)
    return op->emitOpError()
           << "'" << name << "' must end in attn.yield of one " << result;
  for (Operation &inner : block.without_terminator()) {
    Dialect *dialect = inner.getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        inner.getNumRegions() != 0 || !isMemoryEffectFree(&inner) ||
        inner.getNumResults() != 1)
      return inner.emitOpError()
             << "is not allowed in '" << name
             << "': it may hold side-effect free arith and math ops on "
                "scalars only";
    for (Value operand : inner.getOperands())
      if (!region.isAncestor(operand.getParentRegion()))
        return inner.emitOpError()
               << "uses a value from outside '" << name
               << "'; the region may use its arguments and what it computes";
    for (Type type : llvm::concat<Type>(inner.getOperandTypes(),
                                        inner.getResultTypes()))
      if (!type.isIntOrIndexOrFloat())
        return inner.emitOpError() << "works on " << type << " in '" << name
                                   << "'; the region computes on scalars";
  }
  for (Value v : yield.getValues())
    if (!region.isAncestor(v.getParentRegion()))
      return yield.emitOpError()
             << "yields a value from outside '" << name << "'";
  return success();
}

LogicalResult AttentionOp::verifyRegions() {
  Builder b(getContext());
  Type index = b.getIndexType();
  if (failed(verifyModRegion(*this, getScoreMod(), "score_mod",
                             {b.getF32Type(), index, index, index, index},
                             b.getF32Type())))
    return failure();
  return verifyModRegion(*this, getMaskMod(), "mask_mod",
                         {index, index, index, index}, b.getI1Type());
}
