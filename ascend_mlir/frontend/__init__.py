"""The Python DSL of ascend-mlir: write a tile kernel as a Python function.

```python
import ascend_mlir.frontend as T

@T.kernel(grid=8)
def vecadd(x: T.Tensor((32768,), "f32"), y: T.Tensor((32768,), "f32"),
           z: T.Tensor((32768,), "f32")):
    base = T.block_idx() * 4096
    ux, uy, uz = (T.alloc((512,), "f32", "ub") for _ in range(3))
    for i in T.pipelined(range(8), num_stages=2):
        off = base + i * 512
        T.copy(x[off:off + 512], ux)
        T.copy(y[off:off + 512], uy)
        T.add(ux, uy, uz)
        T.copy(uz, z[off:off + 512])

text, report = T.compile(vecadd, target="npuir")
result = T.simulate(vecadd)          # oracle: races, deadlock, reference match, cycles
```
`T.autotune(make_kernel, {"tile": [256, 512], "num_stages": [1, 2]})` sweeps a kernel
factory (see `ascend_mlir.tune` and the `ascend-tune` command).
Each op carries the Python line that wrote it as its location; misuse is a `DSLError`
naming that line. Building uses xDSL's `Builder`/`ImplicitBuilder` (see `builder.py`).
"""

from typing import Any

from ascend_mlir.frontend.builder import Bool, DSLError, Index, report_uncaught_errors
from ascend_mlir.frontend.driver import CompileError, Compiled, Report, SimReport, compile, simulate, simulate_sizes
from ascend_mlir.frontend.kernel import Kernel, Symbol, Tensor, kernel, symbol
from ascend_mlir.frontend.ops import (
    abs,
    add,
    alloc,
    block_idx,
    broadcast,
    cast,
    copy,
    div,
    exp,
    fill,
    ln,
    load,
    log,
    matmul,
    maximum,
    minimum,
    mul,
    pipelined,
    rec,
    reduce_max,
    reduce_min,
    reduce_sum,
    relu,
    rsqrt,
    sigmoid,
    sqrt,
    sub,
    sub_block_idx,
    tanh,
)
from ascend_mlir.frontend.ops import index_max as max  # noqa: A004 (T.max on device indices)
from ascend_mlir.frontend.ops import index_min as min  # noqa: A004 (T.min on device indices)
from ascend_mlir.frontend.scalars import Scalar, ScalarValue
from ascend_mlir.frontend.tiles import Tile

__all__ = [
    "Bool", "CompileError", "Scalar", "ScalarValue", "Compiled", "DSLError", "Index", "Kernel", "Report", "SimReport",
    "Tensor", "Tile", "abs", "add", "alloc", "block_idx", "broadcast", "cast", "compile", "copy",
    "div", "exp", "fill", "kernel", "ln", "load", "log", "matmul", "maximum", "minimum", "mul", "pipelined",
    "rec", "reduce_max", "reduce_min", "reduce_sum", "relu", "rsqrt", "sigmoid", "simulate", "sqrt",
    "sub", "sub_block_idx", "tanh", "Symbol", "symbol", "min", "max", "simulate_sizes",
]


# a script that lets a DSLError or CompileError escape ends with its located message
# and status 1, as the command-line tools do, instead of a traceback into our internals
report_uncaught_errors((DSLError, CompileError))


def __getattr__(name: str) -> Any:
    # `autotune` is ascend_mlir.tune's, which builds on this package: re-exported lazily
    # so that the DSL does not import the tuner (and the tuner may import the DSL)
    if name == "autotune":
        from ascend_mlir.tune import autotune

        return autotune
    raise AttributeError(f"module 'ascend_mlir.frontend' has no attribute {name!r}")
