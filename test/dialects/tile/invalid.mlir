// Every verifier error of the tile dialect, one case per split.
// RUN: ascend-opt %s --split-input-file --verify-diagnostics
func.func @copy_no_path(%a: memref<16xf32, #hivm.address_space<gm>>, %b: memref<16xf32, #hivm.address_space<gm>>) {
  // expected-error @+1 {{has no DMA path from gm to gm}}
  tile.copy ins(%a : memref<16xf32, #hivm.address_space<gm>>) outs(%b : memref<16xf32, #hivm.address_space<gm>>)
  return
}

// -----

func.func @copy_cbuf_to_gm(%a: memref<16xf32, #hivm.address_space<cbuf>>, %b: memref<16xf32, #hivm.address_space<gm>>) {
  // expected-error @+1 {{has no DMA path from cbuf to gm}}
  tile.copy ins(%a : memref<16xf32, #hivm.address_space<cbuf>>) outs(%b : memref<16xf32, #hivm.address_space<gm>>)
  return
}

// -----

func.func @copy_no_space(%a: memref<16xf32>, %b: memref<16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source must be a memref in a hivm address space}}
  tile.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @copy_element_type(%a: memref<16xf32, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest element types differ: f32 vs f16}}
  tile.copy ins(%a : memref<16xf32, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @copy_shape(%a: memref<16xf32, #hivm.address_space<gm>>, %b: memref<32xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest shapes differ: 16 vs 32}}
  tile.copy ins(%a : memref<16xf32, #hivm.address_space<gm>>) outs(%b : memref<32xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @copy_half_not_from_cc(%a: memref<16x8xf32, #hivm.address_space<gm>>, %b: memref<8x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest shapes differ: 16x8 vs 8x8}}
  tile.copy ins(%a : memref<16x8xf32, #hivm.address_space<gm>>) outs(%b : memref<8x8xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @copy_dual_bad_ratio(%a: memref<16x8xf32, #hivm.address_space<cc>>, %b: memref<4x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest shapes differ: 16x8 vs 4x8}}
  tile.copy ins(%a : memref<16x8xf32, #hivm.address_space<cc>>) outs(%b : memref<4x8xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @binary_lhs_scope(%a: memref<16xf32, #hivm.address_space<gm>>, %b: memref<16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{lhs must be in ub, got gm}}
  tile.add ins(%a, %b : memref<16xf32, #hivm.address_space<gm>>, memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @binary_rhs_scope(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16xf32, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{rhs must be in ub, got cbuf}}
  tile.sub ins(%a, %b : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<cbuf>>) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @binary_dest_scope(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16xf32, #hivm.address_space<gm>>) {
  // expected-error @+1 {{dest must be in ub, got gm}}
  tile.mul ins(%a, %a : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<16xf32, #hivm.address_space<gm>>)
  return
}

// -----

func.func @binary_dest_shape(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{lhs and dest shapes differ: 16 vs 8}}
  tile.div ins(%a, %a : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @binary_rhs_shape(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{lhs and rhs shapes differ: 16 vs 8}}
  tile.max ins(%a, %b : memref<16xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @binary_dest_element(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{lhs and dest element types differ: f32 vs f16}}
  tile.min ins(%a, %a : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @binary_rhs_element(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{lhs and rhs element types differ: f32 vs f16}}
  tile.add ins(%a, %b : memref<16xf32, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @binary_scalar_type(%a: memref<16xf32, #hivm.address_space<ub>>, %s: f16) {
  // expected-error @+1 {{scalar rhs type f16 differs from element type f32}}
  tile.mul ins(%a, %s : memref<16xf32, #hivm.address_space<ub>>, f16) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @unary_scope(%a: memref<16xf32, #hivm.address_space<cbuf>>, %b: memref<16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source must be in ub, got cbuf}}
  tile.exp ins(%a : memref<16xf32, #hivm.address_space<cbuf>>) outs(%b : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @unary_shape(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<4x4xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest shapes differ: 16 vs 4x4}}
  tile.relu ins(%a : memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<4x4xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @unary_element(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest element types differ: f32 vs f16}}
  tile.sqrt ins(%a : memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @cast_same_element(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest element types must differ, both are f32}}
  tile.cast ins(%a : memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @cast_shape(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<8xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest shapes differ: 16 vs 8}}
  tile.cast ins(%a : memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @fill_type(%a: memref<16xf32, #hivm.address_space<ub>>, %s: f16) {
  // expected-error @+1 {{value type f16 differs from element type f32}}
  tile.fill ins(%s : f16) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @fill_scope(%a: memref<16xf32, #hivm.address_space<gm>>, %s: f32) {
  // expected-error @+1 {{dest must be in ub, got gm}}
  tile.fill ins(%s : f32) outs(%a : memref<16xf32, #hivm.address_space<gm>>)
  return
}

// -----

func.func @reduce_rank(%a: memref<16x8xf32, #hivm.address_space<ub>>, %b: memref<16xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest ranks differ: 2 vs 1}}
  tile.reduce <sum> ins(%a : memref<16x8xf32, #hivm.address_space<ub>>) outs(%b : memref<16xf32, #hivm.address_space<ub>>) dims = [1]
  return
}

// -----

func.func @reduce_dim_range(%a: memref<16x8xf32, #hivm.address_space<ub>>, %b: memref<16x1xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{dim 2 out of range for rank 2}}
  tile.reduce <max> ins(%a : memref<16x8xf32, #hivm.address_space<ub>>) outs(%b : memref<16x1xf32, #hivm.address_space<ub>>) dims = [2]
  return
}

// -----

func.func @reduce_dim_unique(%a: memref<16x8xf32, #hivm.address_space<ub>>, %b: memref<16x1xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{dims must be unique, got [1, 1]}}
  tile.reduce <max> ins(%a : memref<16x8xf32, #hivm.address_space<ub>>) outs(%b : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1, 1]
  return
}

// -----

func.func @reduce_no_dims(%a: memref<16x8xf32, #hivm.address_space<ub>>, %b: memref<16x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{needs at least one dim}}
  tile.reduce <min> ins(%a : memref<16x8xf32, #hivm.address_space<ub>>) outs(%b : memref<16x8xf32, #hivm.address_space<ub>>) dims = []
  return
}

// -----

func.func @reduce_dest_shape(%a: memref<16x8xf32, #hivm.address_space<ub>>, %b: memref<1x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{dest shape must be 16x1, got 1x8}}
  tile.reduce <sum> ins(%a : memref<16x8xf32, #hivm.address_space<ub>>) outs(%b : memref<1x8xf32, #hivm.address_space<ub>>) dims = [1]
  return
}

// -----

func.func @reduce_element(%a: memref<16x8xf32, #hivm.address_space<ub>>, %b: memref<16x1xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest element types differ: f32 vs f16}}
  tile.reduce <sum> ins(%a : memref<16x8xf32, #hivm.address_space<ub>>) outs(%b : memref<16x1xf16, #hivm.address_space<ub>>) dims = [1]
  return
}

// -----

func.func @reduce_scope(%a: memref<16x8xf32, #hivm.address_space<gm>>, %b: memref<16x1xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source must be in ub, got gm}}
  tile.reduce <sum> ins(%a : memref<16x8xf32, #hivm.address_space<gm>>) outs(%b : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  return
}

// -----

func.func @broadcast_not_one(%a: memref<16x2xf32, #hivm.address_space<ub>>, %b: memref<16x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source must have size 1 in broadcast dim 1, got 2}}
  tile.broadcast ins(%a : memref<16x2xf32, #hivm.address_space<ub>>) outs(%b : memref<16x8xf32, #hivm.address_space<ub>>) dims = [1]
  return
}

// -----

func.func @broadcast_other_dim(%a: memref<8x1xf32, #hivm.address_space<ub>>, %b: memref<16x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest differ in dim 0: 8 vs 16}}
  tile.broadcast ins(%a : memref<8x1xf32, #hivm.address_space<ub>>) outs(%b : memref<16x8xf32, #hivm.address_space<ub>>) dims = [1]
  return
}

// -----

func.func @broadcast_dim_range(%a: memref<16x1xf32, #hivm.address_space<ub>>, %b: memref<16x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{dim -1 out of range for rank 2}}
  tile.broadcast ins(%a : memref<16x1xf32, #hivm.address_space<ub>>) outs(%b : memref<16x8xf32, #hivm.address_space<ub>>) dims = [-1]
  return
}

// -----

func.func @broadcast_rank(%a: memref<16xf32, #hivm.address_space<ub>>, %b: memref<16x8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{source and dest ranks differ: 1 vs 2}}
  tile.broadcast ins(%a : memref<16xf32, #hivm.address_space<ub>>) outs(%b : memref<16x8xf32, #hivm.address_space<ub>>) dims = [1]
  return
}

// -----

func.func @matmul_a_scope(%a: memref<32x16xbf16, #hivm.address_space<gm>>, %b: memref<16x8xbf16, #hivm.address_space<cbuf>>, %c: memref<32x8xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{a must be in cbuf, got gm}}
  tile.matmul ins(%a, %b : memref<32x16xbf16, #hivm.address_space<gm>>, memref<16x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x8xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_b_scope(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xbf16, #hivm.address_space<ub>>, %c: memref<32x8xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{b must be in cbuf, got ub}}
  tile.matmul ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<16x8xbf16, #hivm.address_space<ub>>) outs(%c : memref<32x8xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_c_scope(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xbf16, #hivm.address_space<cbuf>>, %c: memref<32x8xf32, #hivm.address_space<ub>>, %i: i1) {
  // expected-error @+1 {{c must be in cc, got ub}}
  tile.matmul ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<16x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x8xf32, #hivm.address_space<ub>>) init(%i : i1)
  return
}

// -----

func.func @matmul_rank(%a: memref<32x16x1xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xbf16, #hivm.address_space<cbuf>>, %c: memref<32x8xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{a must be 2-d, got rank 3}}
  tile.matmul ins(%a, %b : memref<32x16x1xbf16, #hivm.address_space<cbuf>>, memref<16x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x8xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

// a partial tile (runtime M) still has its static K and N checked
func.func @matmul_dynamic(%a: memref<?x16xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xbf16, #hivm.address_space<cbuf>>, %c: memref<?x9xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{c must be ?x8 (M x N), got ?x9}}
  tile.matmul ins(%a, %b : memref<?x16xbf16, #hivm.address_space<cbuf>>, memref<16x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<?x9xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_input_types(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xf16, #hivm.address_space<cbuf>>, %c: memref<32x8xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{a and b element types differ: bf16 vs f16}}
  tile.matmul ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<16x8xf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x8xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_acc_type(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xbf16, #hivm.address_space<cbuf>>, %c: memref<32x8xbf16, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{accumulator c must be f32 for bf16 inputs, got bf16}}
  tile.matmul ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<16x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x8xbf16, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_int_acc_type(%a: memref<32x16xi8, #hivm.address_space<cbuf>>, %b: memref<16x8xi8, #hivm.address_space<cbuf>>, %c: memref<32x8xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{accumulator c must be i32 for i8 inputs, got f32}}
  tile.matmul ins(%a, %b : memref<32x16xi8, #hivm.address_space<cbuf>>, memref<16x8xi8, #hivm.address_space<cbuf>>) outs(%c : memref<32x8xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_k(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<8x8xbf16, #hivm.address_space<cbuf>>, %c: memref<32x8xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{K of a (16) differs from K of b (8)}}
  tile.matmul ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<8x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x8xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_k_transposed(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xbf16, #hivm.address_space<cbuf>>, %c: memref<32x16xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{K of a (16) differs from K of b (8) (b is transposed: N x K)}}
  tile.matmul {transpose_b} ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<16x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x16xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_c_shape(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<16x8xbf16, #hivm.address_space<cbuf>>, %c: memref<32x16xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{c must be 32x8 (M x N), got 32x16}}
  tile.matmul ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<16x8xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<32x16xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}

// -----

func.func @matmul_c_shape_transposed(%a: memref<32x16xbf16, #hivm.address_space<cbuf>>, %b: memref<8x16xbf16, #hivm.address_space<cbuf>>, %c: memref<16x8xf32, #hivm.address_space<cc>>, %i: i1) {
  // expected-error @+1 {{c must be 32x8 (M x N), got 16x8}}
  tile.matmul {transpose_b} ins(%a, %b : memref<32x16xbf16, #hivm.address_space<cbuf>>, memref<8x16xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x8xf32, #hivm.address_space<cc>>) init(%i : i1)
  return
}
