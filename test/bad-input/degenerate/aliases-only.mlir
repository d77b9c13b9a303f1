// Bad input (degenerate): attribute and type aliases and no op: an empty module, as mlir-opt prints it.
// OUTPUT: builtin.module {
#ub = #hivm.address_space<ub>
!tile = memref<16xf32, #hivm.address_space<ub>>
