// RUN: ascend-opt %s --verify-diagnostics --split-input-file

// expected-error@+1 {{unknown hacc.host_func_type 'no_such_function'}}
func.func @h() attributes {hacc.host_func_type = #hacc.host_func_type<no_such_function>} {
  return
}
