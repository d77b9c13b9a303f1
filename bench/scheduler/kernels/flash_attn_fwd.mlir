// Flash attention forward (one head, no mask) on Ascend 950, a MIX kernel:
//   O = softmax(Q K^T * scale) V  for Q, K, V 256x64 bf16, O 256x64 fp32.
// 4 blocks, each owning 64 query rows; a loop over 4 K/V blocks of 64 rows keeps the
// online-softmax statistics (row max m, row sum l) and the output accumulator in UB:
//   S = Q K_j^T (cube)  -> UB (fixpipe: cube -> vector hand-off)
//   m' = max(m, rowmax(S * scale)); alpha = exp(m - m'); P = exp(S * scale - m')
//   l = l * alpha + rowsum(P); P -> bf16 -> L1 (vector -> cube hand-off)
//   O_j = P V_j (cube) -> UB (fixpipe);  acc = acc * alpha + O_j
// and after the loop O = acc / l.  The loop body (25 tile ops) is the scheduler's
// flash-attention problem: two matmuls, two hand-offs each way, vector recurrences on
// m, l and acc.
module {
  func.func @flash_attn_fwd(%q: memref<256x64xbf16, #hivm.address_space<gm>>, %k: memref<256x64xbf16, #hivm.address_space<gm>>, %v: memref<256x64xbf16, #hivm.address_space<gm>>, %o: memref<256x64xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %scale = arith.constant 0.125 : f32
    %zero = arith.constant 0.0 : f32
    %lowest = arith.constant -1.0e+30 : f32
    %block = tile.block_idx : index
    %q0 = arith.muli %block, %c64 : index
    %lq = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lk = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lv = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lp = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %cs = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %co = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %us = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %up = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %uo = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %pb = memref.alloc() : memref<64x64xbf16, #hivm.address_space<ub>>
    %m = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %mn = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %rm = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %rs = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %al = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %l = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %qs = memref.subview %q[%q0, 0] [64, 64] [1, 1] : memref<256x64xbf16, #hivm.address_space<gm>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%qs : memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lq : memref<64x64xbf16, #hivm.address_space<cbuf>>)
    tile.fill ins(%lowest : f32) outs(%m : memref<64x1xf32, #hivm.address_space<ub>>)
    tile.fill ins(%zero : f32) outs(%l : memref<64x1xf32, #hivm.address_space<ub>>)
    tile.fill ins(%zero : f32) outs(%acc : memref<64x64xf32, #hivm.address_space<ub>>)
    scf.for %j = %c0 to %c4 step %c1 {
      %kv0 = arith.muli %j, %c64 : index
      %ks = memref.subview %k[%kv0, 0] [64, 64] [1, 1] : memref<256x64xbf16, #hivm.address_space<gm>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      %vs = memref.subview %v[%kv0, 0] [64, 64] [1, 1] : memref<256x64xbf16, #hivm.address_space<gm>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%ks : memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lk : memref<64x64xbf16, #hivm.address_space<cbuf>>)
      tile.matmul {transpose_b} ins(%lq, %lk : memref<64x64xbf16, #hivm.address_space<cbuf>>, memref<64x64xbf16, #hivm.address_space<cbuf>>) outs(%cs : memref<64x64xf32, #hivm.address_space<cc>>) init(%true : i1)
      tile.copy ins(%cs : memref<64x64xf32, #hivm.address_space<cc>>) outs(%us : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.mul ins(%us, %scale : memref<64x64xf32, #hivm.address_space<ub>>, f32) outs(%us : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.reduce <max> ins(%us : memref<64x64xf32, #hivm.address_space<ub>>) outs(%rm : memref<64x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.max ins(%rm, %m : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%mn : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.sub ins(%m, %mn : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%al : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.exp ins(%al : memref<64x1xf32, #hivm.address_space<ub>>) outs(%al : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.copy ins(%mn : memref<64x1xf32, #hivm.address_space<ub>>) outs(%m : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.broadcast ins(%mn : memref<64x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<64x64xf32, #hivm.address_space<ub>>) dims = [1]
      tile.sub ins(%us, %wide : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%up : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.exp ins(%up : memref<64x64xf32, #hivm.address_space<ub>>) outs(%up : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.reduce <sum> ins(%up : memref<64x64xf32, #hivm.address_space<ub>>) outs(%rs : memref<64x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%l, %al : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%l : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.add ins(%l, %rs : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%l : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.cast ins(%up : memref<64x64xf32, #hivm.address_space<ub>>) outs(%pb : memref<64x64xbf16, #hivm.address_space<ub>>)
      tile.copy ins(%pb : memref<64x64xbf16, #hivm.address_space<ub>>) outs(%lp : memref<64x64xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%vs : memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lv : memref<64x64xbf16, #hivm.address_space<cbuf>>)
      tile.matmul ins(%lp, %lv : memref<64x64xbf16, #hivm.address_space<cbuf>>, memref<64x64xbf16, #hivm.address_space<cbuf>>) outs(%co : memref<64x64xf32, #hivm.address_space<cc>>) init(%true : i1)
      tile.copy ins(%co : memref<64x64xf32, #hivm.address_space<cc>>) outs(%uo : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.broadcast ins(%al : memref<64x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<64x64xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%acc, %wide : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.add ins(%acc, %uo : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64x64xf32, #hivm.address_space<ub>>)
    } {tile.num_stages = 2 : i64}
    tile.broadcast ins(%l : memref<64x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<64x64xf32, #hivm.address_space<ub>>) dims = [1]
    tile.div ins(%acc, %wide : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64x64xf32, #hivm.address_space<ub>>)
    %os = memref.subview %o[%q0, 0] [64, 64] [1, 1] : memref<256x64xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%acc : memref<64x64xf32, #hivm.address_space<ub>>) outs(%os : memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
