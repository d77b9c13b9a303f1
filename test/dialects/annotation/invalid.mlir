// RUN: ascend-opt %s --split-input-file --verify-diagnostics
func.func @values_without_keys(%n: i32) {
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{every value needs a key (1 values)}}
  annotation.mark %u values = [%n : i32] : memref<16xf32, #hivm.address_space<ub>>
  return
}
