// Examples shown in dialects/annotation.md (parsed and verified by gen_dialects.py).
func.func @f() {
  %buf = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  annotation.mark %buf {hivm.multi_buffer = 2 : i32} : memref<16x64xf32, #hivm.address_space<ub>>
  return
}
