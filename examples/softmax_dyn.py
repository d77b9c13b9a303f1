"""Row softmax of an m x c fp32 matrix, m and c known only at run time (twin of
softmax_dyn.mlir; the runtime-shape twin of softmax.py): rows of at most 256 columns (the
row pitch of x and y is c, at run time); 4 blocks take the 16-row tiles t = block,
block + 4, ... of the m rows, the last one partial. Every op works on rows x cols views
of the static 16x256 ub tiles, so the max and the sum reduce over the valid length of
each row and never read the unused part of the buffer:
    m = max_j x[i, j];  e = exp(x - m);  s = sum_j e[i, j];  y = e / s
Compiled once, it runs at any size: `T.simulate(softmax_dyn, bind={"m": 37, "c": 200})`."""

import ascend_mlir.frontend as T

BLOCKS, TR, WIDTH = 4, 16, 256
M, C = T.symbol("M"), T.symbol("C")


@T.kernel(grid=BLOCKS)
def softmax_dyn(x: T.Tensor((M, C), "f32"), y: T.Tensor((M, C), "f32"), m: M, c: C):
    ux = T.alloc((TR, WIDTH), "f32", "ub")
    row_max = T.alloc((TR, 1), "f32", "ub")
    row_sum = T.alloc((TR, 1), "f32", "ub")
    wide = T.alloc((TR, WIDTH), "f32", "ub")
    ue = T.alloc((TR, WIDTH), "f32", "ub")
    uy = T.alloc((TR, WIDTH), "f32", "ub")
    cols = T.min(c, WIDTH)
    tiles = (m + (TR - 1)) // TR
    for t in T.pipelined((T.block_idx(), tiles, BLOCKS), num_stages=2):
        row0 = t * TR
        rows = T.min(m - row0, TR)
        vx = ux[0:rows, 0:cols]
        ve = ue[0:rows, 0:cols]
        vwide = wide[0:rows, 0:cols]
        vy = uy[0:rows, 0:cols]
        vmax = row_max[0:rows, 0:1]
        vsum = row_sum[0:rows, 0:1]
        xs = x[row0:row0 + rows, 0:cols]
        ys = y[row0:row0 + rows, 0:cols]
        T.copy(xs, vx)
        T.reduce_max(vx, vmax, dim=1)
        T.broadcast(vmax, vwide, dim=1)
        T.sub(vx, vwide, ve)
        T.exp(ve, ve)
        T.reduce_sum(ve, vsum, dim=1)
        T.broadcast(vsum, vwide, dim=1)
        T.div(ve, vwide, vy)
        T.copy(vy, ys)


if __name__ == "__main__":
    print(softmax_dyn.to_mlir(), end="")
