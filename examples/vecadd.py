"""z = x + y on 32768 fp32 elements (twin of vecadd.mlir): 8 blocks, each a loop over 8
tiles of 512 elements staged through the unified buffer; up to 2 buffer versions.
`make_vecadd` builds the same kernel for other tile sizes, stage counts and block
counts (what `ascend-tune` sweeps); `vecadd` is the hand-picked variant."""

import ascend_mlir.frontend as T

N, BLOCKS, TILE = 32768, 8, 512


def make_vecadd(tile: int = TILE, num_stages: int = 2, blocks: int = BLOCKS, n: int = N) -> T.Kernel:
    if n % blocks or (n // blocks) % tile:
        raise ValueError(f"{n} elements do not split into {blocks} blocks of {tile}-element tiles")
    per_block = n // blocks

    @T.kernel(grid=blocks)
    def vecadd(x: T.Tensor((n,), "f32"), y: T.Tensor((n,), "f32"), z: T.Tensor((n,), "f32")):
        base = T.block_idx() * per_block
        ux = T.alloc((tile,), "f32", "ub")
        uy = T.alloc((tile,), "f32", "ub")
        uz = T.alloc((tile,), "f32", "ub")
        for i in T.pipelined(range(per_block // tile), num_stages=num_stages):
            off = base + i * tile
            xs, ys, zs = x[off:off + tile], y[off:off + tile], z[off:off + tile]
            T.copy(xs, ux)
            T.copy(ys, uy)
            T.add(ux, uy, uz)
            T.copy(uz, zs)

    return vecadd


vecadd = make_vecadd()


if __name__ == "__main__":
    print(vecadd.to_mlir(), end="")
