// Every hivm op in bishengir-opt 1.2.0's custom syntax: printed exactly as written,
// and the same after a trip through the generic form.
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s

// The chip decides which DMA paths exist (fixpipe to ub, copy ub -> cbuf: Ascend 950).
// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  // CHECK-LABEL: func.func @dma
  func.func @dma(%g: memref<16x64xf16, #hivm.address_space<gm>>, %pad: f16, %n: index) {
    %u = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %l1 = memref.alloc() : memref<16x64xf16, #hivm.address_space<cbuf>>
    // CHECK: hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %pad : f16 left_padding_num = %n : index init_out_buffer = true
    hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %pad : f16 left_padding_num = %n : index init_out_buffer = true
    // CHECK-NEXT: hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>)
    hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>)
    // CHECK-NEXT: hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>) atomic = <add>
    hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>) atomic = <add>
    // CHECK-NEXT: hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%v : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%v : memref<16x64xf16, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    // CHECK-NEXT: hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    // CHECK-NEXT: hivm.hir.nd2nz ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>) init_out_buffer = true pad_value = %pad : f16
    hivm.hir.nd2nz ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>) init_out_buffer = true pad_value = %pad : f16
    return
  }

  // CHECK-LABEL: func.func @cube
  func.func @cube(%out: memref<64x64xf32, #hivm.address_space<gm>>, %init: i1) {
    %a = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<32x64xf16, #hivm.address_space<cbuf>>
    %bt = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %half = memref.alloc() : memref<32x64xf32, #hivm.address_space<ub>>
    %l1c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cbuf>>
    %true = arith.constant true
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    // CHECK: hivm.hir.mmadL1 ins(%a, %b, %true, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    hivm.hir.mmadL1 ins(%a, %b, %true, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    // CHECK-NEXT: hivm.hir.mmadL1 {b_transpose} ins(%a, %bt, %init, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<64x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    hivm.hir.mmadL1 {b_transpose} ins(%a, %bt, %init, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<64x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    // CHECK-NEXT: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%out : memref<64x64xf32, #hivm.address_space<gm>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%out : memref<64x64xf32, #hivm.address_space<gm>>)
    // CHECK-NEXT: hivm.hir.fixpipe ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%l1c : memref<64x64xf32, #hivm.address_space<cbuf>>)
    hivm.hir.fixpipe ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%l1c : memref<64x64xf32, #hivm.address_space<cbuf>>)
    // CHECK-NEXT: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_relu = #hivm.fixpipe_pre_relu_mode<NORMAL_RELU>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%half : memref<32x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_relu = #hivm.fixpipe_pre_relu_mode<NORMAL_RELU>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%half : memref<32x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
    return
  }

  // CHECK-LABEL: func.func @vector
  func.func @vector(%s: f32) {
    %x = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %y = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %z = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %h = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    // CHECK: hivm.hir.vadd ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vsub ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vsub ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vmul ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmul ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vdiv ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vdiv ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vmax ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmax ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vmin ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmin ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vadd ins(%x, %r : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast = [1]
    hivm.hir.vadd ins(%x, %r : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast = [1]
    // CHECK-NEXT: hivm.hir.vexp ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vexp ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vln ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vln ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vabs ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vrelu ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrelu ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vrsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vrec ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrec ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>) round_mode = <floor>
    hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>) round_mode = <floor>
    // CHECK-NEXT: hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
    hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
    // CHECK-NEXT: hivm.hir.vbrc ins(%s : f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vbrc ins(%s : f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.vreduce <sum> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce <sum> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    // CHECK-NEXT: hivm.hir.vreduce <max> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce <max> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    // CHECK-NEXT: hivm.hir.vreduce <min> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce <min> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    return
  }

  // CHECK-LABEL: func.func @transposed
  func.func @transposed(%a: memref<2x16x4xf32, #hivm.address_space<ub>>, %c: memref<16x2x4xf32, #hivm.address_space<ub>>) {
    // CHECK: hivm.hir.vadd ins(%a, %a : memref<2x16x4xf32, #hivm.address_space<ub>>, memref<2x16x4xf32, #hivm.address_space<ub>>) outs(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) transpose = [1, 0, 2]
    hivm.hir.vadd ins(%a, %a : memref<2x16x4xf32, #hivm.address_space<ub>>, memref<2x16x4xf32, #hivm.address_space<ub>>) outs(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) transpose = [1, 0, 2]
    // CHECK-NEXT: hivm.hir.vcast ins(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) outs(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) round_mode = <floor>
    hivm.hir.vcast ins(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) outs(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) round_mode = <floor>
    return
  }

  // CHECK-LABEL: func.func @sync
  func.func @sync(%ev: i64, %flag: i64) {
    // CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    // CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    // CHECK-NEXT: hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID7>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID7>]
    // CHECK-NEXT: hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, %ev]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, %ev]
    // CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    // CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_MTE2>]
    hivm.hir.pipe_barrier[<PIPE_MTE2>]
    // CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    // CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    // CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %flag
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %flag
    // CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %flag
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %flag
    return
  }

  // CHECK-LABEL: func.func @memory_and_ids
  func.func @memory_and_ids(%n: index, %ffts: i64) {
    // CHECK: %idx = hivm.hir.get_block_idx -> i64
    %idx = hivm.hir.get_block_idx -> i64
    // CHECK-NEXT: %num = hivm.hir.get_block_num -> i64
    %num = hivm.hir.get_block_num -> i64
    // CHECK-NEXT: %sub = hivm.hir.get_sub_block_idx -> i64
    %sub = hivm.hir.get_sub_block_idx -> i64
    %c0 = arith.constant 0 : i64
    %c4096 = arith.constant 4096 : i64
    // CHECK: %buf = hivm.hir.pointer_cast(%c0) : memref<16x64xf32, #hivm.address_space<ub>>
    %buf = hivm.hir.pointer_cast(%c0) : memref<16x64xf32, #hivm.address_space<ub>>
    // an empty size list, as bishengir's own tests write it, prints as bishengir prints it
    // CHECK-NEXT: %empty_sizes = hivm.hir.pointer_cast(%c0) : memref<16x64xf32, #hivm.address_space<ub>>
    %empty_sizes = hivm.hir.pointer_cast(%c0) [] : memref<16x64xf32, #hivm.address_space<ub>>
    // CHECK-NEXT: %multi = hivm.hir.pointer_cast(%c0, %c4096) : memref<16x64xf32, #hivm.address_space<cbuf>>
    %multi = hivm.hir.pointer_cast(%c0, %c4096) : memref<16x64xf32, #hivm.address_space<cbuf>>
    // CHECK-NEXT: %dyn = hivm.hir.pointer_cast(%c0) [%n] : memref<?x64xf32, #hivm.address_space<ub>>
    %dyn = hivm.hir.pointer_cast(%c0) [%n] : memref<?x64xf32, #hivm.address_space<ub>>
    // CHECK-NEXT: annotation.mark %buf {hivm.multi_buffer = 2 : i32} : memref<16x64xf32, #hivm.address_space<ub>>
    annotation.mark %buf {hivm.multi_buffer = 2 : i32} : memref<16x64xf32, #hivm.address_space<ub>>
    // CHECK-NEXT: hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.set_ffts_base_addr %ffts
    return
  }

  // Rarely used optional operands and attributes, in bishengir's order.
  // CHECK-LABEL: func.func @optional_operands
  func.func @optional_operands(%a: memref<16xf16, #hivm.address_space<gm>>, %f: f16, %n: index, %c: i1, %t: memref<16xf16, #hivm.address_space<ub>>) {
    %u = memref.alloc() : memref<16xf16, #hivm.address_space<ub>>
    // CHECK: hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %f : f16 left_padding_num = %n : index init_out_buffer = true right_padding_num = %n : index init_condition = %c : i1 may_implicit_transpose_with_last_axis = true core_type = <VECTOR>
    hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %f : f16 left_padding_num = %n : index init_out_buffer = true right_padding_num = %n : index init_condition = %c : i1 may_implicit_transpose_with_last_axis = true core_type = <VECTOR>
    // CHECK-NEXT: hivm.hir.vexp ins(%u : memref<16xf16, #hivm.address_space<ub>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>) temp_buffer(%t : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.vexp ins(%u : memref<16xf16, #hivm.address_space<ub>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>) temp_buffer(%t : memref<16xf16, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.copy ins(%u : memref<16xf16, #hivm.address_space<ub>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %f : f16
    hivm.hir.copy ins(%u : memref<16xf16, #hivm.address_space<ub>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %f : f16
    // CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
    return
  }

  // Unit flags (L0C hand-off between mmadL1 and fixpipe), bias, inject-sync arguments.
  // CHECK-LABEL: func.func @unit_flags
  func.func @unit_flags(%g: memref<64x64xf32, #hivm.address_space<gm>>, %u: memref<64x64xf32, #hivm.address_space<ub>>, %cond: i1, %e: i64, %bias: memref<64xf32, #hivm.address_space<cbuf>>) {
    %a = memref.alloc() : memref<64x64xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %true = arith.constant true
    %n = arith.constant 64 : index
    // CHECK: hivm.hir.mmadL1 ins(%a, %a, %true, %n, %n, %n : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>) unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%cond)
    hivm.hir.mmadL1 ins(%a, %a, %true, %n, %n, %n : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>) unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%cond)
    // CHECK-NEXT: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%g : memref<64x64xf32, #hivm.address_space<gm>>) unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%cond)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%g : memref<64x64xf32, #hivm.address_space<gm>>) unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%cond)
    // CHECK-NEXT: hivm.hir.fixpipe ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%u : memref<64x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <NO_DUAL>
    hivm.hir.fixpipe ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%u : memref<64x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <NO_DUAL>
    // CHECK-NEXT: hivm.hir.mmadL1 ins(%a, %a, %true, %n, %n, %n, %bias : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index, memref<64xf32, #hivm.address_space<cbuf>>) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>) sync_related_args(%e, %e, %e, %e, %e, %e, %e : i64, i64, i64, i64, i64, i64, i64)
    hivm.hir.mmadL1 ins(%a, %a, %true, %n, %n, %n, %bias : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index, memref<64xf32, #hivm.address_space<cbuf>>) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>) sync_related_args(%e, %e, %e, %e, %e, %e, %e : i64, i64, i64, i64, i64, i64, i64)
    return
  }

  // Optional groups anchored on default-valued optional properties print whenever the
  // property is present (as bishengir does), default-valued ones only when not default.
  // CHECK-LABEL: func.func @present_defaults
  func.func @present_defaults(%a: memref<16xf16, #hivm.address_space<gm>>, %t: memref<16xf16, #hivm.address_space<ub>>, %f: memref<16xf32, #hivm.address_space<ub>>, %l: memref<16xf16, #hivm.address_space<cbuf>>, %s: memref<4x8x4xbf16, strided<[64, 8, 1]>, #hivm.address_space<ub>>, %d: memref<4x8x4xbf16, #hivm.address_space<ub>>) {
    // CHECK: hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) init_out_buffer = false may_implicit_transpose_with_last_axis = false core_type = <CUBE_OR_VECTOR>
    hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) init_out_buffer = false may_implicit_transpose_with_last_axis = false core_type = <CUBE_OR_VECTOR>
    // CHECK-NEXT: hivm.hir.store ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%a : memref<16xf16, #hivm.address_space<gm>>){{$}}
    hivm.hir.store ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%a : memref<16xf16, #hivm.address_space<gm>>) {may_implicit_transpose_with_last_axis = false}
    // CHECK-NEXT: hivm.hir.nd2nz ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%l : memref<16xf16, #hivm.address_space<cbuf>>) init_out_buffer = false
    hivm.hir.nd2nz ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%l : memref<16xf16, #hivm.address_space<cbuf>>) init_out_buffer = false
    // CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0 sync_instr_mode = <INTRA_BLOCK_SYNCHRONIZATION>
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0 sync_instr_mode = <INTRA_BLOCK_SYNCHRONIZATION>
    // CHECK-NEXT: hivm.hir.vcast ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%f : memref<16xf32, #hivm.address_space<ub>>){{$}}
    hivm.hir.vcast ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%f : memref<16xf32, #hivm.address_space<ub>>) cast = <cast_signed>
    // CHECK-NEXT: hivm.hir.vcast ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%f : memref<16xf32, #hivm.address_space<ub>>) cast = <cast_unsigned>
    hivm.hir.vcast ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%f : memref<16xf32, #hivm.address_space<ub>>) cast = <cast_unsigned>
    // CHECK-NEXT: hivm.hir.vadd ins(%t, %t : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>){{$}}
    hivm.hir.vadd ins(%t, %t : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) broadcast = []
    // CHECK-NEXT: hivm.hir.copy ins(%s : memref<4x8x4xbf16, strided<[64, 8, 1]>, #hivm.address_space<ub>>) outs(%d : memref<4x8x4xbf16, #hivm.address_space<ub>>) collapse_reassociation = [[0, 1, 2]]
    hivm.hir.copy ins(%s : memref<4x8x4xbf16, strided<[64, 8, 1]>, #hivm.address_space<ub>>) outs(%d : memref<4x8x4xbf16, #hivm.address_space<ub>>) collapse_reassociation = [[0, 1, 2]]
    return
  }
}
