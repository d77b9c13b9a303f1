// One flash-attention forward tile on Ascend 950, a MIX kernel (twin of
// flash_attention.py): O = softmax(Q K^T / sqrt(d)) V for 128 queries against 256
// keys/values, head dim 64, bf16 inputs, fp32 output; 2 blocks of 64 query rows. K comes
// transposed (D x S_k, the layout flash-attention kernels commonly take), so QK^T is a
// plain cube matmul of Q and a column block of K^T.
// Per K/V block of 64 rows (a loop with 2 buffer versions):
//   cube:    S = Q K^T                        (a 64x64 block of K^T staged in L1)
//   vectors: online softmax: m' = max(m, rowmax(S*scale)); a = exp(m - m');
//            P = exp(S*scale - m'); l = l*a + rowsum(P); O = O*a
//   cube:    O += P V                         (P cast to bf16 and moved ub -> L1)
// and at the end O = O / l.
module {
  func.func @flash_attention(%q: memref<128x64xbf16, #hivm.address_space<gm>>, %kt: memref<64x256xbf16, #hivm.address_space<gm>>, %v: memref<256x64xbf16, #hivm.address_space<gm>>, %o: memref<128x64xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %cst = arith.constant -1.000000e+30 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %0 = tile.block_idx : index
    %q0 = arith.muli %0, %c64 : index
    %lq = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lk = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lv = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lp = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %s_acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %pv_acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %s = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %p = memref.alloc() : memref<64x64xbf16, #hivm.address_space<ub>>
    %pv = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %out = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %m_prev = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %m_cur = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %m_new = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %alpha = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %l_sum = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %l_cur = memref.alloc() : memref<64x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %wide_d = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %q_tile = memref.subview %q[%q0, 0] [64, 64] [1, 1] : memref<128x64xbf16, #hivm.address_space<gm>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%q_tile : memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lq : memref<64x64xbf16, #hivm.address_space<cbuf>>)
    tile.fill ins(%cst : f32) outs(%m_prev : memref<64x1xf32, #hivm.address_space<ub>>)
    tile.fill ins(%cst_1 : f32) outs(%l_sum : memref<64x1xf32, #hivm.address_space<ub>>)
    tile.fill ins(%cst_1 : f32) outs(%acc : memref<64x64xf32, #hivm.address_space<ub>>)
    scf.for %j = %c0 to %c4 step %c1 {
      %k0 = arith.muli %j, %c64 : index
      %k_tile = memref.subview %kt[0, %k0] [64, 64] [1, 1] : memref<64x256xbf16, #hivm.address_space<gm>> to memref<64x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %v_tile = memref.subview %v[%k0, 0] [64, 64] [1, 1] : memref<256x64xbf16, #hivm.address_space<gm>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%k_tile : memref<64x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lk : memref<64x64xbf16, #hivm.address_space<cbuf>>)
      tile.matmul ins(%lq, %lk : memref<64x64xbf16, #hivm.address_space<cbuf>>, memref<64x64xbf16, #hivm.address_space<cbuf>>) outs(%s_acc : memref<64x64xf32, #hivm.address_space<cc>>) init(%true : i1)
      tile.copy ins(%s_acc : memref<64x64xf32, #hivm.address_space<cc>>) outs(%s : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.mul ins(%s, %cst_2 : memref<64x64xf32, #hivm.address_space<ub>>, f32) outs(%s : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.reduce <max> ins(%s : memref<64x64xf32, #hivm.address_space<ub>>) outs(%m_cur : memref<64x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.max ins(%m_cur, %m_prev : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%m_new : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.sub ins(%m_prev, %m_new : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%alpha : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.exp ins(%alpha : memref<64x1xf32, #hivm.address_space<ub>>) outs(%alpha : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.broadcast ins(%m_new : memref<64x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<64x64xf32, #hivm.address_space<ub>>) dims = [1]
      tile.sub ins(%s, %wide : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%s : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.exp ins(%s : memref<64x64xf32, #hivm.address_space<ub>>) outs(%s : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.reduce <sum> ins(%s : memref<64x64xf32, #hivm.address_space<ub>>) outs(%l_cur : memref<64x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%l_sum, %alpha : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%l_sum : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.add ins(%l_sum, %l_cur : memref<64x1xf32, #hivm.address_space<ub>>, memref<64x1xf32, #hivm.address_space<ub>>) outs(%l_sum : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.broadcast ins(%alpha : memref<64x1xf32, #hivm.address_space<ub>>) outs(%wide_d : memref<64x64xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%acc, %wide_d : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.copy ins(%m_new : memref<64x1xf32, #hivm.address_space<ub>>) outs(%m_prev : memref<64x1xf32, #hivm.address_space<ub>>)
      tile.cast ins(%s : memref<64x64xf32, #hivm.address_space<ub>>) outs(%p : memref<64x64xbf16, #hivm.address_space<ub>>)
      tile.copy ins(%p : memref<64x64xbf16, #hivm.address_space<ub>>) outs(%lp : memref<64x64xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%v_tile : memref<64x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lv : memref<64x64xbf16, #hivm.address_space<cbuf>>)
      tile.matmul ins(%lp, %lv : memref<64x64xbf16, #hivm.address_space<cbuf>>, memref<64x64xbf16, #hivm.address_space<cbuf>>) outs(%pv_acc : memref<64x64xf32, #hivm.address_space<cc>>) init(%true : i1)
      tile.copy ins(%pv_acc : memref<64x64xf32, #hivm.address_space<cc>>) outs(%pv : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.add ins(%acc, %pv : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64x64xf32, #hivm.address_space<ub>>)
    } {tile.num_stages = 2 : i64}
    tile.broadcast ins(%l_sum : memref<64x1xf32, #hivm.address_space<ub>>) outs(%wide_d : memref<64x64xf32, #hivm.address_space<ub>>) dims = [1]
    tile.div ins(%acc, %wide_d : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%out : memref<64x64xf32, #hivm.address_space<ub>>)
    %o_tile = memref.subview %o[%q0, 0] [64, 64] [1, 1] : memref<128x64xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%out : memref<64x64xf32, #hivm.address_space<ub>>) outs(%o_tile : memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
    func.return
  }
}
