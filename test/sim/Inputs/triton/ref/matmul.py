"""numpy reference of triton's matmul_kernel (tools/triton-dumps/kernels.py): C = A @ B
with fp16 operands multiplied exactly and accumulated in fp32 (the cube's L0C).

Arguments as the bishengir dump names them: arg3 = A (M x K, row-major, flat), arg4 = B
(K x N), arg5 = C (M x N, fp32), arg6 = M, arg7 = N, arg8 = K (arg9..arg11: the launch
grid, M / 64 x N / 64 x 1 blocks rounded up)."""

import numpy as np


def reference(arg3, arg4, arg5, arg6, arg7, arg8, **_):
    m, n, k = arg6, arg7, arg8
    a = arg3[: m * k].reshape(m, k).astype(np.float32)
    b = arg4[: k * n].reshape(k, n).astype(np.float32)
    out = arg5.copy()
    out[: m * n] = (a @ b).reshape(-1)
    return {"arg5": out}
