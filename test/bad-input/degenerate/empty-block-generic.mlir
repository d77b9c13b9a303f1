// Bad input (degenerate): a loop body block without its terminator, in the generic form (no implicit scf.yield there).
// ERROR: 'scf.for' op empty block: expect at least a terminator
module {
  func.func @k(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: index):
    }) : (index, index, index) -> ()
    return
  }
}
