// The pass works at the tile level too: tile.matmul's init(...) is peeled the same way,
// and convert-tile-to-hivm then sees constant inits.
// RUN: ascend-opt %s -p peel-mmad-init | filecheck %s
// RUN: ascend-opt %s -p peel-mmad-init,convert-tile-to-hivm | filecheck %s --check-prefix=HIVM

// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: tile.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%{{.*}} : {{.*}}) init(%[[TRUE]] : i1)
// CHECK-NEXT: %[[NEXT:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %{{.*}} = %[[NEXT]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   tile.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%{{.*}} : {{.*}}) init(%[[FALSE]] : i1)
// CHECK-NEXT: } {tile.num_stages = 2 : i64}
// HIVM:       hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %true,
// HIVM:       scf.for
// HIVM:         hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %false,
// HIVM-NOT:   arith.cmpi
func.func @k(%c: memref<16x16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %la = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    tile.matmul ins(%la, %la : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>) init(%first : i1)
  } {tile.num_stages = 2 : i64}
  tile.copy ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%c : memref<16x16xf32, #hivm.address_space<gm>>)
  return
}
