//===- OutlineKernel.cpp - attn.program to a kernel gpu.func --------------===//
//
// A kernel's host side is the runtime (runtime/): it launches the kernel from
// the `attn.launch` metadata this step attaches, with one argument group per
// buffer (pointer, sizes, strides; docs/gpu-kernels.md). So the host
// function is not kept: it must hold nothing but the program and what the
// program is computed from, and anything else is refused rather than
// dropped.
//
// Algorithm (per function with an attn.program):
//  1. Check the function: one program; besides it only side-effect free ops
//     and cf.assert shape checks; the program lists q, k, v and o, has a
//     tile configuration and its shared memory placed, and its grid is the
//     one the runtime launches (ceildiv(Nq, block_m), B * Hq), computed so
//     from q's sizes in the host function. The asserts become
//     the kernel's launch contract, which the runtime checks before every
//     launch: `dim(a, i) == dim(b, j)` (equal sizes), `dim(a, i) ==
//     dim(b, j) || dim(a, i) == 1` (a broadcast dimension) and attn-tile's
//     grouped-query check (`dim(b, j) > 0` and it divides `dim(a, i)`);
//     any other assert is refused, as the kernel could not keep it.
//  2. Create `gpu.func @<function>` kernel in @attn_kernels whose arguments
//     are the program's distinct buffers, in buffer order (a memref listed
//     under two roles is one argument).
//  3. Clone the body in: program ids become gpu.block_id x / y; values from
//     above are recomputed in the kernel from their (side-effect free)
//     definitions; each buffer is a view of its argument
//     (memref.reinterpret_cast) whose dynamic sizes are read from one
//     member of their class of equal sizes (so that the K and V copies of
//     a block share their bounds checks, as they share their length) and
//     whose strides are the argument's.
//  4. Attach the launch metadata and erase the host function.
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "LaunchContract.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

namespace {

/// Clones into the kernel what a value from above is computed from.
class ValueSinker {
public:
  ValueSinker(OpBuilder &b, IRMapping &mapping) : b(b), mapping(mapping) {}

