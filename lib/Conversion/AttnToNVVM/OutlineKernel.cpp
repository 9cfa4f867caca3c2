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

#include "LoweringUtils.h"

#include "attn_contract.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <map>

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

/// A buffer dimension: (argument number, dimension).
using BufferDim = std::pair<unsigned, int64_t>;

/// `memref.dim` of a kernel buffer with a constant index, as a BufferDim.
static std::optional<BufferDim> asBufferDim(Value v, ArrayRef<Value> args) {
  auto dim = v.getDefiningOp<memref::DimOp>();
  if (!dim)
    return std::nullopt;
  std::optional<int64_t> index = dim.getConstantIndex();
  auto it = llvm::find(args, dim.getSource());
  if (!index || it == args.end())
    return std::nullopt;
  return BufferDim{unsigned(it - args.begin()), *index};
}

// The fields of the launch contract the module carries (a constant global
// `attn_contract_<kernel>` of i64) are the runtime's list, which reads it
// with cuModuleGetGlobal and checks the metadata against it at load.
using namespace attn_contract;

static void emitLaunchContract(OpBuilder &mb, gpu::GPUFuncOp kernel,
                               TileConfigAttr config, int64_t format,
                               int64_t threads,
                               int64_t sharedBytes, ProgramOp program,
                               ArrayRef<Value> args,
                               ArrayRef<SmallVector<StringRef>> roles) {
  SmallVector<int64_t> c(kContractFields, 0);
  c[kContractMagic] = 0x6e747461;
  c[kContractVersion] = 2;
  c[kContractFormat] = format;
  c[kContractBlockM] = config.getBlockM();
  c[kContractBlockN] = config.getBlockN();
  c[kContractWarps] = config.getWarps();
  c[kContractStages] = config.getStages();
  c[kContractThreads] = threads;
  c[kContractSharedBytes] = sharedBytes;
  c[kContractNumBuffers] = args.size();
  c[kContractPersistent] = program.getPersistent() ? 1 : 0;
  for (auto [arg, r] : llvm::zip(args, roles)) {
    auto type = cast<MemRefType>(arg.getType());
    auto dim3 = [&] {
      return type.getRank() == 4 && !type.isDynamicDim(3) ? type.getDimSize(3)
                                                         : int64_t(0);
    };
    if (llvm::is_contained(r, "q")) {
      c[kContractHeadDim] = dim3();
      Type elt = type.getElementType();
      c[kContractElementType] = elt.isF16() ? 0 : elt.isBF16() ? 1 : 2;
    }
    if (llvm::is_contained(r, "v"))
      c[kContractValueHeadDim] = dim3();
    if (llvm::is_contained(r, "lse"))
      c[kContractHasLse] = 1;
  }
  if (auto mask = program->getAttrOfType<MaskAttr>("attn.mask")) {
    c[kContractMaskKind] = mask.getKind() == MaskKind::Causal   ? 1
                           : mask.getKind() == MaskKind::Window ? 2
                                                                : 0;
    c[kContractMaskAlignment] =
        mask.getAlignment() == MaskAlignment::BottomRight ? 1 : 0;
    if (mask.getKind() == MaskKind::Window) {
      c[kContractMaskLeft] = mask.getLeft();
      c[kContractMaskRight] = mask.getRight();
    }
  }
  auto type = RankedTensorType::get({kContractFields}, mb.getI64Type());
  LLVM::GlobalOp::create(
      mb, kernel.getLoc(),
      LLVM::LLVMArrayType::get(mb.getI64Type(), kContractFields),
      /*isConstant=*/true, LLVM::Linkage::External,
      ("attn_contract_" + kernel.getName()).str(),
      DenseElementsAttr::get(type, ArrayRef<int64_t>(c)), /*alignment=*/8,
      /*addrSpace=*/1);
}

/// The launch contract from the host function's asserts (step 1).
struct Contract {
  /// Equal sizes: each dimension's representative (the first in argument
  /// order of its class).
  std::map<BufferDim, BufferDim> representative;
  SmallVector<std::pair<BufferDim, BufferDim>> equal;
  /// (divisor, dividend): the divisor is positive and divides the dividend.
  SmallVector<std::pair<BufferDim, BufferDim>> divides;
  /// (dim, full): dim is 1 or equal to full (a broadcast dimension).
  SmallVector<std::pair<BufferDim, BufferDim>> broadcasts;

  BufferDim find(BufferDim d) {
    auto it = representative.find(d);
    if (it == representative.end() || it->second == d)
      return d;
    return it->second = find(it->second);
  }
  void unite(BufferDim a, BufferDim b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return;
    if (b < a)
      std::swap(a, b);
    representative[a] = a;
    representative[b] = a;
  }
};

