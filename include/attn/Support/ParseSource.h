//===- ParseSource.h - IR text parsed without MLIR 22's crash ---*- C++ -*-===//
//
// Every attn entry point that reads IR text (attn-opt, attn-compile,
// attn-tune, the C API and what is built on it, the tuning database's
// configurations) parses through here.
//
// MLIR 22.1's parser crashes (a segfault in a release build) on a dense
// array attribute of `index` elements, `array<index: 1, 2>`, spelled
// directly or through a type alias (llvm/llvm-project#179045; fixed upstream
// by #179075, after 22.1): it asks the element type for a bit width, which
// `index` has none of. These functions find that spelling in the text first
// and refuse it with a located error, as the parser would refuse any other
// element type it cannot hold. Delete them when the LLVM the README installs
// has the fix (mlir-opt then prints an error for such a file instead of a
// stack dump).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_SUPPORT_PARSESOURCE_H
#define ATTN_SUPPORT_PARSESOURCE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include <optional>

namespace llvm {
class MemoryBuffer;
class SourceMgr;
} // namespace llvm

namespace mlir {
namespace attn {

/// The offset in `text` of the first `array<T` whose T is `index` or a type
/// alias that names it, outside comments and string literals; nullopt if
/// there is none.
std::optional<size_t> findIndexDenseArray(llvm::StringRef text);

/// The message of the error at that offset.
llvm::StringRef indexDenseArrayMessage();

/// parseSourceString<ModuleOp>, refusing a dense array of `index` elements
/// first (an error located in `sourceName`, through the context's
/// diagnostics, and no module).
OwningOpRef<ModuleOp> parseModule(llvm::StringRef source,
                                  const ParserConfig &config,
                                  llvm::StringRef sourceName = "");

/// parseSourceFile<ModuleOp> on the main buffer of `sourceMgr`, the same.
OwningOpRef<ModuleOp> parseModule(llvm::SourceMgr &sourceMgr,
                                  const ParserConfig &config);

/// mlir::parseAttribute, the same (the error located in an unnamed buffer).
Attribute parseAttributeText(llvm::StringRef text, MLIRContext *context);

/// For a driver that hands the buffer to upstream code (attn-opt's
/// MlirOptMain): prints the error to stderr, located in `buffer`, and fails
/// if the buffer holds such an array. Bytecode buffers pass unchecked.
LogicalResult checkIndexDenseArrays(const llvm::MemoryBuffer &buffer);

} // namespace attn
} // namespace mlir

#endif // ATTN_SUPPORT_PARSESOURCE_H
