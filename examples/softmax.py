"""Row softmax of a 256x256 fp32 matrix, twin of softmax.mlir: 4 blocks of 64 rows, each
a loop over 4 tiles of 16 rows kept whole in the unified buffer:
    m = max_j x[i, j];  e = exp(x - m);  s = sum_j e[i, j];  y = e / s
The row statistics are 16x1 tiles broadcast back along dim 1. `make_softmax` builds it
for other row tiles, block counts and stage counts (what `ascend-tune` sweeps); `softmax`
is the hand-picked variant."""

import ascend_mlir.frontend as T

ROWS, COLS, BLOCKS, TR = 256, 256, 4, 16


def make_softmax(tr: int = TR, num_stages: int = 2, blocks: int = BLOCKS) -> T.Kernel:
    """The kernel with `tr`-row tiles in `blocks` blocks and up to `num_stages` versions."""
    if ROWS % blocks or (ROWS // blocks) % tr:
        raise ValueError(f"{ROWS} rows do not split into {blocks} blocks of {tr}-row tiles")
    per_block = ROWS // blocks

    @T.kernel(grid=blocks)
    def softmax(x: T.Tensor((ROWS, COLS), "f32"), y: T.Tensor((ROWS, COLS), "f32")):
        base = T.block_idx() * per_block
        ux = T.alloc((tr, COLS), "f32", "ub")
        row_max = T.alloc((tr, 1), "f32", "ub")
        row_sum = T.alloc((tr, 1), "f32", "ub")
        wide = T.alloc((tr, COLS), "f32", "ub")
        ue = T.alloc((tr, COLS), "f32", "ub")
        uy = T.alloc((tr, COLS), "f32", "ub")
        for i in T.pipelined(range(per_block // tr), num_stages=num_stages):
            rows = i * tr
            row0 = base + rows
            x_tile = x[row0:row0 + tr, :]
            y_tile = y[row0:row0 + tr, :]
            T.copy(x_tile, ux)
            T.reduce_max(ux, row_max, dim=1)
            T.broadcast(row_max, wide, dim=1)
            T.sub(ux, wide, ue)
            T.exp(ue, ue)
            T.reduce_sum(ue, row_sum, dim=1)
            T.broadcast(row_sum, wide, dim=1)
            T.div(ue, wide, uy)
            T.copy(uy, y_tile)

    return softmax


softmax = make_softmax()


if __name__ == "__main__":
    print(softmax.to_mlir(), end="")
