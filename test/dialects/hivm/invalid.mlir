// Every verifier error of the hivm dialect, one case per split: each message names the
// hardware rule that the op breaks.
// RUN: ascend-opt %s --split-input-file --verify-diagnostics
func.func @load_from_ub(%a: memref<16xf16, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source must be in gm, got ub (load moves gm -> ub)}}
  hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @load_to_cbuf(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{destination must be in ub, got cbuf (load moves gm -> ub)}}
  hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<cbuf>>)
  return
}

// -----

func.func @load_numeric_space(%a: memref<16xf16, 1>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source must be in gm, got no hivm address space}}
  hivm.hir.load ins(%a : memref<16xf16, 1>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @load_element_type(%a: memref<16xf32, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and destination element types differ (f32 vs f16)}}
  hivm.hir.load ins(%a : memref<16xf32, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @load_shape(%a: memref<32xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{without padding, source and destination shapes differ (32 vs 16)}}
  hivm.hir.load ins(%a : memref<32xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @load_pad_type(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>, %p: f32) {
  // expected-error @+1 {{pad_value type f32 differs from the element type f16}}
  hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %p : f32
  return
}

// -----

func.func @store_from_gm(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<gm>>) {
  // expected-error @+1 {{source must be in ub, got gm (store moves ub -> gm)}}
  hivm.hir.store ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<gm>>)
  return
}

// -----

func.func @store_to_cbuf(%a: memref<16xf16, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{destination must be in gm, got cbuf (store moves ub -> gm)}}
  hivm.hir.store ins(%a : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<cbuf>>)
  return
}

// -----

func.func @store_shape(%a: memref<4x4xf16, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<gm>>) {
  // expected-error @+1 {{source and destination shapes differ (4x4 vs 16)}}
  hivm.hir.store ins(%a : memref<4x4xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<gm>>)
  return
}

// -----

func.func @copy_from_gm(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source must be in ub, got gm (copy moves ub -> ub or cbuf)}}
  hivm.hir.copy ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @copy_to_gm(%a: memref<16xf16, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<gm>>) {
  // expected-error @+1 {{destination must be in ub or cbuf, got gm}}
  hivm.hir.copy ins(%a : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<gm>>)
  return
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
func.func @copy_ub_to_cbuf_on_910b(%a: memref<16xf16, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{copy ub -> cbuf needs a chip with that path (ascend950), the module targets Ascend910B1 (ascend910b)}}
  hivm.hir.copy ins(%a : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<cbuf>>)
  return
}
}

// -----

func.func @nd2nz_from_ub(%a: memref<16xf16, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{source must be in gm, got ub (nd2nz moves gm -> cbuf)}}
  hivm.hir.nd2nz ins(%a : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<cbuf>>)
  return
}

// -----

func.func @nd2nz_to_ub(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{destination must be in cbuf, got ub (nd2nz moves gm -> cbuf)}}
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @nd2nz_init_without_pad(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{init_out_buffer = true needs a pad_value}}
  hivm.hir.nd2nz ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<cbuf>>) init_out_buffer = true
  return
}

// -----

