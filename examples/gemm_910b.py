"""C = A @ B on Ascend 910B, twin of gemm_910b.mlir: A 256x512 bf16, B 512x256 bf16,
C fp32. 4 blocks in a 2x2 grid, each a 128x128 tile of C (64 KiB of fp32 fits 910B's
128 KiB L0C with two versions); K loop of 4 steps of 128 through L1."""

import ascend_mlir.frontend as T

M, K, N = 256, 512, 256
TM = TN = TK = 128


@T.kernel(grid=(M // TM) * (N // TN), chip="Ascend910B1")
def gemm_910b(a: T.Tensor((M, K), "bf16"), b: T.Tensor((K, N), "bf16"),
              c: T.Tensor((M, N), "f32")):
    block = T.block_idx()
    bm = block // (N // TN)
    bn = block % (N // TN)
    m0 = bm * TM
    n0 = bn * TN
    la = T.alloc((TM, TK), "bf16", "cbuf")
    lb = T.alloc((TK, TN), "bf16", "cbuf")
    acc = T.alloc((TM, TN), "f32", "cc")
    for k in T.pipelined(range(K // TK), num_stages=2):
        k0 = k * TK
        a_tile = a[m0:m0 + TM, k0:k0 + TK]
        b_tile = b[k0:k0 + TK, n0:n0 + TN]
        T.copy(a_tile, la)
        T.copy(b_tile, lb)
        T.matmul(la, lb, acc, init=(k == 0))
    c_tile = c[m0:m0 + TM, n0:n0 + TN]
    T.copy(acc, c_tile)


if __name__ == "__main__":
    print(gemm_910b.to_mlir(), end="")
