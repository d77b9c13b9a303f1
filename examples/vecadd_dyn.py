"""z = x + y over n fp32 elements, n known only at run time (twin of vecadd_dyn.mlir):
8 blocks take the 512-element tiles t = block, block + 8, ... of the n elements; the last
tile is partial, min(512, n - 512 t) elements through views of the static ub buffers.
Compiled once, it runs at any n: `T.simulate(vecadd_dyn, bind={"n": 1000})`, or
`ascend-sim examples/vecadd_dyn.mlir --bind n=1000`."""

import ascend_mlir.frontend as T

BLOCKS, TILE = 8, 512
N = T.symbol("N")


@T.kernel(grid=BLOCKS)
def vecadd_dyn(x: T.Tensor((N,), "f32"), y: T.Tensor((N,), "f32"), z: T.Tensor((N,), "f32"), n: N):
    ux = T.alloc((TILE,), "f32", "ub")
    uy = T.alloc((TILE,), "f32", "ub")
    uz = T.alloc((TILE,), "f32", "ub")
    tiles = (n + (TILE - 1)) // TILE
    for t in T.pipelined((T.block_idx(), tiles, BLOCKS), num_stages=2):
        off = t * TILE
        size = T.min(n - off, TILE)
        T.copy(x[off:off + size], ux[0:size])
        T.copy(y[off:off + size], uy[0:size])
        T.add(ux[0:size], uy[0:size], uz[0:size])
        T.copy(uz[0:size], z[off:off + size])


if __name__ == "__main__":
    print(vecadd_dyn.to_mlir(), end="")
