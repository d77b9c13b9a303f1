"""Cumulative vector ops (PIPE_V): vcumsum and vcumprod along `cum_dims`, in the syntax and
operand groups of bishengir-opt 1.2.0 (no temp_buffer in that build)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase
from xdsl.irdl import irdl_op_definition, operand_def, prop_def
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.interface import (
    MEMREF_OR_TENSOR,
    array_values,
    shape_of,
    verify_same_element_type,
    verify_same_shape,
)
from ascend_mlir.dialects.hivm.syntax import Clause, InsOutsOp
from ascend_mlir.dialects.hivm.vector import _VectorOp


class _CumulativeOp(_VectorOp, InsOutsOp):
    """`attr-dict ins(%s : t) outs(%d : t) cum_dims = [..] reverse = true|false [-> t]`."""

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    cum_dims = prop_def(DenseArrayBase)
    reverse = prop_def(BoolAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("cum_dims", "reverse")
    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("cum_dims", "ints", required=True), Clause("reverse", "bool", required=True),
    )

    def verify_(self) -> None:
        self._verify_ub_operands()
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        verify_same_shape(self, self.src, self.dst, "source and destination")
        rank = len(shape_of(self.src) or ())
        dims: Sequence[int] = array_values(self.cum_dims)
        if not dims:
            raise VerifyException("cum_dims must not be empty")
        if list(dims) != sorted(set(dims)):
            raise VerifyException(f"cum_dims {list(dims)} must be strictly increasing")
        for dim in dims:
            if not 0 <= dim < rank:
                raise VerifyException(f"cum dim {dim} is out of range for rank {rank}")


@irdl_op_definition
class VCumsumOp(_CumulativeOp):
    name = "hivm.hir.vcumsum"


@irdl_op_definition
class VCumprodOp(_CumulativeOp):
    name = "hivm.hir.vcumprod"


SCAN_OPS = (VCumsumOp, VCumprodOp)