  LogicalResult sink(Value v, Operation *user) {
    if (mapping.contains(v))
      return success();
    Operation *def = v.getDefiningOp();
    if (!def)
      return user->emitOpError()
             << "uses an argument of the host function that is not one of "
                "the program's buffers; a kernel takes only its buffers";
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return user->emitOpError()
             << "uses a value computed outside the attn.program by '"
             << def->getName()
             << "', which has side effects or regions; the kernel can only "
                "recompute side-effect free values";
    for (Value operand : def->getOperands())
      if (failed(sink(operand, def)))
        return failure();
    b.clone(*def, mapping);
    return success();
  }

private:
  OpBuilder &b;
  IRMapping &mapping;
};

/// Whether `v` is `memref.dim %buffer, d`.
static bool isDimOf(Value v, Value buffer, int64_t d) {
  auto dim = v.getDefiningOp<memref::DimOp>();
  std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
  return dim && dim.getSource() == buffer && index && *index == d;
}

/// Whether the program's grid is the one the runtime launches (format 2's
/// "grid": ceildiv(q.size2, block_m), q.size0 * q.size1): the host IR
/// must compute it so, or the kernel would run over a different grid than
/// the program says.
static bool isRuntimeGrid(ProgramOp program, TileConfigAttr config) {
  Value q = program.getBuffer(BufferRole::Q);
  auto ceil = program.getGridM().getDefiningOp<arith::CeilDivUIOp>();
  APInt blockM;
  if (!ceil || !isDimOf(ceil.getLhs(), q, 2) ||
      !matchPattern(ceil.getRhs(), m_ConstantInt(&blockM)) ||
      blockM.getSExtValue() != config.getBlockM())
    return false;
  auto mul = program.getGridBh().getDefiningOp<arith::MulIOp>();
  return mul && ((isDimOf(mul.getLhs(), q, 0) && isDimOf(mul.getRhs(), q, 1)) ||
                 (isDimOf(mul.getLhs(), q, 1) && isDimOf(mul.getRhs(), q, 0)));
}

static LogicalResult outline(func::FuncOp func, ProgramOp program,
                             gpu::GPUModuleOp gpuModule, StringRef chip) {
  MLIRContext *ctx = func.getContext();
  // Step 1.
  for (Operation &op : func.getBody().front()) {
    if (&op == program.getOperation() || isa<func::ReturnOp>(op) ||
        isa<cf::AssertOp>(op) || isMemoryEffectFree(&op))
      continue;
    return op.emitOpError()
           << "is in a function that the GPU pipeline turns into a kernel; "
              "such a function may hold one attn.attention and what it is "
              "computed from, nothing with other effects (the kernel "
              "replaces the whole function)";
  }
  if (func.getNumResults() != 0)
    return func.emitOpError()
           << "returns values; a function compiled to a kernel returns none";
  for (BufferRole role :
       {BufferRole::Q, BufferRole::K, BufferRole::V, BufferRole::O})
    if (!program.getBuffer(role))
      return program.emitOpError()
             << "has no '" << stringifyBufferRole(role)
             << "' buffer; a kernel needs q, k, v and o";
  TileConfigAttr config = program.getConfigAttr();
  auto sharedBytes = program->getAttrOfType<IntegerAttr>("shared_bytes");
  if (!config || !sharedBytes)
    return program.emitOpError()
           << "needs a tile configuration and placed shared memory (run "
              "attn-assign-layouts, attn-stage-shared, attn-pipeline and "
              "attn-allocate-shared first)";
  if (!isRuntimeGrid(program, config))
    return program.emitOpError()
           << "has a grid the runtime cannot launch: kernels run over "
              "(ceildiv(dim(q, 2), block_m), dim(q, 0) * dim(q, 1)) = "
              "(ceildiv(Nq, "
           << config.getBlockM()
           << "), B * Hq) programs, the grid of the metadata's format 2";

  // Step 2: one argument per distinct buffer.
  SmallVector<Value> args;
  SmallVector<SmallVector<StringRef>> roles;
  for (auto [i, buffer] : llvm::enumerate(program.getBuffers())) {
    StringRef role = stringifyBufferRole(program.getRole(i));
    auto it = llvm::find(args, buffer);
    if (it != args.end()) {
      roles[it - args.begin()].push_back(role);
      continue;
    }
    auto type = cast<MemRefType>(buffer.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        (!strides.empty() && !ShapedType::isDynamic(strides.back()) &&
         strides.back() != 1))
      return program.emitOpError()
             << "buffer '" << role << "' has type " << type
             << ", whose innermost dimension is not contiguous; kernels take "
                "buffers with a unit innermost stride";
    args.push_back(buffer);
    roles.push_back({role});
  }
  Contract contract;
  for (auto check : func.getBody().front().getOps<cf::AssertOp>())
    if (!readAssert(check, args, contract))
      return check.emitOpError()
             << "is a host-side check a kernel cannot keep; only equal "
                "buffer sizes and attn-tile's grouped-query check become "
                "launch checks (\""
             << check.getMsg() << "\")";

  OpBuilder mb(gpuModule.getBodyRegion());
  mb.setInsertionPointToEnd(gpuModule.getBody());
  // A kernel argument is any strided view with a contiguous innermost
  // dimension: the runtime passes a pointer to the first element and the
  // tensor's own strides (an identity-layout memref in the host function is
  // one such view).
  SmallVector<Type> argTypes;
  auto stridedType = [&](MemRefType type) {
    SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
    if (!strides.empty())
      strides.back() = 1;
    return MemRefType::get(type.getShape(), type.getElementType(),
                           StridedLayoutAttr::get(ctx, /*offset=*/0, strides));
  };
  for (Value arg : args)
    argTypes.push_back(stridedType(cast<MemRefType>(arg.getType())));
  // Format 3: a TMA descriptor per (buffer, box) the program copies with
  // TMA, after the buffers, each a 128-byte by-value parameter.
  SmallVector<TensorMap> maps = tensorMapsOf(program, args);
  for (size_t i = 0; i < maps.size(); ++i)
    argTypes.push_back(LLVM::LLVMPointerType::get(ctx));
  auto kernel = gpu::GPUFuncOp::create(mb, program.getLoc(), func.getSymName(),
                                       mb.getFunctionType(argTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), mb.getUnitAttr());
  // The descriptors' by-value attributes are set on the llvm.func
  // (attn-tensor-map-params): neither the 1:N conversion of the memrefs
  // before them nor gpu-to-nvvm carries argument attributes along.
  if (!maps.empty())
    kernel->setAttr(kTensorMapCountAttr, mb.getI64IntegerAttr(maps.size()));
  int64_t threads = 32 * config.getWarps();
  WarpSpecializeOp specialized;
  program.walk([&](WarpSpecializeOp ws) { specialized = ws; });
  // How many CTAs an SM runs at once (a persistent kernel's workers per SM).
  int64_t ctasPerSm = 1;
  if (specialized) {
    if (4 * static_cast<int64_t>(specialized.getConsumerWarpgroups()) !=
        config.getWarps())
      return specialized.emitOpError()
             << "has " << specialized.getConsumerWarpgroups()
             << " consumer warpgroups; the configuration's " << config.getWarps()
             << " warps make " << config.getWarps() / 4;
    // The producer warpgroup comes after the consumers.
    threads += 128;
    // setmaxnreg needs a register cap at entry (else ptxas ignores it,
    // C7508): the occupancy the budgets allow and the shared memory too
    // (1 KiB of each CTA's is the system's). ptxas also compiles every
    // instruction within that cap (a one-warpgroup D = 256 kernel's
    // m64n256 product does not fit in the 128 registers of two CTAs per
    // SM), so no more CTAs are asked for than shared memory lets run.
    int64_t perCta = 128 * (specialized.getConsumerWarpgroups() *
                                specialized.getConsumerRegisters() +
                            specialized.getProducerRegisters());
    int64_t bySmem = 232448 / (sharedBytes.getInt() + 1024);
    ctasPerSm = std::max<int64_t>(1, std::min(65536 / perCta, bySmem));
    kernel->setAttr("nvvm.minctasm", mb.getI32IntegerAttr(ctasPerSm));
  }
  kernel.setKnownBlockSizeAttr(
      mb.getDenseI32ArrayAttr({(int32_t)threads, 1, 1}));
  GpuConfigAttr gpu = program.getGpuConfigOrDefault();
  kernel->setAttr("attn.gpu_config", gpu);

  // Step 3.
  Block &entry = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IRMapping mapping;
  Location loc = program.getLoc();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(entry.getArguments(), args))) {
    auto [arg, value] = pair;
    auto type = cast<MemRefType>(value.getType());
    int64_t rank = type.getRank();
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, arg);
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t d = 0; d < rank; ++d) {
      BufferDim rep = contract.find({unsigned(i), d});
      if (!type.isDynamicDim(d))
        sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      else if (rep == BufferDim{unsigned(i), d})
        sizes.push_back(meta.getSizes()[d]);
      else
        sizes.push_back(memref::DimOp::create(b, loc, entry.getArgument(rep.first),
                                              rep.second)
                            .getResult());
      strides.push_back(d + 1 == rank ? OpFoldResult(b.getIndexAttr(1))
                                      : OpFoldResult(meta.getStrides()[d]));
    }
    MemRefType viewType = stridedType(type);
    Value view = memref::ReinterpretCastOp::create(
        b, loc, viewType, arg, OpFoldResult(b.getIndexAttr(0)), sizes, strides);
    mapping.map(value, view);
  }
  mapping.map(program.getBlockIdM(),
              gpu::BlockIdOp::create(b, program.getLoc(), gpu::Dimension::x));
  mapping.map(program.getBlockIdBH(),
              gpu::BlockIdOp::create(b, program.getLoc(), gpu::Dimension::y));
  ValueSinker sinker(b, mapping);
  WalkResult walk = program.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!program.getBody().isAncestor(operand.getParentRegion()) &&
          failed(sinker.sink(operand, op)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted()) {
    kernel.erase();
    return failure();
  }
  for (Operation &op : program.getBody().front())
    b.clone(op, mapping);
  gpu::ReturnOp::create(b, program.getLoc());
  // A view the program made of a buffer (attn-stage-shared's planes) has
  // the strides of the host's memref in its type; the kernel's buffers
  // have the launch's strides, unknown here. Each view's type is inferred
  // again from its kernel source (in program order, so a view of a view
  // sees its source's new type): else its static strides are a claim the
  // kernel's buffers do not keep, and with a static unit extent among the
  // kept dimensions (one query row, one key) the view's dropped
  // dimensions cannot be told from its strides at all.
  kernel.walk([](memref::SubViewOp view) {
    MemRefType type = view.getType();
    auto inferred = memref::SubViewOp::inferRankReducedResultType(
        type.getShape(), view.getSourceType(), view.getMixedOffsets(),
        view.getMixedSizes(), view.getMixedStrides());
    view.getResult().setType(cast<MemRefType>(inferred));
  });
  // Each TMA store writes through its buffer's descriptor, each TMA copy
  // reads through its own.
  kernel.walk([&](TmaStoreOp store) {
    for (auto [i, map] : llvm::enumerate(maps))
      if (store.getDest() == mapping.lookup(args[map.arg]))
        store.getTensorMapMutable().assign(entry.getArgument(args.size() + i));
  });
  kernel.walk([&](TmaCopyOp copy) {
    for (auto [i, map] : llvm::enumerate(maps))
      if (copy.getSource() == mapping.lookup(args[map.arg]) &&
          copyMap(copy, map.arg) == map)
        copy.getTensorMapMutable().assign(entry.getArgument(args.size() + i));
  });

  // Step 4.
  NamedAttrList launch;
  int64_t format = maps.empty() ? 2 : 3;
  launch.append("format_version", mb.getI64IntegerAttr(format));
  launch.append("block_m", mb.getI64IntegerAttr(config.getBlockM()));
  launch.append("block_n", mb.getI64IntegerAttr(config.getBlockN()));
  launch.append("warps", mb.getI64IntegerAttr(config.getWarps()));
  launch.append("stages", mb.getI64IntegerAttr(config.getStages()));
  launch.append("split_kv", mb.getBoolAttr(config.getSplitKv()));
  launch.append("lazy_rescale", mb.getBoolAttr(gpu.getLazyRescale()));
  launch.append("reverse_kv", mb.getBoolAttr(gpu.getReverseKv()));
  launch.append("loop_local_ids", mb.getBoolAttr(gpu.getLoopLocalIds()));
  launch.append("threads", mb.getI64IntegerAttr(threads));
  launch.append("shared_bytes", sharedBytes);
  SmallVector<Attribute> buffers;
  for (auto [arg, r] : llvm::zip(args, roles)) {
    auto [writes, align] = accessOf(program, arg);
    buffers.push_back(
        describeBuffer(ctx, cast<MemRefType>(arg.getType()), r, writes, align));
  }
  launch.append("buffers", mb.getArrayAttr(buffers));
  // A persistent kernel loops over its tiles: the runtime launches
  // min(tiles, SMs x ctas_per_sm) CTAs (the contract says so too, since a
  // kernel that is not persistent must get its whole grid).
  if (program.getPersistent())
    launch.append("persistent",
                  mb.getDictionaryAttr({mb.getNamedAttr(
                      "ctas_per_sm", mb.getI64IntegerAttr(ctasPerSm))}));
  if (!maps.empty()) {
    SmallVector<Attribute> entries;
    for (const TensorMap &map : maps) {
      int64_t rank = cast<MemRefType>(args[map.arg].getType()).getRank();
      // Innermost first: the box's columns (rows of the swizzle's width,
      // for swizzled tiles), `rows` rows, one of each outer index.
      SmallVector<int64_t> box(rank, 1);
      box[0] = map.boxCols;
      box[1] = map.rows;
      entries.push_back(mb.getDictionaryAttr(
          {mb.getNamedAttr("buffer", mb.getI64IntegerAttr(map.arg)),
           mb.getNamedAttr("box", mb.getI64ArrayAttr(box)),
           mb.getNamedAttr("swizzle", mb.getI64IntegerAttr(map.swizzle))}));
    }
    launch.append("tensor_maps", mb.getArrayAttr(entries));
  }
  auto dimName = [&](BufferDim d) -> Attribute {
    std::string name;
    for (StringRef role : roles[d.first])
      name += (name.empty() ? "" : "+") + role.str();
    return mb.getStringAttr(name + ".size" + std::to_string(d.second));
  };
  SmallVector<Attribute> equal, divides, broadcasts;
  for (auto [a, c] : contract.equal)
    equal.push_back(mb.getArrayAttr({dimName(a), dimName(c)}));
  for (auto [divisor, dividend] : contract.divides)
    divides.push_back(mb.getArrayAttr({dimName(divisor), dimName(dividend)}));
  for (auto [dim, full] : contract.broadcasts)
    broadcasts.push_back(mb.getArrayAttr({dimName(dim), dimName(full)}));
  launch.append("equal_sizes", mb.getArrayAttr(equal));
  launch.append("divisible_sizes", mb.getArrayAttr(divides));
  launch.append("broadcast_sizes", mb.getArrayAttr(broadcasts));
  // What the program computes, where attn-tile recorded it (informational).
  for (StringRef name :
       {"attn.mask", "attn.scale", "attn.score_mods", "attn.softcap"})
    if (Attribute attr = program->getAttr(name))
      launch.append(name.drop_front(5), attr);
  kernel->setAttr("attn.launch", launch.getDictionary(ctx));
  emitLaunchContract(mb, kernel, config, format, threads, sharedBytes.getInt(),
                     program, args, roles);
  func.erase();
  return success();
}
} // namespace

LogicalResult nvgpu::outlineKernels(ModuleOp module, gpu::GPUModuleOp gpuModule,
                                    StringRef chip) {
  SmallVector<std::pair<func::FuncOp, ProgramOp>> work;
  bool failedAny = false;
  module.walk([&](ProgramOp program) {
    auto func = dyn_cast<func::FuncOp>(program->getParentOp());
    if (!func) {
      program.emitError()
          << "the GPU pipeline makes a kernel of an attention at the top "
             "level of a func.func body; this one is inside '"
          << program->getParentOp()->getName()
          << "' (move it into a function of its own and call that)";
      failedAny = true;
      return;
    }
    if (llvm::any_of(work, [&](auto &w) { return w.first == func; })) {
      func.emitOpError() << "holds more than one attn.program; the GPU "
                            "lowering makes one kernel per function";
      failedAny = true;
      return;
    }
    work.push_back({func, program});
  });
  if (failedAny)
    return failure();
  for (auto [func, program] : work)
    if (failed(outline(func, program, gpuModule, chip)))
      failedAny = true;
  return failure(failedAny);
}
