// RUN: ascend-opt %s -p ascend-plan-memory --split-input-file | filecheck %s

// Offsets are aligned per scope (ascend950: ub 32, cbuf 512); every version gets its slot,
// evenly spaced; the schedule's #ascend.buffer stays on the pointer_cast; a dealloc of a
// planned buffer disappears.
// CHECK-LABEL: func.func @aligned
// CHECK:      %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT: %u = hivm.hir.pointer_cast(%c0_i64) : memref<10xf32, #hivm.address_space<ub>>
// 40 bytes aligned to 64: two versions at 64 and 128
// CHECK:      %c64_i64 = arith.constant 64 : i64
// CHECK-NEXT: %c128_i64 = arith.constant 128 : i64
// CHECK-NEXT: %v = hivm.hir.pointer_cast(%c64_i64, %c128_i64) {ascend.buffer = #ascend.buffer<versions = 2>} : memref<10xf32, #hivm.address_space<ub>>
// A cbuf tile of 768 bytes takes 1024; the next starts there.
// CHECK:      %l = hivm.hir.pointer_cast(%{{.*}}) : memref<384xf16, #hivm.address_space<cbuf>>
// CHECK:      %c1024_i64 = arith.constant 1024 : i64
// CHECK-NEXT: %m = hivm.hir.pointer_cast(%c1024_i64) : memref<16xf16, #hivm.address_space<cbuf>>
// GM buffers are not planned.
// CHECK:      memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
// CHECK-NOT:  memref.alloc
// CHECK-NOT:  memref.dealloc
func.func @aligned(%g: memref<10xf32, #hivm.address_space<gm>>, %h: memref<384xf16, #hivm.address_space<gm>>, %h2: memref<16xf16, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<10xf32, #hivm.address_space<ub>>
  %v = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<10xf32, #hivm.address_space<ub>>
  %l = memref.alloc() : memref<384xf16, #hivm.address_space<cbuf>>
  %m = memref.alloc() : memref<16xf16, #hivm.address_space<cbuf>>
  %t = memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
  hivm.hir.load ins(%g : memref<10xf32, #hivm.address_space<gm>>) outs(%u : memref<10xf32, #hivm.address_space<ub>>)
  hivm.hir.vexp ins(%u : memref<10xf32, #hivm.address_space<ub>>) outs(%v : memref<10xf32, #hivm.address_space<ub>>)
  hivm.hir.nd2nz ins(%h : memref<384xf16, #hivm.address_space<gm>>) outs(%l : memref<384xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz ins(%h2 : memref<16xf16, #hivm.address_space<gm>>) outs(%m : memref<16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz ins(%h : memref<384xf16, #hivm.address_space<gm>>) outs(%l : memref<384xf16, #hivm.address_space<cbuf>>)
  hivm.hir.store ins(%v : memref<10xf32, #hivm.address_space<ub>>) outs(%g : memref<10xf32, #hivm.address_space<gm>>)
  memref.dealloc %u : memref<10xf32, #hivm.address_space<ub>>
  return
}

// -----

// Live ranges (first to last use at the function's top level, a loop is one position):
// %a is dead once %b is written from it, so %c reuses %a's bytes; %b is still live. The
// three (96 KiB each) do not fit the 950's 248 KiB of UB side by side; with the reuse
// they do.
// CHECK-LABEL: func.func @reuse
// CHECK: %a = hivm.hir.pointer_cast(%[[A:.*]]) : memref<24576xf32, #hivm.address_space<ub>>
// CHECK: %b = hivm.hir.pointer_cast(%c98304_i64) : memref<24576xf32, #hivm.address_space<ub>>
// CHECK: %c = hivm.hir.pointer_cast(%c0_i64{{.*}}) : memref<24576xf32, #hivm.address_space<ub>>
func.func @reuse(%g: memref<24576xf32, #hivm.address_space<gm>>, %o: memref<24576xf32, #hivm.address_space<gm>>) {
  %a = memref.alloc() : memref<24576xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<24576xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<24576xf32, #hivm.address_space<gm>>) outs(%a : memref<24576xf32, #hivm.address_space<ub>>)
  hivm.hir.vexp ins(%a : memref<24576xf32, #hivm.address_space<ub>>) outs(%b : memref<24576xf32, #hivm.address_space<ub>>)
  %c = memref.alloc() : memref<24576xf32, #hivm.address_space<ub>>
  hivm.hir.vabs ins(%b : memref<24576xf32, #hivm.address_space<ub>>) outs(%c : memref<24576xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%c : memref<24576xf32, #hivm.address_space<ub>>) outs(%o : memref<24576xf32, #hivm.address_space<gm>>)
  return
}

// -----

// The same live ranges where UB holds the three side by side: no reuse, each its own
// bytes (a reuse would order %c's first write after %a's last read, a dependence the
// code does not have: its load of the next value could not run under %b's op).
// CHECK-LABEL: func.func @no_reuse_where_all_fit
// CHECK: %a = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #hivm.address_space<ub>>
// CHECK: %b = hivm.hir.pointer_cast(%c256_i64) : memref<64xf32, #hivm.address_space<ub>>
// CHECK: %c = hivm.hir.pointer_cast(%c512_i64) : memref<64xf32, #hivm.address_space<ub>>
func.func @no_reuse_where_all_fit(%g: memref<64xf32, #hivm.address_space<gm>>, %o: memref<64xf32, #hivm.address_space<gm>>) {
  %a = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %c = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vexp ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%c : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%c : memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// -----

// Uses inside a loop (through a subview) keep the buffer live for the whole loop.
// CHECK-LABEL: func.func @loop_live
// CHECK: %a = hivm.hir.pointer_cast(%c0_i64) : memref<4x64xf32, #hivm.address_space<ub>>
// CHECK: %b = hivm.hir.pointer_cast(%c1024_i64) : memref<64xf32, #hivm.address_space<ub>>
// CHECK: scf.for
// CHECK:   memref.subview %a
func.func @loop_live(%g: memref<4x64xf32, #hivm.address_space<gm>>, %o: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4x64xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<4x64xf32, #hivm.address_space<gm>>) outs(%a : memref<4x64xf32, #hivm.address_space<ub>>)
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.subview %a[%i, 0] [1, 64] [1, 1] : memref<4x64xf32, #hivm.address_space<ub>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>
    hivm.hir.vexp ins(%row : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<gm>>)
  }
  return
}
