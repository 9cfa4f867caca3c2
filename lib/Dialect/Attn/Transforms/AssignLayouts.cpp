//===- AssignLayouts.cpp - GPU layouts for the tiles of a program ---------===//
//
// Algorithm (per attn.program with a tile configuration):
//  1. The parent layout is the tensor-core accumulator of the configured
//     warps: #attn.mma<warps = W> (mma.sync; sm_80, and sm_90a by default),
//     or #attn.mma<warps = W, version = 3> (wgmma) where the GPU
//     configuration asks for wgmma, which only sm_90a has. Shared operands
//     are then #attn.swizzled<blocked>, the layout wgmma's descriptors read.
//  2. Dot operands that attn.load reads: staged through shared memory
//     (#attn.swizzled); a load that also has other users is cloned for its
//     dot users.
//  3. Every other tile value in the program (op results and block
//     arguments of nested regions: loop-carried state too) gets a register
//     layout from its rank: 2-D tiles #attn.mma, 1-D tiles #attn.rows of
//     it. Tile constants are retyped with it. Shapes the layout cannot hold
//     are diagnosed.
//  4. Computed dot operands: A (P) is converted to the dot-operand layout
//     (no data movement); B is converted to #attn.swizzled (staged through
//     shared memory by attn-stage-shared).
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/ElementwiseChain.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNASSIGNLAYOUTS
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Assigns layouts in one program (the steps of the overview).
class LayoutAssigner {
public:
  LayoutAssigner(ProgramOp program, MmaLayoutAttr mma)
      : program(program), mma(mma),
        rows(RowsLayoutAttr::get(mma.getContext(), mma)),
        shared(SwizzledSharedLayoutAttr::get(mma.getContext(),
                                             /*blocked=*/mma.isWarpgroup())) {}

  LogicalResult run();

private:
  ProgramOp program;
  MmaLayoutAttr mma;
  RowsLayoutAttr rows;
  SwizzledSharedLayoutAttr shared;

  /// The register layout of `type` (step 2), or a diagnostic at `loc`.
  FailureOr<RankedTensorType> registerType(RankedTensorType type, Location loc);
  LogicalResult retype(Value value, Location loc);
  LogicalResult assignRegisterLayouts();
  LogicalResult stageLoadedOperands();
  LogicalResult assignDotOperands();
  /// Makes `operand` of `dot` a tile in shared memory.
  LogicalResult stageOperand(DotOp dot, OpOperand &operand);
  /// Stages `load` through shared memory and reads it back into its
  /// register layout for its user.
  LogicalResult stageSource(LoadOp load);
};

FailureOr<RankedTensorType> LayoutAssigner::registerType(RankedTensorType type,
                                                         Location loc) {
  Attribute layout;
  if (type.getRank() == 2)
    layout = mma;
  else if (type.getRank() == 1)
    layout = rows;
  else
    return emitError(loc) << "tile " << type
                          << " has no GPU register layout (tiles are 1-D or "
                             "2-D)";
  auto encoding = cast<VerifiableTensorEncoding>(layout);
  InFlightDiagnostic diag;
  auto emit = [&]() -> InFlightDiagnostic {
    return emitError(loc) << "tile " << type
                          << " has no register layout here: ";
  };
  if (failed(encoding.verifyEncoding(type.getShape(), type.getElementType(),
                                     emit)))
    return failure();
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

LogicalResult LayoutAssigner::retype(Value value, Location loc) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getEncoding())
    return success();
  FailureOr<RankedTensorType> laidOut = registerType(type, loc);
  if (failed(laidOut))
    return failure();
  value.setType(*laidOut);
  return success();
}

