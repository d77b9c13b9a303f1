"""Flash-attention forward with the query and key/value sequence lengths known only at run
time (twin of flash_attention_dyn.mlir; the runtime-shape twin of flash_attention.py), a
MIX kernel: O = softmax(Q K^T / sqrt(d)) V for sq queries against sk keys/values, head dim
64, bf16 inputs, fp32 output. K comes transposed (64 x sk: a runtime row pitch). 2 blocks
take the 64-row query blocks qb = block, block + 2, ... of ceil(sq / 64); the last one is
partial (rows = min(64, sq - q0)). For each, a loop over the ceil(sk / 64) key/value
blocks; the last one is partial too (kk = min(64, sk - k0)):
  cube:    S = Q K^T                        (rows x kk: a 64 x kk block of K^T in L1)
  vectors: online softmax over the kk valid columns only: m' = max(m, rowmax(S*scale));
           a = exp(m - m'); P = exp(S*scale - m'); l = l*a + rowsum(P); O = O*a
  cube:    O += P V                         (rows x kk times kk x 64: K = kk, no padding)
and at the end O = O / max(l, 1). The softmax of a partial block reduces over the valid
length (the views are rows x kk), never over the padding of the buffers, so no mask or
identity fill is needed. Every row has l >= 1 once one key is seen (its largest score
contributes exp(0) = 1 and later rescales of it are by exp(0) = 1), so max(l, 1) = l
whenever sk >= 1; with sk = 0 no key block runs and O = 0 / 1 = 0 (no NaN). Compiled once,
it runs at any size: `T.simulate(flash_attention_dyn, bind={"sq": 100, "sk": 130})`."""

import ascend_mlir.frontend as T

D = 64
BM, BN = 64, 64
GRID = 2
SCALE = 1.0 / D ** 0.5
SQ, SK = T.symbol("SQ"), T.symbol("SK")


@T.kernel(grid=GRID)
def flash_attention_dyn(q: T.Tensor((SQ, D), "bf16"), kt: T.Tensor((D, SK), "bf16"),
                        v: T.Tensor((SK, D), "bf16"), o: T.Tensor((SQ, D), "f32"), sq: SQ, sk: SK):
    lq = T.alloc((BM, D), "bf16", "cbuf")
    lk = T.alloc((D, BN), "bf16", "cbuf")
    lv = T.alloc((BN, D), "bf16", "cbuf")
    lp = T.alloc((BM, BN), "bf16", "cbuf")
    s_acc = T.alloc((BM, BN), "f32", "cc")
    pv_acc = T.alloc((BM, D), "f32", "cc")
    s = T.alloc((BM, BN), "f32", "ub")
    p = T.alloc((BM, BN), "bf16", "ub")
    pv = T.alloc((BM, D), "f32", "ub")
    acc = T.alloc((BM, D), "f32", "ub")
    out = T.alloc((BM, D), "f32", "ub")
    m_prev = T.alloc((BM, 1), "f32", "ub")
    m_cur = T.alloc((BM, 1), "f32", "ub")
    m_new = T.alloc((BM, 1), "f32", "ub")
    alpha = T.alloc((BM, 1), "f32", "ub")
    l_sum = T.alloc((BM, 1), "f32", "ub")
    l_cur = T.alloc((BM, 1), "f32", "ub")
    wide = T.alloc((BM, BN), "f32", "ub")
    wide_d = T.alloc((BM, D), "f32", "ub")
    q_blocks = (sq + (BM - 1)) // BM
    kv_blocks = (sk + (BN - 1)) // BN
    for qb in T.pipelined((T.block_idx(), q_blocks, GRID), num_stages=1):
        q0 = qb * BM
        rows = T.min(sq - q0, BM)
        vq = lq[0:rows, :]
        vacc = acc[0:rows, :]
        vm_prev = m_prev[0:rows, :]
        vl_sum = l_sum[0:rows, :]
        T.copy(q[q0:q0 + rows, :], vq)
        T.fill(vm_prev, -1e30)
        T.fill(vl_sum, 0.0)
        T.fill(vacc, 0.0)
        for j in T.pipelined((0, kv_blocks, 1), num_stages=2):
            k0 = j * BN
            kk = T.min(sk - k0, BN)
            vk = lk[:, 0:kk]
            vv = lv[0:kk, :]
            vp_l1 = lp[0:rows, 0:kk]
            vs_acc = s_acc[0:rows, 0:kk]
            vpv_acc = pv_acc[0:rows, :]
            vs = s[0:rows, 0:kk]
            vp = p[0:rows, 0:kk]
            vpv = pv[0:rows, :]
            vm_cur = m_cur[0:rows, :]
            vm_new = m_new[0:rows, :]
            valpha = alpha[0:rows, :]
            vl_cur = l_cur[0:rows, :]
            vwide = wide[0:rows, 0:kk]
            vwide_d = wide_d[0:rows, :]
            # S = Q K^T on the cube over the kk valid keys, then into the unified buffer
            T.copy(kt[:, k0:k0 + kk], vk)
            T.matmul(vq, vk, vs_acc, init=True)
            T.copy(vs_acc, vs)
            # online softmax on the vector core, over the kk valid columns
            T.mul(vs, SCALE, vs)
            T.reduce_max(vs, vm_cur, dim=1)
            T.maximum(vm_cur, vm_prev, vm_new)
            T.sub(vm_prev, vm_new, valpha)
            T.exp(valpha, valpha)
            T.broadcast(vm_new, vwide, dim=1)
            T.sub(vs, vwide, vs)
            T.exp(vs, vs)
            T.reduce_sum(vs, vl_cur, dim=1)
            T.mul(vl_sum, valpha, vl_sum)
            T.add(vl_sum, vl_cur, vl_sum)
            T.broadcast(valpha, vwide_d, dim=1)
            T.mul(vacc, vwide_d, vacc)
            T.copy(vm_new, vm_prev)
            # O += P V on the cube, K = kk
            T.cast(vs, vp)
            T.copy(vp, vp_l1)
            T.copy(v[k0:k0 + kk, :], vv)
            T.matmul(vp_l1, vv, vpv_acc, init=True)
            T.copy(vpv_acc, vpv)
            T.add(vacc, vpv, vacc)
        vwide_d = wide_d[0:rows, :]
        vout = out[0:rows, :]
        T.maximum(vl_sum, 1.0, vl_sum)
        T.broadcast(vl_sum, vwide_d, dim=1)
        T.div(vacc, vwide_d, vout)
        T.copy(vout, o[q0:q0 + rows, :])


if __name__ == "__main__":
    print(flash_attention_dyn.to_mlir(), end="")
