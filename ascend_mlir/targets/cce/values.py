"""C values of the cce printer: element types, memref views as pointers with strides and
alignment, identifiers, constants and arith expressions.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascend_mlir import hardware
from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.chips import ChipError
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hivm

ARCHS = ("dav-3510", "dav-c220")
def product(dims: Sequence[int | str]) -> int | str:
    """The product of static and runtime dimensions: an int, or a C expression."""
    static = math.prod(d for d in dims if isinstance(d, int))
    dynamic = [paren(d) for d in dims if isinstance(d, str)]
    if not dynamic:
        return static
    if static == 0:
        return 0
    return " * ".join(dynamic + ([str(static)] if static != 1 else []))


def runtime_rows_of(op: Operation, view: View) -> tuple[int | str, int | str, int | str]:
    """(rows, cols, row stride) with runtime rows/cols (and a runtime GM row pitch) as C
    expressions."""
    try:
        return view.rows()
    except ValueError as err:
        raise op_error(op, f"cannot print this access: {err}") from err


def static_shape(op: Operation, view: View) -> tuple[int, ...]:
    if view.is_dynamic():
        raise op_error(op, "an operand of runtime size is not printed for this op")
    return tuple(int(d) for d in view.shape)


# On-chip vector and DMA accesses address UB in 32-byte blocks.
ALIGN_BYTES = 32


SCOPE_QUALIFIER = {"gm": "__gm__", "cbuf": "__cbuf__", "ca": "__ca__", "cb": "__cb__", "cc": "__cc__", "ub": "__ubuf__"}


ARENA_NAME = {"cbuf": "l1_buf", "ca": "l0a_buf", "cb": "l0b_buf", "cc": "l0c_buf", "ub": "ub_buf"}


RESERVED_IDENTIFIERS = frozenset(
    """auto bool break case catch char class const constexpr continue default delete do double else enum
    explicit extern false float for friend goto if inline int long namespace new operator private protected
    public register return short signed sizeof static struct switch template this throw true try typedef
    typename union unsigned using virtual void volatile while half bfloat16_t event_t block_idx block_num
    mad vadd vsub vmul vdiv vmax vmin vexp vln vabs vrelu vsqrt vrsqrt vrec vcopy vadds vmuls set_flag
    wait_flag pipe_barrier asc_init main""".split()
)


def c_element_type(t: Attribute) -> str:
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float16Type):
        return "half"
    if isinstance(t, BFloat16Type):
        return "bfloat16_t"
    if isinstance(t, IndexType):
        return "int64_t"
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return "bool"
        unsigned = t.signedness.data.name == "UNSIGNED"
        return f"{'u' if unsigned else ''}int{width}_t"
    raise ValueError(f"no C type for {t}")


def buffer_bytes(op: Operation, t: MemRefType) -> int:
    """Bytes the static memref `t` of `op` occupies in its scope (fractal padding included,
    as plan-memory sizes it); an element type without a size is `op`'s error.

    The element sizes are latency_model's (one answer for every pass and printer)."""
    try:
        return hardware.stored_bytes(hivm.scope_of(t) or "gm", t.get_shape(), element_bytes(t.get_element_type()))
    except ChipError as err:
        raise op_error(op, str(err)) from err


def static_strides(t: MemRefType) -> tuple[int, ...]:
    shape = t.get_shape()
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()
        if any(s is None for s in strides):
            raise ValueError(f"dynamic strides are not supported: {t}")
        return tuple(cast(int, s) for s in strides)
    if not isinstance(layout, NoneAttr) and layout is not None:
        raise ValueError(f"layout {layout} is not supported")
    return row_major(shape)


def runtime_stride_dims(t: MemRefType) -> tuple[int, ...]:
    """The dimensions of a kernel argument whose element stride a runtime inner extent
    makes unknown to the C kernel (memref<?x?xbf16>: dimension 0, the row pitch): each is
    a kernel parameter of its own after the function's arguments (`stride_parameters`)."""
    shape = t.get_shape()
    return tuple(i for i in range(len(shape)) if any(d == DYNAMIC_INDEX for d in shape[i + 1:]))


