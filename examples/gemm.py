"""C = A @ B on Ascend 950, twin of gemm.mlir: A 256x512 bf16, B 512x448 bf16, C fp32.
2 blocks, each owning a 256x224 tile of C accumulated in L0C (cc) over a K loop of 4
steps of 128, with the A and B tiles staged in L1 (cbuf) and up to 2 versions of each."""

import ascend_mlir.frontend as T

M, K, N = 256, 512, 448
BLOCKS, TK = 2, 128
TN = N // BLOCKS


@T.kernel(grid=BLOCKS)
def gemm(a: T.Tensor((M, K), "bf16"), b: T.Tensor((K, N), "bf16"), c: T.Tensor((M, N), "f32")):
    n0 = T.block_idx() * TN
    la = T.alloc((M, TK), "bf16", "cbuf")
    lb = T.alloc((TK, TN), "bf16", "cbuf")
    acc = T.alloc((M, TN), "f32", "cc")
    for k in T.pipelined(range(K // TK), num_stages=2):
        k0 = k * TK
        a_tile = a[:, k0:k0 + TK]
        b_tile = b[k0:k0 + TK, n0:n0 + TN]
        T.copy(a_tile, la)
        T.copy(b_tile, lb)
        T.matmul(la, lb, acc, init=(k == 0))
    c_tile = c[:, n0:n0 + TN]
    T.copy(acc, c_tile)


if __name__ == "__main__":
    print(gemm.to_mlir(), end="")
