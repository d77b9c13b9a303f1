// Stock xdsl-opt sees our dialects, passes and targets through the `xdsl.universe`
// entry point of the package.
// RUN: xdsl-opt %s -p convert-tile-to-hivm | filecheck %s
// RUN: xdsl-opt %s -p convert-tile-to-hivm -t npuir | filecheck %s --check-prefix=NPUIR

func.func @scale(%x: memref<256xf32, #hivm.address_space<gm>>, %y: memref<256xf32, #hivm.address_space<gm>>)
    attributes {tile.kernel, tile.grid = 1 : i64} {
  %u = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  tile.copy ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
  tile.exp ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%w : memref<256xf32, #hivm.address_space<ub>>)
  tile.copy ins(%w : memref<256xf32, #hivm.address_space<ub>>) outs(%y : memref<256xf32, #hivm.address_space<gm>>)
  func.return
}

// CHECK: hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
// CHECK: hivm.hir.vexp ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%w : memref<256xf32, #hivm.address_space<ub>>)
// CHECK: hivm.hir.store ins(%w : memref<256xf32, #hivm.address_space<ub>>) outs(%y : memref<256xf32, #hivm.address_space<gm>>)
// NPUIR: hacc.target = #hacc.target<"Ascend950PR_9599">
// NPUIR: hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>
// NPUIR-NOT: ascend.grid
