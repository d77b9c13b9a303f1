// An already-synced hivm kernel that calls a function: the simulator walks one function
// per core (it ran the callee with the caller's bindings and stopped at an internal
// error); refused at the call. (ascend-compile keeps such a call in synced input, as
// bishengir reads it; in unsynced input it refuses it: test/bad-input/control.)
// RUN: not ascend-sim %s 2>&1 | filecheck %s
// CHECK: call-refused.mlir:[[# @LINE + 5]]:5: error: 'func.call' op calls @helper: the simulator runs one kernel function (inline the callee into it)
// CHECK-NOT: internal error
module {
  func.func private @helper(%x: memref<64xf32, #hivm.address_space<gm>>)
  func.func @k(%x: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    func.call @helper(%x) : (memref<64xf32, #hivm.address_space<gm>>) -> ()
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
