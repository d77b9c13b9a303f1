// RUN: ascend-opt %s -p alloc-planned-buffers | filecheck %s
// RUN: not ascend-opt %S/Inputs/bad-offset.mlir -p alloc-planned-buffers 2>&1 | filecheck %s --check-prefix=ERR
// A planned, multi-buffered vector loop: the constant pointer_casts become one alloc
// each, the versioned one two allocs picked by `i mod 2`; flags are untouched.

// CHECK:      %[[X:.*]] = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
// CHECK-NEXT: %[[V0:.*]] = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
// CHECK-NEXT: %[[V1:.*]] = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
// CHECK-NOT:  hivm.hir.pointer_cast
// CHECK:      scf.for %[[I:.*]] = 
// CHECK:        %[[VER:.*]] = arith.remui %[[I]], %c2 : index
// CHECK:        %[[IS0:.*]] = arith.cmpi eq, %[[VER]], %c0 : index
// CHECK-NEXT:   %[[Z:.*]] = arith.select %[[IS0]], %[[V0]], %[[V1]]
// CHECK:        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %{{.*}}]
// CHECK-NEXT:   hivm.hir.vadd ins(%[[X]], %[[X]] : {{.*}}) outs(%[[Z]] :
// ERR: bad-offset.mlir:10:7: error: {{.*}}has an offset that is neither a constant nor base + (x mod V) * stride

builtin.module {
  func.func @k(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c0_i64 = arith.constant 0 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %ux = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    scf.for %i = %c0 to %c4 step %c1 {
      %ver = arith.remui %i, %c2 : index
      %ev = arith.index_cast %ver : index to i64
      %off = arith.muli %i, %c256 : index
      %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      %v64 = arith.index_cast %ver : index to i64
      %vb = arith.muli %v64, %c1024_i64 : i64
      %addr = arith.addi %vb, %c1024_i64 : i64
      %uz = hivm.hir.pointer_cast(%addr) : memref<256xf32, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %ev]
      hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %ev]
      %zs = memref.subview %z[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %ev]
      hivm.hir.store ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, %ev]
    }
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}
