// RUN: ascend-opt %s --split-input-file -p ascend-insert-barrier-sync | filecheck %s

// scf.if: each branch starts with what is open before the if; after it, what is open at
// the end of either branch (or before the if, when the branch may not run) is open.

// CHECK-LABEL: func.func @if_then
// CHECK:       hivm.hir.load
// CHECK-NEXT:  scf.if
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.vrelu
// CHECK-NEXT:  }
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @if_then(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>, %c: i1) {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  scf.if %c {
    hivm.hir.vrelu ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  }
  hivm.hir.store ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
  return
}
