//===- AttentionOp.cpp - the high-level attention op ----------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "DiagnosticUtils.h"

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
  auto kind = [](bool isBuffer) { return isBuffer ? "a memref" : "a tensor"; };
  for (auto [name, type] : all)
    if (isa<MemRefType>(type) != buffers)
      return emitOpError() << "operands must be all tensors or all memrefs, "
                           << "but 'output' is " << kind(buffers) << " while '"
                           << name << "' is " << kind(!buffers);

  // Ranks.
  for (auto [name, type] : all) {
    int64_t want = name == "lse" ? 3 : 4;
    if (type.getRank() != want)
      return emitOpError() << "'" << name << "' must have rank " << want
                           << " ([B, H, N" << (want == 4 ? ", D]" : "]")
                           << "), got " << type;
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
  if (failed(checkSameSize(*this, "batch size", batch)) ||
      failed(checkSameSize(*this, "query head count", qHeads)) ||
      failed(checkSameSize(*this, "key/value head count",
                           {{"key", k, 1}, {"value", v, 1}})) ||
      failed(checkSameSize(*this, "query length", qLen)) ||
      failed(checkSameSize(*this, "key/value length",
                           {{"key", k, 2}, {"value", v, 2}})) ||
      failed(checkSameSize(*this, "head dim (D)",
                           {{"query", q, 3}, {"key", k, 3}})) ||
      failed(checkSameSize(*this, "value head dim (Dv)",
                           {{"value", v, 3}, {"output", o, 3}})))
    return failure();

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

  if (std::optional<APFloat> scale = getScale()) {
    double s = scale->convertToDouble();
    if (!std::isfinite(s) || s == 0.0)
      return emitOpError() << "scale must be finite and non-zero, got "
                           << formatFloatForDiagnostic(s);
  }
  return success();
}
