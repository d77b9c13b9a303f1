"""Row log-softmax of a 256x256 fp32 matrix, written with expressions:
    s = x - max_j x[i, j];  y = s - log(sum_j exp(s[i, j]))
4 blocks of 64 rows, each a loop over 16-row tiles; the (16, 1) row statistics broadcast
back over the columns implicitly. `make` builds other sizes."""

import ascend_mlir.frontend as T


def make(rows: int = 256, cols: int = 256, blocks: int = 4, tile_rows: int = 16) -> T.Kernel:
    per_block = rows // blocks

    @T.kernel(grid=blocks)
    def log_softmax(x: T.Tensor((rows, cols), "f32"), y: T.Tensor((rows, cols), "f32")):
        base = T.block_idx() * per_block
        for i in T.pipelined(range(per_block // tile_rows), num_stages=2):
            r = base + i * tile_rows
            xu = T.load(x[r:r + tile_rows, :])
            s = xu - T.reduce_max(xu, dim=1)
            y[r:r + tile_rows, :] = s - T.log(T.reduce_sum(T.exp(s), dim=1))

    return log_softmax


log_softmax = make()

if __name__ == "__main__":
    print(log_softmax.to_mlir(), end="")