/// Reads one assert into `contract`; false if it is none of the two forms.
static bool readAssert(cf::AssertOp op, ArrayRef<Value> args,
                       Contract &contract) {
  auto isEq = [&](Value v, Value &lhs, Value &rhs) {
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
      return false;
    lhs = cmp.getLhs();
    rhs = cmp.getRhs();
    return true;
  };
  Value lhs, rhs;
  if (isEq(op.getArg(), lhs, rhs)) {
    std::optional<BufferDim> a = asBufferDim(lhs, args),
                             b = asBufferDim(rhs, args);
    if (!a || !b)
      return false;
    contract.equal.push_back({*a, *b});
    contract.unite(*a, *b);
    return true;
  }
  // or(d == full, d == 1): a broadcast dimension.
  if (auto either = op.getArg().getDefiningOp<arith::OrIOp>()) {
    Value a, b2, c, one;
    if (isEq(either.getLhs(), a, b2) && isEq(either.getRhs(), c, one) &&
        a == c && matchPattern(one, m_One())) {
      std::optional<BufferDim> dim = asBufferDim(a, args),
                               full = asBufferDim(b2, args);
      if (!dim || !full)
        return false;
      contract.broadcasts.push_back({*dim, *full});
      return true;
    }
    return false;
  }
  // and(d > 0, rem(n, select(d > 0, d, 1)) == 0)
  auto both = op.getArg().getDefiningOp<arith::AndIOp>();
  if (!both)
    return false;
  auto positive = both.getLhs().getDefiningOp<arith::CmpIOp>();
  Value remResult, zero;
  if (!positive || positive.getPredicate() != arith::CmpIPredicate::sgt ||
      !matchPattern(positive.getRhs(), m_Zero()) ||
      !isEq(both.getRhs(), remResult, zero) || !matchPattern(zero, m_Zero()))
    return false;
  auto rem = remResult.getDefiningOp<arith::RemUIOp>();
  auto safe = rem ? rem.getRhs().getDefiningOp<arith::SelectOp>()
                  : arith::SelectOp();
  if (!rem || !safe || safe.getCondition() != positive.getResult() ||
      safe.getTrueValue() != positive.getLhs())
    return false;
  std::optional<BufferDim> divisor = asBufferDim(positive.getLhs(), args),
                           dividend = asBufferDim(rem.getLhs(), args);
  if (!divisor || !dividend)
    return false;
  contract.divides.push_back({*divisor, *dividend});
  return true;
}

/// How the kernel accesses `buffer` (in `program`): whether it writes it,
/// and the byte alignment its pointer and its strides must have. Tiles
/// copied with cp.async move 16-byte chunks; 16-bit tiles stored from
/// #attn.mma registers go out as 4-byte pairs when their columns are
/// statically inside the buffer, in 16-byte pieces when moreover they are
/// whole 32-column groups in a warp-specialized kernel
/// (RegisterStoreLowering); everything else is accessed element by element.
static std::pair<bool, int64_t> accessOf(ProgramOp program, Value buffer) {
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
      }
      else if (auto store = dyn_cast<StoreOp>(user)) {
        writes = true;
        RankedTensorType tile = store.getValue().getType();
        MemRefType dest = store.getDest().getType();
        APInt c0;
        if (tile.getRank() == 2 &&
            tile.getElementType().getIntOrFloatBitWidth() == 16 &&
            matchPattern(store.getIndices().back(), m_ConstantInt(&c0)) &&
            c0.isZero() &&
            !dest.isDynamicDim(dest.getRank() - 1) &&
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

/// The JSON-facing description of one kernel argument.
static DictionaryAttr describeBuffer(MLIRContext *ctx, MemRefType type,
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

/// One TMA descriptor of a kernel: the argument it describes and the box
/// rows of the copies that use it.
struct TensorMap {
  unsigned arg;
  int64_t rows;
  int64_t elementBytes;
  /// Columns of one box: column blocks of `swizzle`-byte rows
  /// (#attn.swizzled<blocked, span = swizzle>), or the tile's whole rows
  /// unswizzled (swizzle 0).
  int64_t boxCols;
  int64_t swizzle;

  bool operator==(const TensorMap &o) const {
    return arg == o.arg && rows == o.rows && elementBytes == o.elementBytes &&
           boxCols == o.boxCols && swizzle == o.swizzle;
  }
};

/// The descriptor that `copy` (of argument `arg`) reads through: its
/// destination's rows, and its layout's box and swizzle.
static TensorMap copyMap(TmaCopyOp copy, unsigned arg) {
  SharedBufferType dest = copy.getDest().getType();
  int64_t rows = dest.getShape()[0];
  int64_t bytes = dest.getElementType().getIntOrFloatBitWidth() / 8;
  if (auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(dest.getLayout()))
    return {arg, rows, bytes, swizzled.getSpan() / bytes, swizzled.getSpan()};
  return {arg, rows, bytes, dest.getShape()[1], 0};
}

/// The TMA descriptors `program`'s copies need, in argument order.
static SmallVector<TensorMap> tensorMapsOf(ProgramOp program,
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
  for (StringRef name : {"attn.mask", "attn.scale", "attn.score_mods"})
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