def stride_parameters(args: Sequence[SSAValue], names: Sequence[str]) -> list[tuple[int, int, str]]:
    """(argument index, dimension, C name) of each runtime row pitch the kernel takes as
    a parameter, in argument order: `<arg>_stride<dim>`, in elements, as a contiguous
    tensor of the bound shape has it (the caller passes its real pitch)."""
    out = []
    used = set(names)
    for i, (arg, name) in enumerate(zip(args, names, strict=True)):
        if isinstance(arg.type, MemRefType) and (hivm.scope_of(arg.type) or "gm") == "gm":
            out += [(i, d, unique(f"{name}_stride{d}", used)) for d in runtime_stride_dims(arg.type)]
    return out


def argument_strides(t: MemRefType, runtime: Mapping[int, str]) -> tuple[int | str, ...]:
    """A kernel argument's element strides; a stride that a runtime inner dimension makes
    unknown is the C name of its kernel parameter (`runtime`: dimension -> name)."""
    dims = runtime_stride_dims(t)
    if not dims:
        return static_strides(t)
    static = row_major([max(d, 1) for d in t.get_shape()])
    return tuple(runtime[i] if i in dims else s for i, s in enumerate(static))


def row_major(shape: Sequence[int]) -> tuple[int, ...]:
    strides = []
    acc = 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    return tuple(reversed(strides))


@dataclass(frozen=True)
class View:
    """A memref value as C sees it: a typed pointer expression and its element strides."""

    ptr: str
    # a dimension is an int, or the C expression of a runtime size (a partial tile)
    shape: tuple[int | str, ...]
    # an element stride is an int, or the C name of a runtime row pitch (a kernel parameter)
    strides: tuple[int | str, ...]
    element: Attribute
    scope: str
    # the pointer is a known multiple of 32 bytes into its arena (planned offsets and
    # subview offsets proven to be); False when it may not be, e.g. the rows of a 3 x 7 f32
    # tile past the first, or a subview starting mid-block
    aligned: bool = True

    @property
    def esize(self) -> int:
        return element_bytes(self.element)

    @property
    def ctype(self) -> str:
        return c_element_type(self.element)

    def numel(self) -> int | str:
        return product(self.shape)

    def is_dynamic(self) -> bool:
        return any(isinstance(d, str) for d in self.shape)

    def rows_aligned(self) -> bool:
        """Whether every row of the view starts 32-byte aligned (its start, and its row
        stride a whole number of 32-byte blocks)."""
        if not self.aligned:
            return False
        try:
            rows, _, stride = self.rows()
        except ValueError:
            return False
        return rows == 1 or (isinstance(stride, int) and (stride * self.esize) % ALIGN_BYTES == 0)

    def contiguous(self) -> bool:
        shape, strides = self.shape, self.strides
        if self.is_dynamic():
            # only a runtime outermost dimension keeps the row-major contiguity decidable
            if any(isinstance(d, str) for d in shape[1:]):
                return False
            shape, strides = shape[1:], strides[1:]
        static = [int(d) for d in shape]
        return all(s == r for s, r, d in zip(strides, row_major(static), static, strict=True) if d != 1)

    def rows(self) -> tuple[int | str, int | str, int | str]:
        """(rows, cols, row stride in elements) of a view whose last dim is unit-stride."""
        shape = [d for d in self.shape] or [1]
        strides = list(self.strides) or [1]
        while len(shape) > 2:  # fold leading dims that are contiguous with the next one
            if not isinstance(shape[1], int) or not isinstance(strides[1], int) or strides[0] != shape[1] * strides[1]:
                raise ValueError(f"a rank-{len(self.shape)} view with non-foldable strides {self.strides}")
            shape[:2] = [product(shape[:2])]
            strides[:2] = [strides[1]]
        if strides[-1] != 1 and shape[-1] != 1:
            raise ValueError("the innermost dimension is not contiguous")
        if len(shape) == 1:
            return 1, shape[0], strides[0] if isinstance(shape[0], str) else shape[0]
        if self.contiguous() and isinstance(shape[1], int):
            return shape[0], shape[1], shape[1]
        return shape[0], shape[1], strides[0]


