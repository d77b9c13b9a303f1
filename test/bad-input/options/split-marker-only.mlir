// Bad input (options): --split-input-file on a file whose last chunk is empty: an empty module for it, as mlir-opt prints.
// ARGS: --split-input-file
// OUTPUT: // -----
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
// -----
