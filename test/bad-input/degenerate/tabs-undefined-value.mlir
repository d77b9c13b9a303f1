// Bad input (degenerate): tabs for indentation and an undefined value after them: located at the use, the caret under it.
// ERROR: use of undeclared SSA value name %q
module {
	func.func @k() {
		%a = arith.constant 1 : i32
		%b = arith.addi %a, %q : i32
		return
	}
}
