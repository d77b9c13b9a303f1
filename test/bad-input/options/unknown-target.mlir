// Bad input (options): no target of that name: status 1 with the known targets (argparse's usage error said status 2).
// ARGS: -t nosuchtarget
// ERROR: unknown target 'nosuchtarget' (known: mlir, irdl, npuir, cce, schedule-json, schedule-svg)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
