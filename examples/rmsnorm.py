"""RMSNorm of a 256x256 fp32 matrix, y = x / sqrt(mean(x^2) + eps) * w (twin of
rmsnorm.mlir): 4 blocks of 64 rows, each a loop over 4 tiles of 16 rows in the unified
buffer. The weight row is loaded once and broadcast to the tile's 16 rows."""

import ascend_mlir.frontend as T

ROWS, COLS, BLOCKS, TR = 256, 256, 4, 16
PER_BLOCK = ROWS // BLOCKS
EPS = 1e-6


@T.kernel(grid=BLOCKS)
def rmsnorm(x: T.Tensor((ROWS, COLS), "f32"), w: T.Tensor((1, COLS), "f32"),
            y: T.Tensor((ROWS, COLS), "f32")):
    base = T.block_idx() * PER_BLOCK
    w_row = T.alloc((1, COLS), "f32", "ub")
    w_wide = T.alloc((TR, COLS), "f32", "ub")
    ux = T.alloc((TR, COLS), "f32", "ub")
    sq = T.alloc((TR, COLS), "f32", "ub")
    ms = T.alloc((TR, 1), "f32", "ub")
    wide = T.alloc((TR, COLS), "f32", "ub")
    uy = T.alloc((TR, COLS), "f32", "ub")
    T.copy(w, w_row)
    T.broadcast(w_row, w_wide, dim=0)
    for i in T.pipelined(range(PER_BLOCK // TR), num_stages=2):
        row0 = base + i * TR
        x_tile = x[row0:row0 + TR, :]
        y_tile = y[row0:row0 + TR, :]
        T.copy(x_tile, ux)
        T.mul(ux, ux, sq)
        T.reduce_sum(sq, ms, dim=1)
        T.mul(ms, 1.0 / COLS, ms)
        T.add(ms, EPS, ms)
        T.rsqrt(ms, ms)
        T.broadcast(ms, wide, dim=1)
        T.mul(ux, wide, uy)
        T.mul(uy, w_wide, uy)
        T.copy(uy, y_tile)


if __name__ == "__main__":
    print(rmsnorm.to_mlir(), end="")
