// RUN: attn-opt %s --attn-loop-annotations -split-input-file -verify-diagnostics | FileCheck %s
// RUN: attn-opt %s --attn-loop-annotations -split-input-file -verify-diagnostics \
// RUN:   | mlir-translate --mlir-to-llvmir --split-input-file | FileCheck %s --check-prefix=LLVMIR

// The hint that scf-to-cf and cf-to-llvm leave as a discardable attribute
// becomes the branch's own loop_annotation, which the translation turns
// into !llvm.loop metadata (the discardable one it ignores).
// CHECK-LABEL: llvm.func @tile_loop
// CHECK: llvm.br ^bb1(%{{.*}} : i32) {loop_annotation = #{{.*}}}
// CHECK-NOT: llvm.loop_annotation
// LLVMIR-LABEL: define void @tile_loop
// LLVMIR: br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// LLVMIR: ![[LOOP]] = distinct !{![[LOOP]], ![[LICM:[0-9]+]]}
// LLVMIR: ![[LICM]] = !{!"llvm.licm.disable"}
llvm.func @tile_loop(%n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^bb1(%c0 : i32)
^bb1(%i: i32):
  %c = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %c, ^bb2, ^bb3
^bb2:
  %j = llvm.add %i, %c1 : i32
  llvm.br ^bb1(%j : i32) {llvm.loop_annotation = #llvm.loop_annotation<licm = <disable = true>>}
^bb3:
  llvm.return
}

// -----

// Anything else under that name is an error, not dropped.
llvm.func @not_an_annotation(%n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  llvm.br ^bb1(%c0 : i32)
^bb1(%i: i32):
  // expected-error @+1 {{'llvm.loop_annotation' must be an #llvm.loop_annotation}}
  llvm.br ^bb1(%i : i32) {llvm.loop_annotation = 1 : i32}
}
