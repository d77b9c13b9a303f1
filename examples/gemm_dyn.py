"""C (fp32) = A @ B (bf16) with M, N and K known only at run time (twin of gemm_dyn.mlir;
the runtime-shape twin of the persistent GEMM of gemm_persistent.py): 2 blocks loop over
the 128x128 output tiles (tile t = block, block + 2, ... of ceil(M/128) x ceil(N/128)),
each accumulated in L0C over ceil(K/64) steps of 64 through L1. The last tile of a row
or a column of C is partial (rows = min(128, M - m0), cols = min(128, N - n0)), and so is
the last K step: a shorter last step (kk = min(64, K - k0)) that multiplies only the K
left, never a zero-padded one. The K loop runs at least once: with K = 0 its one step
multiplies an empty K (kk = 0) with init, so C is zeros, not whatever L0C held. Compiled
once, it runs at any size: `T.simulate(gemm_dyn, bind={"m": 200, "n": 130, "k": 100})`."""

import ascend_mlir.frontend as T

TM = TN = 128
TK = 64
GRID = 2
M, N, K = T.symbol("M"), T.symbol("N"), T.symbol("K")


@T.kernel(grid=GRID)
def gemm_dyn(a: T.Tensor((M, K), "bf16"), b: T.Tensor((K, N), "bf16"), c: T.Tensor((M, N), "f32"),
             m: M, n: N, k: K):
    la = T.alloc((TM, TK), "bf16", "cbuf")
    lb = T.alloc((TK, TN), "bf16", "cbuf")
    acc = T.alloc((TM, TN), "f32", "cc")
    tiles_n = (n + (TN - 1)) // TN
    tiles = ((m + (TM - 1)) // TM) * tiles_n
    steps = T.max((k + (TK - 1)) // TK, 1)
    for t in T.pipelined((T.block_idx(), tiles, GRID), num_stages=2):
        m0 = (t // tiles_n) * TM
        n0 = (t % tiles_n) * TN
        rows = T.min(m - m0, TM)
        cols = T.min(n - n0, TN)
        vacc = acc[0:rows, 0:cols]
        for s in T.pipelined((0, steps, 1), num_stages=2):
            k0 = s * TK
            kk = T.min(k - k0, TK)
            va = la[0:rows, 0:kk]
            vb = lb[0:kk, 0:cols]
            T.copy(a[m0:m0 + rows, k0:k0 + kk], va)
            T.copy(b[k0:k0 + kk, n0:n0 + cols], vb)
            T.matmul(va, vb, vacc, init=(s == 0))
        T.copy(vacc, c[m0:m0 + rows, n0:n0 + cols])


if __name__ == "__main__":
    print(gemm_dyn.to_mlir(), end="")
