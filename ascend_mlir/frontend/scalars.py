"""Scalars in kernel code: float and integer values known only when the kernel runs.

A kernel parameter annotated `eps: T.Scalar("f32")` is an `f32` argument of the kernel
(`f16`, `bf16`, `f32`, `i32`, `i64`); in the body it is a `ScalarValue`. So is
`T.cast(n, "f32")` of a device index (`index_cast` to i64, then `sitofp`) or of another
scalar. Scalar values combine with `+ - * /` (and unary `-`) with each other and with
Python numbers, emitted as `arith` ops where they are written, and are the scalar
operand of the vector ops wherever a number is (`T.mul(t, 1.0 / T.cast(cols, "f32"), t)`,
`t * eps`). Both operands of an arithmetic op have one type: a scalar's type is its own,
a number takes the other operand's; a vector op takes a scalar of its tile's element type.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerType, i64
from xdsl.ir import Attribute, SSAValue

from ascend_mlir.frontend.builder import Index, current_scope, fail
from ascend_mlir.frontend.types import element_type

SCALAR_DTYPES = ("f16", "bf16", "f32", "i32", "i64")


@dataclass(frozen=True)
class Scalar:
    """The annotation of a scalar kernel argument: `eps: T.Scalar("f32")`."""

    dtype: str

    def __post_init__(self) -> None:
        if self.dtype not in SCALAR_DTYPES:
            raise fail(f"a scalar argument is one of {', '.join(SCALAR_DTYPES)}, got {self.dtype!r}")

    def type(self) -> Attribute:
        return element_type(self.dtype)


_FLOAT_OPS = {"+": arith.AddfOp, "-": arith.SubfOp, "*": arith.MulfOp, "/": arith.DivfOp}
_INT_OPS = {"+": arith.AddiOp, "-": arith.SubiOp, "*": arith.MuliOp, "/": arith.DivSIOp}


def _emit(op):
    scope = current_scope()
    scope.index_ops.append(op)  # placed where written; erased at the end when unused
    scope.remember(op.results[0])
    return ScalarValue(op.results[0])


class ScalarValue:
    """A float or integer value in kernel code (see the module doc)."""

    def __init__(self, value: SSAValue):
        self.value = value

    @property
    def type(self) -> Attribute:
        return self.value.type

    def _operand(self, other: object) -> SSAValue:
        if isinstance(other, ScalarValue):
            if other.type != self.type:
                raise fail(f"scalars of types {self.type} and {other.type} do not combine: T.cast one of them")
            return other.value
        if isinstance(other, bool) or not isinstance(other, int | float):
            raise fail(f"a {self.type} scalar combines with scalars and numbers, not {type(other).__name__}")
        if isinstance(self.type, IntegerType) and not float(other).is_integer():
            raise fail(f"{other} is not an integer, the scalar is {self.type}")
        return current_scope().constant(other if isinstance(self.type, AnyFloat) else int(other), self.type)

    def _binary(self, other: object, symbol: str, swap: bool = False) -> ScalarValue:
        lhs, rhs = self.value, self._operand(other)
        if swap:
            lhs, rhs = rhs, lhs
        table = _FLOAT_OPS if isinstance(self.type, AnyFloat) else _INT_OPS
        return _emit(table[symbol](lhs, rhs))

    def __add__(self, other: object) -> ScalarValue:
        return self._binary(other, "+")

    def __radd__(self, other: object) -> ScalarValue:
        return self._binary(other, "+", swap=True)

    def __sub__(self, other: object) -> ScalarValue:
        return self._binary(other, "-")

    def __rsub__(self, other: object) -> ScalarValue:
        return self._binary(other, "-", swap=True)

    def __mul__(self, other: object) -> ScalarValue:
        return self._binary(other, "*")

    def __rmul__(self, other: object) -> ScalarValue:
        return self._binary(other, "*", swap=True)

    def __truediv__(self, other: object) -> ScalarValue:
        return self._binary(other, "/")

    def __rtruediv__(self, other: object) -> ScalarValue:
        return self._binary(other, "/", swap=True)

    def __neg__(self) -> ScalarValue:
        return self._binary(0, "-", swap=True)

    def __bool__(self) -> bool:
        raise fail("a scalar is known only when the kernel runs: it has no truth value while the kernel is built")

    def __repr__(self) -> str:
        return f"ScalarValue({self.type})"


def scalar_cast(source: Index | ScalarValue, dtype: str | Attribute) -> ScalarValue:
    """`source` as a scalar of `dtype`: an index through i64 (`index_cast`), then
    `sitofp` to a float type; an integer scalar by `sitofp`/`extsi`/`trunci`; a float
    scalar by `extf`/`truncf`."""
    target = element_type(dtype)
    if not isinstance(target, AnyFloat | IntegerType):
        raise fail(f"a scalar cast goes to a float or integer type, not {target}")
    value = source.value
    if isinstance(source, Index):
        wide = target if isinstance(target, IntegerType) else i64
        value = _emit(arith.IndexCastOp(value, wide)).value
    current = value.type
    if current == target:
        return ScalarValue(value)
    if isinstance(current, IntegerType) and isinstance(target, AnyFloat):
        return _emit(arith.SIToFPOp(value, target))
    if isinstance(current, IntegerType) and isinstance(target, IntegerType):
        wider = target.width.data > current.width.data
        return _emit(arith.ExtSIOp(value, target) if wider else arith.TruncIOp(value, target))
    if isinstance(current, AnyFloat) and isinstance(target, AnyFloat):
        wider = target.bitwidth > current.bitwidth
        return _emit(arith.ExtFOp(value, target) if wider else arith.TruncFOp(value, target))
    if isinstance(current, AnyFloat) and isinstance(target, IntegerType):
        return _emit(arith.FPToSIOp(value, target))
    raise fail(f"no scalar cast from {current} to {target}")
