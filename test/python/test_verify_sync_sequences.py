"""Why pairs of trip counts cover every sequence (issue 17 item 4; docs/runtime-shapes.md,
"Sequences of trip counts"). A nested runtime loop may run a different number of times in
every iteration of its parent. verify-sync runs it with every ordered pair of covering
counts taken in turn and measures, at the end of every pass (one run of the nested loop
and what follows it up to the next run), how many passes back the part of its state that
a later step can still tell apart reaches (`_Carry.age`). Age 0, the premise of the
argument, means the state after a pass is made by that pass alone, so every check
depends on the counts of two consecutive runs at most and the pairs cover every sequence;
age k > 0 makes verify-sync run every sequence of k + 2 counts as well.

Checked here: the premise holds on every kernel with a nested runtime loop the
examples and tests compile (the zero-trip shapes; flash_attention_dyn under `slow`); a
hand-written kernel whose flags and buffers alternate between two versions across its
rows (a flag set in row r is waited in row r + 2) has age 1, and every sequence of three
counts is checked for it; its mutants are refused."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp

from ascend_mlir.chips import load_chip
from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import hivm
from ascend_mlir.op_errors import OpError
from ascend_mlir.sim import simulate
from ascend_mlir.sim.binding import bind_arguments
from ascend_mlir.sim.reference import kernel_function, make_inputs
from ascend_mlir.transforms import verify_sync
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

from test_reference import parse
from test_zero_trip_sync import KERNELS, _compile

ROOT = Path(__file__).resolve().parents[2]

# flash_attention_dyn's compiles (about 5 and 17 CPU s, -t npuir and target=cce) are the
# ones test_examples makes: once per run (conftest.shared_compiles; the tests that patch
# verify-sync compile nothing)
SHARE_COMPILES = True


def _example(name: str) -> ModuleOp:
    """examples/`name`.mlir parsed under its own file name, as the other files that
    compile it do (the compile cache's key sees the input's locations)."""
    path = ROOT / "examples" / f"{name}.mlir"
    return parse_module(make_context(), path.read_text(), f"examples/{name}.mlir")
ROWS = Path(__file__).parent / "Inputs" / "double_buffered_rows.mlir"


def _funcs(module) -> list[func.FuncOp]:
    return [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]


def _carried(funcs: list[func.FuncOp]) -> Counter:
    """(age, length) of every run of a varying nested loop's sequences."""
    carried: list[int] = []
    assert verify_sync.verify_functions(funcs, None, carried)
    return Counter(divmod(c, 100) for c in carried)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_the_state_after_a_pass_is_made_by_that_pass(name):
    """Age 0 in every run of every pair of counts: pairs cover every sequence."""
    _, module = _compile(name)
    runs = _carried(_funcs(module))
    assert runs and set(runs) == {(0, 2)}, runs


def test_two_versions_across_rows_check_every_three_counts():
    """A flag set in row r and waited in row r + 2 is pending over a whole pass: age 1,
    found in the runs of pairs, and then every sequence of 3 covering counts (0, 1, 2
    for min(r, m)) is run, each of them with age 1 again (3 counts suffice)."""
    funcs = _funcs(parse(ROWS.read_text()))
    runs = _carried(funcs)
    assert runs[(1, 2)] == 9 and runs[(1, 3)] == 27 and set(runs) == {(1, 2), (1, 3)}, runs


def _mutant(drop) -> list[func.FuncOp]:
    module = parse(ROWS.read_text())
    doomed = [op for op in module.walk() if drop(op)]
    assert doomed
    for op in doomed:
        op.detach()
        op.erase()
    return _funcs(module)


