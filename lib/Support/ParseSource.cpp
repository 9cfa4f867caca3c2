//===- ParseSource.cpp - IR text parsed without MLIR 22's crash ----------===//
//
// A scan of the text, not a parser: comments and string literals are
// blanked out, type aliases that name `index` are collected (to a fixed
// point, for aliases of aliases), then every `array` keyword followed by
// `<` and such a type is a hit. A bare identifier is [A-Za-z_][\w$.]*, so
// `array` preceded by one of those characters (`!foo.array<index>`, a
// dialect's own type) is not the keyword.
//
//===----------------------------------------------------------------------===//

#include "attn/Support/ParseSource.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

/// `text` with every comment and string literal replaced by spaces (line
/// breaks kept), so that offsets into it are offsets into `text`.
static std::string blankCommentsAndStrings(llvm::StringRef text) {
  std::string code = text.str();
  for (size_t i = 0; i < code.size();) {
    if (code[i] == '/' && i + 1 < code.size() && code[i + 1] == '/') {
      for (; i < code.size() && code[i] != '\n'; ++i)
        code[i] = ' ';
    } else if (code[i] == '"') {
      code[i++] = ' ';
      for (; i < code.size() && code[i] != '"' && code[i] != '\n'; ++i) {
        if (code[i] == '\\' && i + 1 < code.size() && code[i + 1] != '\n')
          code[i++] = ' ';
        code[i] = ' ';
      }
      if (i < code.size() && code[i] == '"')
        code[i++] = ' ';
    } else {
      ++i;
    }
  }
  return code;
}

/// The identifier at `pos` (bare-identifier characters), or "".
static llvm::StringRef identifierAt(llvm::StringRef code, size_t pos) {
  size_t end = pos;
  while (end < code.size() && isIdentifierChar(code[end]))
    ++end;
  return code.slice(pos, end);
}

static size_t skipSpaces(llvm::StringRef code, size_t pos) {
  while (pos < code.size() && llvm::isSpace(code[pos]))
    ++pos;
  return pos;
}

/// Whether the type spelled at `pos` is `index` or an alias in `aliases`.
static bool namesIndex(llvm::StringRef code, size_t pos,
                       const llvm::StringSet<> &aliases) {
  if (pos < code.size() && code[pos] == '!')
    return aliases.contains(identifierAt(code, pos + 1));
  return identifierAt(code, pos) == "index";
}

std::optional<size_t> mlir::attn::findIndexDenseArray(llvm::StringRef text) {
  std::string blanked = blankCommentsAndStrings(text);
  llvm::StringRef code = blanked;
  // `!name = type` defines a type alias (a dialect type, `!d.t`, has a dot).
  llvm::StringSet<> aliases;
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t pos = code.find('!'); pos != llvm::StringRef::npos;
         pos = code.find('!', pos + 1)) {
      llvm::StringRef name = identifierAt(code, pos + 1);
      if (name.empty() || name.contains('.') || aliases.contains(name))
        continue;
      size_t eq = skipSpaces(code, pos + 1 + name.size());
      if (eq < code.size() && code[eq] == '=' &&
          namesIndex(code, skipSpaces(code, eq + 1), aliases)) {
        aliases.insert(name);
        grew = true;
      }
    }
  }
  for (size_t pos = code.find("array"); pos != llvm::StringRef::npos;
       pos = code.find("array", pos + 1)) {
    if ((pos > 0 && isIdentifierChar(code[pos - 1])) ||
        identifierAt(code, pos) != "array")
      continue;
    size_t open = skipSpaces(code, pos + 5);
    if (open < code.size() && code[open] == '<' &&
        namesIndex(code, skipSpaces(code, open + 1), aliases))
      return pos;
  }
  return std::nullopt;
}

llvm::StringRef mlir::attn::indexDenseArrayMessage() {
  return "a dense array of 'index' elements is not supported: its element "
         "type has no fixed bit width (use i64; MLIR 22.1's parser would "
         "crash here, llvm/llvm-project#179045)";
}

/// The error at `offset` of `text`, located as the parser locates its own.
static void emitAt(MLIRContext *context, llvm::StringRef name,
                   llvm::StringRef text, size_t offset) {
  llvm::StringRef before = text.take_front(offset);
  unsigned line = before.count('\n') + 1;
  size_t lineStart = before.rfind('\n');
  unsigned column =
      offset - (lineStart == llvm::StringRef::npos ? 0 : lineStart + 1) + 1;
  emitError(FileLineColLoc::get(context, name, line, column))
      << attn::indexDenseArrayMessage();
}

OwningOpRef<ModuleOp> mlir::attn::parseModule(llvm::StringRef source,
                                              const ParserConfig &config,
                                              llvm::StringRef sourceName) {
  if (std::optional<size_t> at = findIndexDenseArray(source)) {
    // parseSourceString names an unnamed buffer "" as well.
    emitAt(config.getContext(), sourceName, source, *at);
    return nullptr;
  }
  return parseSourceString<ModuleOp>(source, config, sourceName);
}

OwningOpRef<ModuleOp> mlir::attn::parseModule(llvm::SourceMgr &sourceMgr,
                                              const ParserConfig &config) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (!isBytecode(*buffer)) {
    if (std::optional<size_t> at = findIndexDenseArray(buffer->getBuffer())) {
      emitAt(config.getContext(), buffer->getBufferIdentifier(),
             buffer->getBuffer(), *at);
      return nullptr;
    }
  }
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}

Attribute mlir::attn::parseAttributeText(llvm::StringRef text,
                                         MLIRContext *context) {
  if (std::optional<size_t> at = findIndexDenseArray(text)) {
    emitAt(context, "", text, *at);
    return nullptr;
  }
  return parseAttribute(text, context);
}

LogicalResult
mlir::attn::checkIndexDenseArrays(const llvm::MemoryBuffer &buffer) {
  if (isBytecode(buffer))
    return success();
  std::optional<size_t> at = findIndexDenseArray(buffer.getBuffer());
  if (!at)
    return success();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  sourceMgr.PrintMessage(
      llvm::errs(), llvm::SMLoc::getFromPointer(buffer.getBufferStart() + *at),
      llvm::SourceMgr::DK_Error, indexDenseArrayMessage());
  return failure();
}
