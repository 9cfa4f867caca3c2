// What looks like an index dense array and is not one
// (index-dense-array.mlir): a string, this comment (array<index: 1>), a
// dialect's own `array` attribute, and an alias of another type.
!i = i32
func.func @f() attributes {s = "array<index: 1> \" array<index: 2>", a = array<!i: 1>, b = #foo.array<index>} {
  return
}