@pytest.mark.parametrize(("what", "drop", "message"), [
    ("the row's wait for the store two rows back", lambda op: isinstance(op, hivm.WaitFlagOp)
     and op.set_pipe.pipe_name == "MTE3" and op.dynamic_event_id is not None, "nothing orders them|still set"),
    ("the barrier between the nested loop's adds", lambda op: isinstance(op, hivm.PipeBarrierOp)
     and op.pipe.pipe_name == "V" and isinstance(op.parent_op(), scf.ForOp)
     and isinstance((loop := op.parent_op()) and loop.parent_op(), scf.ForOp), "nothing orders them"),
])
def test_mutants_of_the_two_version_rows_are_refused(what, drop, message):
    with pytest.raises(OpError, match=message):
        # the 910B: V needs a barrier between dependent vector ops
        verify_sync.verify_functions(_mutant(drop), load_chip("ascend910b"))


def _fixed_variant(mutant: bool = False) -> list[func.FuncOp]:
    """double_buffered_rows.mlir with its nested loop's count min(m, 2), computed in the
    row loop from values defined before it: the same in every row of a run."""
    text = ROWS.read_text()
    assert text.count("%cnt = arith.minsi %r, %m : index") == 1
    module = parse(text.replace("%cnt = arith.minsi %r, %m : index", "%cnt = arith.minsi %m, %c2 : index"))
    if mutant:  # the barrier between the nested loop's dependent adds
        doomed = [op for op in module.walk() if isinstance(op, hivm.PipeBarrierOp)
                  and isinstance(loop := op.parent_op(), scf.ForOp) and isinstance(loop.parent_op(), scf.ForOp)]
        assert len(doomed) == 1
        doomed[0].detach()
        doomed[0].erase()
    return _funcs(module)


def _nested_loops(funcs: list[func.FuncOp]) -> list[scf.ForOp]:
    return [op for f in funcs for op in f.walk() if isinstance(op, scf.ForOp) and verify_sync._parent_loops(op)]


def test_a_nested_loop_with_bounds_fixed_in_a_run_takes_one_count_per_run():
    """Bounds computed (by arith ops) from values defined before the parent loop give the
    nested loop the same count in every row: its sequences are constant, so it takes its
    covering counts one per run (no pairs, no sequences of 3 as with min(r, m)), and is
    verified; docs/runtime-shapes.md, "Loops whose count is fixed in a run"."""
    funcs = _fixed_variant()
    assert [verify_sync._count_fixed_in_run(loop) for loop in _nested_loops(funcs)] == [True]
    assert _carried(funcs) == Counter()


def test_the_fixed_count_kernels_mutant_is_refused():
    with pytest.raises(OpError, match="nothing orders them"):
        verify_sync.verify_functions(_fixed_variant(mutant=True), load_chip("ascend910b"))


def test_a_nested_loop_over_its_parents_iv_still_takes_pairs():
    """min(r, m) reads the row loop's iv: not fixed, its runs take pairs of counts (then
    sequences of 3, above)."""
    funcs = _funcs(parse(ROWS.read_text()))
    assert [verify_sync._count_fixed_in_run(loop) for loop in _nested_loops(funcs)] == [False]
    assert _carried(funcs)[(1, 2)] == 9


def test_a_fixed_count_loop_beside_a_varying_one_takes_every_count_in_the_pair_runs():
    """A second nested loop of min(m, 2) trips beside min(r, m)'s: fixed in a run, but it
    runs in every pass the varying loop's pairs check, so those pairs are run with each of
    its covering counts (not only the one nearest 2), and the kernel is verified."""
    text = ROWS.read_text()
    anchor = "      hivm.hir.pipe_barrier[<PIPE_V>]\n      hivm.hir.vadd"
    assert text.count(anchor) == 1
    fixed = ("      %fix = arith.minsi %m, %c2 : index\n      scf.for %i = %c0 to %fix step %c1 {\n"
             "        hivm.hir.pipe_barrier[<PIPE_V>]\n        hivm.hir.vadd ins(%ux, %ux : memref<256xf32, "
             "#hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, "
             "#hivm.address_space<ub>>)\n      }\n")
    funcs = _funcs(parse(text.replace(anchor, fixed + anchor)))
    varying, fixed_loop = _nested_loops(funcs)
    assert not verify_sync._count_fixed_in_run(varying) and verify_sync._count_fixed_in_run(fixed_loop)
    plan = verify_sync._run_plan(funcs, ())
    assert plan is not None
    counts = {trips[fixed_loop] for _, trips in plan if isinstance(trips.get(varying), tuple)}
    assert counts == set(verify_sync._covering([fixed_loop])) and len(counts) > 1, counts
    assert verify_sync.verify_functions(funcs, load_chip("ascend910b"))


