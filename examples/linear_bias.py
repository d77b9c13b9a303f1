"""y = x @ w + bias, a MIX kernel written with expressions: bf16 x (512x1024) and w
(1024x1024), fp32 bias row and y. Each of the 32 blocks accumulates a 128x128 fp32 tile
in L0C over a K loop of 16 steps of 64, then the vector core adds the bias row
(broadcast over the rows implicitly) on the way out. `make` builds other sizes."""

import ascend_mlir.frontend as T


def make(m: int = 512, k: int = 1024, n: int = 1024, tm: int = 128, tn: int = 128, tk: int = 64) -> T.Kernel:
    @T.kernel(grid=(m // tm) * (n // tn))
    def linear_bias(x: T.Tensor((m, k), "bf16"), w: T.Tensor((k, n), "bf16"),
                    bias: T.Tensor((1, n), "f32"), y: T.Tensor((m, n), "f32")):
        block = T.block_idx()
        m0, n0 = block // (n // tn) * tm, block % (n // tn) * tn
        lx = T.alloc((tm, tk), "bf16", "cbuf")
        lw = T.alloc((tk, tn), "bf16", "cbuf")
        acc = T.alloc((tm, tn), "f32", "cc")
        for j in T.pipelined(range(k // tk), num_stages=2):
            T.copy(x[m0:m0 + tm, j * tk:(j + 1) * tk], lx)
            T.copy(w[j * tk:(j + 1) * tk, n0:n0 + tn], lw)
            T.matmul(lx, lw, acc, init=(j == 0))
        y[m0:m0 + tm, n0:n0 + tn] = T.load(acc) + T.load(bias[:, n0:n0 + tn])

    return linear_bias


linear_bias = make()

if __name__ == "__main__":
    print(linear_bias.to_mlir(), end="")
