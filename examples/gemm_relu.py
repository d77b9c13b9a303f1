"""C = relu(A @ B) on Ascend 950, a MIX kernel, twin of gemm_relu.mlir: the cube core
accumulates a 128x128 fp32 tile in L0C over a K loop (4 steps of 64), the fixpipe moves
it into the vector core's unified buffer (cc -> ub), the vector core applies relu and
stores. A, B 256x256 bf16, C 256x256 fp32; 4 blocks in a 2x2 grid. `make_gemm_relu`
builds it for other tile shapes and stage counts (what `ascend-tune` sweeps);
`gemm_relu` is the hand-picked variant."""

import ascend_mlir.frontend as T

M = K = N = 256
TM = TN = 128
TK = 64


def make_gemm_relu(tm: int = TM, tn: int = TN, tk: int = TK, num_stages: int = 2) -> T.Kernel:
    """One block per tm x tn tile of C (a grid of (M/tm) x (N/tn)); K advances by `tk`."""
    if M % tm or N % tn or K % tk:
        raise ValueError(f"{M}x{K}x{N} does not split into {tm}x{tk}x{tn} tiles")

    @T.kernel(grid=(M // tm) * (N // tn))
    def gemm_relu(a: T.Tensor((M, K), "bf16"), b: T.Tensor((K, N), "bf16"),
                  c: T.Tensor((M, N), "f32")):
        block = T.block_idx()
        bm = block // (N // tn)
        bn = block % (N // tn)
        m0 = bm * tm
        n0 = bn * tn
        la = T.alloc((tm, tk), "bf16", "cbuf")
        lb = T.alloc((tk, tn), "bf16", "cbuf")
        acc = T.alloc((tm, tn), "f32", "cc")
        uc = T.alloc((tm, tn), "f32", "ub")
        ur = T.alloc((tm, tn), "f32", "ub")
        for k in T.pipelined(range(K // tk), num_stages=num_stages):
            k0 = k * tk
            a_tile = a[m0:m0 + tm, k0:k0 + tk]
            b_tile = b[k0:k0 + tk, n0:n0 + tn]
            T.copy(a_tile, la)
            T.copy(b_tile, lb)
            T.matmul(la, lb, acc, init=(k == 0))
        T.copy(acc, uc)
        T.relu(uc, ur)
        c_tile = c[m0:m0 + tm, n0:n0 + tn]
        T.copy(ur, c_tile)

    return gemm_relu


gemm_relu = make_gemm_relu()


if __name__ == "__main__":
    print(gemm_relu.to_mlir(), end="")