@pytest.mark.slow
def test_flash_attention_dyn_key_loop_is_fixed_in_a_run():
    """The key loop of flash_attention_dyn (`%c0 to %kv_blocks`, defined before the query
    block loop) takes one count in every query block: one count per run, verified, no
    sequence runs (before: 98 pair runs, age 0 in each)."""
    module = _example("flash_attention_dyn")
    AscendCompilePass().apply(Context(), module)
    assert all(verify_sync._count_fixed_in_run(loop) for loop in _nested_loops(_funcs(module)))
    assert _carried(_funcs(module)) == Counter()


@pytest.mark.slow
def test_flash_attention_dyn_cce_target_is_verified_within_the_budget():
    """With target=cce (the L0 K loop lowered, a ring of two event ids primed before the
    kernel's loops) the primed sets stay pending across every pass in runs that skip the
    ring: counted by when they were made they gave age 5 (sequences of 7 counts, 823543
    runs: not verified). How many sets are pending at each pass's end is the same in
    every run, so they are counted by that, not aged (docs/runtime-shapes.md, "Pending
    sets are counted, not aged"): age 0, verified. Its key loop's count is fixed in a run
    (one count per run, below); taken as varying, as before, it still checks the counting."""
    module = _example("flash_attention_dyn")
    AscendCompilePass(target="cce").apply(Context(), module)
    why: list[str] = []
    assert verify_sync.verify_functions(_funcs(module), None, why=why), why
    assert _carried(_funcs(module)) == Counter()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify_sync, "_count_fixed_in_run", lambda loop: False)
        runs = _carried(_funcs(module))
    assert runs and set(runs) == {(0, 2)}, runs


@pytest.mark.slow
@pytest.mark.parametrize("chip", ["ascend910b", "ascend950"])
def test_gemm_dyn_cce_target_is_verified(chip):
    """gemm_dyn with target=cce: its K loop (`1 to %steps`, %steps defined before the tile
    loop) takes one count in every tile, so it needs no sequences (taken as varying: 5
    counts, 7776 runs, over the budget, "not verified"); verified on both chips."""
    module = _example("gemm_dyn")
    AscendCompilePass(target="cce", chip=chip).apply(Context(), module)
    why: list[str] = []
    assert verify_sync.verify_functions(_funcs(module), load_chip(chip), why=why), why
    assert all(verify_sync._count_fixed_in_run(loop) for loop in _nested_loops(_funcs(module)))
    assert _carried(_funcs(module)) == Counter()


# Two sibling nested loops of a row loop with counts of their own (issue 17 item 4): their
# counts vary together, and the tuple of them is a pass's count.
SIBLINGS = Path(__file__).parent / "Inputs" / "two_sibling_loops.mlir"


def _without_id0_pair(path: Path, mutant: bool) -> list[func.FuncOp]:
    """The kernel at `path`, or its mutant without the MTE3 -> MTE2 pair (the four set and
    wait flags of id 0) before the row's load."""
    module = parse(path.read_text())
    if mutant:
        assert _drop_id0_flags(module) == 4
    return _funcs(module)


def _drop_id0_flags(module: ModuleOp) -> int:
    """Erase every set and wait flag of event id 0 from `module`; how many there were."""
    doomed = [op for op in module.walk() if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and op.event_id == 0]
    for op in doomed:
        op.detach()
        op.erase()
    return len(doomed)


