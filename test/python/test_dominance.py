"""SSA dominance (ascend_mlir/dominance.py): MLIR's rule that a definition dominates
each use, which xDSL's parser and verifier do not check. Block order, region nesting,
several blocks (dominators through branches), graph regions."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, scf, test
from xdsl.parser import Parser

from ascend_mlir.dominance import dominance_violations


def _parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, cf.Cf, test.Test):
        ctx.load_dialect(dialect)
    return Parser(ctx, text).parse_module()


def _violations(text: str) -> list[tuple[str, int, str]]:
    return [(v.user.name, v.operand, v.where_defined()) for v in dominance_violations(_parse(text))]


def test_order_in_a_block():
    assert _violations("""
      func.func @k(%a: i32) -> i32 {
        %b = arith.addi %a, %c : i32
        %c = arith.constant 1 : i32
        return %b : i32
      }""") == [("arith.addi", 1, "op in the same block")]
    assert _violations("""
      func.func @k(%a: i32) -> i32 {
        %c = arith.constant 1 : i32
        %b = arith.addi %a, %c : i32
        return %b : i32
      }""") == []


def test_region_nesting():
    # the loop body sees what comes before the loop, not what comes after it
    assert _violations("""
      func.func @k(%n: index) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        scf.for %i = %c0 to %n step %c1 {
          %x = arith.addi %i, %c1 : index
          %y = arith.addi %x, %late : index
        }
        %late = arith.constant 2 : index
        return
      }""") == [("arith.addi", 1, "op in a parent region")]


def test_an_op_does_not_see_its_own_results():
    assert _violations("""
      func.func @k(%n: index) -> index {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (index) {
          scf.yield %acc : index
        }
        return %r : index
      }""") == [("scf.for", 3, "op in the same block")]


def test_blocks_see_their_dominators_only():
    diamond = """
      func.func @k(%p: i1) -> i32 {
        %a = arith.constant 1 : i32
        cf.cond_br %p, ^left, ^right
      ^left:
        %l = arith.addi %a, %a : i32
        cf.br ^join
      ^right:
        cf.br ^join
      ^join:
        %j = arith.addi %a, %USE : i32
        return %j : i32
      }"""
    # %a is in the entry block, which dominates the join; %l only on the left path
    assert _violations(diamond.replace("%USE", "%a")) == []
    assert _violations(diamond.replace("%USE", "%l")) == [("arith.addi", 1, "op in the same region")]


def test_a_later_block_defining_a_value_used_earlier_in_a_loop():
    # ^body is entered from ^head, which it does not dominate: %v from ^body is not
    # visible in ^head, though ^head comes first in the text and on the back edge
    assert _violations("""
      func.func @k(%p: i1) {
        cf.br ^head
      ^head:
        %u = arith.addi %v, %v : i32
        cf.cond_br %p, ^body, ^exit
      ^body:
        %v = arith.constant 1 : i32
        cf.br ^head
      ^exit:
        return
      }""") == [("arith.addi", 0, "op in the same region"), ("arith.addi", 1, "op in the same region")]


def test_unreachable_blocks_and_graph_regions_are_not_ordered():
    assert _violations("""
      func.func @k() {
        return
      ^dead:
        %u = arith.addi %v, %v : i32
        %v = arith.constant 1 : i32
        return
      }""") == []
    # the module's body is a graph region: its ops may name each other in any order
    assert _violations("""
      %a = "test.op"(%b) : (i32) -> i32
      %b = "test.op"() : () -> i32
      """) == []
