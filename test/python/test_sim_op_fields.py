"""sim.op_fields: the simulator's once-per-simulation view of an op's named operands and
attributes gives what the op gives, reads xDSL once, and is per op."""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, MemRefType, f32

from ascend_mlir.sim.op_fields import FieldCache


def _subview() -> memref.SubviewOp:
    source = memref.AllocOp.get(f32, shape=[8, 8])
    offset = arith.ConstantOp.from_int_and_width(2, IndexType())
    return memref.SubviewOp.get(source.memref, [offset.result, 0], [4, 4], [1, 1],
                                MemRefType(f32, [4, 4]))


def test_fields_are_the_ops_and_read_once():
    op = _subview()
    fields = FieldCache()
    f = fields(op)
    assert f.source is op.source and list(f.offsets) == list(op.offsets)
    assert f.static_sizes == op.static_sizes
    assert "source" in f.__dict__  # held after the first read
    assert fields(op) is f
    other = _subview()
    assert fields(other) is not f and fields(other).source is other.source


def test_memo_computes_once():
    fields = FieldCache()
    f = fields(_subview())
    calls = []
    assert f.memo("k", lambda: calls.append(1) or 7) == 7
    assert f.memo("k", lambda: calls.append(1) or 8) == 7
    assert calls == [1]


def test_a_missing_field_is_an_attribute_error():
    f = FieldCache()(_subview())
    assert getattr(f, "pad_value", None) is None
