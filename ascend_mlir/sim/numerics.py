"""Element types of the simulator's byte-addressed memories.

The simulator keeps every on-chip memory and every GM argument as raw bytes (so that
planned buffers at the same scope+offset alias, as on the device). An element type is
stored in its real width: f32/f16/f64 natively, **bf16 as its 16-bit pattern (uint16)**,
integers in their width, i1 as one byte, index as int64.

Arithmetic follows the reference interpreter's convention (sim/reference_numerics.py):
vector ops compute in float32 (float64 for f64), matmul multiplies 16-bit operands exactly
in float32 and accumulates in float32, and every result is rounded once to its
destination type (nearest even; float -> integer is rint with saturation). `vcast` also
honours its other round modes (round, floor, ceil, trunc, odd).
"""

from __future__ import annotations

from dataclasses import dataclass

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


class UnsupportedType(ValueError):
    pass


@dataclass(frozen=True)
class ElemType:
    name: str  # "f32" "f16" "bf16" "f64" "i8".."i64" "ui8".. "i1" "index"
    storage: np.dtype  # dtype of the bytes in memory
    compute: np.dtype  # dtype arithmetic runs in

    @property
    def itemsize(self) -> int:
        return self.storage.itemsize

    @property
    def is_float(self) -> bool:
        return self.name in ("f32", "f16", "bf16", "f64")

    @property
    def is_bf16(self) -> bool:
        return self.name == "bf16"

    @property
    def bits(self) -> int:
        return 1 if self.name == "i1" else self.storage.itemsize * 8


F32 = ElemType("f32", np.dtype(np.float32), np.dtype(np.float32))
F16 = ElemType("f16", np.dtype(np.float16), np.dtype(np.float32))
BF16 = ElemType("bf16", np.dtype(np.uint16), np.dtype(np.float32))
F64 = ElemType("f64", np.dtype(np.float64), np.dtype(np.float64))


def elem_type(attr: Attribute) -> ElemType:
    if isinstance(attr, Float32Type):
        return F32
    if isinstance(attr, Float16Type):
        return F16
    if isinstance(attr, BFloat16Type):
        return BF16
    if isinstance(attr, Float64Type):
        return F64
    if isinstance(attr, IndexType):
        return ElemType("index", np.dtype(np.int64), np.dtype(np.int64))
    if isinstance(attr, IntegerType):
        width = attr.width.data
        if width == 1:
            return ElemType("i1", np.dtype(np.bool_), np.dtype(np.bool_))
        if width in (8, 16, 32, 64):
            unsigned = attr.signedness.data.name == "UNSIGNED"
            dtype = np.dtype(f"{'u' if unsigned else ''}int{width}")
            return ElemType(f"{'ui' if unsigned else 'i'}{width}", dtype, dtype)
    raise UnsupportedType(f"element type {attr} is not supported by the simulator")


# ----------------------------------------------------------------------------- bf16


def bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    shape = np.shape(bits)
    wide = np.ascontiguousarray(bits, dtype=np.uint16).reshape(-1).astype(np.uint32) << np.uint32(16)
    return wide.view(np.float32).reshape(shape)


def f32_to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """Round float32 to bf16 (nearest, ties to even); NaN stays NaN."""
    shape = np.shape(values)
    f = np.ascontiguousarray(values, dtype=np.float32).reshape(-1)
    bits = f.view(np.uint32).astype(np.uint64)
    lsb = (bits >> np.uint64(16)) & np.uint64(1)
    rounded = ((bits + np.uint64(0x7FFF) + lsb) >> np.uint64(16)).astype(np.uint16)
    return np.where(np.isnan(f), np.uint16(0x7FC0), rounded).reshape(shape)


# ------------------------------------------------------------------ decode / encode


def decode(stored: np.ndarray, et: ElemType) -> np.ndarray:
    """Stored values -> a fresh array in the compute dtype."""
    if et.is_bf16:
        return bf16_bits_to_f32(stored)
    return np.array(stored, dtype=et.compute, copy=True)


