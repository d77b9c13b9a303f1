"""Row softmax of a 256x256 fp32 matrix, twin of softmax.mlir: 4 blocks of 64 rows, each
a loop over 4 tiles of 16 rows kept whole in the unified buffer:
    m = max_j x[i, j];  e = exp(x - m);  s = sum_j e[i, j];  y = e / s
The row statistics are 16x1 tiles broadcast back along dim 1."""

import ascend_mlir.frontend as T

ROWS, COLS, BLOCKS, TR = 256, 256, 4, 16
PER_BLOCK = ROWS // BLOCKS


@T.kernel(grid=BLOCKS)
def softmax(x: T.Tensor((ROWS, COLS), "f32"), y: T.Tensor((ROWS, COLS), "f32")):
    base = T.block_idx() * PER_BLOCK
    ux = T.alloc((TR, COLS), "f32", "ub")
    row_max = T.alloc((TR, 1), "f32", "ub")
    row_sum = T.alloc((TR, 1), "f32", "ub")
    wide = T.alloc((TR, COLS), "f32", "ub")
    ue = T.alloc((TR, COLS), "f32", "ub")
    uy = T.alloc((TR, COLS), "f32", "ub")
    for i in T.pipelined(range(PER_BLOCK // TR), num_stages=2):
        rows = i * TR
        row0 = base + rows
        x_tile = x[row0:row0 + TR, :]
        y_tile = y[row0:row0 + TR, :]
        T.copy(x_tile, ux)
        T.reduce_max(ux, row_max, dim=1)
        T.broadcast(row_max, wide, dim=1)
        T.sub(ux, wide, ue)
        T.exp(ue, ue)
        T.reduce_sum(ue, row_sum, dim=1)
        T.broadcast(row_sum, wide, dim=1)
        T.div(ue, wide, uy)
        T.copy(uy, y_tile)


if __name__ == "__main__":
    print(softmax.to_mlir(), end="")
