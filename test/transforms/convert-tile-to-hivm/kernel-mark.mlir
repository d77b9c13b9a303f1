// A kernel mark is `tile.kernel` (unit) or a boolean: `= true` makes a device entry as
// the unit mark does, `= false` a plain function (its mark dropped: no tile attribute is
// left for bishengir). Other values are refused at parse time (test/bad-input/degenerate).
// RUN: ascend-opt %s -p convert-tile-to-hivm | filecheck %s

// CHECK: func.func @unit(%{{.*}}) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
func.func @unit(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
  return
}
// CHECK: func.func @yes(%{{.*}}) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
func.func @yes(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel = true} {
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
  return
}
// CHECK: func.func @no(%{{.*}}: memref<16xf32, #hivm.address_space<gm>>) {
func.func @no(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel = false} {
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
  return
}
