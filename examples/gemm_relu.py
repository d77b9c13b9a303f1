"""C = relu(A @ B) on Ascend 950, a MIX kernel, twin of gemm_relu.mlir: the cube core
accumulates a 128x128 fp32 tile in L0C over a K loop (4 steps of 64), the fixpipe moves
it into the vector core's unified buffer (cc -> ub), the vector core applies relu and
stores. A, B 256x256 bf16, C 256x256 fp32; 4 blocks in a 2x2 grid."""

import ascend_mlir.frontend as T

M = K = N = 256
TM = TN = 128
TK = 64


@T.kernel(grid=(M // TM) * (N // TN))
def gemm_relu(a: T.Tensor((M, K), "bf16"), b: T.Tensor((K, N), "bf16"),
              c: T.Tensor((M, N), "f32")):
    block = T.block_idx()
    bm = block // (N // TN)
    bn = block % (N // TN)
    m0 = bm * TM
    n0 = bn * TN
    la = T.alloc((TM, TK), "bf16", "cbuf")
    lb = T.alloc((TK, TN), "bf16", "cbuf")
    acc = T.alloc((TM, TN), "f32", "cc")
    uc = T.alloc((TM, TN), "f32", "ub")
    ur = T.alloc((TM, TN), "f32", "ub")
    for k in T.pipelined(range(K // TK), num_stages=2):
        k0 = k * TK
        a_tile = a[m0:m0 + TM, k0:k0 + TK]
        b_tile = b[k0:k0 + TK, n0:n0 + TN]
        T.copy(a_tile, la)
        T.copy(b_tile, lb)
        T.matmul(la, lb, acc, init=(k == 0))
    T.copy(acc, uc)
    T.relu(uc, ur)
    c_tile = c[m0:m0 + TM, n0:n0 + TN]
    T.copy(ur, c_tile)


if __name__ == "__main__":
    print(gemm_relu.to_mlir(), end="")
