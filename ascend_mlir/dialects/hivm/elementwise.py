"""More elementwise vector ops (PIPE_V) of bishengir-opt 1.2.0: bitwise and shifts
(vand, vor, vxor, vnot, vshl, vshr), compare and select (vcmp, vsel), and the
transcendental ones (vsin, vcos, vtanh, verf, vpow, vmod).

Their syntax is the elementwise one of vector.py. The operand groups follow bishengir's
build, which gives some of them no temp_buffer (vcmp, vsin, vcos, vtanh, verf, vmod).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import CompareMode, CompareModeAttr
from ascend_mlir.dialects.hivm.interface import element_type_of, is_shaped
from ascend_mlir.dialects.hivm.syntax import Clause
from ascend_mlir.dialects.hivm.vector import _ElementwiseBase, _ElementwiseOp

_LAYOUT: tuple[Clause, ...] = (Clause("broadcast", "ints"), Clause("transpose", "ints"))


def _is_integer(t: Attribute) -> bool:
    return isinstance(t, IntegerType)


class _IntegerOp(_ElementwiseOp):
    """Bitwise ops compute on integers (bishengir refuses floats)."""

    def _verify_element_types(self) -> None:
        element = element_type_of(self.dst[0])
        if not _is_integer(element):
            raise VerifyException(f"{self.name.removeprefix('hivm.hir.')} computes on integers, got {element}")


class _VectorOnlyBinaryOp(_IntegerOp):
    """vand, vor, vxor: both inputs are vectors (bishengir: `operand at index 1 is vector-only`)."""

    ARITY: ClassVar[int] = 2

    def _verify_scalar_operand(self, value: SSAValue) -> None:
        raise VerifyException("operand at index 1 is vector-only")


@irdl_op_definition
class VAndOp(_VectorOnlyBinaryOp):
    name = "hivm.hir.vand"


@irdl_op_definition
class VOrOp(_VectorOnlyBinaryOp):
    name = "hivm.hir.vor"


@irdl_op_definition
class VXorOp(_VectorOnlyBinaryOp):
    name = "hivm.hir.vxor"


@irdl_op_definition
class VNotOp(_IntegerOp):
    name = "hivm.hir.vnot"
    ARITY: ClassVar[int] = 1


@irdl_op_definition
class VShlOp(_IntegerOp):
    """Shift left by a vector or a scalar."""

    name = "hivm.hir.vshl"
    ARITY: ClassVar[int] = 2


@irdl_op_definition
class VShrOp(_IntegerOp):
    """Shift right by a vector or a scalar; `round : true|false` (rounding of the shifted-out bits)."""

    name = "hivm.hir.vshr"
    ARITY: ClassVar[int] = 2
    round = opt_prop_def(BoolAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("transpose", "broadcast", "round")
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("temp_buffer", "paren"), Clause("round", "colon_bool"), *_LAYOUT)


@irdl_op_definition
class VPowOp(_ElementwiseOp):
    """Integer power: bishengir-opt 1.2.0 takes i32 operands only."""

    name = "hivm.hir.vpow"
    ARITY: ClassVar[int] = 2

    def _verify_element_types(self) -> None:
        for value in (*self.src, *self.dst):
            if element_type_of(value) != IntegerType(32):
                raise VerifyException(
                    f"operands of vpow must have element type i32 (bishengir's build), got {element_type_of(value)}"
                )


class _FloatUnaryOp(_ElementwiseBase):
    """vsin, vcos, vtanh, verf: no temp_buffer in bishengir's build; floats only."""

    ARITY: ClassVar[int] = 1

    def _verify_element_types(self) -> None:
        element = str(element_type_of(self.dst[0]))
        if element not in ("f16", "bf16", "f32"):
            raise VerifyException(f"{self.name.removeprefix('hivm.hir.')} computes on f16, bf16 or f32, got {element}")


@irdl_op_definition
class VSinOp(_FloatUnaryOp):
    name = "hivm.hir.vsin"


@irdl_op_definition
class VCosOp(_FloatUnaryOp):
    name = "hivm.hir.vcos"


@irdl_op_definition
class VTanhOp(_FloatUnaryOp):
    name = "hivm.hir.vtanh"


@irdl_op_definition
class VErfOp(_FloatUnaryOp):
    name = "hivm.hir.verf"


@irdl_op_definition
class VModOp(_ElementwiseBase):
    """Remainder of two vectors (or a vector and a scalar); no temp_buffer."""

    name = "hivm.hir.vmod"
    ARITY: ClassVar[int] = 2


@irdl_op_definition
class VCmpOp(_ElementwiseBase):
    """`dst[i] = src0[i] <compare_mode> src1[i]` into an i1 mask; `compare_mode = <lt>`
    (default eq, elided). The second input may be a scalar."""

    name = "hivm.hir.vcmp"
    ARITY: ClassVar[int] = 2
    compare_mode = prop_def(CompareModeAttr, default_value=CompareModeAttr(CompareMode.EQ))

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("transpose", "broadcast", "compare_mode")
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("compare_mode", "enum", CompareModeAttr), *_LAYOUT)

    def _may_cast(self) -> bool:
        return True  # the output is a mask, the inputs are compared values

    def _verify_element_types(self) -> None:
        mask = element_type_of(self.dst[0])
        if mask != IntegerType(1):
            raise VerifyException(f"the output of vcmp is an i1 mask, got {mask}")
        first, second = (element_type_of(v) for v in self.src)
        if first != second:
            raise VerifyException(f"compared element types differ ({first} vs {second})")


@irdl_op_definition
class VSelOp(_ElementwiseOp):
    """`dst[i] = mask[i] ? a[i] : b[i]`: ins(mask, a, b), a and b vectors or scalars."""

    name = "hivm.hir.vsel"
    ARITY: ClassVar[int] = 3

    def _may_cast(self) -> bool:
        return True  # the mask is i1, the selected values are the output's type

    def _verify_element_types(self) -> None:
        mask = self.src[0]
        if element_type_of(mask) != IntegerType(1):
            raise VerifyException(f"the first input of vsel is an i1 mask, got {element_type_of(mask)}")
        out = element_type_of(self.dst[0])
        for value in self.src[1:]:
            got = element_type_of(value) if is_shaped(value) else value.type
            if got != out:
                raise VerifyException(f"selected value type {got} differs from the output element type {out}")


ELEMENTWISE_OPS = (
    VAndOp, VOrOp, VXorOp, VNotOp, VShlOp, VShrOp, VPowOp,
    VSinOp, VCosOp, VTanhOp, VErfOp, VModOp, VCmpOp, VSelOp,
)
