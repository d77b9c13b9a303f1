// The anchor's own GEMM (TileLang's Ascend example): C = A @ B with B given transposed,
// on Ascend 950 (the default chip). A 256x2048 bf16, B^T 7168x2048 bf16, C 256x7168 fp32.
// 32 blocks, each owning a 256x224 tile of C accumulated in L0C over 16 K steps of 128;
// the A and B^T tiles of a step are staged in L1 (cbuf). With 16 K steps the loads of
// step k+1 overlap the matmul of step k for long enough that the busiest pipe (the cube)
// alone bounds the kernel.
module {
  func.func @gemm_anchor(%a: memref<256x2048xbf16, #hivm.address_space<gm>>,
                         %bt: memref<7168x2048xbf16, #hivm.address_space<gm>>,
                         %c: memref<256x7168xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 32 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %c224 = arith.constant 224 : index
    %block = tile.block_idx : index
    %n0 = arith.muli %block, %c224 : index
    %la = memref.alloc() : memref<256x128xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<224x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<256x224xf32, #hivm.address_space<cc>>
    scf.for %k = %c0 to %c16 step %c1 {
      %k0 = arith.muli %k, %c128 : index
      %as = memref.subview %a[0, %k0] [256, 128] [1, 1] : memref<256x2048xbf16, #hivm.address_space<gm>> to memref<256x128xbf16, strided<[2048, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %bt[%n0, %k0] [224, 128] [1, 1] : memref<7168x2048xbf16, #hivm.address_space<gm>> to memref<224x128xbf16, strided<[2048, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%as : memref<256x128xbf16, strided<[2048, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<256x128xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%bs : memref<224x128xbf16, strided<[2048, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<224x128xbf16, #hivm.address_space<cbuf>>)
      %first = arith.cmpi eq, %k, %c0 : index
      tile.matmul {transpose_b} ins(%la, %lb : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<224x128xbf16, #hivm.address_space<cbuf>>) outs(%acc : memref<256x224xf32, #hivm.address_space<cc>>) init(%first : i1)
    } {tile.num_stages = 2 : i64}
    %cs = memref.subview %c[0, %n0] [256, 224] [1, 1] : memref<256x7168xf32, #hivm.address_space<gm>> to memref<256x224xf32, strided<[7168, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%acc : memref<256x224xf32, #hivm.address_space<cc>>) outs(%cs : memref<256x224xf32, strided<[7168, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
