// What the cce printer cannot print is a located diagnostic, never a traceback.
// RUN: ascend-opt %s -t cce --split-input-file --verify-diagnostics

func.func @tile_level(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{is tile-level: run -p ascend-compile (or convert-tile-to-hivm) before -t cce}}
  tile.copy ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}

// -----

// MTE1 <-> M events 6 and 7 belong to the expansion of an mmadL1 the printer expands
// itself (lowered IR, ascend-lower-mmad-l0, holds them as ordinary flags)
func.func @reserved_event(%i: i1) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %n = arith.constant 16 : index
  %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %b = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  // expected-error @+1 {{event id 6 of MTE1 -> M is reserved for the cce printer's mmadL1 expansion (ids (6, 7))}}
  hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_M>, <EVENT_ID6>]
  hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_M>, <EVENT_ID6>]
  hivm.hir.mmadL1 ins(%a, %b, %i, %n, %n, %n : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @capacity() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %a = memref.alloc() : memref<32768xf32, #hivm.address_space<ub>>
  // the verifier (analysis/hardware_checks) reports it before the printer sees it
  // expected-error @+1 {{the 2 ub buffers live here need 262144 bytes}}
  %b = memref.alloc() : memref<32768xf32, #hivm.address_space<ub>>
  hivm.hir.vadd ins(%a, %a : memref<32768xf32, #hivm.address_space<ub>>, memref<32768xf32, #hivm.address_space<ub>>) outs(%b : memref<32768xf32, #hivm.address_space<ub>>)
  return
}

// -----

// planned and unplanned buffers in one scope could overlap: plan all of them
func.func @half_planned() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{ub buffers planned by pointer_cast and unplanned allocs in one function: run plan-memory over all of them}}
  %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.vexp ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  return
}