def memref_of(value: SSAValue) -> MemRefType:
    t = value.type
    if not isinstance(t, MemRefType):
        raise ValueError(f"{value.type} is not a memref")
    return cast(MemRefType, t)


def multiple_of(value: SSAValue, m: int, depth: int = 0) -> bool:
    """Whether the index/integer `value` is statically a multiple of `m`: constants, sums
    and selects of multiples, products with a multiple, casts."""
    if m <= 1:
        return True
    owner = value.owner
    if depth > 32 or isinstance(owner, Block):
        return False
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data % m == 0
    operands = list(owner.operands)
    if owner.name in ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi"):
        return multiple_of(operands[0], m, depth + 1)
    if owner.name in ("arith.addi", "arith.subi"):
        return all(multiple_of(v, m, depth + 1) for v in operands)
    if owner.name == "arith.muli":
        return any(multiple_of(v, m, depth + 1) for v in operands)
    if isinstance(owner, arith.SelectOp):
        return multiple_of(operands[1], m, depth + 1) and multiple_of(operands[2], m, depth + 1)
    return False


def int_array(attr: object) -> tuple[int, ...]:
    if attr is None:
        return ()
    values = getattr(attr, "get_values", None)
    return tuple(int(v) for v in values()) if values is not None else ()


def static_stride(op: Operation, stride: int | str) -> int:
    """A row stride that must be static: on-chip views have static strides; only a GM
    tensor's row pitch may be a runtime kernel parameter."""
    if isinstance(stride, str):
        raise op_error(op, "an operand with a runtime row pitch is not printed for this op")
    return stride


def rows_of(op: Operation, view: View) -> tuple[int, int, int]:
    rows, cols, stride = runtime_rows_of(op, view)
    if not isinstance(rows, int) or not isinstance(cols, int):
        raise op_error(op, "an operand of runtime size is not printed for this op")
    return rows, cols, static_stride(op, stride)


def bursts(op: Operation, src: View, dst: View) -> tuple[int | str, int | str, int | str, int | str]:
    """(nBurst, burst bytes, src stride bytes, dst stride bytes) of a 2D copy (counts
    of runtime sizes and a GM tensor's runtime row pitch as C expressions)."""
    if src.shape != dst.shape:
        raise op_error(op, f"copy between shapes {list(src.shape)} and {list(dst.shape)} is not printed")
    if src.contiguous() and dst.contiguous():
        length = product([src.numel(), src.esize])
        if isinstance(length, str):  # one burst of runtime length; the strides do not matter
            return 1, length, 0, 0
        return 1, length, length, length
    s_rows, cols, s_stride = runtime_rows_of(op, src)
    _, _, d_stride = runtime_rows_of(op, dst)
    return s_rows, product([cols, src.esize]), product([s_stride, src.esize]), product([d_stride, dst.esize])


def mixed(static: Sequence[int], dynamic: Sequence[str]) -> list[int | str]:
    values: list[int | str] = []
    it = iter(dynamic)
    for s in static:
        values.append(next(it) if s == DYNAMIC_INDEX else int(s))
    return values


def paren(value: int | str) -> str:
    text = str(value)
    return text if re.fullmatch(r"[A-Za-z_0-9]+", text) else f"({text})"