LogicalResult LayoutAssigner::assignRegisterLayouts() {
  WalkResult walk = program.getBody().walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(retype(arg, op->getLoc())))
            return WalkResult::interrupt();
    for (Value result : op->getResults())
      if (failed(retype(result, op->getLoc())))
        return WalkResult::interrupt();
    // Tile constants carry their type in the attribute too.
    if (auto cst = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
        if (dense.getType() != cst.getType())
          cst.setValueAttr(dense.reshape(cast<ShapedType>(cst.getType())));
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult LayoutAssigner::stageOperand(DotOp dot, OpOperand &operand) {
  Value value = operand.get();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType().getIntOrFloatBitWidth() != 16)
    return dot.emitOpError()
           << "has " << type.getElementType()
           << " operands; the tensor cores take f16 or bf16 (f32 attention "
              "runs on the CPU lowering)";
  auto shared = RankedTensorType::get(type.getShape(), type.getElementType(),
                                      this->shared);
  if (failed(cast<VerifiableTensorEncoding>(shared.getEncoding())
                 .verifyEncoding(type.getShape(), type.getElementType(), [&] {
                   return dot.emitOpError()
                          << "cannot stage operand #"
                          << operand.getOperandNumber()
                          << " through shared memory: ";
                 })))
    return failure();
  if (auto load = value.getDefiningOp<LoadOp>()) {
    // Loaded for dots only: the load itself goes to shared memory.
    bool onlyDots = llvm::all_of(load->getUses(), [](OpOperand &use) {
      auto user = dyn_cast<DotOp>(use.getOwner());
      return user && use.getOperandNumber() < 2;
    });
    if (onlyDots) {
      load.getResult().setType(shared);
      return success();
    }
    // Otherwise the dots get a copy of their own.
    OpBuilder b(load);
    b.setInsertionPointAfter(load);
    auto copy = cast<LoadOp>(b.clone(*load));
    copy.getResult().setType(shared);
    load.getResult().replaceUsesWithIf(copy.getResult(), [](OpOperand &use) {
      auto user = dyn_cast<DotOp>(use.getOwner());
      return user && use.getOperandNumber() < 2;
    });
    return success();
  }
  // A computed tile from outside the dot's loop (a scaled Q,
  // attn-accumulate-bias) is stored once, where it is computed, for every
  // dot that reads it; otherwise (a computed B) at the dot.
  Operation *def = value.getDefiningOp();
  Operation *loop = dot->getParentOfType<scf::ForOp>();
  if (def && loop && !loop->isAncestor(def)) {
    for (Operation *user : value.getUsers())
      if (auto convert = dyn_cast<ConvertLayoutOp>(user))
        if (convert.getType() == shared) {
          operand.set(convert.getResult());
          return success();
        }
    OpBuilder b(def->getContext());
    b.setInsertionPointAfter(def);
    operand.set(ConvertLayoutOp::create(b, def->getLoc(), shared, value));
    return success();
  }
  OpBuilder b(dot);
  operand.set(ConvertLayoutOp::create(b, dot.getLoc(), shared, value));
  return success();
}

/// The one tile load that `value` is an elementwise function of, loaded
/// for it alone, or null.
static LoadOp elementwiseSource(Value value) {
  auto load = dyn_cast_or_null<LoadOp>(elementwiseChainRoot(value));
  return load && load->hasOneUse() ? load : LoadOp();
}

/// Whether `value` is computed outside the loop that holds `dot`.
static bool definedOutsideLoop(Value value, DotOp dot) {
  Operation *def = value.getDefiningOp();
  auto loop = dot->getParentOfType<scf::ForOp>();
  return def && loop && !loop->isAncestor(def);
}

LogicalResult LayoutAssigner::stageSource(LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  auto shared = RankedTensorType::get(type.getShape(), type.getElementType(),
                                      this->shared);
  if (failed(cast<VerifiableTensorEncoding>(shared.getEncoding())
                 .verifyEncoding(type.getShape(), type.getElementType(), [&] {
                   return load.emitOpError()
                          << "cannot stage the tile through shared memory: ";
                 })))
    return failure();
  load.getResult().setType(shared);
  OpBuilder b(load->getContext());
  b.setInsertionPointAfter(load);
  auto read = ConvertLayoutOp::create(b, load.getLoc(), type, load.getResult());
  load.getResult().replaceAllUsesExcept(read.getResult(), read);
  return success();
}

LogicalResult LayoutAssigner::stageLoadedOperands() {
  SmallVector<DotOp> dots;
  program.getBody().walk([&](DotOp dot) { dots.push_back(dot); });
  for (DotOp dot : dots)
    for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()}) {
      // A shared-memory buffer (a program laid out before) is staged.
      auto type = dyn_cast<RankedTensorType>(operand->get().getType());
      if (type && operand->get().getDefiningOp<LoadOp>() &&
          !type.getEncoding() && failed(stageOperand(dot, *operand)))
        return failure();
    }
  return success();
}

