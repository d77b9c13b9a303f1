// Bad input (chip-files): a vector op mapped to a class with no throughput.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/unknown-op-class.toml"}'
// ERROR: key 'latency.vector.op_class.vexp' names class 'fast' that latency.vector.throughput does not define
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
