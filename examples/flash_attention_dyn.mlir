// Flash-attention forward with the query and key/value sequence lengths known only at run
// time (twin of flash_attention_dyn.py; the runtime-shape twin of flash_attention.mlir), a
// MIX kernel: O = softmax(Q K^T / sqrt(d)) V for sq queries against sk keys/values, head dim
// 64, bf16 inputs, fp32 output. K comes transposed (64 x sk: a runtime row pitch). 2 blocks
// take the 64-row query blocks qb = block, block + 2, ... of ceil(sq / 64); the last one is
// partial (rows = min(64, sq - q0)). For each, a loop over the ceil(sk / 64) key/value
// blocks; the last one is partial too (kk = min(64, sk - k0)):
//   cube:    S = Q K^T                        (rows x kk: a 64 x kk block of K^T in L1)
//   vectors: online softmax over the kk valid columns only: m' = max(m, rowmax(S*scale));
//            a = exp(m - m'); P = exp(S*scale - m'); l = l*a + rowsum(P); O = O*a
//   cube:    O += P V                         (rows x kk times kk x 64: K = kk, no padding)
// and at the end O = O / max(l, 1). The softmax of a partial block reduces over the valid
// length (the views are rows x kk), never over the padding of the buffers, so no mask or
// identity fill is needed; max(l, 1) = l whenever sk >= 1 (the largest score of a row adds
// exp(0) = 1), and with sk = 0 O is zeros. Run it at any size:
//   ascend-sim examples/flash_attention_dyn.mlir --bind sq=100 --bind sk=130
builtin.module {
  func.func @flash_attention_dyn(%q: memref<?x64xbf16, #hivm.address_space<gm>>, %kt: memref<64x?xbf16, #hivm.address_space<gm>>, %v: memref<?x64xbf16, #hivm.address_space<gm>>, %o: memref<?x64xf32, #hivm.address_space<gm>>, %sq: index, %sk: index) attributes {tile.kernel, tile.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %cst = arith.constant -1.000000e+30 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %cst_3 = arith.constant 1.000000e+00 : f32
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
    %0 = arith.addi %sq, %c63 : index
    %q_blocks = arith.divui %0, %c64 : index
    %1 = arith.addi %sk, %c63 : index
    %kv_blocks = arith.divui %1, %c64 : index
    %2 = tile.block_idx : index
    scf.for %qb = %2 to %q_blocks step %c2 {
      %q0 = arith.muli %qb, %c64 : index
      %3 = arith.subi %sq, %q0 : index
      %rows = arith.minsi %3, %c64 : index
      %vq = memref.subview %lq[0, 0] [%rows, 64] [1, 1] : memref<64x64xbf16, #hivm.address_space<cbuf>> to memref<?x64xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>
      %vacc = memref.subview %acc[0, 0] [%rows, 64] [1, 1] : memref<64x64xf32, #hivm.address_space<ub>> to memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>
      %vm_prev = memref.subview %m_prev[0, 0] [%rows, 1] [1, 1] : memref<64x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
      %vl_sum = memref.subview %l_sum[0, 0] [%rows, 1] [1, 1] : memref<64x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
      %4 = memref.subview %q[%q0, 0] [%rows, 64] [1, 1] : memref<?x64xbf16, #hivm.address_space<gm>> to memref<?x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%4 : memref<?x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%vq : memref<?x64xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>)
      tile.fill ins(%cst : f32) outs(%vm_prev : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
      tile.fill ins(%cst_1 : f32) outs(%vl_sum : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
      tile.fill ins(%cst_1 : f32) outs(%vacc : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
      scf.for %j = %c0 to %kv_blocks step %c1 {
        %k0 = arith.muli %j, %c64 : index
        %5 = arith.subi %sk, %k0 : index
        %kk = arith.minsi %5, %c64 : index
        %vk = memref.subview %lk[0, 0] [64, %kk] [1, 1] : memref<64x64xbf16, #hivm.address_space<cbuf>> to memref<64x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>
        %vv = memref.subview %lv[0, 0] [%kk, 64] [1, 1] : memref<64x64xbf16, #hivm.address_space<cbuf>> to memref<?x64xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>
        %vp_l1 = memref.subview %lp[0, 0] [%rows, %kk] [1, 1] : memref<64x64xbf16, #hivm.address_space<cbuf>> to memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>
        %vs_acc = memref.subview %s_acc[0, 0] [%rows, %kk] [1, 1] : memref<64x64xf32, #hivm.address_space<cc>> to memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<cc>>
        %vpv_acc = memref.subview %pv_acc[0, 0] [%rows, 64] [1, 1] : memref<64x64xf32, #hivm.address_space<cc>> to memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<cc>>
        %vs = memref.subview %s[0, 0] [%rows, %kk] [1, 1] : memref<64x64xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>
        %vp = memref.subview %p[0, 0] [%rows, %kk] [1, 1] : memref<64x64xbf16, #hivm.address_space<ub>> to memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<ub>>
        %vpv = memref.subview %pv[0, 0] [%rows, 64] [1, 1] : memref<64x64xf32, #hivm.address_space<ub>> to memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>
        %vm_cur = memref.subview %m_cur[0, 0] [%rows, 1] [1, 1] : memref<64x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
        %vm_new = memref.subview %m_new[0, 0] [%rows, 1] [1, 1] : memref<64x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
        %valpha = memref.subview %alpha[0, 0] [%rows, 1] [1, 1] : memref<64x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
        %vl_cur = memref.subview %l_cur[0, 0] [%rows, 1] [1, 1] : memref<64x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
        %vwide = memref.subview %wide[0, 0] [%rows, %kk] [1, 1] : memref<64x64xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>
        %vwide_d = memref.subview %wide_d[0, 0] [%rows, 64] [1, 1] : memref<64x64xf32, #hivm.address_space<ub>> to memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>
        %6 = memref.subview %kt[0, %k0] [64, %kk] [1, 1] : memref<64x?xbf16, #hivm.address_space<gm>> to memref<64x?xbf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%6 : memref<64x?xbf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%vk : memref<64x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>)
        tile.matmul ins(%vq, %vk : memref<?x64xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>, memref<64x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>) outs(%vs_acc : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<cc>>) init(%true : i1)
        tile.copy ins(%vs_acc : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<cc>>) outs(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
        tile.mul ins(%vs, %cst_2 : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>, f32) outs(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
        tile.reduce  <max> ins(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vm_cur : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) dims = [1]
        tile.max ins(%vm_cur, %vm_prev : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>, memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vm_new : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
        tile.sub ins(%vm_prev, %vm_new : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>, memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%valpha : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
        tile.exp ins(%valpha : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%valpha : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
        tile.broadcast ins(%vm_new : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vwide : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>) dims = [1]
        tile.sub ins(%vs, %vwide : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>, memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
        tile.exp ins(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
        tile.reduce  <sum> ins(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vl_cur : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) dims = [1]
        tile.mul ins(%vl_sum, %valpha : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>, memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vl_sum : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
        tile.add ins(%vl_sum, %vl_cur : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>, memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vl_sum : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
        tile.broadcast ins(%valpha : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vwide_d : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>) dims = [1]
        tile.mul ins(%vacc, %vwide_d : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>, memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vacc : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
        tile.copy ins(%vm_new : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vm_prev : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
        tile.cast ins(%vs : memref<?x?xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vp : memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<ub>>)
        tile.copy ins(%vp : memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vp_l1 : memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>)
        %7 = memref.subview %v[%k0, 0] [%kk, 64] [1, 1] : memref<?x64xbf16, #hivm.address_space<gm>> to memref<?x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%7 : memref<?x64xbf16, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%vv : memref<?x64xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>)
        tile.matmul ins(%vp_l1, %vv : memref<?x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>, memref<?x64xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>) outs(%vpv_acc : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<cc>>) init(%true : i1)
        tile.copy ins(%vpv_acc : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<cc>>) outs(%vpv : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
        tile.add ins(%vacc, %vpv : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>, memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vacc : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
      } {tile.num_stages = 2 : i64}
      %vwide_d_1 = memref.subview %wide_d[0, 0] [%rows, 64] [1, 1] : memref<64x64xf32, #hivm.address_space<ub>> to memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>
      %vout = memref.subview %out[0, 0] [%rows, 64] [1, 1] : memref<64x64xf32, #hivm.address_space<ub>> to memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>
      tile.max ins(%vl_sum, %cst_3 : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>, f32) outs(%vl_sum : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
      tile.broadcast ins(%vl_sum : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vwide_d_1 : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.div ins(%vacc, %vwide_d_1 : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>, memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%vout : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>)
      %8 = memref.subview %o[%q0, 0] [%rows, 64] [1, 1] : memref<?x64xf32, #hivm.address_space<gm>> to memref<?x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vout : memref<?x64xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%8 : memref<?x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 1 : i64}
    func.return
  }
}
