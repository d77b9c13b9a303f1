// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p ascend-insert-sync | diff %t.mlir -

// A MIX kernel whose loop hands a tile from the cube to the vector core each iteration:
// the fixpipe into ub and the vrelu reading it get a cube -> vector sync_block pair; the
// next iteration's fixpipe may overwrite ub only after the vrelu read it, a loop-carried
// vector -> cube flag primed before the loop and drained after it (cross-core flags
// count, so one id serves). Within each core: MTE2 -> MTE1, M -> FIX, V -> MTE3 flags,
// and the loop-carried FIX -> M (the next mmadL1 overwrites what the fixpipe read).

// CHECK:      hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = [[BACK:[0-9]+]]
// CHECK:      scf.for
// CHECK:        hivm.hir.mmadL1
// CHECK:        hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = [[BACK]]
// CHECK-NEXT:   hivm.hir.fixpipe
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
// CHECK-NEXT:   hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = [[FWD:[0-9]+]]
// CHECK-NEXT:   hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = [[FWD]]
// CHECK:        hivm.hir.vrelu
// CHECK-NEXT:   hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = [[BACK]]
// CHECK:      }
// CHECK:      hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = [[BACK]]

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "ok": true
module {
  func.func @mm_relu_loop(%a: memref<4x64x64xf16, #hivm.address_space<gm>>, %c: memref<4x64x64xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %true = arith.constant true
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %la = memref.alloc() : memref<64x64xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %ur = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      %as = memref.subview %a[%i, 0, 0] [1, 64, 64] [1, 1, 1] : memref<4x64x64xf16, #hivm.address_space<gm>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      %cs = memref.subview %c[%i, 0, 0] [1, 64, 64] [1, 1, 1] : memref<4x64x64xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.nd2nz {dst_continuous} ins(%as : memref<64x64xf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<64x64xf16, #hivm.address_space<cbuf>>)
      hivm.hir.mmadL1 ins(%la, %la, %true, %c64, %c64, %c64 : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<64x64xf32, #hivm.address_space<cc>>)
      hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<64x64xf32, #hivm.address_space<cc>>) outs(%uc : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.vrelu ins(%uc : memref<64x64xf32, #hivm.address_space<ub>>) outs(%ur : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%ur : memref<64x64xf32, #hivm.address_space<ub>>) outs(%cs : memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
    }
    return
  }
}