def _siblings(mutant: bool = False) -> list[func.FuncOp]:
    """The kernel, or its mutant, ordered then only by a nested loop that runs."""
    return _without_id0_pair(SIBLINGS, mutant)


def _sibling_counts(funcs: list[func.FuncOp]) -> list[range]:
    nested = [op for op in funcs[0].walk() if isinstance(op, scf.ForOp) and isinstance(op.parent_op(), scf.ForOp)]
    assert len(nested) == 2
    return [verify_sync.covering_trip_counts(loop) for loop in nested]


def test_sibling_loops_vary_together():
    """Every ordered pair of tuples of the two loops' covering counts is run (age 0 in
    each: pairs of tuples cover every sequence), not only one loop varying at a time."""
    funcs = _siblings()
    first, second = _sibling_counts(funcs)
    runs = _carried(funcs)
    assert runs == Counter({(0, 2): (len(first) * len(second)) ** 2}), runs


def test_a_sync_bug_only_joint_counts_meet_is_refused(monkeypatch):
    """The store of row r and the load of row r + 1 are ordered by neither nested loop
    when the first runs in row r, the second does not, and the first does not in row
    r + 1. The joint runs meet that and refuse the mutant; the runs that vary one loop
    while the other keeps one count (before: the other at its count nearest 2, which
    runs and orders them) verify it with age 0, so the gap was real."""
    with pytest.raises(OpError, match="hivm.hir.load .MTE2. may touch bytes that hivm.hir.store .* nothing orders them"):
        verify_sync.verify_functions(_siblings(mutant=True), None)
    single = verify_sync._sibling_clusters
    monkeypatch.setattr(verify_sync, "_sibling_clusters", lambda groups: [[i] for c in single(groups) for i in c])
    monkeypatch.setattr(verify_sync, "_joint_clusters", lambda groups, clusters: clusters)
    assert _carried(_siblings(mutant=True)) == Counter({(0, 2): 18})


@pytest.mark.parametrize(("mutant", "m", "races"), [(False, 2, 0), (True, 2, 1), (False, 3, 0), (True, 3, 0)])
def test_the_joint_bug_is_a_race_on_the_simulator(mutant, m, races):
    """The oracle agrees: at an even m (rows 0 and 1: f = 1, g = 0, then f = 0) the
    mutant races on the perturbed simulator; at an odd m its counts never meet the bug;
    the kernel never races."""
    module = parse(SIBLINGS.read_text())
    if mutant:
        _drop_id0_flags(module)
    f = kernel_function(module)
    inputs = make_inputs(f, 1, bind_arguments(f, {"n": "3", "m": str(m), "w": "1024"}))
    result = simulate(module, inputs, perturb=2)
    assert len(result.races) == races and not result.deadlock and not result.double_sets


def test_the_two_nested_loops_of_a_row_vary_together():
    """`two_loops` of the zero-trip shapes (y over min(r + 1, n) columns, then z over
    min(r, n)): every ordered pair of tuples of the two loops' covering counts is run
    (before: each loop varied with the other at one count, 2 x 4^2 runs)."""
    _, module = _compile("two_loops")
    funcs = _funcs(module)
    nested = [op for op in funcs[0].walk() if isinstance(op, scf.ForOp) and isinstance(op.parent_op(), scf.ForOp)]
    first, second = (verify_sync.covering_trip_counts(loop) for loop in nested)
    assert _carried(funcs) == Counter({(0, 2): (len(first) * len(second)) ** 2})


# A varying runtime loop nested in another varying runtime loop (issue 17 item 4): the two
# levels vary together (each level's runs take a pair of covering counts in turn, every
# combination of the levels' pairs), passes are cut at every run of either level but the
# first inner run of each outer run, and the age decides how long the sequences must be
# (docs/runtime-shapes.md, "Varying loops in varying loops").
NESTED = Path(__file__).parent / "Inputs" / "varying_in_varying.mlir"
JOINT = Path(__file__).parent / "Inputs" / "varying_in_varying_joint.mlir"


