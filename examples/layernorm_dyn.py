"""LayerNorm of an m x c fp32 matrix over its rows, m and c known only at run time (twin
of layernorm_dyn.mlir; the runtime-shape twin of layernorm.py):
    mean = sum(x) / c;  xc = x - mean;  var = sum(xc^2) / c;  y = xc * rsqrt(var + eps) * g + b
over rows of c <= 256 columns (the row pitch of x and y is c, at run time). 4 blocks take
the 16-row tiles t = block, block + 4, ... of the m rows, the last one partial. Every op
works on rows x cols views of the static 16x256 ub tiles: both sums reduce over the valid
length of each row (never the unused part of the buffer) and divide by the runtime c.
Compiled once, it runs at any size: `T.simulate(layernorm_dyn, bind={"m": 37, "c": 200})`."""

import ascend_mlir.frontend as T

BLOCKS, TR, WIDTH, EPS = 4, 16, 256, 1e-5
M, C = T.symbol("M"), T.symbol("C")


@T.kernel(grid=BLOCKS)
def layernorm_dyn(x: T.Tensor((M, C), "f32"), gamma: T.Tensor((1, WIDTH), "f32"),
                  beta: T.Tensor((1, WIDTH), "f32"), y: T.Tensor((M, C), "f32"), m: M, c: C):
    g_row = T.alloc((1, WIDTH), "f32", "ub")
    b_row = T.alloc((1, WIDTH), "f32", "ub")
    g_wide = T.alloc((TR, WIDTH), "f32", "ub")
    b_wide = T.alloc((TR, WIDTH), "f32", "ub")
    ux = T.alloc((TR, WIDTH), "f32", "ub")
    xc = T.alloc((TR, WIDTH), "f32", "ub")
    sq = T.alloc((TR, WIDTH), "f32", "ub")
    mean = T.alloc((TR, 1), "f32", "ub")
    rstd = T.alloc((TR, 1), "f32", "ub")
    wide = T.alloc((TR, WIDTH), "f32", "ub")
    uy = T.alloc((TR, WIDTH), "f32", "ub")
    cols = T.min(c, WIDTH)
    inv_c = 1.0 / T.cast(cols, "f32")
    T.copy(gamma, g_row)
    T.copy(beta, b_row)
    T.broadcast(g_row, g_wide, dim=0)
    T.broadcast(b_row, b_wide, dim=0)
    tiles = (m + (TR - 1)) // TR
    for t in T.pipelined((T.block_idx(), tiles, BLOCKS), num_stages=2):
        row0 = t * TR
        rows = T.min(m - row0, TR)
        vx = ux[0:rows, 0:cols]
        vxc = xc[0:rows, 0:cols]
        vsq = sq[0:rows, 0:cols]
        vwide = wide[0:rows, 0:cols]
        vy = uy[0:rows, 0:cols]
        vg = g_wide[0:rows, 0:cols]
        vb = b_wide[0:rows, 0:cols]
        vmean = mean[0:rows, 0:1]
        vrstd = rstd[0:rows, 0:1]
        xs = x[row0:row0 + rows, 0:cols]
        ys = y[row0:row0 + rows, 0:cols]
        T.copy(xs, vx)
        T.reduce_sum(vx, vmean, dim=1)
        T.mul(vmean, inv_c, vmean)
        T.broadcast(vmean, vwide, dim=1)
        T.sub(vx, vwide, vxc)
        T.mul(vxc, vxc, vsq)
        T.reduce_sum(vsq, vrstd, dim=1)
        T.mul(vrstd, inv_c, vrstd)
        T.add(vrstd, EPS, vrstd)
        T.rsqrt(vrstd, vrstd)
        T.broadcast(vrstd, vwide, dim=1)
        T.mul(vxc, vwide, vy)
        T.mul(vy, vg, vy)
        T.add(vy, vb, vy)
        T.copy(vy, ys)


if __name__ == "__main__":
    print(layernorm_dyn.to_mlir(), end="")
