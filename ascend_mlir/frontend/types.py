"""Element types, memory scopes and memref types as the Python DSL spells them."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import MemRefType, bf16, f16, f32, f64, i8, i16, i32, i64
from xdsl.ir import Attribute

from ascend_mlir.frontend.builder import fail

DTYPES: dict[str, Attribute] = {
    "f32": f32, "float32": f32, "fp32": f32,
    "f16": f16, "float16": f16, "fp16": f16, "half": f16,
    "bf16": bf16, "bfloat16": bf16,
    "f64": f64, "float64": f64,
    "i8": i8, "int8": i8, "i16": i16, "int16": i16, "i32": i32, "int32": i32,
    "i64": i64, "int64": i64,
}

SCOPES: dict[str, str] = {
    "gm": "gm", "ub": "ub", "cbuf": "cbuf", "cc": "cc",
    "l1": "cbuf", "l0c": "cc", "ubuf": "ub",
}


def element_type(dtype: str | Attribute) -> Attribute:
    if isinstance(dtype, Attribute):
        return dtype
    found = DTYPES.get(str(dtype).lower()) if isinstance(dtype, str) else None
    if found is None:
        raise fail(f"unknown dtype {dtype!r} (known: f32, f16, bf16, i8, i16, i32, i64, f64)")
    return found


def scope_attr(scope: str):
    from ascend_mlir.dialects import hivm

    name = SCOPES.get(str(scope).lower()) if isinstance(scope, str) else None
    if name is None:
        raise fail(f"unknown memory scope {scope!r} (known: gm, cbuf (L1), cc (L0C), ub)")
    return hivm.address_space(name)


def memref_type(shape: Sequence[int] | int, dtype: str | Attribute, scope: str) -> MemRefType:
    if isinstance(shape, int):
        shape = (shape,)
    if not isinstance(shape, Sequence) or not shape:
        raise fail(f"a shape is a non-empty tuple of positive ints, got {shape!r}")
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, int) or d <= 0:
            raise fail(f"a shape is a non-empty tuple of positive ints, got {tuple(shape)!r}")
    return MemRefType(element_type(dtype), list(shape), memory_space=scope_attr(scope))
