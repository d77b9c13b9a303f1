"""The cce printer sizes element types with latency_model.element_bytes (one answer for
every pass and printer); buffers are placed by ascend-plan-memory, which reports a type
without a size at its op, located, and the printer refuses the unplanned buffer.

ascend-opt's verifier refuses such buffers before any target runs, so this calls the
pass and the printer directly, as a library user can."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, f64

from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.diagnostics import LocatedParser, OpError, location_of
from ascend_mlir.dialects import register_dialects
from ascend_mlir.targets import cce
from ascend_mlir.transforms.plan_memory import PlanMemoryPass

SIZELESS = """\
func.func @sizeless() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %a = memref.alloc() : memref<64xcomplex<f32>, #hivm.address_space<ub>>
  return
}
"""


def test_cce_has_no_element_size_of_its_own() -> None:
    assert cce.element_bytes is element_bytes


def test_buffer_bytes_are_latency_models() -> None:
    assert element_bytes(f64) == 8
    module = LocatedParser(register_dialects(Context()), SIZELESS, "sizeless.mlir").parse_module()
    alloc = next(op for op in module.walk() if op.name == "memref.alloc")
    assert cce.buffer_bytes(alloc, MemRefType(f64, [4, 16])) == 4 * 16 * 8


def test_a_sizeless_element_type_is_a_located_error() -> None:
    module = LocatedParser(register_dialects(Context()), SIZELESS, "sizeless.mlir").parse_module()
    with pytest.raises(OpError) as info:
        PlanMemoryPass().apply(Context(), module)
    assert info.value.op.name == "memref.alloc"
    assert str(location_of(info.value.op)) == "sizeless.mlir:2:3"
    assert "unknown element type size: complex<f32>" in info.value.message
    with pytest.raises(OpError) as info:  # the printer places no buffer itself
        cce.print_cce(module)
    assert str(location_of(info.value.op)) == "sizeless.mlir:2:3"
    assert "is not planned" in info.value.message
