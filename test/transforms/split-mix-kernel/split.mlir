// A MIX kernel becomes the _mix_aic / _mix_aiv pair bishengir expects; each part keeps
// its core's ops and cross-core flags (placed by sync insertion before) and the scalar code.
// RUN: ascend-opt %s -p split-mix-kernel --split-input-file | filecheck %s

// CHECK:      builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">, hivm.module_core_type = #hivm.module_core_type<MIX>} {
// Each part takes the FFTS base address (where cross-core flags live) first and keeps
// the kernel's own attributes.
// CHECK-NEXT: func.func @straight_mix_aic(%[[FFTS:.*]]: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %{{.*}}: memref<16x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, ascend.grid = 2 : i64, hivm.part_of_mix, mix_mode = "mix"} {
// CHECK-NEXT: hivm.hir.set_ffts_base_addr %[[FFTS]]
// CHECK-NOT:  hivm.hir.vrelu
// CHECK-NOT:  hivm.hir.store
// CHECK:      hivm.hir.fixpipe
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT: func.return
// CHECK:      func.func @straight_mix_aiv(%[[FFTS2:.*]]: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %{{.*}}: memref<16x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 2 : i64, hivm.part_of_mix, mix_mode = "mix"} {
// CHECK-NEXT: hivm.hir.set_ffts_base_addr %[[FFTS2]]
// CHECK-NOT:  hivm.hir.fixpipe
// CHECK-NOT:  memref<16x16xf32, #hivm.address_space<cc>>
// CHECK:      hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT: hivm.hir.vrelu
// CHECK-NEXT: hivm.hir.store
// CHECK-NEXT: func.return
// CHECK-NOT:  func.func @straight(
builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @straight(%o: memref<16x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>, ascend.grid = 2 : i64} {
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%r : memref<16x16xf32, #hivm.address_space<ub>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
    func.return
  }
}

// -----

// In a loop: the vector core frees the buffer before the next fixpipe overwrites it
// with a flag primed before the loop and drained after it; each part keeps its half.
// CHECK-LABEL: func.func @loop_mix_aic
// CHECK-NOT:   sync_block_set[<VECTOR>
// CHECK:       scf.for
// CHECK:         hivm.hir.mmadL1
// CHECK-NEXT:    hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 1
// CHECK-NEXT:    hivm.hir.fixpipe
// CHECK-NEXT:    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:  }
// CHECK-NEXT:  hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 1
// CHECK-NEXT:  func.return
// CHECK-LABEL: func.func @loop_mix_aiv
// CHECK:       hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 1
// CHECK-NEXT:  scf.for
// CHECK:         memref.subview
// CHECK-NEXT:    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:    hivm.hir.vrelu
// CHECK-NEXT:    hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 1
// CHECK-NEXT:    hivm.hir.store
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return
builtin.module {
  func.func @loop(%o: memref<64x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %true = arith.constant true
    %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 1
    scf.for %i = %c0 to %c4 step %c1 {
      %row = arith.muli %i, %c16 : index
      %os = memref.subview %o[%row, 0] [16, 16] [1, 1] : memref<64x16xf32, #hivm.address_space<gm>> to memref<16x16xf32, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.mmadL1 ins(%l1, %l1, %true, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
      hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 1
      hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
      hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
      hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
      hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x16xf32, #hivm.address_space<ub>>)
      hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 1
      hivm.hir.store ins(%r : memref<16x16xf32, #hivm.address_space<ub>>) outs(%os : memref<16x16xf32, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>)
    }
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 1
    func.return
  }
}

// -----

// Flags are kept as they are, none added.
// CHECK-LABEL: func.func @synced_mix_aic
// CHECK:       hivm.hir.fixpipe
// CHECK-NEXT:  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 5
// CHECK-NEXT:  func.return
// CHECK-LABEL: func.func @synced_mix_aiv
// CHECK-NEXT:  hivm.hir.set_ffts_base_addr
// CHECK-NEXT:  %{{.*}} = memref.alloc
// CHECK-NEXT:  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 5
// CHECK-NEXT:  hivm.hir.vrelu
// CHECK-NEXT:  func.return
builtin.module {
  func.func @synced() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 5
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 5
    hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    func.return
  }
}

// -----

