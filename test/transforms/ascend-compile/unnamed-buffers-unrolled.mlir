// RUN: ascend-opt %s -p ascend-compile 2>/dev/null | filecheck %s
// RUN: ascend-sim %s | filecheck %s --check-prefix=SIM

// Buffers without names in an unrolled loop: the copies of every unnamed buffer were all
// named buf_u1, the loop model's key for a buffer, and the scheduler refused the loop
// ("buffer 'buf_u1' is declared twice"; the DSL left allocs unnamed that share a line).
// Each copy is named after its buffer's place in the loop's list now.

// CHECK-DAG: %buf0_u1 = hivm.hir.pointer_cast
// CHECK-DAG: %buf1_u1 = hivm.hir.pointer_cast
// CHECK-DAG: %buf2_u1 = hivm.hir.pointer_cast
// SIM: matches the reference
// SIM: OK

builtin.module {
  func.func @k(%x: memref<1024xf32, #hivm.address_space<gm>>, %y: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %0 = memref.alloc() : memref<128xf32, #hivm.address_space<ub>>
    %1 = memref.alloc() : memref<128xf32, #hivm.address_space<ub>>
    %2 = memref.alloc() : memref<128xf32, #hivm.address_space<ub>>
    scf.for %3 = %c0 to %c8 step %c1 {
      %4 = arith.muli %3, %c128 : index
      %5 = memref.subview %x[%4] [128] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%5 : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%0 : memref<128xf32, #hivm.address_space<ub>>)
      %6 = arith.muli %3, %c128 : index
      %7 = memref.subview %y[%6] [128] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%7 : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%1 : memref<128xf32, #hivm.address_space<ub>>)
      tile.add ins(%0, %1 : memref<128xf32, #hivm.address_space<ub>>, memref<128xf32, #hivm.address_space<ub>>) outs(%2 : memref<128xf32, #hivm.address_space<ub>>)
      %8 = arith.muli %3, %c128 : index
      %9 = memref.subview %z[%8] [128] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%2 : memref<128xf32, #hivm.address_space<ub>>) outs(%9 : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
