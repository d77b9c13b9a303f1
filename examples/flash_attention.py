"""One flash-attention forward tile on Ascend 950, a MIX kernel (twin of
flash_attention.mlir): O = softmax(Q K^T / sqrt(d)) V for 128 queries against 256
keys/values, head dim 64, bf16 inputs, fp32 output; 2 blocks of 64 query rows. K comes
transposed (D x S_k, the layout flash-attention kernels commonly take), so QK^T is a
plain cube matmul of Q and a column block of K^T.
Per K/V block of 64 rows (a loop with 2 buffer versions):
  cube:    S = Q K^T                        (a 64x64 block of K^T staged in L1)
  vectors: online softmax: m' = max(m, rowmax(S*scale)); a = exp(m - m');
           P = exp(S*scale - m'); l = l*a + rowsum(P); O = O*a
  cube:    O += P V                         (P cast to bf16 and moved ub -> L1)
and at the end O = O / l. `make_flash_attention` builds it for other query and key/value
block sizes and stage counts (what `ascend-tune` sweeps); `flash_attention` is the
hand-picked variant."""

import ascend_mlir.frontend as T

SQ, SK, D = 128, 256, 64
BM, BN = 64, 64
SCALE = 1.0 / D ** 0.5


def make_flash_attention(bm: int = BM, bn: int = BN, num_stages: int = 2) -> T.Kernel:
    """`bm` query rows per block (a grid of SQ / bm), K/V blocks of `bn` rows."""
    if SQ % bm or SK % bn:
        raise ValueError(f"{SQ} queries / {SK} keys do not split into blocks of {bm} / {bn}")

    @T.kernel(grid=SQ // bm)
    def flash_attention(q: T.Tensor((SQ, D), "bf16"), kt: T.Tensor((D, SK), "bf16"),
                        v: T.Tensor((SK, D), "bf16"), o: T.Tensor((SQ, D), "f32")):
        q0 = T.block_idx() * bm
        lq = T.alloc((bm, D), "bf16", "cbuf")
        lk = T.alloc((D, bn), "bf16", "cbuf")
        lv = T.alloc((bn, D), "bf16", "cbuf")
        lp = T.alloc((bm, bn), "bf16", "cbuf")
        s_acc = T.alloc((bm, bn), "f32", "cc")
        pv_acc = T.alloc((bm, D), "f32", "cc")
        s = T.alloc((bm, bn), "f32", "ub")
        p = T.alloc((bm, bn), "bf16", "ub")
        pv = T.alloc((bm, D), "f32", "ub")
        acc = T.alloc((bm, D), "f32", "ub")
        out = T.alloc((bm, D), "f32", "ub")
        m_prev = T.alloc((bm, 1), "f32", "ub")
        m_cur = T.alloc((bm, 1), "f32", "ub")
        m_new = T.alloc((bm, 1), "f32", "ub")
        alpha = T.alloc((bm, 1), "f32", "ub")
        l_sum = T.alloc((bm, 1), "f32", "ub")
        l_cur = T.alloc((bm, 1), "f32", "ub")
        wide = T.alloc((bm, bn), "f32", "ub")
        wide_d = T.alloc((bm, D), "f32", "ub")
        q_tile = q[q0:q0 + bm, :]
        T.copy(q_tile, lq)
        T.fill(m_prev, -1e30)
        T.fill(l_sum, 0.0)
        T.fill(acc, 0.0)
        for j in T.pipelined(range(SK // bn), num_stages=num_stages):
            k0 = j * bn
            k_tile = kt[:, k0:k0 + bn]
            v_tile = v[k0:k0 + bn, :]
            # S = Q K^T on the cube, then into the unified buffer
            T.copy(k_tile, lk)
            T.matmul(lq, lk, s_acc, init=True)
            T.copy(s_acc, s)
            # online softmax on the vector core
            T.mul(s, SCALE, s)
            T.reduce_max(s, m_cur, dim=1)
            T.maximum(m_cur, m_prev, m_new)
            T.sub(m_prev, m_new, alpha)
            T.exp(alpha, alpha)
            T.broadcast(m_new, wide, dim=1)
            T.sub(s, wide, s)
            T.exp(s, s)
            T.reduce_sum(s, l_cur, dim=1)
            T.mul(l_sum, alpha, l_sum)
            T.add(l_sum, l_cur, l_sum)
            T.broadcast(alpha, wide_d, dim=1)
            T.mul(acc, wide_d, acc)
            T.copy(m_new, m_prev)
            # O += P V on the cube
            T.cast(s, p)
            T.copy(p, lp)
            T.copy(v_tile, lv)
            T.matmul(lp, lv, pv_acc, init=True)
            T.copy(pv_acc, pv)
            T.add(acc, pv, acc)
        T.broadcast(l_sum, wide_d, dim=1)
        T.div(acc, wide_d, out)
        o_tile = o[q0:q0 + bm, :]
        T.copy(out, o_tile)

    return flash_attention


flash_attention = make_flash_attention()


if __name__ == "__main__":
    print(flash_attention.to_mlir(), end="")
