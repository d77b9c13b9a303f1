"""Persistent GEMM, C (fp32) = A @ B with bf16 or fp16 inputs, on Ascend 950: the grid is
smaller than the number of output tiles, so each block loops over its share of them
(tile t of block b is t * GRID + b) and, per tile, accumulates over K in L0C.
A 256x256, B 256x256, C 256x256; tiles 128x128, K steps of 64; 2 blocks x 2 tiles.
Both loops allow 2 buffer versions: L1 tiles across K steps, and the accumulator across
output tiles (so the fixpipe of one tile may overlap the K loop of the next).
gemm_bf16.py and gemm_fp16.py instantiate it."""

import ascend_mlir.frontend as T

M = K = N = 256
TM = TN = 128
TK = 64
GRID = 2
TILES_N = N // TN
TILES_PER_BLOCK = (M // TM) * TILES_N // GRID


def make_gemm(dtype: str, name: str) -> T.Kernel:
    @T.kernel(grid=GRID, name=name)
    def gemm(a: T.Tensor((M, K), dtype), b: T.Tensor((K, N), dtype), c: T.Tensor((M, N), "f32")):
        block = T.block_idx()
        la = T.alloc((TM, TK), dtype, "cbuf")
        lb = T.alloc((TK, TN), dtype, "cbuf")
        acc = T.alloc((TM, TN), "f32", "cc")
        for t in T.pipelined(range(TILES_PER_BLOCK), num_stages=2):
            tile_id = t * GRID + block
            m0 = (tile_id // TILES_N) * TM
            n0 = (tile_id % TILES_N) * TN
            for k in T.pipelined(range(K // TK), num_stages=2):
                k0 = k * TK
                a_tile = a[m0:m0 + TM, k0:k0 + TK]
                b_tile = b[k0:k0 + TK, n0:n0 + TN]
                T.copy(a_tile, la)
                T.copy(b_tile, lb)
                T.matmul(la, lb, acc, init=(k == 0))
            c_tile = c[m0:m0 + TM, n0:n0 + TN]
            T.copy(acc, c_tile)

    return gemm
