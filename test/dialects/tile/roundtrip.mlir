// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s

// CHECK-LABEL: func.func @vector_ops
func.func @vector_ops(%g: memref<16x64xf32, #hivm.address_space<gm>>, %s: f32)
    attributes {tile.kernel, tile.grid = 2 : i64} {
  %u = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %h = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
  // CHECK: %{{.*}} = tile.block_idx : index
  %b = tile.block_idx : index
  // CHECK: tile.copy ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<gm>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.copy ins(%g : memref<16x64xf32, #hivm.address_space<gm>>) outs(%u : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.add ins(%{{.*}}, %{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.add ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.sub ins
  tile.sub ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.mul ins(%{{.*}}, %{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs
  tile.mul ins(%u, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.div ins
  tile.div ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.max ins
  tile.max ins(%u, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.min ins
  tile.min ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.exp ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.exp ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.relu ins
  tile.relu ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%u : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.abs ins
  tile.abs ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.sqrt ins
  tile.sqrt ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.rsqrt ins
  tile.rsqrt ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.rec ins
  tile.rec ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.ln ins
  tile.ln ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.cast ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf16, #hivm.address_space<ub>>)
  tile.cast ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>)
  // CHECK: tile.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.fill ins(%s : f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  // CHECK: tile.reduce <max> ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  tile.reduce <max> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK: tile.reduce <sum>
  tile.reduce <sum> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK: tile.reduce <min>
  tile.reduce <min> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK: tile.broadcast ins(%{{.*}} : memref<16x1xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) dims = [1]
  tile.broadcast ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>) dims = [1]
  // CHECK: tile.copy ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<gm>>)
  tile.copy ins(%w : memref<16x64xf32, #hivm.address_space<ub>>) outs(%g : memref<16x64xf32, #hivm.address_space<gm>>)
  return
}

// CHECK-LABEL: func.func @cube_ops
func.func @cube_ops(%a: memref<64x32xbf16, #hivm.address_space<gm>>, %bt: memref<16x32xbf16, #hivm.address_space<gm>>,
                    %c: memref<64x16xf32, #hivm.address_space<gm>>, %first: i1) attributes {tile.kernel} {
  %la = memref.alloc() : memref<64x32xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<16x32xbf16, #hivm.address_space<cbuf>>
  %lc = memref.alloc() : memref<64x16xf32, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<64x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<64x16xf32, #hivm.address_space<ub>>
  %half = memref.alloc() : memref<32x16xf32, #hivm.address_space<ub>>
  tile.copy ins(%a : memref<64x32xbf16, #hivm.address_space<gm>>) outs(%la : memref<64x32xbf16, #hivm.address_space<cbuf>>)
  tile.copy ins(%bt : memref<16x32xbf16, #hivm.address_space<gm>>) outs(%lb : memref<16x32xbf16, #hivm.address_space<cbuf>>)
  // CHECK: tile.matmul {transpose_b} ins(%{{.*}}, %{{.*}} : memref<64x32xbf16, #hivm.address_space<cbuf>>, memref<16x32xbf16, #hivm.address_space<cbuf>>) outs(%{{.*}} : memref<64x16xf32, #hivm.address_space<cc>>) init(%{{.*}} : i1)
  tile.matmul {transpose_b} ins(%la, %lb : memref<64x32xbf16, #hivm.address_space<cbuf>>, memref<16x32xbf16, #hivm.address_space<cbuf>>) outs(%acc : memref<64x16xf32, #hivm.address_space<cc>>) init(%first : i1)
  // CHECK: tile.copy ins(%{{.*}} : memref<64x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<64x16xf32, #hivm.address_space<gm>>)
  tile.copy ins(%acc : memref<64x16xf32, #hivm.address_space<cc>>) outs(%c : memref<64x16xf32, #hivm.address_space<gm>>)
  // CHECK: tile.copy ins(%{{.*}} : memref<64x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<64x16xf32, #hivm.address_space<ub>>)
  tile.copy ins(%acc : memref<64x16xf32, #hivm.address_space<cc>>) outs(%u : memref<64x16xf32, #hivm.address_space<ub>>)
  // dual copy: each vector core gets half of the rows
  // CHECK: tile.copy ins(%{{.*}} : memref<64x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<32x16xf32, #hivm.address_space<ub>>)
  tile.copy ins(%acc : memref<64x16xf32, #hivm.address_space<cc>>) outs(%half : memref<32x16xf32, #hivm.address_space<ub>>)
  // CHECK: tile.copy ins(%{{.*}} : memref<64x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<64x16xf32, #hivm.address_space<cbuf>>)
  tile.copy ins(%acc : memref<64x16xf32, #hivm.address_space<cc>>) outs(%lc : memref<64x16xf32, #hivm.address_space<cbuf>>)
  // CHECK: tile.copy ins(%{{.*}} : memref<64x16xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<64x16xf32, #hivm.address_space<ub>>)
  tile.copy ins(%u : memref<64x16xf32, #hivm.address_space<ub>>) outs(%u : memref<64x16xf32, #hivm.address_space<ub>>)
  // CHECK: tile.copy ins(%{{.*}} : memref<64x16xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<64x16xf32, #hivm.address_space<cbuf>>)
  tile.copy ins(%u : memref<64x16xf32, #hivm.address_space<ub>>) outs(%lc : memref<64x16xf32, #hivm.address_space<cbuf>>)
  return
}

// CHECK-LABEL: func.func @loop_attrs
func.func @loop_attrs(%a: memref<4x512xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %u = memref.alloc() : memref<1x512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    %s = memref.subview %a[%i, 0] [1, 512] [1, 1] : memref<4x512xf32, #hivm.address_space<gm>> to memref<1x512xf32, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%s : memref<1x512xf32, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<1x512xf32, #hivm.address_space<ub>>)
    tile.relu ins(%u : memref<1x512xf32, #hivm.address_space<ub>>) outs(%u : memref<1x512xf32, #hivm.address_space<ub>>)
    tile.copy ins(%u : memref<1x512xf32, #hivm.address_space<ub>>) outs(%s : memref<1x512xf32, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>)
  // CHECK: } {tile.num_stages = 2 : i64}
  } {tile.num_stages = 2 : i64}
  return
}
