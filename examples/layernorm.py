"""LayerNorm of a 256x256 fp32 matrix over its rows (twin of layernorm.mlir):
    mean = sum(x) / n;  xc = x - mean;  var = sum(xc^2) / n;  y = xc * rsqrt(var + eps) * g + b
4 blocks of 64 rows, each a loop over 4 tiles of 16 rows; g and b are loaded once and
broadcast to the tile's rows."""

import ascend_mlir.frontend as T

ROWS, COLS, BLOCKS, TR = 256, 256, 4, 16
PER_BLOCK = ROWS // BLOCKS
EPS = 1e-5


@T.kernel(grid=BLOCKS)
def layernorm(x: T.Tensor((ROWS, COLS), "f32"), gamma: T.Tensor((1, COLS), "f32"),
              beta: T.Tensor((1, COLS), "f32"), y: T.Tensor((ROWS, COLS), "f32")):
    base = T.block_idx() * PER_BLOCK
    g_row = T.alloc((1, COLS), "f32", "ub")
    b_row = T.alloc((1, COLS), "f32", "ub")
    g_wide = T.alloc((TR, COLS), "f32", "ub")
    b_wide = T.alloc((TR, COLS), "f32", "ub")
    ux = T.alloc((TR, COLS), "f32", "ub")
    xc = T.alloc((TR, COLS), "f32", "ub")
    sq = T.alloc((TR, COLS), "f32", "ub")
    mean = T.alloc((TR, 1), "f32", "ub")
    rstd = T.alloc((TR, 1), "f32", "ub")
    wide = T.alloc((TR, COLS), "f32", "ub")
    uy = T.alloc((TR, COLS), "f32", "ub")
    T.copy(gamma, g_row)
    T.copy(beta, b_row)
    T.broadcast(g_row, g_wide, dim=0)
    T.broadcast(b_row, b_wide, dim=0)
    for i in T.pipelined(range(PER_BLOCK // TR), num_stages=2):
        row0 = base + i * TR
        x_tile = x[row0:row0 + TR, :]
        y_tile = y[row0:row0 + TR, :]
        T.copy(x_tile, ux)
        T.reduce_sum(ux, mean, dim=1)
        T.mul(mean, 1.0 / COLS, mean)
        T.broadcast(mean, wide, dim=1)
        T.sub(ux, wide, xc)
        T.mul(xc, xc, sq)
        T.reduce_sum(sq, rstd, dim=1)
        T.mul(rstd, 1.0 / COLS, rstd)
        T.add(rstd, EPS, rstd)
        T.rsqrt(rstd, rstd)
        T.broadcast(rstd, wide, dim=1)
        T.mul(xc, wide, uy)
        T.mul(uy, g_wide, uy)
        T.add(uy, b_wide, uy)
        T.copy(uy, y_tile)


if __name__ == "__main__":
    print(layernorm.to_mlir(), end="")
