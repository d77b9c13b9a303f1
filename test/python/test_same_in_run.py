"""analysis.same_in_run: which loops and branches of a kernel's functions take the same
trip count or branch in every run (verify-sync pairs a split MIX kernel's halves by it).
Equal keys only for the same computation over the same arguments (by position), in
corresponding loops and branches; never through what differs between the cores or
what the key cannot see through."""

from __future__ import annotations

from xdsl.dialects import scf

from ascend_mlir.analysis.same_in_run import run_key

from test_reference import parse

HALF = """
  func.func @{name}(%a: index, %b: index, %m: memref<4xindex>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant {two} : index
    %n = arith.addi %a, %c1 : index
    %blk64 = hivm.hir.get_block_idx -> i64
    %blk = arith.index_cast %blk64 : i64 to index
    %loaded = memref.load %m[%c0] : memref<4xindex>
    scf.for %i = %blk to %n step %c2 {{
      scf.for %j = %c0 to %i step %c1 {{
      }}
    }}
    scf.for %k = %c0 to %b step %c1 {{
    }}
    scf.for %l = %c0 to %loaded step %c1 {{
    }}
    %p = arith.cmpi slt, %a, %b : index
    scf.if %p {{
      scf.for %e = %c0 to %a step %c1 {{
      }}
    }} else {{
      scf.for %e2 = %c0 to %a step %c1 {{
      }}
    }}
    func.return
  }}
"""


def _keys(two_in_second: int = 2):
    module = parse("builtin.module {" + HALF.format(name="cube", two=2) + HALF.format(name="vec", two=two_in_second) + "}")
    funcs = list(module.body.block.ops)
    ops = [[op for op in f.walk() if isinstance(op, scf.ForOp | scf.IfOp)] for f in funcs]
    keys = run_key([op for part in ops for op in part])
    return [[keys[op] for op in part] for part in ops], ops


def test_the_same_loops_over_the_same_arguments_pair():
    (cube, vec), _ = _keys()
    # i (over block idx and a + 1), j (over i), k (over b), the if and its branches' loops
    for index in (0, 1, 2, 4, 5, 6):
        assert cube[index] == vec[index], index


def test_a_loaded_bound_pairs_with_nothing():
    (cube, vec), ops = _keys()
    assert cube[3] is ops[0][3] and vec[3] is ops[1][3]


def test_different_bounds_and_their_nested_loops_do_not_pair():
    (cube, vec), _ = _keys(two_in_second=3)
    assert cube[0] != vec[0] and cube[1] != vec[1]  # step 2 vs 3; j's bound is i
    assert cube[2] == vec[2]  # k does not depend on it


def test_loops_under_different_branches_or_arguments_differ():
    (cube, _), _ = _keys()
    assert cube[5] != cube[6]  # then vs else, the same bounds
    assert cube[2] != cube[5]  # over b vs over a
