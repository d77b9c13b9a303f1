"""`@kernel(grid=...)`: a Python function over GM tensors that builds a tile-level kernel.

```python
import ascend_mlir.frontend as T

@T.kernel(grid=8)
def vecadd(x: T.Tensor((32768,), "f32"), y: T.Tensor((32768,), "f32"),
           z: T.Tensor((32768,), "f32")):
    ...
```
Calling `vecadd.build()` runs the function body once, with each argument a `Tile` of
the GM memref, and returns the `builtin.module` holding `func.func @vecadd` with
`tile.kernel` and `tile.grid`. The parameter names become the SSA names (`%x`), which
is also how `simulate` names inputs and outputs.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, ModuleOp, UnitAttr, i64
from xdsl.ir import Attribute, Block, Region
from xdsl.printer import Printer

from ascend_mlir.dialects import tile
from ascend_mlir.frontend.builder import (
    DSLError,
    Index,
    UserLocation,
    current_scope,
    fail,
    kernel_scope,
    traceback_location,
    user_location,
)
from ascend_mlir.frontend.scalars import Scalar, ScalarValue
from ascend_mlir.frontend.tiles import Tile
from ascend_mlir.frontend.types import memref_type


@dataclass(frozen=True)
class Symbol:
    """A size known only when the kernel runs: `M = T.symbol("M")`. As a dimension of a
    `Tensor` it makes that dimension dynamic (`memref<?x...>`); as the annotation of a
    parameter (`m: M`) it makes that parameter an `index` argument, an `Index` in the
    body (loop bounds, offsets, `T.min(T_, m - off)` partial sizes). The kernel is
    compiled once and runs at any value (`T.simulate(k, bind={"m": 1000})`,
    `ascend-sim --bind m=1000`)."""

    name: str


def symbol(name: str) -> Symbol:
    """A runtime size named `name` (see `Symbol`)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise DSLError(f"a symbol is named by an identifier, got {name!r}", user_location())
    return Symbol(name)


@dataclass(frozen=True)
class Tensor:
    """The annotation of a GM tensor argument: `x: Tensor((256, 256), "bf16")`; a
    dimension may be a `Symbol` (known at run time)."""

    shape: tuple[int | Symbol, ...]
    dtype: str | Attribute

    def __init__(self, shape, dtype: str | Attribute):
        object.__setattr__(self, "shape", tuple(shape) if not isinstance(shape, int | Symbol) else (shape,))
        object.__setattr__(self, "dtype", dtype)
        # checked here, where the annotation is written: checked when the kernel was
        # built, an unknown dtype or a zero dimension was reported at the console
        # script that built it (`bin/ascend-opt:8:14: error: unknown dtype 'f99'`)
        self.memref_type()

    def memref_type(self) -> MemRefType:
        """Its GM memref type (a Symbol dimension is `?`)."""
        static = [1 if isinstance(d, Symbol) else d for d in self.shape]
        t = memref_type(static, self.dtype, "gm")
        if not any(isinstance(d, Symbol) for d in self.shape):
            return t
        shape = [DYNAMIC_INDEX if isinstance(d, Symbol) else d for d in self.shape]
        return MemRefType(t.element_type, shape, memory_space=t.memory_space)


