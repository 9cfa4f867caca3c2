func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>) @MASK@
  return
}
