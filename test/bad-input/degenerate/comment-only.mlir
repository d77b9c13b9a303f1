// Bad input (degenerate): nothing but comments: an empty module, as mlir-opt prints it (exit 0), not an error.
// OUTPUT: builtin.module {
