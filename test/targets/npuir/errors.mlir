// Input that is not bishengir-ready is a located diagnostic naming what to run: the
// printer only prints.
// RUN: ascend-opt %s -t npuir --split-input-file --verify-diagnostics

func.func @tile_level(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{is tile-level: run -p convert-tile-to-hivm before -t npuir}}
  tile.copy ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @init_not_peelable() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    // expected-error @+1 {{init is computed inside a loop; bishengir-compile 1.2.0 crashes on that. Run -p peel-mmad-init (it peels `arith.cmpi eq, %iv, %lb` of the K loop) or make it a constant}}
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  func.return
}

// -----

// An init true at another step than the K loop's first: peel-mmad-init (which
// ascend-compile runs) cannot mend it, and the message no longer says to run it.
func.func @init_not_at_the_first_step() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c1 : index
    // expected-error @+1 {{init is computed inside a loop; bishengir-compile 1.2.0 crashes on that. It is true at another step than the loop's first (its lower bound): the steps before it accumulate into an accumulator nothing has set, and it drops their sums: compare the induction variable with the loop's lower bound}}
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  func.return
}

// -----

// An unsplit MIX kernel (synced or not) is not what bishengir takes.
// expected-error @+1 {{is a MIX kernel (cube and vector ops); bishengir-compile takes it as the _mix_aic/_mix_aiv pair: run -p split-mix-kernel after sync insertion (-p ascend-compile does both)}}
func.func @mix() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  func.return
}

// -----

// Without hivm.func_core_type, cube and vector ops in one entry are a MIX kernel too.
// expected-error @+1 {{is a MIX kernel (cube and vector ops)}}
func.func @untyped_mix() attributes {hacc.entry} {
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
  hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  func.return
}
