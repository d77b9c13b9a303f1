// C (fp32) = A @ B (bf16) with M, N and K known only at run time (twin of gemm_dyn.py; the
// runtime-shape twin of the persistent GEMM of gemm_persistent.py): 2 blocks loop over the
// 128x128 output tiles (tile t = block, block + 2, ... of ceil(M/128) x ceil(N/128)), each
// accumulated in L0C over ceil(K/64) steps of 64 through L1. The last tile of a row or a
// column of C is partial (rows = min(128, M - m0), cols = min(128, N - n0)), and so is the
// last K step: a shorter last step (kk = min(64, K - k0)) whose mmadL1 takes real_k = kk and
// multiplies only the K left (no zero padding). The K loop runs at least once: with K = 0
// its one step multiplies an empty K (kk = 0) with init, so C is zeros, not whatever L0C
// held. Run it at any size:
//   ascend-sim examples/gemm_dyn.mlir --bind m=200 --bind n=130 --bind k=100
builtin.module {
  func.func @gemm_dyn(%a: memref<?x?xbf16, #hivm.address_space<gm>>, %b: memref<?x?xbf16, #hivm.address_space<gm>>, %c: memref<?x?xf32, #hivm.address_space<gm>>, %m: index, %n: index, %k: index) attributes {tile.kernel, tile.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %la = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    %0 = arith.addi %n, %c127 : index
    %tiles_n = arith.divui %0, %c128 : index
    %1 = arith.addi %m, %c127 : index
    %2 = arith.divui %1, %c128 : index
    %tiles = arith.muli %2, %tiles_n : index
    %3 = arith.addi %k, %c63 : index
    %4 = arith.divui %3, %c64 : index
    %steps = arith.maxsi %4, %c1 : index
    %5 = tile.block_idx : index
    scf.for %t = %5 to %tiles step %c2 {
      %6 = arith.divui %t, %tiles_n : index
      %m0 = arith.muli %6, %c128 : index
      %7 = arith.remui %t, %tiles_n : index
      %n0 = arith.muli %7, %c128 : index
      %8 = arith.subi %m, %m0 : index
      %rows = arith.minsi %8, %c128 : index
      %9 = arith.subi %n, %n0 : index
      %cols = arith.minsi %9, %c128 : index
      %vacc = memref.subview %acc[0, 0] [%rows, %cols] [1, 1] : memref<128x128xf32, #hivm.address_space<cc>> to memref<?x?xf32, strided<[128, 1]>, #hivm.address_space<cc>>
      scf.for %s = %c0 to %steps step %c1 {
        %k0 = arith.muli %s, %c64 : index
        %10 = arith.subi %k, %k0 : index
        %kk = arith.minsi %10, %c64 : index
        %va = memref.subview %la[0, 0] [%rows, %kk] [1, 1] : memref<128x64xbf16, #hivm.address_space<cbuf>> to memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>
        %vb = memref.subview %lb[0, 0] [%kk, %cols] [1, 1] : memref<64x128xbf16, #hivm.address_space<cbuf>> to memref<?x?xbf16, strided<[128, 1]>, #hivm.address_space<cbuf>>
        %11 = memref.subview %a[%m0, %k0] [%rows, %kk] [1, 1] : memref<?x?xbf16, #hivm.address_space<gm>> to memref<?x?xbf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%11 : memref<?x?xbf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%va : memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>)
        %12 = memref.subview %b[%k0, %n0] [%kk, %cols] [1, 1] : memref<?x?xbf16, #hivm.address_space<gm>> to memref<?x?xbf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%12 : memref<?x?xbf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%vb : memref<?x?xbf16, strided<[128, 1]>, #hivm.address_space<cbuf>>)
        %13 = arith.cmpi eq, %s, %c0 : index
        tile.matmul ins(%va, %vb : memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>, memref<?x?xbf16, strided<[128, 1]>, #hivm.address_space<cbuf>>) outs(%vacc : memref<?x?xf32, strided<[128, 1]>, #hivm.address_space<cc>>) init(%13 : i1)
      } {tile.num_stages = 2 : i64}
      %14 = memref.subview %c[%m0, %n0] [%rows, %cols] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vacc : memref<?x?xf32, strided<[128, 1]>, #hivm.address_space<cc>>) outs(%14 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
