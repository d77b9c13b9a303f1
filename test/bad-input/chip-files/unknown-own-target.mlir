// Bad input (chip-files): the module names a hacc target no chip (built-in or given) has.
// ARGS: -p ascend-compile
// ERROR: unknown hacc target 'MyChip_1'
module attributes {hacc.target = #hacc.target<"MyChip_1">} {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
