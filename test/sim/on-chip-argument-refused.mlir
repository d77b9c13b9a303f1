// A kernel whose argument is an on-chip (UB) memref it reads or writes: the simulator has
// no host buffer to bind there (it bound 0 and stopped at an internal error, exit 2);
// refused at the function, naming the argument. An unused on-chip argument binds nothing
// and runs; an argument with no memory space is global memory.
// RUN: not ascend-sim %s 2>&1 | filecheck %s
// CHECK: on-chip-argument-refused.mlir:[[# @LINE + 2]]:1: error: 'func.func' op argument %b: a kernel argument in ub is not simulated (only GM memrefs and scalars are kernel arguments; allocate on-chip buffers in the kernel)
// CHECK-NOT: internal error
func.func @k(%a: memref<16xf32>, %b: memref<16xf32, #hivm.address_space<ub>>) attributes {hacc.entry} {
  hivm.hir.load ins(%a : memref<16xf32>) outs(%b : memref<16xf32, #hivm.address_space<ub>>)
  func.return
}
