// REQUIRES: mlir-opt
// IR in IRDL form that breaks a constraint exported to dialects/hivm.irdl.mlir is
// rejected by upstream mlir-opt: enum cases, memref operands, required properties,
// result types, operand counts.
// RUN: %mlir_opt --irdl-file=%project/dialects/hivm.irdl.mlir --split-input-file --verify-diagnostics %s
// RUN: not %mlir_opt --irdl-file=%project/dialects/hivm.irdl.mlir --split-input-file %s 2>&1 | filecheck %s

// CHECK: error: '"PIPE_BOGUS"' does not satisfy the constraint
func.func @unknown_pipe() {
  // expected-error@+1 {{'"PIPE_BOGUS"' does not satisfy the constraint}}
  "hivm.hir_pipe_barrier"() {pipe = #hivm.pipe<"PIPE_BOGUS">} : () -> ()
  return
}

// -----

// CHECK: error: expected base type 'builtin.memref' but got 'builtin.tensor'
func.func @lock_of_tensor(%t: tensor<1xi64>) {
  // (load, store, the vector ops take tensors: that is bishengir's tensor form; a lock does not)
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  "hivm.hir_sync_block_lock"(%t) : (tensor<1xi64>) -> ()
  return
}

// -----

// CHECK: error: 'hivm.hir_pipe_barrier' op attribute "pipe" is expected but not provided
func.func @barrier_without_pipe() {
  // expected-error@+1 {{'hivm.hir_pipe_barrier' op attribute "pipe" is expected but not provided}}
  "hivm.hir_pipe_barrier"() : () -> ()
  return
}

// -----

// CHECK: error: expected base attribute 'hivm.pipe' but got 'hivm.tcore_type'
func.func @core_type_as_pipe() {
  // expected-error@+1 {{expected base attribute 'hivm.pipe' but got 'hivm.tcore_type'}}
  "hivm.hir_set_flag"() {set_pipe = #hivm.tcore_type<"CUBE">, wait_pipe = #hivm.pipe<"PIPE_V">} : () -> ()
  return
}

// -----

// CHECK: error: expected 'i64' but got 'i32'
func.func @block_idx_i32() {
  // expected-error@+1 {{expected 'i64' but got 'i32'}}
  %0 = "hivm.hir_get_block_idx"() : () -> i32
  return
}

// -----

// CHECK: error: '"l2"' does not satisfy the constraint
// expected-error@+1 {{'"l2"' does not satisfy the constraint}}
func.func @unknown_address_space(%m: memref<16xf16, #hivm.address_space<"l2">>) {
  return
}

// -----

// A vector op's `ins` group is exported as one operand per input (each with its own
// constraint, so a memref and a scalar can mix); a binary op with one input is short.
// CHECK: error: op expects at least 3 operands, but got 2
func.func @binary_op_with_one_input(%x: memref<16xf32, #hivm.address_space<"ub">>) {
  // expected-error@+1 {{op expects at least 3 operands, but got 2}}
  "hivm.hir_vmul"(%x, %x) {broadcast = array<i64>, operandSegmentSizes = array<i32: 1, 0, 1, 0>, transpose = array<i64>} : (memref<16xf32, #hivm.address_space<"ub">>, memref<16xf32, #hivm.address_space<"ub">>) -> ()
  return
}
