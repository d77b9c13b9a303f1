"""Numeric conventions shared by the reference interpreter and the simulator.

Storage convention (one place, so reference and simulator agree bit for bit):

* every memref is a numpy array whose dtype is `storage_dtype(element_type)`;
* f32 -> float32, f16 -> float16, f64 -> float64, integers -> the numpy integer of that
  width (signless integers are stored signed), i1 -> bool, index -> int64;
* **bf16 is stored as float32 whose values are exactly representable in bf16** (the low 16
  bits of every element are zero). Arithmetic on bf16 therefore runs in float32 and every
  result written to a bf16 memref is rounded with `round_to_bf16` (round to nearest, ties to
  even, on the upper 16 bits; NaN stays NaN). numpy has no bf16 type; float32 storage keeps
  every numpy operation available and makes "is this a legal bf16 value" a cheap check.

Arithmetic convention: elementwise vector ops compute in float32 (float64 for f64) and
round once to the destination type; matmul multiplies bf16/f16 operands exactly in float32
and accumulates in float32 (the cube unit's L0C accumulator is fp32).
"""

from __future__ import annotations

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


class UnsupportedElementType(ValueError):
    """An element type the reference numerics do not model."""


def is_bf16(element_type: Attribute) -> bool:
    return isinstance(element_type, BFloat16Type)


def is_float(element_type: Attribute) -> bool:
    return isinstance(element_type, BFloat16Type | Float16Type | Float32Type | Float64Type)


def storage_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype a memref of `element_type` is stored in (see module docstring)."""
    if isinstance(element_type, Float32Type | BFloat16Type):
        return np.dtype(np.float32)
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


def round_to_bf16(values: np.ndarray) -> np.ndarray:
    """Round float32 values to the nearest bf16 (ties to even); result is float32."""
    as_f32 = np.ascontiguousarray(values, dtype=np.float32)
    bits = as_f32.view(np.uint32).astype(np.uint64)
    lsb = (bits >> np.uint64(16)) & np.uint64(1)
    rounded = ((bits + np.uint64(0x7FFF) + lsb) & np.uint64(0xFFFF0000)).astype(np.uint32)
    result = rounded.view(np.float32).reshape(as_f32.shape)
    # NaN payloads could round into infinity: keep them NaN.
    return np.where(np.isnan(as_f32), np.float32(np.nan), result)


def convert(values: np.ndarray | float | int, dtype: np.dtype) -> np.ndarray:
    """Convert computed values to a numpy `dtype` natively held (every storage dtype but
    bf16's, which needs `round_to_bf16` first): floats round to nearest even, float ->
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
    if is_bf16(element_type):
        with np.errstate(over="ignore", invalid="ignore"):
            return round_to_bf16(np.asarray(values).astype(np.float32))
    return convert(values, storage_dtype(element_type))


def is_representable(values: np.ndarray, element_type: Attribute) -> bool:
    """Whether `values` already are legal stored values of `element_type`."""
    values = np.asarray(values)
    if values.dtype != storage_dtype(element_type):
        return False
    if is_bf16(element_type):
        finite = values[np.isfinite(values)]
        return bool(np.all(finite.view(np.uint32) & np.uint32(0xFFFF) == 0))
    return True
