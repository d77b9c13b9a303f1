// Vector tile ops become hivm.hir.v* ops on the same operands.
// RUN: ascend-opt %s -p convert-tile-to-hivm | filecheck %s

// CHECK-LABEL: func.func @vector
func.func @vector(%s: f32) {
  %u = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %h = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
  // CHECK: hivm.hir.vadd ins(%[[U:.*]], %[[V:.*]] : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%[[W:.*]] : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.add ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vsub ins(%[[U]], %[[V]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.sub ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vmul ins(%[[U]], %{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%[[W]] : {{.*}})
  tile.mul ins(%u, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vdiv ins(%[[U]], %[[V]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.div ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vmax ins(%[[U]], %{{.*}} : {{.*}}, f32) outs(%[[W]] : {{.*}})
  tile.max ins(%u, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vmin ins(%[[U]], %[[V]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.min ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vexp ins(%[[U]] : memref<16x64xf32, #hivm.address_space<ub>>) outs(%[[W]] : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.exp ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vln ins(%[[U]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.ln ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vrelu ins(%[[U]] : {{.*}}) outs(%[[U]] : {{.*}})
  tile.relu ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%u : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vabs ins(%[[U]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.abs ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vsqrt ins(%[[U]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.sqrt ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vrsqrt ins(%[[U]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.rsqrt ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vrec ins(%[[U]] : {{.*}}) outs(%[[W]] : {{.*}})
  tile.rec ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vcast ins(%[[U]] : memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf16, #hivm.address_space<ub>>)
  tile.cast ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>)
  // A fill is a broadcast of a scalar.
  // CHECK-NEXT: hivm.hir.vbrc ins(%{{.*}} : f32) outs(%[[W]] : memref<16x64xf32, #hivm.address_space<ub>>){{$}}
  tile.fill ins(%s : f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.vreduce <max> ins(%[[U]] : memref<16x64xf32, #hivm.address_space<ub>>) outs(%[[R:.*]] : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  tile.reduce <max> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK-NEXT: hivm.hir.vreduce <sum> {{.*}} reduce_dims = [1]
  tile.reduce <sum> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK-NEXT: hivm.hir.vreduce <min> {{.*}} reduce_dims = [1]
  tile.reduce <min> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK-NEXT: hivm.hir.vbrc ins(%[[R]] : memref<16x1xf32, #hivm.address_space<ub>>) outs(%[[W]] : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  tile.broadcast ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK-NOT: tile.
  return
}
