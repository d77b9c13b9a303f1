"""C = A @ B on Ascend 950, twin of gemm.mlir: A 256x512 bf16, B 512x448 bf16, C fp32.
2 blocks, each owning a 256x224 tile of C accumulated in L0C (cc) over a K loop of 4
steps of 128, with the A and B tiles staged in L1 (cbuf) and up to 2 versions of each.
`make_gemm` builds it for other block counts, K steps and stage counts (what
`ascend-tune` sweeps); `gemm` is the hand-picked variant."""

import ascend_mlir.frontend as T

M, K, N = 256, 512, 448
BLOCKS, TK = 2, 128


def make_gemm(blocks: int = BLOCKS, tk: int = TK, num_stages: int = 2) -> T.Kernel:
    """Each of `blocks` blocks owns N / blocks columns of C; K advances by `tk`."""
    if N % blocks or K % tk:
        raise ValueError(f"N={N} does not split into {blocks} blocks or K={K} into steps of {tk}")
    tn = N // blocks

    @T.kernel(grid=blocks)
    def gemm(a: T.Tensor((M, K), "bf16"), b: T.Tensor((K, N), "bf16"), c: T.Tensor((M, N), "f32")):
        n0 = T.block_idx() * tn
        la = T.alloc((M, tk), "bf16", "cbuf")
        lb = T.alloc((tk, tn), "bf16", "cbuf")
        acc = T.alloc((M, tn), "f32", "cc")
        for k in T.pipelined(range(K // tk), num_stages=num_stages):
            k0 = k * tk
            a_tile = a[:, k0:k0 + tk]
            b_tile = b[k0:k0 + tk, n0:n0 + tn]
            T.copy(a_tile, la)
            T.copy(b_tile, lb)
            T.matmul(la, lb, acc, init=(k == 0))
        c_tile = c[:, n0:n0 + tn]
        T.copy(acc, c_tile)

    return gemm


gemm = make_gemm()


if __name__ == "__main__":
    print(gemm.to_mlir(), end="")
