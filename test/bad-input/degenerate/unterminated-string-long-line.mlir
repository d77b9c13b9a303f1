// Bad input (degenerate): a string literal that is never closed, on a long line (a Python file's docstring given to the wrong tool); xDSL's pattern backtracked for ever on it.
// SIM:
// ERROR: End of file reached before closing string literal
module attributes {sym_name = "a kernel whose name goes on and on and on and on and on and on and on and on and on and on
}
