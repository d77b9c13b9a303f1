"""LocatedParser's op locations (diagnostics.py): equal to what xDSL's own
`Span.get_location` says (it counts every line from the start of the input), for ops met
in text order and for ops located after the ops of their regions (a function, a loop),
whose lines are counted from the nearest position counted before them."""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation

from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import LocatedParser

TEXT = """\
// a comment line

builtin.module {
  func.func @a(%x: index) -> index {
    %c1 = arith.constant 1 : index
    %y = arith.addi %x, %c1 : index

    func.return %y : index
  }
  // between functions
  func.func @b(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %s = arith.addi %i, %j : index
      }
      %t = arith.muli %i, %i : index
    }
    func.return
  }
  func.func @c() {  func.return  }
}
"""


class _Recording(LocatedParser):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.expected: list[tuple[Operation, tuple[int, int]]] = []

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        op = super().parse_operation()
        where = start.get_location()
        self.expected.append((op, (where.line, where.col)))
        return op


def test_every_op_is_where_xdsl_counts_it():
    parser = _Recording(make_context(), TEXT, "f.mlir")
    parser.parse_module()
    assert len(parser.expected) == 15  # the implicit scf.yields are not parsed
    for op, expected in parser.expected:
        loc = op.location
        assert isinstance(loc, FileLineColLoc)
        assert (loc.line.data, loc.column.data) == expected, op.name


def test_functions_after_their_bodies_keep_their_own_lines():
    """The functions and loops are located after their bodies: lines 4, 11, 14, 15, 22."""
    parser = _Recording(make_context(), TEXT, "f.mlir")
    parser.parse_module()
    lines = [(op.name, op.location.line.data) for op, _ in parser.expected
             if op.name in ("func.func", "scf.for") and isinstance(op.location, FileLineColLoc)]
    assert lines == [("func.func", 4), ("scf.for", 15), ("scf.for", 14), ("func.func", 11), ("func.func", 22)]
