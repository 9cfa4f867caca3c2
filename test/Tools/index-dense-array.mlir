// A dense array of `index` elements, directly or through type aliases,
// crashes MLIR 22.1's parser (llvm/llvm-project#179045; the fuzzer found
// it in an attn.kv_range's operandSegmentSizes). Every attn tool refuses it
// with an error at its place instead, and an `array<index` inside a
// string or a comment, or a dialect's own `array` type, is left alone.
// RUN: not attn-opt %s 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: not attn-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not attn-opt %s --attn-tile 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: not attn-compile %s --chip=sm_90a -o %t 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: not attn-opt %S/Inputs/index-array-alias.mlir 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: not attn-compile %S/Inputs/index-array-alias.mlir --chip=sm_80 -o %t 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: attn-opt %S/Inputs/index-array-lookalikes.mlir --allow-unregistered-dialect | FileCheck %s --check-prefix=FINE

// DIRECT: index-dense-array.mlir:[[# @LINE + 3]]:70: error: a dense array of 'index' elements is not supported: its element type has no fixed bit width (use i64; MLIR 22.1's parser would crash here, llvm/llvm-project#179045)
// STDIN: <stdin>:[[# @LINE + 2]]:70: error: a dense array of 'index' elements
func.func @kv_range(%r: index) {
  %lo, %hi = "attn.kv_range"(%r, %r, %r, %r) <{operandSegmentSizes = array<index: 1, 1, 1, 1, 0, 0>, kind = 1 : i32, block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>}> : (index, index, index, index) -> (index, index)
  return
}

// ALIAS: index-array-alias.mlir:5:34: error: a dense array of 'index' elements is not supported
// FINE: attributes {a = array<i32: 1>, b = #foo.array<index>, s = "array<index: 1> \22 array<index: 2>"}
