// annotation.mark: bishengir's hint carrier (e.g. multi-buffering a buffer).
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s

// CHECK-LABEL: func.func @mark
func.func @mark(%n: i32) {
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  // CHECK: annotation.mark %u {hivm.multi_buffer = 2 : i32} : memref<16xf32, #hivm.address_space<ub>>
  // GENERIC: "annotation.mark"(%u) {hivm.multi_buffer = 2 : i32} : (memref<16xf32, #hivm.address_space<ub>>) -> ()
  annotation.mark %u {hivm.multi_buffer = 2 : i32} : memref<16xf32, #hivm.address_space<ub>>
  // CHECK-NEXT: annotation.mark %u keys = ["depth"] values = [%n : i32] : memref<16xf32, #hivm.address_space<ub>>
  // GENERIC-NEXT: "annotation.mark"(%u, %n) <{keys = ["depth"]}> : (memref<16xf32, #hivm.address_space<ub>>, i32) -> ()
  annotation.mark %u keys = ["depth"] values = [%n : i32] : memref<16xf32, #hivm.address_space<ub>>
  return
}
