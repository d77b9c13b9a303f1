// RUN: ascend-opt %s -p ascend-plan-memory | filecheck %s

// A split MIX pair is planned together (kernel_layout.shared_allocs): %uc is the UB
// buffer the cube's fixpipe writes and the vector side reads. The aiv function owns it:
// it lives there throughout (%ur, dead before the cube's write as far as the aiv function
// shows, may not reuse it), and the aic function's alloc of it gets the same address.
// CHECK-LABEL: func.func @mm_mix_aic
// CHECK:       %c256_i64 = arith.constant 256 : i64
// CHECK-NEXT:  %uc = hivm.hir.pointer_cast(%c256_i64) : memref<64xf32, #hivm.address_space<ub>>
// CHECK-LABEL: func.func @mm_mix_aiv
// CHECK:       %ur = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #hivm.address_space<ub>>
// CHECK:       %c256_i64 = arith.constant 256 : i64
// CHECK-NEXT:  %uc = hivm.hir.pointer_cast(%c256_i64) : memref<64xf32, #hivm.address_space<ub>>
module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @mm_mix_aic(%c: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
    %acc = memref.alloc() : memref<64xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.fixpipe ins(%acc : memref<64xf32, #hivm.address_space<cc>>) outs(%uc : memref<64xf32, #hivm.address_space<ub>>)
    return
  }
  func.func @mm_mix_aiv(%c: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    %ur = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %uc = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.store ins(%ur : memref<64xf32, #hivm.address_space<ub>>) outs(%c : memref<64xf32, #hivm.address_space<gm>>)
    hivm.hir.vrelu ins(%uc : memref<64xf32, #hivm.address_space<ub>>) outs(%uc : memref<64xf32, #hivm.address_space<ub>>)
    return
  }
}
