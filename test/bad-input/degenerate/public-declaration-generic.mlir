// Bad input (degenerate): a function with an empty region in the generic form is a declaration, which must be private (MLIR's symbol rule).
// ERROR: 'func.func' op symbol declaration cannot have public visibility
"builtin.module"() ({
  "func.func"() <{sym_name = "k", function_type = (memref<16xf32, #hivm.address_space<gm>>) -> ()}> ({ }) : () -> ()
}) : () -> ()