func.func @fixpipe_from_ub(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16xf32, #hivm.address_space<gm>>) {
  // expected-error @+1 {{source must be in cc, got ub (fixpipe moves cc -> gm, cbuf or ub)}}
  hivm.hir.fixpipe ins(%a : memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<16xf32, #hivm.address_space<gm>>)
  return
}

// -----

func.func @fixpipe_to_cc(%a: memref<16xf32, #hivm.address_space<cc>>, %b: memref<16xf32, #hivm.address_space<cc>>) {
  // expected-error @+1 {{destination must be in gm or cbuf or ub, got cc}}
  hivm.hir.fixpipe ins(%a : memref<16xf32, #hivm.address_space<cc>>) outs(%b : memref<16xf32, #hivm.address_space<cc>>)
  return
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
func.func @fixpipe_to_ub_on_910b(%a: memref<16xf32, #hivm.address_space<cc>>, %b: memref<16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{fixpipe cc -> ub needs a chip with that path (ascend950), the module targets Ascend910B1 (ascend910b)}}
  hivm.hir.fixpipe ins(%a : memref<16xf32, #hivm.address_space<cc>>) outs(%b : memref<16xf32, #hivm.address_space<ub>>)
  return
}
}

// -----

func.func @fixpipe_dual_to_gm(%a: memref<16x16xf32, #hivm.address_space<cc>>, %b: memref<8x16xf32, #hivm.address_space<gm>>) {
  // expected-error @+1 {{dual_dst_mode needs a ub destination}}
  hivm.hir.fixpipe ins(%a : memref<16x16xf32, #hivm.address_space<cc>>) outs(%b : memref<8x16xf32, #hivm.address_space<gm>>) dual_dst_mode = <ROW_SPLIT>
  return
}

// -----

func.func @fixpipe_dual_shape(%a: memref<16x16xf32, #hivm.address_space<cc>>, %b: memref<16x16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{dual_dst_mode ROW_SPLIT needs a destination of 8x16 (half of the source), got 16x16}}
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%a : memref<16x16xf32, #hivm.address_space<cc>>) outs(%b : memref<16x16xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
  return
}

// -----

func.func @mmad_a_in_ub(%a: memref<64x32xf16, #hivm.address_space<ub>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{operand A must be in cbuf, got ub (mmadL1 reads A and B from cbuf and accumulates C in cc)}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<ub>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_b_in_ca(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cb>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{operand B must be in cbuf, got cb}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cb>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_c_in_ub(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<ub>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{operand C must be in cc, got ub}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @mmad_k_mismatch(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<64x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{K of A (32) and K of B (64) differ (a_transpose=False, b_transpose=False)}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_k_mismatch_transposed(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{K of A (32) and K of B (64) differ (a_transpose=False, b_transpose=True)}}
  hivm.hir.mmadL1 {b_transpose} ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_c_shape(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x32xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{C is 64x32 but A x B is 64x64}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x32xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_a_transpose_shape(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{K of A (64) and K of B (32) differ (a_transpose=True, b_transpose=False)}}
  hivm.hir.mmadL1 {a_transpose} ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_rank(%a: memref<2048xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{operand A must be a rank-2 memref}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<2048xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_types(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf32, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{unsupported element types f16 x f32}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_accumulator(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf16, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{f16 x f16 accumulates in f32, but C is f16}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf16, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_int8_accumulator(%a: memref<64x32xi8, #hivm.address_space<cbuf>>, %b: memref<32x64xi8, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{i8 x i8 accumulates in i32, but C is f32}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xi8, #hivm.address_space<cbuf>>, memref<32x64xi8, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_hf32_on_f16(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{enable_HF32 needs f32 operands, got f16}}
  hivm.hir.mmadL1 {enable_HF32} ins(%a, %b, %t, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_real_m(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1) {
  %t = arith.constant true
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{real_m = 128 is outside 1..64}}
  hivm.hir.mmadL1 ins(%a, %b, %t, %c128, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @mmad_init_type(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i32, %m: index) {
  // expected-error @+1 {{init condition must be i1, got i32}}
  hivm.hir.mmadL1 ins(%a, %b, %i, %m, %m, %m : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i32, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

func.func @vadd_in_gm(%a: memref<16x64xf32, #hivm.address_space<gm>>, %b: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{vector input must be in ub, got gm (vector ops work on the unified buffer)}}
  hivm.hir.vadd ins(%a, %b : memref<16x64xf32, #hivm.address_space<gm>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vexp_out_cbuf(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{vector output must be in ub, got cbuf}}
  hivm.hir.vexp ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<cbuf>>)
  return
}

// -----

func.func @vadd_arity(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{expects 2 input(s) and 1 output, got 1 and 1}}
  hivm.hir.vadd ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vmul_scalar_first(%s: f32, %b: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{the first input must be a memref or tensor (vector operand), got f32}}
  hivm.hir.vmul ins(%s, %b : f32, memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vmul_scalar_type(%a: memref<16x64xf32, #hivm.address_space<ub>>, %s: f16, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{scalar operand type f16 differs from the element type f32}}
  hivm.hir.vmul ins(%a, %s : memref<16x64xf32, #hivm.address_space<ub>>, f16) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vadd_shape(%a: memref<16x64xf32, #hivm.address_space<ub>>, %b: memref<16x32xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{operand shape 16x32 is not compatible with the output shape 16x64 (same shape, a scalar, or size 1 on a broadcast dim)}}
  hivm.hir.vadd ins(%a, %b : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x32xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vadd_unbroadcast(%a: memref<16x64xf32, #hivm.address_space<ub>>, %b: memref<16x1xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{operand shape 16x1 is not compatible with the output shape 16x64}}
  hivm.hir.vadd ins(%a, %b : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x1xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vadd_element_type(%a: memref<16x64xf32, #hivm.address_space<ub>>, %b: memref<16x64xf16, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{element types differ (f16 vs f32)}}
  hivm.hir.vadd ins(%a, %b : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf16, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vadd_rank(%a: memref<16x64xf32, #hivm.address_space<ub>>, %b: memref<64xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{operand ranks differ (1 vs 2)}}
  hivm.hir.vadd ins(%a, %b : memref<16x64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vadd_broadcast_dim(%a: memref<16x64xf32, #hivm.address_space<ub>>, %b: memref<16x1xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{dimension 2 is out of range for rank 2}}
  hivm.hir.vadd ins(%a, %b : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x1xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) broadcast = [2]
  return
}

// -----

func.func @vadd_broadcast_and_transpose(%a: memref<16x64xf32, #hivm.address_space<ub>>, %b: memref<16x1xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{broadcast and transpose cannot both be set}}
  hivm.hir.vadd ins(%a, %b : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x1xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) broadcast = [1] transpose = [1, 0]
  return
}

// -----

func.func @vcast_shape(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x32xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{operand shape 16x64 is not compatible with the output shape 16x32}}
  hivm.hir.vcast ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x32xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vbrc_dim_range(%a: memref<16x1xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{broadcast dim 2 is out of range for rank 2}}
  hivm.hir.vbrc ins(%a : memref<16x1xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [2]
  return
}

// -----

func.func @vbrc_not_one(%a: memref<16x2xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source size on broadcast dim 1 must be 1, got 2}}
  hivm.hir.vbrc ins(%a : memref<16x2xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  return
}

// -----

func.func @vbrc_other_dim(%a: memref<8x1xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source size 8 differs from destination size 16 on dim 0}}
  hivm.hir.vbrc ins(%a : memref<8x1xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  return
}

// -----

func.func @vbrc_scalar_dims(%s: f32, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{a scalar source takes no broadcast_dims}}
  hivm.hir.vbrc ins(%s : f32) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  return
}

// -----

func.func @vbrc_no_dims(%a: memref<16x1xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{a memref source needs broadcast_dims}}
  hivm.hir.vbrc ins(%a : memref<16x1xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @vbrc_rank(%a: memref<1xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source rank 1 differs from destination rank 2}}
  hivm.hir.vbrc ins(%a : memref<1xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [0, 1]
  return
}

// -----

func.func @vreduce_dim_range(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x1xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{reduce dim 2 is out of range for rank 2}}
  hivm.hir.vreduce <sum> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [2]
  return
}

// -----

func.func @vreduce_shape(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{destination size on dim 1 must be 1, got 64}}
  hivm.hir.vreduce <max> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  return
}

// -----

func.func @vreduce_empty(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x64xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{reduce_dims must not be empty}}
  hivm.hir.vreduce <min> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x64xf32, #hivm.address_space<ub>>) reduce_dims = []
  return
}

// -----

func.func @vreduce_in_gm(%a: memref<16x64xf32, #hivm.address_space<gm>>, %c: memref<16x1xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{vector input must be in ub, got gm}}
  hivm.hir.vreduce <sum> ins(%a : memref<16x64xf32, #hivm.address_space<gm>>) outs(%c : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  return
}

// -----

func.func @set_flag_same_pipe() {
  // expected-error @+1 {{set and wait pipes must differ, got PIPE_V twice (same-pipe order needs pipe_barrier, not a flag)}}
  hivm.hir.set_flag[<PIPE_V>, <PIPE_V>, <EVENT_ID0>]
  return
}

// -----

func.func @wait_flag_same_pipe() {
  // expected-error @+1 {{set and wait pipes must differ, got PIPE_MTE2 twice}}
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE2>, <EVENT_ID1>]
  return
}

// -----

func.func @set_flag_event_range() {
  // expected-error @+1 {{static event id EVENT_ID8 is out of range (EVENT_ID0..EVENT_ID7, 8 per pipe pair)}}
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID8>]
  return
}

// -----

func.func @wait_flag_event_range_long_form() {
  // expected-error @+1 {{static event id EVENT_ID12 is out of range}}
  hivm.hir.wait_flag[#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, #hivm.event<EVENT_ID12>]
  return
}

// -----

func.func @set_flag_pipe_all() {
  // expected-error @+1 {{set pipe must be a single hardware pipe, got PIPE_ALL}}
  hivm.hir.set_flag[<PIPE_ALL>, <PIPE_V>, <EVENT_ID0>]
  return
}

// -----

func.func @pipe_barrier_unassigned() {
  // expected-error @+1 {{pipe must be a hardware pipe or PIPE_ALL, got PIPE_UNASSIGNED}}
  hivm.hir.pipe_barrier[<PIPE_UNASSIGNED>]
  return
}

// -----

func.func @sync_block_flag_range() {
  // expected-error @+1 {{flag id 16 is out of range (0..15)}}
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 16
  return
}

// -----

func.func @sync_block_core() {
  // expected-error @+1 {{core type must be CUBE or VECTOR, got CUBE_OR_VECTOR}}
  hivm.hir.sync_block_wait[<CUBE_OR_VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 1
  return
}

// -----

func.func @sync_block_pipe_all() {
  // expected-error @+1 {{producer pipe must be a single hardware pipe, got PIPE_ALL}}
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_ALL>, <PIPE_MTE1>] flag = 2
  return
}

// -----

func.func @pointer_cast_gm(%a: i64) {
  // expected-error @+1 {{result must be in an on-chip scope (cbuf, ca, cb, cc, ub), got gm}}
  %m = hivm.hir.pointer_cast(%a) : memref<16xf32, #hivm.address_space<gm>>
  return
}

// -----

func.func @pointer_cast_no_space(%a: i64) {
  // expected-error @+1 {{result must be in an on-chip scope (cbuf, ca, cb, cc, ub), got no hivm address space}}
  %m = hivm.hir.pointer_cast(%a) : memref<16xf32>
  return
}

// -----

func.func @pointer_cast_sizes(%a: i64, %n: index) {
  // expected-error @+1 {{0 dynamic dimension(s) need as many sizes, got 1}}
  %m = hivm.hir.pointer_cast(%a) [%n] : memref<16xf32, #hivm.address_space<ub>>
  return
}

// -----

func.func @pointer_cast_no_address() {
  // expected-error @+1 {{needs at least one address}}
  %m = hivm.hir.pointer_cast() : memref<16xf32, #hivm.address_space<ub>>
  return
}

// -----

func.func @mmad_sync_related_args(%a: memref<64x64xf16, #hivm.address_space<cbuf>>, %c: memref<64x64xf32, #hivm.address_space<cc>>, %i: i1, %m: index, %e: i64) {
  // expected-error @+1 {{sync_related_args must be empty or 7 i64 values, got 2}}
  hivm.hir.mmadL1 ins(%a, %a, %i, %m, %m, %m : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>) sync_related_args(%e, %e : i64, i64)
  return
}

// -----

func.func @load_pad_without_mode(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>, %p: f16) {
  // expected-error @+1 {{pad_value needs pad_mode PadValue}}
  hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>) pad_value = %p : f16
  return
}

// -----

func.func @load_pad_value_missing(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{pad_mode PadValue needs a pad_value}}
  hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue>
  return
}

// -----

func.func @load_pad_first_elem_value(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>, %p: f16) {
  // expected-error @+1 {{pad_mode PadFirstElem pads with the first element and takes no pad_value}}
  hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadFirstElem> pad_value = %p : f16
  return
}

// -----

func.func @load_pad_shrinks(%a: memref<4x32xf16, #hivm.address_space<gm>>, %b: memref<4x16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{padding cannot shrink the last dimension (32 -> 16)}}
  hivm.hir.load ins(%a : memref<4x32xf16, #hivm.address_space<gm>>) outs(%b : memref<4x16xf16, #hivm.address_space<ub>>) pad_mode = <PadFirstElem>
  return
}

// -----

func.func @load_pad_outer_dim(%a: memref<4x16xf16, #hivm.address_space<gm>>, %b: memref<8x16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{with padding only the last dimension of source and destination may differ}}
  hivm.hir.load ins(%a : memref<4x16xf16, #hivm.address_space<gm>>) outs(%b : memref<8x16xf16, #hivm.address_space<ub>>) pad_mode = <PadFirstElem>
  return
}

// -----

func.func @vreduce_with_index_outputs(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x1xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{<max_with_index_left> expects 2 output(s) (values and indices), got 1}}
  hivm.hir.vreduce <max_with_index_left> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  return
}

// -----

func.func @vadd_transpose_shape(%a: memref<2x16x4xf32, #hivm.address_space<ub>>, %c: memref<2x16x4xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{operand shape 2x16x4 is not compatible with the output shape 2x16x4}}
  hivm.hir.vadd ins(%a, %a : memref<2x16x4xf32, #hivm.address_space<ub>>, memref<2x16x4xf32, #hivm.address_space<ub>>) outs(%c : memref<2x16x4xf32, #hivm.address_space<ub>>) transpose = [1, 0, 2]
  return
}

// -----

func.func @vadd_transpose_last_dim(%a: memref<16x8xf32, #hivm.address_space<ub>>, %c: memref<8x16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{transpose [1, 0] moves the last dimension (the hardware keeps it in place)}}
  hivm.hir.vadd ins(%a, %a : memref<16x8xf32, #hivm.address_space<ub>>, memref<16x8xf32, #hivm.address_space<ub>>) outs(%c : memref<8x16xf32, #hivm.address_space<ub>>) transpose = [1, 0]
  return
}

// -----

// The tensor form: one result per tensor output (bishengir's words).
func.func @tensor_output_without_result(%x: tensor<16xf16>, %t: tensor<16xf16>) {
  // expected-error @+1 {{expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  hivm.hir.vadd ins(%x, %x : tensor<16xf16>, tensor<16xf16>) outs(%t : tensor<16xf16>)
  return
}

// -----

func.func @tensor_result_of_another_type(%x: tensor<16xf16>, %t: tensor<16xf16>) {
  // expected-error @+1 {{expected type of operand #1 ('tensor<16xf16>') to match type of corresponding result ('tensor<8xf16>')}}
  %r = hivm.hir.vexp ins(%x : tensor<16xf16>) outs(%t : tensor<16xf16>) -> tensor<8xf16>
  return
}

// -----

func.func @tensor_result_of_memref_output(%x: memref<16xf16>, %t: memref<16xf16>) {
  // expected-error @+1 {{expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %r = hivm.hir.vexp ins(%x : memref<16xf16>) outs(%t : memref<16xf16>) -> tensor<16xf16>
  return
}

// -----

func.func @tensor_copy_without_result(%x: tensor<16x16xf16>, %t: tensor<16x16xf16>) {
  // expected-error @+1 {{expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  hivm.hir.copy ins(%x : tensor<16x16xf16>) outs(%t : tensor<16x16xf16>)
  return
}

// -----

func.func @tensor_mmad_without_result(%x: tensor<16x16xf16>, %t: tensor<16x16xf32>, %i: i1, %c: index) {
  // expected-error @+1 {{expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  hivm.hir.mmadL1 ins(%x, %x, %i, %c, %c, %c : tensor<16x16xf16>, tensor<16x16xf16>, i1, index, index, index) outs(%t : tensor<16x16xf32>)
  return
}

// -----

func.func @vcmp_into_values(%a: memref<16xf16>, %b: memref<16xf16>) {
  // expected-error @+1 {{the output of vcmp is an i1 mask, got f16}}
  hivm.hir.vcmp ins(%a, %a : memref<16xf16>, memref<16xf16>) outs(%b : memref<16xf16>)
  return
}

// -----

func.func @vsel_without_mask(%a: memref<16xf16>, %b: memref<16xf16>) {
  // expected-error @+1 {{the first input of vsel is an i1 mask, got f16}}
  hivm.hir.vsel ins(%a, %a, %a : memref<16xf16>, memref<16xf16>, memref<16xf16>) outs(%b : memref<16xf16>)
  return
}

// -----

func.func @vand_with_scalar(%a: memref<16xi16>, %s: i16) {
  // expected-error @+1 {{operand at index 1 is vector-only}}
  hivm.hir.vand ins(%a, %s : memref<16xi16>, i16) outs(%a : memref<16xi16>)
  return
}

// -----

func.func @vpow_of_halves(%a: memref<16xf16>) {
  // expected-error @+1 {{operands of vpow must have element type i32 (bishengir's build), got f16}}
  hivm.hir.vpow ins(%a, %a : memref<16xf16>, memref<16xf16>) outs(%a : memref<16xf16>)
  return
}

// -----

func.func @bitcast_of_another_width(%a: memref<16xf16>) {
  // expected-error @+1 {{bitcast needs element types of one bit width, got f16 -> i32}}
  %b = hivm.hir.bitcast %a : memref<16xf16> -> memref<16xi32>
  return
}

// -----

func.func @sync_block_all_without_cube_pipe() {
  // expected-error @+1 {{tcube_pipe should be defined!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL>, 1 : i16] tvector_pipe = #hivm.pipe<PIPE_V>
  return
}

// -----

func.func @sync_block_barrier_with_pipe() {
  // expected-error @+1 {{tvector_pipe should not be defined!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<BARRIER_VECTOR>] tvector_pipe = #hivm.pipe<PIPE_V>
  return
}

// -----

func.func @lock_of_i32(%l: memref<1xi32>) {
  // expected-error @+1 {{lock_var must be a rank-1 memref of i64, got memref<1xi32>}}
  hivm.hir.sync_block_lock lock_var(%l : memref<1xi32>)
  return
}
