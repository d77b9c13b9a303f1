// Examples shown in dialects/hivm.md: the first use of each op, as our printer prints it.
// gen_dialects.py parses and verifies this file; an example that stops parsing fails it.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @dma(%g: memref<16x64xf16, #hivm.address_space<gm>>, %pad: f16) {
    %u = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %l1 = memref.alloc() : memref<16x64xf16, #hivm.address_space<cbuf>>
    hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>) atomic = <add>
    hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%v : memref<16x64xf16, #hivm.address_space<ub>>)
    return
  }
  func.func @cube(%out: memref<64x64xf32, #hivm.address_space<gm>>, %init: i1) {
    %a = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<32x64xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %m = arith.constant 64 : index
    %k = arith.constant 32 : index
    %n = arith.constant 64 : index
    hivm.hir.mmadL1 ins(%a, %b, %init, %m, %k, %n : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%out : memref<64x64xf32, #hivm.address_space<gm>>)
    return
  }
  func.func @vector(%s: f32) {
    %x = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %y = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %z = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %h = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vsub ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmul ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vdiv ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmax ins(%x, %r : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast = [1]
    hivm.hir.vmin ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vexp ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vln ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrelu ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrec ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>) round_mode = <rint>
    hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
    hivm.hir.vreduce <sum> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    return
  }
  func.func @sync(%flag: i64, %ffts: i64) {
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.set_mask_norm
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = %flag
    return
  }
  func.func @bitwise_compare_select(%a: memref<16xi16, #hivm.address_space<ub>>, %b: memref<16xi16, #hivm.address_space<ub>>,
                                    %m: memref<16xi1, #hivm.address_space<ub>>, %x: memref<16xf16, #hivm.address_space<ub>>,
                                    %y: memref<16xf16, #hivm.address_space<ub>>, %w: memref<16xi32, #hivm.address_space<ub>>,
                                    %s: i16, %h: f16) {
    hivm.hir.vand ins(%a, %b : memref<16xi16, #hivm.address_space<ub>>, memref<16xi16, #hivm.address_space<ub>>) outs(%b : memref<16xi16, #hivm.address_space<ub>>)
    hivm.hir.vor ins(%a, %b : memref<16xi16, #hivm.address_space<ub>>, memref<16xi16, #hivm.address_space<ub>>) outs(%b : memref<16xi16, #hivm.address_space<ub>>)
    hivm.hir.vxor ins(%a, %b : memref<16xi16, #hivm.address_space<ub>>, memref<16xi16, #hivm.address_space<ub>>) outs(%b : memref<16xi16, #hivm.address_space<ub>>)
    hivm.hir.vnot ins(%m : memref<16xi1, #hivm.address_space<ub>>) outs(%m : memref<16xi1, #hivm.address_space<ub>>)
    hivm.hir.vshl ins(%a, %s : memref<16xi16, #hivm.address_space<ub>>, i16) outs(%b : memref<16xi16, #hivm.address_space<ub>>)
    hivm.hir.vshr ins(%a, %s : memref<16xi16, #hivm.address_space<ub>>, i16) outs(%b : memref<16xi16, #hivm.address_space<ub>>) round : true
    hivm.hir.vpow ins(%w, %w : memref<16xi32, #hivm.address_space<ub>>, memref<16xi32, #hivm.address_space<ub>>) outs(%w : memref<16xi32, #hivm.address_space<ub>>)
    hivm.hir.vmod ins(%a, %b : memref<16xi16, #hivm.address_space<ub>>, memref<16xi16, #hivm.address_space<ub>>) outs(%b : memref<16xi16, #hivm.address_space<ub>>)
    hivm.hir.vcmp ins(%x, %h : memref<16xf16, #hivm.address_space<ub>>, f16) outs(%m : memref<16xi1, #hivm.address_space<ub>>) compare_mode = <lt>
    hivm.hir.vsel ins(%m, %h, %x : memref<16xi1, #hivm.address_space<ub>>, f16, memref<16xf16, #hivm.address_space<ub>>) outs(%y : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.vsin ins(%x : memref<16xf16, #hivm.address_space<ub>>) outs(%y : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.vcos ins(%x : memref<16xf16, #hivm.address_space<ub>>) outs(%y : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.vtanh ins(%x : memref<16xf16, #hivm.address_space<ub>>) outs(%y : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.verf ins(%x : memref<16xf16, #hivm.address_space<ub>>) outs(%y : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.vcumsum ins(%x : memref<16xf16, #hivm.address_space<ub>>) outs(%y : memref<16xf16, #hivm.address_space<ub>>) cum_dims = [0] reverse = false
    hivm.hir.vcumprod ins(%x : memref<16xf16, #hivm.address_space<ub>>) outs(%y : memref<16xf16, #hivm.address_space<ub>>) cum_dims = [0] reverse = true
    %bits = hivm.hir.bitcast %x : memref<16xf16, #hivm.address_space<ub>> -> memref<16xi16, #hivm.address_space<ub>>
    return
  }
  func.func @control_debug_locks(%buf: memref<?xi8, #hivm.address_space<gm>>, %v: f16) attributes {hivm.vf_mode = #hivm.vf_mode<SIMD>} {
    hivm.hir.set_ctrl true at ctrl[60]
    hivm.hir.anchor {id = 0 : i64}
    hivm.hir.init_debug
    hivm.hir.debug {debugtype = "print", hex = false, prefix = "v = "} %v : f16
    hivm.hir.finish_debug
    hivm.hir.sync_block[<ALL>, 1 : i16] tcube_pipe = <PIPE_FIX> tvector_pipe = <PIPE_MTE3>
    %lock = hivm.hir.create_sync_block_lock from %buf : from memref<?xi8, #hivm.address_space<gm>> to memref<1xi64>
    hivm.hir.sync_block_lock lock_var(%lock : memref<1xi64>)
    hivm.hir.sync_block_unlock lock_var(%lock : memref<1xi64>)
    hivm.hir.free_lock_var lock_var(%lock : memref<1xi64>)
    return
  }
  func.func @custom_matmul_layout(%gm: memref<16x16xf16, #hivm.address_space<gm>>, %bias: memref<16xf16, #hivm.address_space<gm>>,
                                  %a3: memref<4x16x16xf16, #hivm.address_space<gm>>, %tokens: memref<4xi64, #hivm.address_space<gm>>,
                                  %ub: memref<16x16xf16, #hivm.address_space<ub>>, %e: i64) {
    hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "my_kernel"} "my_op" ins(%ub : memref<16x16xf16, #hivm.address_space<ub>>) outs(%ub : memref<16x16xf16, #hivm.address_space<ub>>)
    hivm.hir.custom_macro {hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "my_macro", sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, wait>]} "my_macro_op" ins(%gm : memref<16x16xf16, #hivm.address_space<gm>>) outs(%ub : memref<16x16xf16, #hivm.address_space<ub>>) sync_related_args(%e : i64)
    hivm.hir.matmul ins(%gm, %gm : memref<16x16xf16, #hivm.address_space<gm>>, memref<16x16xf16, #hivm.address_space<gm>>) outs(%gm : memref<16x16xf16, #hivm.address_space<gm>>) bias = %bias : memref<16xf16, #hivm.address_space<gm>> descale = %bias : memref<16xf16, #hivm.address_space<gm>> descale_mode = <DescalePerChannel>
    hivm.hir.mix_matmul {post_vector_func = "epilogue"} ins(%gm, %gm : memref<16x16xf16, #hivm.address_space<gm>>, memref<16x16xf16, #hivm.address_space<gm>>) post_vector_func_ins(%bias : memref<16xf16, #hivm.address_space<gm>>) outs(%gm : memref<16x16xf16, #hivm.address_space<gm>>)
    hivm.hir.mix_group_matmul ins(%a3, %gm, %tokens : memref<4x16x16xf16, #hivm.address_space<gm>>, memref<16x16xf16, #hivm.address_space<gm>>, memref<4xi64, #hivm.address_space<gm>>) outs(%gm : memref<16x16xf16, #hivm.address_space<gm>>)
    %ut = memref.alloc() : memref<16x16xf16, #hivm.address_space<ub>>
    hivm.hir.vtranspose ins(%ub : memref<16x16xf16, #hivm.address_space<ub>>) outs(%ut : memref<16x16xf16, #hivm.address_space<ub>>) permutation = [1, 0]
    hivm.hir.vflip ins(%ub : memref<16x16xf16, #hivm.address_space<ub>>) outs(%ut : memref<16x16xf16, #hivm.address_space<ub>>) flip_axis = 0
    %uc = memref.alloc() : memref<16x32xf16, #hivm.address_space<ub>>
    hivm.hir.vconcat dim(1) ins(%ub, %ut : memref<16x16xf16, #hivm.address_space<ub>>, memref<16x16xf16, #hivm.address_space<ub>>) outs(%uc : memref<16x32xf16, #hivm.address_space<ub>>)
    %nz = hivm.hir.convert_layout %gm output_shape [1, 1, 16, 16] {dstLayout = #hivm.data_layout<nZ>, srcLayout = #hivm.data_layout<ND>} : (memref<16x16xf16, #hivm.address_space<gm>>) -> memref<1x1x16x16xf16, #hivm.address_space<gm>>
    return
  }
  func.func @rare_ops(%ub: memref<16x16xf16, #hivm.address_space<ub>>, %gm8: memref<16x4xi8, #hivm.address_space<gm>>,
                      %scale: memref<1x1x16x16xi8, #hivm.address_space<cbuf>>, %a: memref<2x16x16xf16, #hivm.address_space<cbuf>>,
                      %c: memref<2x16x16xf32, #hivm.address_space<cc>>, %init: i1, %pad: f16,
                      %base: memref<?xf32>, %idx: tensor<16xi32>, %data: tensor<16xf32>, %mask: tensor<16xi1>) {
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : i64
    %up = memref.alloc() : memref<16x32xf16, #hivm.address_space<ub>>
    hivm.hir.vpad ins(%ub : memref<16x16xf16, #hivm.address_space<ub>>) outs(%up : memref<16x32xf16, #hivm.address_space<ub>>) low[0, 8] high[0, 8] pad_value %pad : f16
    hivm.hir.vinterleave ins(%ub, %ub : memref<16x16xf16, #hivm.address_space<ub>>, memref<16x16xf16, #hivm.address_space<ub>>) outs(%up : memref<16x32xf16, #hivm.address_space<ub>>) interleave_channel_nums = 2
    %ue = memref.alloc() : memref<16x16xf16, #hivm.address_space<ub>>
    hivm.hir.vdeinterleave ins(%up : memref<16x32xf16, #hivm.address_space<ub>>) outs(%ub, %ue : memref<16x16xf16, #hivm.address_space<ub>>, memref<16x16xf16, #hivm.address_space<ub>>) index_mode = <ALL_CHANNELS>
    %init16 = tensor.empty() : tensor<16xf32>
    %g = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16xi32>, %c1 : i64) outs(%init16 : tensor<16xf32>) -> tensor<16xf32>
    hivm.hir.scatter_store ins(%idx : tensor<16xi32>, %data : tensor<16xf32>, %c1 : i64, %mask : tensor<16xi1>) outs(%base : memref<?xf32>)
    hivm.hir.batchMmadL1 ins(%a, %a, %init, %c16, %c16, %c16 : memref<2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<2x16x16xf32, #hivm.address_space<cc>>)
    hivm.hir.load_scale ins(%gm8 : memref<16x4xi8, #hivm.address_space<gm>>) outs(%scale : memref<1x1x16x16xi8, #hivm.address_space<cbuf>>) is_transposed = true
    %slot = hivm.hir.multi_buffer_counter -> i64
    return
  }
  func.func @memory_and_ids() {
    %c0 = arith.constant 0 : i64
    %c4096 = arith.constant 4096 : i64
    %buf = hivm.hir.pointer_cast(%c0, %c4096) : memref<16x64xf32, #hivm.address_space<ub>>
    %idx = hivm.hir.get_block_idx -> i64
    %num = hivm.hir.get_block_num -> i64
    %sub = hivm.hir.get_sub_block_idx -> i64
    return
  }
}