class Kernel:
    """A DSL kernel: call `build()` for the module, or pass it to `compile`/`simulate`."""

    def __init__(self, fn: Callable[..., None], grid: int, name: str | None, chip: str | None,
                 location: UserLocation | None):
        self.fn = fn
        self.grid = grid
        self.name = name or fn.__name__
        self.chip = chip
        self.location = location
        self.__doc__ = fn.__doc__
        self.__name__ = self.name

    def parameters(self) -> list[tuple[str, Tensor | Symbol | Scalar]]:
        params: list[tuple[str, Tensor | Symbol | Scalar]] = []
        hints = inspect.get_annotations(self.fn, eval_str=True)
        for name in inspect.signature(self.fn).parameters:
            annotation = hints.get(name)
            if not isinstance(annotation, Tensor | Symbol | Scalar):
                raise DSLError(
                    f"kernel parameter '{name}' needs a Tensor annotation, "
                    f"e.g. {name}: Tensor((1024,), 'f32'), a runtime size T.symbol(...) or a runtime "
                    f"scalar T.Scalar('f32')", self.location)
            params.append((name, annotation))
        return params

    def build(self) -> ModuleOp:
        """A fresh module holding this kernel, verified (raises DSLError on misuse)."""
        params = self.parameters()
        arg_types: list[Attribute] = [_argument_type(t) for _, t in params]
        entry = Block(arg_types=arg_types)
        for (name, _), arg in zip(params, entry.args, strict=False):
            arg.name_hint = name
        function = func.FuncOp(self.name, (arg_types, []), Region(entry))
        function.attributes[tile.KERNEL_ATTR] = UnitAttr()
        function.attributes[tile.GRID_ATTR] = IntegerAttr(self.grid, i64)
        if self.location is not None:
            function.location = self.location.attr()
        with kernel_scope(entry) as scope:
            try:
                result = self.fn(*(_body_value(arg, t) for arg, (_, t) in zip(entry.args, params, strict=True)))
            except RecursionError as err:
                raise DSLError(
                    f"the kernel body recursed deeper than Python's limit of {sys.getrecursionlimit()} "
                    "calls (a function that calls itself without end?)",
                    traceback_location(err.__traceback__) or self.location,
                ) from None
            if result is not None:
                raise fail("a kernel returns nothing: it writes its results into its GM tensors")
            ret = func.ReturnOp()
        if self.location is not None:
            ret.location = self.location.attr()
        scope.finish()
        module = ModuleOp([function])
        if self.chip is not None:
            from ascend_mlir.chips import ChipError, load_chip
            from ascend_mlir.dialects import hacc

            try:
                chip = load_chip(self.chip)
            except ChipError as err:
                raise DSLError(str(err), self.location) from None
            target = self.chip if self.chip in chip.hacc_targets else chip.hacc_target
            module.attributes[hacc.TARGET] = hacc.TargetAttr(target)
        _verify(module)
        return module

    def to_mlir(self, locations: bool = False) -> str:
        """The tile-level IR as text (with `loc(...)` of the Python lines if asked)."""
        import io

        stream = io.StringIO()
        Printer(stream=stream, print_debuginfo=locations).print_op(self.build())
        return stream.getvalue() + "\n"

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"kernel '{self.name}' is not called directly: use compile({self.name}) "
            f"or simulate({self.name}, inputs)")


def _argument_type(annotation: Tensor | Symbol | Scalar) -> Attribute:
    if isinstance(annotation, Tensor):
        return annotation.memref_type()
    return annotation.type() if isinstance(annotation, Scalar) else IndexType()


def _body_value(arg, annotation: Tensor | Symbol | Scalar) -> Tile | Index | ScalarValue:
    """What the kernel body gets for an argument: a Tile, an Index (a runtime size) or a
    ScalarValue (a runtime scalar)."""
    if isinstance(arg.type, MemRefType):
        return Tile(arg)
    current_scope().remember(arg)
    return ScalarValue(arg) if isinstance(annotation, Scalar) else Index(arg)


def _verify(module: ModuleOp) -> None:
    from ascend_mlir.diagnostics import verify_module

    problems = verify_module(module)
    if problems:
        first = problems[0]
        loc = first.location
        raise DSLError(first.message, UserLocation(loc.file, loc.line, loc.column) if loc else None)


def kernel(grid: int = 1, *, name: str | None = None, chip: str | None = None):
    """Decorator: `@kernel(grid=8)` (grid = number of blocks, each with `block_idx()`)."""
    location = user_location()
    if isinstance(grid, bool) or not isinstance(grid, int) or grid < 1:
        raise DSLError(f"grid must be a positive int, got {grid!r}", location)
    # checked here, at the decorator's line: a name or chip of another type ended in an
    # AttributeError or TypeError deep in the compiler (`name=3`: 'int' object has no
    # attribute 'endswith')
    if name is not None and (not isinstance(name, str) or not name.isidentifier()):
        raise DSLError(f"name must be an identifier (a str), got {name!r}", location)
    if chip is not None and not isinstance(chip, str):
        raise DSLError(f"chip must be a chip name or chip file path (a str), got {chip!r}", location)

    def wrap(fn: Callable[..., None]) -> Kernel:
        loc = location
        code = getattr(fn, "__code__", None)
        if code is not None and loc is not None:
            loc = UserLocation(loc.file, code.co_firstlineno, 1)
        return Kernel(fn, grid, name, chip, loc)

    return wrap
