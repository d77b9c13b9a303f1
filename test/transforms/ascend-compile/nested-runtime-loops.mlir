// Fast tier: ascend-verify-sync/nested-runtime-bound.mlir stands in (a runtime loop in a
// runtime loop, its unrolled remainder's versions named by both loops' iterations).
// UNSUPPORTED: fast-tier
// RUN: ascend-opt %s -p 'ascend-compile{chip=ascend950}' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-compile{chip=ascend910b}' | filecheck %s
// RUN: ascend-sim %s --chip ascend950 --perturb 1 --bind rows=3 --bind cols=3 --bind x=3x768 --bind b=3x256 --bind z=3x256 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %s --chip ascend910b --perturb 1 --bind rows=2 --bind cols=6 --bind x=2x1536 --bind b=2x256 --bind z=2x256 | filecheck %s --check-prefix=SIM
// A runtime loop in a runtime loop (session 33): the inner loop is unrolled by 2 and its
// remainder, from %unrolled_ub (computed in the outer loop's body) to %cols, cycles its
// buffer through 2 versions by (j - %unrolled_ub) % 2. ascend-verify-sync named the
// bound by the inner loop's iteration in the version and by none in j, so the two
// versions looked like one, and refused the kernel ("may touch bytes that hivm.hir.load
// ... wrote, and nothing orders them (iterations [0, 0] and [0, 1])"); a value made in a
// loop is now named by the iterations of the loops around its definition.
// CHECK: scf.for %r =
// CHECK: %unrolled_ub =
// CHECK: scf.for %{{.*}} = %unrolled_ub to %cols step
// CHECK: hivm.hir.load
// CHECK: hivm.hir.store
// SIM: output z matches the reference
// SIM: no race
// SIM: OK
module {
  func.func @nested_dyn(%x: memref<?x?xf32, #hivm.address_space<gm>>,
                        %b: memref<?x256xf32, #hivm.address_space<gm>>,
                        %z: memref<?x256xf32, #hivm.address_space<gm>>, %rows: index, %cols: index)
      attributes {tile.kernel, tile.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c256 = arith.constant 256 : index
    %ux = memref.alloc() : memref<1x256xf32, #hivm.address_space<ub>>
    %ue = memref.alloc() : memref<1x256xf32, #hivm.address_space<ub>>
    %acc = memref.alloc() : memref<1x256xf32, #hivm.address_space<ub>>
    scf.for %r = %c0 to %rows step %c1 {
      %bs = memref.subview %b[%r, 0] [1, 256] [1, 1] : memref<?x256xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%bs : memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%acc : memref<1x256xf32, #hivm.address_space<ub>>)
      scf.for %j = %c0 to %cols step %c1 {
        %off = arith.muli %j, %c256 : index
        %xs = memref.subview %x[%r, %off] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%xs : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<1x256xf32, #hivm.address_space<ub>>)
        tile.exp ins(%ux : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue : memref<1x256xf32, #hivm.address_space<ub>>)
        tile.add ins(%acc, %ue : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc : memref<1x256xf32, #hivm.address_space<ub>>)
      } {tile.num_stages = 2 : i64}
      %zs = memref.subview %z[%r, 0] [1, 256] [1, 1] : memref<?x256xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%acc : memref<1x256xf32, #hivm.address_space<ub>>) outs(%zs : memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    return
  }
}