def identifier(hint: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", hint)
    if not name or name[0].isdigit():
        name = "v" + name
    return name


def unique(name: str, used: set[str]) -> str:
    candidate = name
    suffix = 1
    while candidate in used or candidate in RESERVED_IDENTIFIERS or candidate.startswith("asc_"):
        suffix += 1
        candidate = f"{name}_{suffix}"
    used.add(candidate)
    return candidate


def float_literal(value: float) -> str:
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "-INFINITY"
    text = repr(float(value))
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def constant_text(op: arith.ConstantOp) -> str:
    value = op.value
    if isinstance(value, FloatAttr):
        return float_literal(value.value.data)
    if isinstance(value, IntegerAttr):
        if isinstance(value.type, IntegerType) and value.type.width.data == 1:
            return "true" if value.value.data else "false"
        v = value.value.data
        return f"({v})" if v < 0 else str(v)
    raise op_error(op, f"constant {value} is not printed")


BINARY_C = {
    "arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.divsi": "/", "arith.remsi": "%",
    "arith.andi": "&", "arith.ori": "|", "arith.xori": "^", "arith.shli": "<<", "arith.shrsi": ">>",
    "arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/",
}


UNSIGNED_C = {"arith.divui": "/", "arith.remui": "%", "arith.shrui": ">>"}


CMPI = ["==", "!=", "<", "<=", ">", ">=", "<", "<=", ">", ">="]


def is_same_type_cast(op: Operation, ctype: str) -> bool:
    return (op.name in ("arith.index_cast", "arith.index_castui") and len(op.operands) == 1
            and c_element_type(op.operands[0].type) == ctype)


def fold_integers(name: str, x: list[str]) -> str | None:
    """+, - and * of two integer literals, / and % of non-negative ones (a version index of
    a peeled iteration), as C would compute them (64-bit)."""
    ops = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
           "arith.divui": lambda a, b: a // b, "arith.remui": lambda a, b: a % b,
           "arith.divsi": lambda a, b: a // b, "arith.remsi": lambda a, b: a % b}
    if name not in ops or len(x) != 2:
        return None
    values = [re.fullmatch(r"\(?(-?\d+)\)?", v) for v in x]
    if not all(values):
        return None
    a, b = (int(cast(re.Match, v).group(1)) for v in values)
    if name.startswith(("arith.div", "arith.rem")) and (a < 0 or b <= 0):
        return None
    result = ops[name](a, b)
    return f"({result})" if result < 0 else str(result)


def arith_expression(op: Operation, x: list[str]) -> str | None:
    name = op.name
    if name in BINARY_C:
        return f"{paren(x[0])} {BINARY_C[name]} {paren(x[1])}"
    if name in UNSIGNED_C:
        ctype = c_element_type(op.results[0].type)
        return f"({ctype})((uint64_t){paren(x[0])} {UNSIGNED_C[name]} (uint64_t){paren(x[1])})"
    if isinstance(op, arith.CmpiOp):
        predicate = op.predicate.value.data
        if predicate >= 6:
            return f"(uint64_t){paren(x[0])} {CMPI[predicate]} (uint64_t){paren(x[1])}"
        return f"{paren(x[0])} {CMPI[predicate]} {paren(x[1])}"
    if isinstance(op, arith.SelectOp):
        return f"{paren(x[0])} ? {paren(x[1])} : {paren(x[2])}"
    extremes: dict[str, Callable[[list[str]], str]] = {
        "arith.maxsi": lambda v: f"({v[0]} > {v[1]} ? {v[0]} : {v[1]})",
        "arith.minsi": lambda v: f"({v[0]} < {v[1]} ? {v[0]} : {v[1]})",
        "arith.ceildivsi": lambda v: f"(({v[0]}) + ({v[1]}) - 1) / ({v[1]})",
        "arith.floordivsi": lambda v: f"(({v[0]}) / ({v[1]}) - ((({v[0]}) % ({v[1]}) != 0) && "
                                      f"((({v[0]}) < 0) != (({v[1]}) < 0))))",
    }
    if name in extremes:
        return extremes[name](x)
    if name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci",
                "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.extf", "arith.truncf"):
        return f"({c_element_type(op.results[0].type)}){paren(x[0])}"
    return None
