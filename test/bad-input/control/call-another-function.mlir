// Bad input (control): a kernel calls another function: the scheduler and insert-sync
// work on one function and did not see what the callee touches (the simulator stopped
// at an internal error).
// ARGS: -p ascend-compile
// SIM: --func caller
// ERROR: 'func.call' op calls @copy_in: ascend-compile schedules and syncs each function on its own
module {
  func.func @copy_in(%x: memref<64xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    tile.copy ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
    return
  }
  func.func @caller(%x: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    func.call @copy_in(%x) : (memref<64xf32, #hivm.address_space<gm>>) -> ()
    return
  }
}
