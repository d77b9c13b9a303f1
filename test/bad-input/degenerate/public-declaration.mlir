// Bad input (degenerate): a public function without a body (mlir-opt: symbol declaration cannot have public visibility); it printed as a kernel nobody wrote.
// ERROR: 'func.func' op symbol declaration cannot have public visibility
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>)
}
