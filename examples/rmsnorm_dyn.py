"""RMSNorm of an m x c fp32 matrix, m and c known only at run time (twin of
rmsnorm_dyn.mlir; the runtime-shape twin of rmsnorm.py): y = x / sqrt(mean(x^2) + eps) * w
over rows of c <= 256 columns (the row pitch of x and y is c, at run time). 4 blocks take
the 16-row tiles t = block, block + 4, ... of the m rows, the last one partial. Every op
works on rows x cols views of the static 16x256 ub tiles: the sum of squares reduces over
the valid length of each row (never the unused part of the buffer) and the mean divides
by the runtime c (a scalar, `T.cast(cols, "f32")`), not the buffer width.
Compiled once, it runs at any size: `T.simulate(rmsnorm_dyn, bind={"m": 37, "c": 200})`."""

import ascend_mlir.frontend as T

BLOCKS, TR, WIDTH, EPS = 4, 16, 256, 1e-6
M, C = T.symbol("M"), T.symbol("C")


@T.kernel(grid=BLOCKS)
def rmsnorm_dyn(x: T.Tensor((M, C), "f32"), w: T.Tensor((1, WIDTH), "f32"), y: T.Tensor((M, C), "f32"),
                m: M, c: C):
    w_row = T.alloc((1, WIDTH), "f32", "ub")
    w_wide = T.alloc((TR, WIDTH), "f32", "ub")
    ux = T.alloc((TR, WIDTH), "f32", "ub")
    sq = T.alloc((TR, WIDTH), "f32", "ub")
    ms = T.alloc((TR, 1), "f32", "ub")
    wide = T.alloc((TR, WIDTH), "f32", "ub")
    uy = T.alloc((TR, WIDTH), "f32", "ub")
    cols = T.min(c, WIDTH)
    inv_c = 1.0 / T.cast(cols, "f32")
    T.copy(w, w_row)
    T.broadcast(w_row, w_wide, dim=0)
    tiles = (m + (TR - 1)) // TR
    for t in T.pipelined((T.block_idx(), tiles, BLOCKS), num_stages=2):
        row0 = t * TR
        rows = T.min(m - row0, TR)
        vx = ux[0:rows, 0:cols]
        vsq = sq[0:rows, 0:cols]
        vwide = wide[0:rows, 0:cols]
        vy = uy[0:rows, 0:cols]
        vw = w_wide[0:rows, 0:cols]
        vms = ms[0:rows, 0:1]
        xs = x[row0:row0 + rows, 0:cols]
        ys = y[row0:row0 + rows, 0:cols]
        T.copy(xs, vx)
        T.mul(vx, vx, vsq)
        T.reduce_sum(vsq, vms, dim=1)
        T.mul(vms, inv_c, vms)
        T.add(vms, EPS, vms)
        T.rsqrt(vms, vms)
        T.broadcast(vms, vwide, dim=1)
        T.mul(vx, vwide, vy)
        T.mul(vy, vw, vy)
        T.copy(vy, ys)


if __name__ == "__main__":
    print(rmsnorm_dyn.to_mlir(), end="")
