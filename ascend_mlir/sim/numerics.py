"""Element types of the simulator's byte-addressed memories.

The simulator keeps every on-chip memory and every GM argument as raw bytes (so that
planned buffers at the same scope+offset alias, as on the device). An element type is
stored in its real width: f32/f16/f64 natively, **bf16 as ml_dtypes.bfloat16**, integers
in their width, i1 as one byte, index as int64.

The element types, their storage and compute dtypes and the rounding are the reference
interpreter's (sim/reference_numerics.py): inputs and outputs are the same arrays as the
reference's, bf16 included. Arithmetic follows its convention:
vector ops compute in float32 (float64 for f64), matmul sums each cube step's exact
products in float64 and rounds that step's product once to the float32 accumulator (so
the result does not depend on the CPU's BLAS kernel), and every result is rounded once to its
destination type (nearest even; float -> integer is rint with saturation). `vcast` also
honours its other round modes (round, floor, ceil, trunc, odd).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute

from ascend_mlir.sim.reference_numerics import (
    BF16 as BF16_DTYPE,
    UnsupportedElementType,
    compute_dtype,
    convert,
    is_bf16,
    storage_dtype,
)


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
BF16 = ElemType("bf16", BF16_DTYPE, np.dtype(np.float32))
F64 = ElemType("f64", np.dtype(np.float64), np.dtype(np.float64))


_FLOATS = {F32.storage: F32, F16.storage: F16, F64.storage: F64}


def elem_type(attr: Attribute) -> ElemType:
    """The reference's storage and compute dtypes (bf16 stored as ml_dtypes.bfloat16)."""
    if is_bf16(attr):
        return BF16
    try:
        storage = storage_dtype(attr)
    except UnsupportedElementType:
        raise UnsupportedType(f"element type {attr} is not supported by the simulator") from None
    if storage in _FLOATS:
        return _FLOATS[storage]
    if isinstance(attr, IndexType):
        name = "index"
    elif storage == np.bool_:
        name = "i1"
    else:  # signless and signed integers are stored signed
        name = f"{'ui' if storage.kind == 'u' else 'i'}{storage.itemsize * 8}"
    return ElemType(name, storage, compute_dtype(attr))


# ------------------------------------------------------------------ decode / encode


def decode(stored: np.ndarray, et: ElemType) -> np.ndarray:
    """Stored values -> a fresh array in the compute dtype."""
    return np.array(stored, dtype=et.compute, copy=True)


def encode(values, et: ElemType) -> np.ndarray:
    """Computed values -> stored values, rounded to nearest even (floats) or with rint and
    saturation (float -> integer)."""
    if et.is_bf16:  # through float32, as the reference rounds (one rounding, nearest even; exact on bf16)
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(values).astype(np.float32).astype(et.storage)
    return convert(values, et.storage)


def stored_again(stored: np.ndarray, et: ElemType) -> np.ndarray:
    """`encode(decode(stored, et), et)` of values already stored as `et`, without the
    round trip where it is the identity: everywhere but bf16 NaNs, which the conversion
    makes the canonical quiet NaN (checked exhaustively in test_sim_semantics)."""
    if et.is_bf16:
        bits = stored.view(np.uint16)
        if ((bits & 0x7FFF) > 0x7F80).any():
            return encode(decode(stored, et), et)
    return stored


# ------------------------------------------------------------------ vcast round modes


def _step(stored: np.ndarray, et: ElemType, up: bool) -> np.ndarray:
    """The next representable value above (up) or below a stored float value."""
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
