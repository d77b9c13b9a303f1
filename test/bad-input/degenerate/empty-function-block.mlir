// Bad input (degenerate): a function whose body block (it has arguments) holds no op, not even the return: mlir-opt says "empty block: expect at least a terminator".
// ERROR: 'func.func' op empty block: expect at least a terminator
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) { }
}
