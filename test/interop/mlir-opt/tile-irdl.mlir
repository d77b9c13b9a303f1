// REQUIRES: mlir-opt
// Tile-level IR verified by upstream mlir-opt against dialects/tile.irdl.mlir (with
// hivm's, which defines the address spaces of the memrefs), then read back.
// RUN: cat %project/dialects/hivm.irdl.mlir %project/dialects/tile.irdl.mlir > %t.irdl.mlir
// RUN: ascend-opt %s -t irdl | %mlir_opt --irdl-file=%t.irdl.mlir | filecheck %s
// RUN: ascend-opt %s | ascend-opt -t irdl | %mlir_opt --irdl-file=%t.irdl.mlir --mlir-print-op-generic | %python -m ascend_mlir.targets.irdl --from-irdl-form | ascend-opt | filecheck %s --check-prefix=BACK
// The IRDL of tile.reduce requires its `kind` and `dims`:
// RUN: not %mlir_opt --irdl-file=%t.irdl.mlir %S/Inputs/tile-reduce-without-dims.mlir 2>&1 | filecheck %s --check-prefix=ERR
// ERR: 'tile.reduce' op attribute "dims" is expected but not provided

// CHECK-LABEL: func.func @k
// CHECK-SAME: attributes {tile.grid = 2 : i64, tile.kernel}
// BACK-LABEL: func.func @k
// BACK-SAME: attributes {tile.grid = 2 : i64, tile.kernel}
func.func @k(%g: memref<16x64xf32, #hivm.address_space<gm>>, %s: f32, %init: i1)
    attributes {tile.kernel, tile.grid = 2 : i64} {
  %u = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %a = memref.alloc() : memref<16x32xf16, #hivm.address_space<cbuf>>
  %b = memref.alloc() : memref<32x64xf16, #hivm.address_space<cbuf>>
  %c = memref.alloc() : memref<16x64xf32, #hivm.address_space<cc>>
  // CHECK: "tile.block_idx"() : () -> index
  // BACK: tile.block_idx : index
  %i = tile.block_idx : index
  // CHECK: "tile.copy"(%{{.*}}, %{{.*}}) : (memref<16x64xf32, #hivm.address_space<"gm">>, memref<16x64xf32, #hivm.address_space<"ub">>) -> ()
  // BACK: tile.copy ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<gm>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.copy ins(%g : memref<16x64xf32, #hivm.address_space<gm>>) outs(%u : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: "tile.mul"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<16x64xf32, #hivm.address_space<"ub">>, f32, memref<16x64xf32, #hivm.address_space<"ub">>) -> ()
  // BACK: tile.mul ins(%{{.*}}, %{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(
  tile.mul ins(%u, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: "tile.fill"
  // BACK: tile.fill ins(%{{.*}} : f32) outs(
  tile.fill ins(%s : f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: "tile.reduce"(%{{.*}}, %{{.*}}) {dims = array<i64: 1>, kind = #tile.reduce_kind<"max">}
  // BACK: tile.reduce <max> ins({{.*}}) outs({{.*}}) dims = [1]
  tile.reduce <max> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK: "tile.broadcast"(%{{.*}}, %{{.*}}) {dims = array<i64: 1>}
  // BACK: tile.broadcast ins({{.*}}) outs({{.*}}) dims = [1]
  tile.broadcast ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK: "tile.matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<16x32xf16, #hivm.address_space<"cbuf">>, memref<32x64xf16, #hivm.address_space<"cbuf">>, memref<16x64xf32, #hivm.address_space<"cc">>, i1) -> ()
  // BACK: tile.matmul ins(%{{.*}}, %{{.*}} : memref<16x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<cc>>) init(%{{.*}} : i1)
  tile.matmul ins(%a, %b : memref<16x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x64xf32, #hivm.address_space<cc>>) init(%init : i1)
  return
}
