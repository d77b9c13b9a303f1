"""Numeric conventions shared by the reference interpreter and the simulator.

Storage convention (one place, so reference, simulator, CCE route and ascend-sim agree bit
for bit): every memref, every generated input and every output is a numpy array whose
dtype is `storage_dtype(element_type)`:

* f32 -> float32, f16 -> float16, f64 -> float64, integers -> the numpy integer of that
  width (signless integers are stored signed), i1 -> bool, index -> int64;
* **bf16 -> ml_dtypes.bfloat16** (`BF16`), in the reference's arrays as in the
  simulator's device memories: the same 16 bits everywhere, no float32 stand-in.

Arithmetic convention: operands are read in `compute_dtype` (float32 for bf16/f16/f32,
float64 for f64; exact widenings), elementwise vector ops compute there and round once to
the destination type with `to_storage` (bf16: ml_dtypes' rounding, nearest even, NaN stays
NaN); matmul multiplies its operands exactly in float64, sums there and rounds the sum once to
float32 (the cube unit's L0C accumulator is fp32; a float32 sum would take its last bits
from the order of the CPU's BLAS kernel, which differs between machines). Never compute on bf16 arrays directly: numpy
would round every intermediate step to bf16. exp and ln of float32 (and narrower)
operands are computed in float64 and rounded once to float32 (`in_double`): numpy's
float32 loops are vectorised approximations, off by one last bit for about 40% of
exp's inputs and chosen by the CPU's SIMD level, so they are neither reproducible across
machines nor what the CCE emulation computes (tools/cce-emu: `(float)std::exp((double)x)`,
equal to this bit for bit: 0 differences in 2 million inputs).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute


# the one bf16 numpy type (ml_dtypes): the simulator's memories hold it, the reference
# rounds through it
BF16 = np.dtype(ml_dtypes.bfloat16)


class UnsupportedElementType(ValueError):
    """An element type the reference numerics do not model."""


def is_bf16(element_type: Attribute) -> bool:
    return isinstance(element_type, BFloat16Type)


def is_float(element_type: Attribute) -> bool:
    return isinstance(element_type, BFloat16Type | Float16Type | Float32Type | Float64Type)


def storage_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype a memref of `element_type` is stored in (see module docstring)."""
    if isinstance(element_type, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element_type, BFloat16Type):
        return BF16
    if isinstance(element_type, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element_type, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        if width == 1:
            return np.dtype(np.bool_)
        if width in (8, 16, 32, 64):
            unsigned = element_type.signedness.data.name == "UNSIGNED"
            return np.dtype(f"{'u' if unsigned else ''}int{width}")
    raise UnsupportedElementType(f"element type {element_type} is not supported")


def compute_dtype(element_type: Attribute) -> np.dtype:
    """The dtype vector arithmetic on `element_type` runs in before rounding."""
    if isinstance(element_type, Float64Type):
        return np.dtype(np.float64)
    if is_float(element_type):
        return np.dtype(np.float32)
    return storage_dtype(element_type)


def is_float_array(values: np.ndarray) -> bool:
    """A float array, bf16 included (ml_dtypes' dtypes have numpy kind 'V', not 'f')."""
    return values.dtype.kind == "f" or values.dtype == BF16


def round_to_bf16(values: np.ndarray) -> np.ndarray:
    """Round float32 values to the nearest bf16 (ties to even; NaN stays NaN), returned
    widened to float32 (a computation helper; bf16 storage is `to_storage`'s). ml_dtypes'
    conversion (bit for bit the hardware's rounding)."""
    as_f32 = np.asarray(values, dtype=np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        return as_f32.astype(BF16).astype(np.float32)


def convert(values: np.ndarray | float | int, dtype: np.dtype) -> np.ndarray:
    """Convert computed values to a numpy `dtype` natively held (every storage dtype but
    bf16's, which `to_storage` rounds through float32): floats round to nearest even, float ->
    integer is rint + saturation (NaN -> 0), anything -> i1 is "non-zero".

    The simulator's 16-bit-pattern storage uses this too (sim/numerics.py)."""
    array = np.asarray(values)
    with np.errstate(over="ignore", invalid="ignore"):
        if dtype.kind == "f" or dtype == np.bool_:
            return array.astype(dtype)
        if array.dtype.kind == "f":
            info = np.iinfo(dtype)
            clipped = np.clip(np.rint(array), info.min, info.max)
            return np.nan_to_num(clipped, nan=0).astype(dtype)
        return array.astype(dtype)


def to_storage(values: np.ndarray | float | int, element_type: Attribute) -> np.ndarray:
    """Convert computed values to the storage of `element_type`, rounding as the hardware
    does for floats (nearest even) and with rint + saturation for float -> integer."""
    if is_bf16(element_type):  # one rounding, float32 -> bf16 (exact when already bf16)
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(values).astype(np.float32).astype(BF16)
    return convert(values, storage_dtype(element_type))


def is_representable(values: np.ndarray, element_type: Attribute) -> bool:
    """Whether `values` already are legal stored values of `element_type`."""
    return np.asarray(values).dtype == storage_dtype(element_type)


# ------------------------------------------------------------------ elementwise semantics
# One table for the tile ops (reference) and the hivm vector ops (simulator), keyed by the
# op's kind: `tile.add` and `hivm.hir.vadd` are both "add" (`elementwise_kind`).


def divide(lhs, rhs, integer: bool):
    """Vector division: floats IEEE; integers truncate toward zero (C semantics), x / 0 -> 0."""
    if integer:
        lhs_a, rhs_a = np.asarray(lhs), np.asarray(rhs)
        safe = np.where(rhs_a == 0, 1, rhs_a)
        quotient = np.trunc(lhs_a.astype(np.float64) / safe).astype(np.result_type(lhs_a, rhs_a))
        return np.where(rhs_a == 0, 0, quotient)
    return np.divide(lhs, rhs)


BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
}
def in_double(fn):
    """`fn` of a float32 (or narrower) operand computed in float64 and rounded once to the
    operand's type (see the module docstring); other operands as they are."""

    def run(values):
        values = np.asarray(values)
        if values.dtype.kind == "f" and values.dtype.itemsize < 8:
            return fn(values.astype(np.float64)).astype(values.dtype)
        return fn(values)

    return run


UNARY = {
    "exp": in_double(np.exp),
    "ln": in_double(np.log),
    "relu": lambda x: np.maximum(x, 0),
    "abs": np.abs,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "rec": lambda x: 1 / x,
}
def _extreme(reduce, pick):
    """max/min that give the reduction's identity over an empty extent (a partial row of
    runtime length 0): -inf/+inf for floats, the integer type's bound for integers."""

    def run(values, axis=None, keepdims=False):
        values = np.asarray(values)
        if values.size:
            return reduce(values, axis=axis, keepdims=keepdims)
        if values.dtype.kind == "f" or values.dtype.kind == "V":
            identity = -np.inf if pick == "max" else np.inf
        else:
            info = np.iinfo(values.dtype) if values.dtype.kind in "iu" else None
            identity = (info.min if pick == "max" else info.max) if info is not None else 0
        return reduce(values, axis=axis, keepdims=keepdims, initial=identity)

    return run


REDUCE = {"sum": np.sum, "prod": np.prod, "max": _extreme(np.max, "max"), "min": _extreme(np.min, "min"),
          "any": np.any, "all": np.all}


def elementwise_kind(op_name: str) -> str:
    """"tile.add" -> "add", "hivm.hir.vadd" -> "add"."""
    if op_name.startswith("hivm.hir.v"):
        return op_name.removeprefix("hivm.hir.v")
    return op_name.removeprefix("tile.")
