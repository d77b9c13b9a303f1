"""The anchor's own GEMM (TileLang's Ascend example), twin of gemm_anchor.mlir: C = A @ B
with B given transposed, on Ascend 950. A 256x2048 bf16, B^T 7168x2048 bf16, C fp32.
32 blocks, each owning a 256x224 tile of C accumulated in L0C over 16 K steps of 128."""

import ascend_mlir.frontend as T

M, K, N = 256, 2048, 7168
BLOCKS, TK, TN = 32, 128, 224


@T.kernel(grid=BLOCKS)
def gemm_anchor(a: T.Tensor((M, K), "bf16"), bt: T.Tensor((N, K), "bf16"), c: T.Tensor((M, N), "f32")):
    n0 = T.block_idx() * TN
    la = T.alloc((M, TK), "bf16", "cbuf")
    lb = T.alloc((TN, TK), "bf16", "cbuf")
    acc = T.alloc((M, TN), "f32", "cc")
    for k in T.pipelined(range(K // TK), num_stages=2):
        k0 = k * TK
        a_tile = a[:, k0:k0 + TK]
        b_tile = bt[n0:n0 + TN, k0:k0 + TK]
        T.copy(a_tile, la)
        T.copy(b_tile, lb)
        T.matmul(la, lb, acc, init=(k == 0), transpose_b=True)
    c_tile = c[:, n0:n0 + TN]
    T.copy(acc, c_tile)


if __name__ == "__main__":
    print(gemm_anchor.to_mlir(), end="")
