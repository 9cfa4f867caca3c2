// Option values are checked before anything runs: every error is printed
// and the tool exits non-zero (gpu-module-to-binary alone printed "Invalid
// format specified" and succeeded; a toolkit that does not exist was
// ignored for the ptxas on PATH).

// RUN: not attn-opt %s --attn-lower-to-nvvm="chip=sm_90a format=garbage" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: attn-lower-to-nvvm: format='garbage' is not a gpu-module-to-binary format (isa, bin, fatbin, llvm, offload)

// RUN: not attn-opt %s --attn-lower-to-nvvm="chip=" 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: attn-lower-to-nvvm: chip='' is not a GPU target of attn (known: sm_80, sm_90, sm_90a)

// RUN: not attn-opt %s --attn-lower-to-nvvm="chip=sm_90a toolkit=/nonexistent-toolkit" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: error: attn-lower-to-nvvm: toolkit='/nonexistent-toolkit' is not a directory

// RUN: not attn-compile %s --chip=sm_90a --cubin --toolkit=/nonexistent-toolkit -o %t 2>&1 | FileCheck %s --check-prefix=COMPILE-TOOLKIT
// COMPILE-TOOLKIT: attn-compile: toolkit='/nonexistent-toolkit' is not a directory

// RUN: not attn-compile %s --chip=sm_75 -o %t 2>&1 | FileCheck %s --check-prefix=COMPILE-CHIP
// COMPILE-CHIP: attn-compile: chip='sm_75' is not a GPU target of attn (known: sm_80, sm_90, sm_90a)

// The valid options still compile.
// RUN: attn-opt %s --attn-lower-to-nvvm="chip=sm_90a format=isa" | FileCheck %s --check-prefix=OK
// OK: gpu.binary @attn_kernels

func.func @k(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
  return
}
