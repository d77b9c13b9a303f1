"""numpy reference of triton's softmax_row_kernel (tools/triton-dumps/kernels.py).

Arguments as the bishengir dump names them: arg3 = out, arg4 = in, arg5 = row_stride,
arg6 = n_cols, arg7 = rows (the launch grid's x; arg8, arg9: its y and z). Row r holds
n_cols values at r * row_stride; the rest of out is not written."""

import numpy as np


def reference(arg3, arg4, arg5, arg6, arg7, **_):
    out = arg3
    for r in range(arg7):
        x = arg4[r * arg5: r * arg5 + arg6].astype(np.float64)
        e = np.exp(x - x.max())
        out[r * arg5: r * arg5 + arg6] = e / e.sum()
    return {"arg3": out}
