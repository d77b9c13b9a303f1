"""z = x + y on 32768 fp32 elements (twin of vecadd.mlir): 8 blocks, each a loop over 8
tiles of 512 elements staged through the unified buffer; up to 2 buffer versions."""

import ascend_mlir.frontend as T

N, BLOCKS, TILE = 32768, 8, 512
PER_BLOCK = N // BLOCKS


@T.kernel(grid=BLOCKS)
def vecadd(x: T.Tensor((N,), "f32"), y: T.Tensor((N,), "f32"), z: T.Tensor((N,), "f32")):
    base = T.block_idx() * PER_BLOCK
    ux = T.alloc((TILE,), "f32", "ub")
    uy = T.alloc((TILE,), "f32", "ub")
    uz = T.alloc((TILE,), "f32", "ub")
    for i in T.pipelined(range(PER_BLOCK // TILE), num_stages=2):
        off = base + i * TILE
        xs, ys, zs = x[off:off + TILE], y[off:off + TILE], z[off:off + TILE]
        T.copy(xs, ux)
        T.copy(ys, uy)
        T.add(ux, uy, uz)
        T.copy(uz, zs)


if __name__ == "__main__":
    print(vecadd.to_mlir(), end="")
