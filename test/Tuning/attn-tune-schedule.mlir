// attn-tune compiles a candidate once per key-length schedule among the
// --n (withKeyLengthSchedule, as attn-apply-tuning schedules a database
// entry): an overlapped warp-specialized D = 128 candidate at 512 keys
// with the last block peeled, at 4096 with the rescale slack. Each row
// says which lengths it is for ("ns"), the configuration the database
// stores ("gpu_config") and the one compiled ("scheduled_gpu_config");
// the second schedule's kernel is `__c<index>v1`. --only keeps the
// candidates whose name matches.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-tune %s --chip=sm_90a --n=512,4096 --top=1 --cache-dir=none \
// RUN:   --only='^wgmma 128x128 w8 s2 ws overlap$' --emit=%t/out > %t/report.json
// RUN: FileCheck %s < %t/report.json
// RUN: ls %t/out | FileCheck %s --check-prefix=FILES
// RUN: not attn-tune %s --only='^nothing$' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not attn-tune %s --only='(' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: "candidates": 1,
// CHECK: "compilations": 2,
// CHECK: "candidate": "wgmma 128x128 w8 s2 ws overlap @n512",
// CHECK: "cost_by_n": {
// CHECK-NEXT: "512": {{.*}}
// CHECK-NEXT: },
// CHECK: "gpu_config": "#attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>",
// CHECK: "kernels": [
// CHECK-NEXT: "attn__c0"
// CHECK: "ns": [
// CHECK-NEXT: 512
// CHECK-NEXT: ],
// CHECK: "scheduled_gpu_config": "#attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, peel_last_block = true, stage_stores = true>",
// CHECK: "candidate": "wgmma 128x128 w8 s2 ws overlap @n4096",
// CHECK: "cost_by_n": {
// CHECK-NEXT: "4096": {{.*}}
// CHECK-NEXT: },
// CHECK: "gpu_config": "#attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>",
// CHECK: "kernels": [
// CHECK-NEXT: "attn__c0v1"
// CHECK: "ns": [
// CHECK-NEXT: 4096
// CHECK-NEXT: ],
// CHECK: "scheduled_gpu_config": "#attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, rescale_slack = 8, stage_stores = true>",

// FILES: attn__c0.json
// FILES: attn__c0v1.json

// NONE: attn-tune: --only='^nothing$' matches no candidate of the search space
// BAD: attn-tune: --only: {{.+}}

func.func @attn(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
  return
}
