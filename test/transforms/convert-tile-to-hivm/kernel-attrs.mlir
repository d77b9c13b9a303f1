// Kernels become device entries whose core type follows the ops they use; the grid is
// kept as ascend.grid; the module records its chip as hacc.target.
// RUN: ascend-opt %s -p convert-tile-to-hivm --split-input-file | filecheck %s

// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
// CHECK-LABEL: func.func @vector_kernel
// CHECK-SAME: attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 8 : i64}
func.func @vector_kernel(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 8 : i64} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  // CHECK: %[[I64:.*]] = hivm.hir.get_block_idx -> i64
  // CHECK-NEXT: %{{.*}} = arith.index_cast %[[I64]] : i64 to index
  %b = tile.block_idx : index
  tile.copy ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}
// A function that is not a kernel keeps its attributes.
// CHECK-LABEL: func.func @helper()
// CHECK-NOT: hacc.entry
func.func @helper() {
  return
}

// -----

// CHECK-LABEL: func.func @cube_kernel
// CHECK-SAME: hivm.func_core_type = #hivm.func_core_type<AIC>
func.func @cube_kernel(%g: memref<16x16xf16, #hivm.address_space<gm>>, %o: memref<16x16xf32, #hivm.address_space<gm>>, %i: i1) attributes {tile.kernel} {
  %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  tile.copy ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%a : memref<16x16xf16, #hivm.address_space<cbuf>>)
  tile.matmul ins(%a, %a : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>) init(%i : i1)
  tile.copy ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  return
}

// -----

// Cube and vector ops in one kernel: MIX.
// CHECK-LABEL: func.func @mix_kernel
// CHECK-SAME: hivm.func_core_type = #hivm.func_core_type<MIX>
func.func @mix_kernel(%o: memref<16x16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  tile.copy ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  tile.relu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  tile.copy ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  return
}

// -----

// An existing target is kept.
// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B3">}
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @k() attributes {tile.kernel} {
    return
  }
}
