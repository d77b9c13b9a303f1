// Bad input (syntax): not MLIR at all.
// ERROR: Operation this is not registered
this is not a kernel
