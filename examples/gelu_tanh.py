"""GELU (tanh approximation) of a bf16 matrix, written with expressions:
    y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
computed in fp32 (each 16-row tile is converted on load and back on store), with
0.5 * (1 + tanh(u)) spelled sigmoid(2u), four vector ops instead of seven. The compiler
allocates and reuses the unified-buffer temporaries; `make` builds other sizes."""

import ascend_mlir.frontend as T

SQRT_2_OVER_PI = 0.7978845608028654


def make(rows: int = 512, cols: int = 512, blocks: int = 8, tile_rows: int = 16) -> T.Kernel:
    per_block = rows // blocks

    @T.kernel(grid=blocks)
    def gelu_tanh(x: T.Tensor((rows, cols), "bf16"), y: T.Tensor((rows, cols), "bf16")):
        base = T.block_idx() * per_block
        for i in T.pipelined(range(per_block // tile_rows), num_stages=2):
            r = base + i * tile_rows
            v = T.load(x[r:r + tile_rows, :]).astype("f32")
            u = (v + 0.044715 * v * v * v) * SQRT_2_OVER_PI
            y[r:r + tile_rows, :] = (v * T.sigmoid(2 * u)).astype("bf16")  # 0.5 (1 + tanh u) = sigmoid 2u

    return gelu_tanh


gelu_tanh = make()

if __name__ == "__main__":
    print(gelu_tanh.to_mlir(), end="")
