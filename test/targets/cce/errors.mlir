// What the cce printer cannot print is a located diagnostic, never a traceback. It only
// prints: IR the CCE route's passes have not prepared (tile-level, an unlowered mmadL1,
// an unplanned buffer, a dependence no flag orders) is refused, naming the pass to run.
// RUN: ascend-opt %s -t cce --split-input-file --verify-diagnostics

func.func @tile_level(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{is tile-level: run -p 'ascend-compile{target=cce}' (or convert-tile-to-hivm and the passes after it) before -t cce}}
  tile.copy ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}

// -----

// the L0A/L0B ping-pong is ascend-lower-mmad-l0's (its flags are then IR the sync check
// and the simulator see); the printer expands nothing itself
func.func @unlowered_mmad(%i: i1) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %n = arith.constant 16 : index
  %c0 = arith.constant 0 : i64
  %c512 = arith.constant 512 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<16x16xf16, #hivm.address_space<cbuf>>
  %b = hivm.hir.pointer_cast(%c512) : memref<16x16xf16, #hivm.address_space<cbuf>>
  %c = hivm.hir.pointer_cast(%c0) : memref<16x16xf32, #hivm.address_space<cc>>
  // expected-error @+1 {{is not lowered to its L1 -> L0A/L0B moves and L0 multiplies: run -p 'ascend-compile{target=cce}' (or ascend-lower-mmad-l0) before -t cce}}
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

// addresses are ascend-plan-memory's (one plan per kernel, a split pair's shared buffers
// at the same place on both cores); the printer places nothing itself
func.func @half_planned() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{is not planned (an ub buffer without an address): run -p 'ascend-compile{target=cce}' (or ascend-plan-memory) before -t cce}}
  %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.vexp ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @gm_alloc() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  // expected-error @+1 {{is GM memory: a kernel's GM buffers are its arguments; the cce printer prints no GM alloc}}
  %g = memref.alloc() : memref<64xf32, #hivm.address_space<gm>>
  return
}

// -----

// the vector op reads UB the load writes on another pipe, with no flag between them:
// ascend-verify-sync's checker says so, at the reading op
func.func @unsynced(%x: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : i64
  %c256 = arith.constant 256 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%c256) : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  // expected-error @+1 {{is not synced (hivm.hir.vexp (V) may touch bytes that hivm.hir.load at}}
  hivm.hir.vexp ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  return
}

// -----

// the same kernel with its flag prints
func.func @synced(%x: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : i64
  %c256 = arith.constant 256 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%c256) : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vexp ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  return
}