def _nested_varying(mutant: bool = False) -> list[func.FuncOp]:
    return _without_id0_pair(NESTED, mutant)


def _nested_counts(funcs: list[func.FuncOp]) -> list[range]:
    loops = [op for op in funcs[0].walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 3
    return [verify_sync.covering_trip_counts(loop) for loop in loops[1:]]


def test_a_varying_loop_in_a_varying_loop_is_verified():
    """Every combination of a pair of counts per level is run: (|F| |G|)^2 runs, less
    those whose reached loops repeat another's (an outer count 0 never reaches the inner
    loop). Some end a pass with state of the pass before (an inner run of 0 trips is an
    empty pass): age 1, so every sequence of 3 counts per level is run too, with age at
    most 1 in each; the kernel is verified."""
    funcs = _nested_varying()
    outer, inner = _nested_counts(funcs)
    runs = _carried(funcs)
    pairs = sum(n for (age, length), n in runs.items() if length == 2)
    assert 0 < pairs <= (len(outer) * len(inner)) ** 2
    assert set(runs) <= {(0, 2), (1, 2), (0, 3), (1, 3)} and runs[(1, 2)] and runs[(1, 3)], runs
    assert sum(n for (age, length), n in runs.items() if length == 3) <= (len(outer) * len(inner)) ** 3


def test_a_varying_loop_in_a_varying_loop_refuses_its_missing_pair():
    """Without the pair before the row's load, the last store of a row is unordered
    before the next row's load when no innermost iteration runs after it."""
    with pytest.raises(OpError, match="hivm.hir.load .MTE2. may touch bytes that hivm.hir.store .* nothing orders them"):
        verify_sync.verify_functions(_nested_varying(mutant=True), None)


def _wrong_id(path: Path) -> ModuleOp:
    """The kernel at `path` with the wait of its row's MTE3 -> MTE2 pair on id 1."""
    module = parse(path.read_text().replace(
        "hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]", "hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]"))
    return module


def test_a_varying_loop_in_a_varying_loop_refuses_a_wrong_id():
    with pytest.raises(OpError, match="waits for a flag no earlier set raises .deadlock."):
        verify_sync.verify_functions(_funcs(_wrong_id(NESTED)), None)


@pytest.mark.parametrize(("mutant", "n", "m", "races"), [(False, 3, 3, 0), (True, 3, 3, 1), (False, 2, 2, 0),
                                                         (True, 2, 2, 1), (True, 3, 1, 0)])
def test_the_missing_pair_is_a_race_on_the_simulator(mutant, n, m, races):
    """The oracle agrees: with m - r outer and min(j, m) inner trips, row m - 1 runs no
    innermost iteration after row m - 2's store (m >= 2) and races; at m = 1 no row
    stores; the kernel never races."""
    module = parse(NESTED.read_text())
    if mutant:
        _drop_id0_flags(module)
    result = _simulate(module, n, m)
    assert len(result.races) == races and not result.deadlock and not result.double_sets


def _simulate(module, n: int, m: int):
    f = kernel_function(module)
    return simulate(module, make_inputs(f, 1, bind_arguments(f, {"n": str(n), "m": str(m), "w": "2048"})), perturb=2)


def test_the_wrong_id_deadlocks_on_the_simulator():
    result = _simulate(_wrong_id(NESTED), 3, 3)
    assert result.deadlock


def test_a_bug_only_joint_counts_of_both_levels_meet_is_refused(monkeypatch):
    """In the joint kernel each iteration of the nested loop orders the stores before it,
    and so does each innermost iteration: without the row's pair, the last store of row
    r is unordered before row r + 1's load only when row r ends with an inner count 0 and
    row r + 1 has an outer count 0. The joint runs refuse it; varying one level while the
    other keeps a count that runs (before: the inner loop at 2, the outer at its parent
    count 2) verifies it, with no run meeting it: the gap was real. The kernel itself is
    verified with age 0 in every pair run."""
    assert set(_carried(_without_id0_pair(JOINT, False))) == {(0, 2)}
    with pytest.raises(OpError, match="hivm.hir.load .MTE2. may touch bytes that hivm.hir.store .* nothing orders them"):
        verify_sync.verify_functions(_without_id0_pair(JOINT, True), None)
    monkeypatch.setattr(verify_sync, "_joint_clusters", lambda groups, clusters: clusters)
    assert _carried(_without_id0_pair(JOINT, True))


@pytest.mark.parametrize(("mutant", "n", "m", "races"), [(False, 2, 2, 0), (True, 2, 2, 1), (True, 2, 3, 0),
                                                         (False, 3, 3, 0), (True, 3, 3, 1)])
def test_the_joint_bug_of_both_levels_is_a_race_on_the_simulator(mutant, n, m, races):
    """At an even m row 0 runs the nested loop once with no innermost iteration (f = 1,
    g(0) = 0) and row 1 not at all (f = 0): the mutant races; at m = 3 with 2 rows only
    row 1 stores, with no row after it; with 3 rows row 1's store meets row 2's load."""
    module = parse(JOINT.read_text())
    if mutant:
        _drop_id0_flags(module)
    result = _simulate(module, n, m)
    assert len(result.races) == races and not result.deadlock and not result.double_sets


def test_the_pass_verifies_a_varying_loop_in_a_varying_loop(capsys):
    """ascend-verify-sync says nothing on the kernel (no remark: verified)."""
    module = parse(NESTED.read_text())
    verify_sync.VerifySyncPass().apply(Context(), module)
    assert "remark" not in capsys.readouterr().err


def test_nested_levels_over_the_budget_are_not_verified(monkeypatch):
    """Over MAX_TRIP_RUNS the joint runs of the two levels are not made: the kernel is not
    verified, with a reason naming both loops, never passed."""
    monkeypatch.setattr(verify_sync, "MAX_TRIP_RUNS", 50)
    funcs = _nested_varying()
    why: list[str] = []
    assert not verify_sync.verify_functions(funcs, None, why=why)
    loops = [op for op in funcs[0].walk() if isinstance(op, scf.ForOp)]
    assert why == [f"the sequences of 2 trip counts of the nested loops at {verify_sync.op_where(loops[1])} and "
                   f"{verify_sync.op_where(loops[2])} need 81 runs, over the budget of 50"]


TWO_ROW_LOOPS = """
builtin.module {
  func.func @two_row_loops(%n: index, %m: index, %p: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %r = %c0 to %n step %c1 {
      %f = arith.minsi %r, %m : index
      scf.for %j = %c0 to %f step %c1 {
        hivm.hir.pipe_barrier[<PIPE_ALL>]
      }
    }
    scf.for %s = %c0 to %n step %c1 {
      %g = arith.minsi %s, %p : index
      scf.for %k = %c0 to %g step %c1 {
        hivm.hir.pipe_barrier[<PIPE_ALL>]
      }
    }
    func.return
  }
}
"""


def test_varying_loops_under_different_parents_vary_together():
    """Two row loops one after the other, each with a nested loop of its own count: a
    pass of the first's last run ends where the second's first run begins, so the two
    vary jointly, every combination of a pair of counts of each (before: one at a time,
    the other at its count nearest 2, 2 x 3^2 runs)."""
    funcs = _funcs(parse(TWO_ROW_LOOPS))
    nested = [op for op in funcs[0].walk() if isinstance(op, scf.ForOp) and isinstance(op.parent_op(), scf.ForOp)]
    first, second = (verify_sync.covering_trip_counts(loop) for loop in nested)
    assert _carried(funcs) == Counter({(0, 2): (len(first) * len(second)) ** 2})