def to_reference_storage(stored: np.ndarray, et: ElemType) -> np.ndarray:
    """Stored values in the reference interpreter's convention (bf16 as float32)."""
    if et.is_bf16:
        return bf16_bits_to_f32(stored)
    return np.array(stored, copy=True)


def from_reference_storage(values: np.ndarray, et: ElemType) -> np.ndarray:
    """Reference-convention values (bf16 as float32) -> stored values."""
    return encode(np.asarray(values), et)


def encode(values, et: ElemType) -> np.ndarray:
    """Computed values -> stored values, rounded to nearest even (floats) or with rint and
    saturation (float -> integer)."""
    array = np.asarray(values)
    with np.errstate(over="ignore", invalid="ignore"):
        if et.is_bf16:
            return f32_to_bf16_bits(array.astype(np.float32))
        if et.is_float:
            return array.astype(et.storage)
        if et.storage == np.bool_:
            return array.astype(np.bool_)
        if array.dtype.kind == "f":
            info = np.iinfo(et.storage)
            clipped = np.clip(np.rint(array), info.min, info.max)
            return np.nan_to_num(clipped, nan=0).astype(et.storage)
        return array.astype(et.storage)


# ------------------------------------------------------------------ vcast round modes


def _step(stored: np.ndarray, et: ElemType, up: bool) -> np.ndarray:
    """The next representable value above (up) or below a stored float value."""
    if et.is_bf16:
        bits = stored.astype(np.int32)
        negative = (bits & 0x8000) != 0
        magnitude = bits & 0x7FFF
        toward_larger_magnitude = negative != up
        zero = magnitude == 0
        new = np.where(toward_larger_magnitude, bits + 1, bits - 1)
        # from +-0 going away from zero in the other direction flips the sign
        new = np.where(zero & ~toward_larger_magnitude, (bits ^ 0x8000) + 1, new)
        return new.astype(np.uint16)
    target = np.inf if up else -np.inf
    return np.nextafter(stored, np.asarray(target, dtype=et.storage)).astype(et.storage)


def cast_with_mode(values: np.ndarray, et: ElemType, mode: str) -> np.ndarray:
    """Convert float64 `values` to `et` with a vcast round mode."""
    x = np.asarray(values, dtype=np.float64)
    if not et.is_float:
        if et.storage == np.bool_:
            return x != 0
        rounder = {
            "rint": np.rint,
            "round": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
            "floor": np.floor,
            "ceil": np.ceil,
            "trunc": np.trunc,
            "odd": np.rint,
        }.get(mode, np.rint)
        return encode(rounder(x), et)
    nearest = encode(x, et)
    if mode == "rint":
        return nearest
    with np.errstate(all="ignore"):
        back = decode(nearest, et).astype(np.float64)
        exact = (back == x) | np.isnan(x) | np.isinf(back)
        lo = np.where(back <= x, nearest, _step(nearest, et, up=False))
        hi = np.where(back >= x, nearest, _step(nearest, et, up=True))
        lo_v = decode(lo, et).astype(np.float64)
        hi_v = decode(hi, et).astype(np.float64)
        if mode == "floor":
            chosen = lo
        elif mode == "ceil":
            chosen = hi
        elif mode == "trunc":
            chosen = np.where(x >= 0, lo, hi)
        elif mode == "round":
            below, above = x - lo_v, hi_v - x
            chosen = np.where(below < above, lo, np.where(below > above, hi, np.where(x > 0, hi, lo)))
        elif mode == "odd":
            lo_bits = lo.view(np.uint16 if et.itemsize == 2 else np.uint32 if et.itemsize == 4 else np.uint64)
            chosen = np.where((lo_bits & 1) == 1, lo, hi)
        else:
            chosen = nearest
    return np.where(exact, nearest, chosen).astype(et.storage)
