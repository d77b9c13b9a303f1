// Examples shown in dialects/cce.md (parsed and verified by gen_dialects.py): one K step
// of a lowered mmadL1 (ascend-lower-mmad-l0); the second step of a dav-c220 broadcast into
// a partial tile (ascend-lower-wide-reduce).
func.func @f(%a: memref<64x32xf16, #hivm.address_space<cbuf>>, %b: memref<32x16xf16, #hivm.address_space<cbuf>>, %c: memref<64x16xf32, #hivm.address_space<cc>>, %init: i1) {
  %k0 = arith.constant 0 : index
  %m = arith.constant 64 : index
  %k = arith.constant 32 : index
  %n = arith.constant 16 : index
  %offset = arith.constant 0 : i64
  %l0a = hivm.hir.pointer_cast(%offset) : memref<64x32xf16, #hivm.address_space<ca>>
  %l0b = hivm.hir.pointer_cast(%offset) : memref<32x16xf16, #hivm.address_space<cb>>
  cce.load_l0a %a[%k0], %l0a : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<64x32xf16, #hivm.address_space<ca>>
  cce.load_l0b %b[%k0], %l0b : memref<32x16xf16, #hivm.address_space<cbuf>>, memref<32x16xf16, #hivm.address_space<cb>>
  cce.mmad %l0a, %l0b, %c init %init sizes(%m, %k, %n) : memref<64x32xf16, #hivm.address_space<ca>>, memref<32x16xf16, #hivm.address_space<cb>>, memref<64x16xf32, #hivm.address_space<cc>>
  return
}

func.func @g(%blocks: memref<?x8xf32, strided<[8, 1]>, #hivm.address_space<ub>>, %dst: memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) {
  cce.repeat_blocks %blocks, %dst : memref<?x8xf32, strided<[8, 1]>, #hivm.address_space<ub>>, memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
  return
}