LogicalResult LayoutAssigner::assignDotOperands() {
  SmallVector<DotOp> dots;
  program.getBody().walk([&](DotOp dot) { dots.push_back(dot); });
  for (DotOp dot : dots) {
    OpOperand &a = dot.getAMutable(), &b = dot.getBMutable();
    Value aValue = a.get();
    auto aType = dyn_cast<RankedTensorType>(aValue.getType());
    if (!aType || isa<SwizzledSharedLayoutAttr, DotOperandLayoutAttr>(
                      aType.getEncoding())) {
      // Already staged or converted (a load shared with an earlier dot; a
      // shared buffer or a P of a program laid out before).
    } else if (aValue.getDefiningOp<LoadOp>() ||
               !isa<MmaLayoutAttr>(aType.getEncoding()) ||
               (mma.isWarpgroup() && definedOutsideLoop(aValue, dot))) {
      // Loaded, or computed in front of the dot's loop on wgmma (a scaled
      // Q): wgmma reads it from shared memory, as Q, rather than holding
      // it in registers across the loop. The tile it is computed from
      // elementwise, loaded for it alone, is staged as well and read back
      // (attn-stage-shared then stores the result over it).
      LoadOp source = elementwiseSource(aValue);
      if (source && !isa<SwizzledSharedLayoutAttr>(
                        cast<RankedTensorType>(source.getType()).getEncoding()) &&
          failed(stageSource(source)))
        return failure();
      if (failed(stageOperand(dot, a)))
        return failure();
    } else {
      // P: the accumulator of one product is the A operand of the next.
      if (aType.getElementType().getIntOrFloatBitWidth() != 16)
        return dot.emitOpError()
               << "has " << aType.getElementType()
               << " operands; the tensor cores take f16 or bf16";
      OpBuilder builder(dot);
      auto operandType = RankedTensorType::get(
          aType.getShape(), aType.getElementType(),
          DotOperandLayoutAttr::get(program.getContext(), mma));
      if (failed(cast<VerifiableTensorEncoding>(operandType.getEncoding())
                     .verifyEncoding(aType.getShape(), aType.getElementType(),
                                     [&] {
                                       return dot.emitOpError()
                                              << "operand A has no "
                                                 "dot-operand layout: ";
                                     })))
        return failure();
      a.set(ConvertLayoutOp::create(builder, dot.getLoc(), operandType,
                                    aValue));
    }
    auto bType = dyn_cast<RankedTensorType>(b.get().getType());
    if (bType && !isa<SwizzledSharedLayoutAttr>(bType.getEncoding()) &&
        failed(stageOperand(dot, b)))
      return failure();
  }
  return success();
}

LogicalResult LayoutAssigner::run() {
  if (failed(stageLoadedOperands()) || failed(assignRegisterLayouts()))
    return failure();
  return assignDotOperands();
}

struct AttnAssignLayoutsPass
    : public attn::impl::AttnAssignLayoutsBase<AttnAssignLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (chip != "sm_80" && chip != "sm_90" && chip != "sm_90a") {
      getOperation()->emitError()
          << "attn-assign-layouts: no layouts for chip '" << chip
          << "' (known: sm_80, sm_90, sm_90a)";
      return signalPassFailure();
    }
    bool failedAny = false;
    getOperation()->walk([&](ProgramOp program) {
      TileConfigAttr config = program.getConfigAttr();
      if (!config) {
        program.emitOpError() << "has no tile configuration; the GPU layouts "
                                 "need its warps (run attn-default-config "
                                 "before attn-tile)";
        failedAny = true;
        return;
      }
      bool wgmma = program.getGpuConfigOrDefault().getWgmma();
      if (wgmma && chip != "sm_90a") {
        program.emitOpError()
            << "asks for wgmma (#attn.gpu_config<wgmma = true>), which only "
               "sm_90a has; this pass targets "
            << chip;
        failedAny = true;
        return;
      }
      if (wgmma && (config.getWarps() % 4 != 0 ||
                    config.getBlockM() != 16 * config.getWarps())) {
        program.emitOpError()
            << "asks for wgmma with block_m = " << config.getBlockM()
            << " and " << config.getWarps()
            << " warps; wgmma computes 64 rows per warpgroup of 4 warps, so "
               "block_m must be 16 x warps with warps a multiple of 4";
        failedAny = true;
        return;
      }
      auto mma = MmaLayoutAttr::get(program.getContext(), config.getWarps(),
                                    /*version=*/wgmma ? 3 : 2);
      if (failed(LayoutAssigner(program, mma).run()))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
