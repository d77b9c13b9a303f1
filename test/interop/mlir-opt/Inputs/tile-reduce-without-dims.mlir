// IRDL-form tile.reduce that lacks its `dims` property (input of tile-irdl.mlir).
func.func @f(%u: memref<16x64xf32, #hivm.address_space<"ub">>, %r: memref<16x1xf32, #hivm.address_space<"ub">>) {
  "tile.reduce"(%u, %r) {kind = #tile.reduce_kind<"sum">} : (memref<16x64xf32, #hivm.address_space<"ub">>, memref<16x1xf32, #hivm.address_space<"ub">>) -> ()
  return
}
