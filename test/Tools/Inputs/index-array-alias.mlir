// An alias of an alias of index (index-dense-array.mlir).
!i = index
!j = !i
func.func @f() attributes {
  sizes = array<i32: 1>, other = array< !j : 1, 2>} {
  return
}