// Through global memory (910B has no cc -> ub path): the vector core loads what the
// cube core wrote to the same argument.
// CHECK-LABEL: func.func @via_gm_mix_aic
// CHECK:       hivm.hir.fixpipe
// CHECK-NEXT:  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 0
// CHECK-LABEL: func.func @via_gm_mix_aiv
// CHECK:       hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_MTE2>] flag = 0
// CHECK-NEXT:  hivm.hir.load
builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @via_gm(%w: memref<32x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %top = memref.subview %w[0, 0] [16, 16] [1, 1] : memref<32x16xf32, #hivm.address_space<gm>> to memref<16x16xf32, strided<[16, 1]>, #hivm.address_space<gm>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%top : memref<16x16xf32, strided<[16, 1]>, #hivm.address_space<gm>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_MTE2>] flag = 0
    hivm.hir.load ins(%top : memref<16x16xf32, strided<[16, 1]>, #hivm.address_space<gm>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    func.return
  }
}

// -----

// Barriers of one core left around nothing in the other core's part are dropped:
// the vector part loses the K loop of bare barriers, the cube part its trailing one.
// CHECK-LABEL: func.func @barriers_mix_aic
// CHECK:       scf.for
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.mmadL1
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  }
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.fixpipe
// CHECK-NEXT:  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
// CHECK-LABEL: func.func @barriers_mix_aiv
// CHECK-NOT:   scf.for
// CHECK-NOT:   pipe_barrier
// CHECK:       hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:  hivm.hir.vrelu
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
builtin.module {
  func.func @barriers() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %true = arith.constant true
    %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      hivm.hir.mmadL1 ins(%l1, %l1, %true, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
    }
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}

// -----

// What only the other core's ops used goes with them (xDSL's dce, by effect traits):
// the block index, its casts and the view it places are the cube part's alone, the
// accumulator and the view are gone from the vector part, the vector buffer from the cube part.
// CHECK-LABEL: func.func @dead_mix_aic
// CHECK-NEXT:  hivm.hir.set_ffts_base_addr
// CHECK-NEXT:  arith.constant 16
// CHECK-NEXT:  hivm.hir.get_block_idx
// CHECK-NEXT:  arith.index_cast
// CHECK-NEXT:  arith.muli
// CHECK-NEXT:  memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
// CHECK-NEXT:  memref.subview
// CHECK-NEXT:  hivm.hir.fixpipe
// CHECK-NEXT:  func.return
// CHECK-LABEL: func.func @dead_mix_aiv
// CHECK-NEXT:  hivm.hir.set_ffts_base_addr
// CHECK-NEXT:  memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
// CHECK-NEXT:  hivm.hir.vrelu
// CHECK-NEXT:  func.return
builtin.module {
  func.func @dead(%o: memref<64x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %c16 = arith.constant 16 : index
    %block = hivm.hir.get_block_idx -> i64
    %b = arith.index_cast %block : i64 to index
    %row = arith.muli %b, %c16 : index
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %os = memref.subview %o[%row, 0] [16, 16] [1, 1] : memref<64x16xf32, #hivm.address_space<gm>> to memref<16x16xf32, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%os : memref<16x16xf32, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    func.return
  }
}

// -----

// Planned buffers (pointer_cast at an address, after ascend-plan-memory) go the same way:
// the cube part does not build the vector part's result buffer, nor its address, before its
// first op (the scalar unit spends a cycle on each).
// CHECK-LABEL: func.func @planned_mix_aic
// CHECK-NEXT:  hivm.hir.set_ffts_base_addr
// CHECK-NEXT:  %[[A0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:  hivm.hir.pointer_cast(%[[A0]]) : memref<16x16xf32, #hivm.address_space<cc>>
// CHECK-NEXT:  hivm.hir.pointer_cast(%[[A0]]) : memref<16x16xf32, #hivm.address_space<ub>>
// CHECK-NEXT:  hivm.hir.fixpipe
// CHECK-NEXT:  hivm.hir.sync_block_set
// CHECK-NEXT:  func.return
// CHECK-LABEL: func.func @planned_mix_aiv
// CHECK-NEXT:  hivm.hir.set_ffts_base_addr
// CHECK-NEXT:  arith.constant 0 : i64
// CHECK-NEXT:  arith.constant 1024 : i64
// CHECK-NOT:   address_space<cc>
// CHECK:       hivm.hir.vrelu
builtin.module {
  func.func @planned(%o: memref<16x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %a0 = arith.constant 0 : i64
    %a1 = arith.constant 1024 : i64
    %acc = hivm.hir.pointer_cast(%a0) : memref<16x16xf32, #hivm.address_space<cc>>
    %u = hivm.hir.pointer_cast(%a0) : memref<16x16xf32, #hivm.address_space<ub>>
    %r = hivm.hir.pointer_cast(%a1) : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%r : memref<16x16xf32, #hivm.address_space<ub>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
    func.return
  }
}
