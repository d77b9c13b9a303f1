"""The tutorial's kernel: out = 2 * x + y on 16384 fp32 elements.

4 blocks (AI cores); each handles 4096 elements as 4 tiles of 1024 staged through the
unified buffer (ub). `pipelined(..., num_stages=2)` lets the compiler keep two versions
of each buffer, so tile i+1 can be loaded while tile i is computed and stored.

    python docs/tutorial/axpy.py            # print the tile-level MLIR
    python docs/tutorial/axpy.py --report   # compile, schedule and simulate: the report
"""

import sys

import ascend_mlir.frontend as T

N, BLOCKS, TILE = 16384, 4, 1024
PER_BLOCK = N // BLOCKS


@T.kernel(grid=BLOCKS)
def axpy(x: T.Tensor((N,), "f32"), y: T.Tensor((N,), "f32"), out: T.Tensor((N,), "f32")):
    base = T.block_idx() * PER_BLOCK
    ux = T.alloc((TILE,), "f32", "ub")
    uy = T.alloc((TILE,), "f32", "ub")
    uo = T.alloc((TILE,), "f32", "ub")
    for i in T.pipelined(range(PER_BLOCK // TILE), num_stages=2):
        off = base + i * TILE
        T.copy(x[off:off + TILE], ux)
        T.copy(y[off:off + TILE], uy)
        T.mul(ux, 2.0, ux)
        T.add(ux, uy, uo)
        T.copy(uo, out[off:off + TILE])


if __name__ == "__main__":
    if "--report" in sys.argv:
        print(T.compile(axpy).report.summary())
    else:
        print(axpy.to_mlir(), end="")
