"""The unroll factor U (issue 18 item 2): the IR-free unrolled problem, the choice of U
by the solver (lowest II / U, ties to the smaller U), correctness of the unrolled code
(trip counts 0, 1, U-1, U+1, a runtime trip count; race-free under perturbed latencies,
equal to the reference) and the scheduled II / U against what the simulator measures per
source iteration. The lit tests show the IR: test/transforms/ascend-modulo-schedule/
unroll.mlir and test/transforms/ascend-pipeline-loops/unrolled.mlir."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import scf

from ascend_mlir import compile_cache
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import ascend, register_dialects
from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task, check_schedule, schedule_loop
from ascend_mlir.scheduling.unroll import better, coalesced, cut_off, from_retimed, port_order, unrolled_problem
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.testing import run_console_script
from ascend_mlir.transforms import modulo_schedule
from ascend_mlir.transforms.ascend_compile import AscendCompilePass
from ascend_mlir.transforms.unroll_loop import unroll_loop, unrolled_copy

ROOT = Path(__file__).resolve().parents[2]

# the streams of one num_stages pose the same loop at every trip count (its solve, at
# U = 4 about 6 CPU s, is shared), and ascend-sim's compile of the runtime-count stream
# is one for every --bind (conftest.shared_compiles); the tests that count solves
# close the cache (_solves)
SHARE_COMPILES = True


def _stream(trips: int | str, stages: int = 2, tile: int = 256, op: str = "relu") -> str:
    """z = op(x) tile by tile: load -> vector op -> store, `trips` tiles (a number, or "%n"
    for a runtime trip count given as the kernel's last argument)."""
    elems = 64 * tile
    ub = f"memref<{tile}xf32, #hivm.address_space<ub>>"
    gm = f"memref<{elems}xf32, #hivm.address_space<gm>>"
    gt = f"memref<{tile}xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    runtime = isinstance(trips, str)
    extra = ", %n: index" if runtime else ""
    bound = "%n" if runtime else "%ctrips"
    return f"""module {{
  func.func @stream(%x: {gm}, %z: {gm}{extra}) attributes {{tile.kernel, tile.grid = 1 : i64}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ctrips = arith.constant {0 if runtime else trips} : index
    %ct = arith.constant {tile} : index
    %ux = memref.alloc() : {ub}
    %uz = memref.alloc() : {ub}
    scf.for %i = %c0 to {bound} step %c1 {{
      %off = arith.muli %i, %ct : index
      %xs = memref.subview %x[%off] [{tile}] [1] : {gm} to {gt}
      %zs = memref.subview %z[%off] [{tile}] [1] : {gm} to {gt}
      tile.copy ins(%xs : {gt}) outs(%ux : {ub})
      tile.{op} ins(%ux : {ub}) outs(%uz : {ub})
      tile.copy ins(%uz : {ub}) outs(%zs : {gt})
    }} {{tile.num_stages = {stages} : i64}}
    return
  }}
}}
"""


@functools.cache
def _compiled_module(text: str, options: tuple[tuple[str, object], ...]):
    # shared by the tests that compile the same kernel (the 16-trip streams of
    # test_factor_within_num_stages and test_scheduled_ii_per_iteration_is_what_runs: about
    # 9 CPU s each at num_stages 4); nothing here changes a compiled module
    ctx = Context()
    register_dialects(ctx)
    module = parse_module(ctx, text, "stream.mlir")
    AscendCompilePass(**dict(options)).apply(ctx, module)
    return module


def _compiled(text: str, **options):
    return _compiled_module(text, tuple(sorted(options.items())))


def _loops(module) -> list[tuple[int, int]]:
    """(II, U) of every scheduled loop, in program order."""
    return [(sched.ii, ascend.unroll_of(op)) for op in module.walk()
            if isinstance(op, scf.ForOp) and (sched := ascend.loop_of(op)) is not None]


# ----- the IR-free problem --------------------------------------------------------------


def _chain(num_stages: int = 2) -> LoopProblem:
    """load (MTE2) -> add (V) -> store (MTE3), the tile multi-buffered, an accumulator
    carried from one iteration to the next (distance 1), and a flag drain reservation."""
    return LoopProblem(
        tasks=[Task("load", "MTE2", 100, 20), Task("add", "V", 10, 10), Task("store", "MTE3", 180, 20),
               Task("drain:MTE3", "MTE3", 160, 160)],
        deps=[Dep(0, 1, 100), Dep(1, 2, 10), Dep(1, 0, 10, buffer="t"), Dep(1, 1, 10, distance=1)],
        buffers=[Buffer("t", "ub", 1024)],
        capacity={"ub": 8192}, num_stages=num_stages, conflicts=[(0, 2)])


def test_unrolled_problem_copies_the_body_and_keeps_the_reservations_once():
    p = unrolled_problem(_chain(), 2, body_tasks=3)
    assert p is not None
    assert [t.name for t in p.tasks] == ["load", "add", "store", "load#1", "add#1", "store#1", "drain:MTE3"]
    # each copy its own buffer, num_stages / U versions at most
    assert [(b.name, b.max_versions) for b in p.buffers] == [("t", 1), ("t#1", 1)]
    deps = {(d.src, d.dst, d.distance, d.buffer) for d in p.deps}
    # the carried accumulator: copy 0 -> copy 1 in the same pass, copy 1 -> copy 0 of the next
    assert (1, 4, 0, None) in deps and (4, 1, 1, None) in deps
    assert (1, 0, 0, "t") in deps and (4, 3, 0, "t#1") in deps
    # conflicts between every copy of the two tasks
    assert {(0, 2), (0, 5), (2, 3), (3, 5)} <= set(p.conflicts)
    assert unrolled_problem(_chain(), 4, body_tasks=3) is None  # 4 copies need 4 versions


def test_coalesced_consumers_wait_for_every_releasing_task_of_the_pipe():
    p = unrolled_problem(_chain(), 2, body_tasks=3)
    assert p is not None
    deps = {(d.src, d.dst, d.distance) for d in p.deps if d.buffer is None}
    # the add of copy 0 waits for the load of copy 1 too (one MTE2 -> V set after both)
    assert (3, 1, 0) in deps and (0, 4, 0) in deps
    assert coalesced(_chain(), 1, 3) is _chain() or coalesced(_chain(), 1, 3).deps == _chain().deps


def test_port_order_retimes_the_next_pass_consumer_and_maps_back():
    """A load refilling a one-version buffer and a store of the same pass, both released by
    the add's set point and sharing the GM path: the load goes first (MTE2 before MTE3)."""
    p = unrolled_problem(_chain(), 2, body_tasks=3)
    assert p is not None
    ordered = port_order(p, 6)
    assert ordered is not None
    retimed, moved = ordered
    assert moved == {0, 3}
    result = schedule_loop(retimed)
    back = from_retimed(p, result, moved)
    assert back is not None
    assert check_schedule(p, back.ii, back.start, back.versions) == []
    # every store of a pass starts after the next pass's loads held the GM path
    for load in (0, 3):
        for store in (2, 5):
            assert back.start[store] >= back.start[load] + back.ii + p.tasks[load].ii


def _vecadd(num_stages: int = 2) -> LoopProblem:
    """vecadd's loop as ascend-modulo-schedule poses it on the 950: two loads, an add, a
    store, the MTE2 and MTE3 flag drains, the loads and the store sharing the GM path."""
    return LoopProblem(
        tasks=[Task("load x", "MTE2", 111, 21), Task("load y", "MTE2", 111, 21), Task("add", "V", 16, 16),
               Task("store", "MTE3", 198, 18), Task("drain:MTE2", "MTE2", 90, 90),
               Task("drain:MTE3", "MTE3", 180, 180)],
        deps=[Dep(0, 0, 111, buffer="ux"), Dep(0, 2, 111), Dep(1, 1, 111, buffer="uy"), Dep(1, 2, 111),
              Dep(2, 0, 16, buffer="ux"), Dep(2, 1, 16, buffer="uy"), Dep(2, 2, 16, buffer="uz"),
              Dep(2, 3, 16), Dep(3, 2, 198, buffer="uz")],
        buffers=[Buffer("ux", "ub", 2048), Buffer("uy", "ub", 2048), Buffer("uz", "ub", 2048)],
        capacity={"ub": 253952}, num_stages=num_stages, conflicts=[(0, 3), (1, 3)])


def test_a_schedule_in_hand_is_proven_by_one_refutation_below_it():
    """The unrolled vecadd: the lower bound (256) is far below the optimum (332), which
    the sequential schedule already has; one unsat probe at 331 proves it, where
    galloping up from the bound took ten (and ate the budget of the length proof)."""
    unrolled = unrolled_problem(_vecadd(), 2, body_tasks=4)
    assert unrolled is not None
    ordered = port_order(unrolled, 8)
    assert ordered is not None
    result = schedule_loop(ordered[0])
    assert result.status == "optimal" and result.stats["search_lower_bound"] < result.ii - 1
    assert result.stats["probes"] == [(result.ii - 1, "unsat")]
    assert result.stats["length_optimal"] and result.stats["bytes_optimal"]


def _retimed_vecadd() -> LoopProblem:
    unrolled = unrolled_problem(_vecadd(), 2, body_tasks=4)
    assert unrolled is not None
    ordered = port_order(unrolled, 8)
    assert ordered is not None
    return ordered[0]


def test_a_known_schedule_of_the_same_problem_is_not_searched_again():
    """The unroll search's trial (II only) hands its schedule and proof to the solve of
    the loop the IR then holds: no probe, only the secondary objectives."""
    p = _retimed_vecadd()
    trial = schedule_loop(p, optimize_secondary=False)
    again = schedule_loop(p, known=trial)
    assert again.ii == trial.ii and again.status == "optimal"
    assert again.stats["probes"] == [] and again.stats["heuristic"] == "earlier solve"
    assert "earlier solve" in again.message
    assert again.stats["length_optimal"] and check_schedule(p, again.ii, again.start, again.versions) == []
    # a schedule that is not one of this problem is ignored (the search runs as usual)
    other = schedule_loop(_vecadd(), optimize_secondary=False)
    fresh = schedule_loop(p, known=other)
    assert fresh.ii == trial.ii and fresh.stats["heuristic"] != "earlier solve"


def test_a_cut_off_stops_the_search_below_it():
    """A trial wants only an II below its cut-off: nothing at or above it is probed, and
    the result says that nothing below it exists."""
    p = _retimed_vecadd()
    best = schedule_loop(p, optimize_secondary=False).ii
    cut = best - 20
    r = schedule_loop(p, optimize_secondary=False, ii_below=cut)
    assert r.ii >= cut and r.status == "heuristic"
    assert all(ii < cut for ii, _ in r.stats["probes"]) and (cut - 1, "unsat") in r.stats["probes"]
    assert f"no II below {cut}" in r.message and "proven" in r.message


def _solves(monkeypatch) -> list[tuple[dict, object]]:
    calls: list[tuple[dict, object]] = []
    # every solve counted, none answered by the suite's cache of compiles and solves
    monkeypatch.setattr(compile_cache, "_directory", [])

    def counted(problem, **kw):
        result = schedule_loop(problem, **kw)
        calls.append((kw, result))
        return result

    monkeypatch.setattr(modulo_schedule, "schedule_loop", counted)
    return calls


def test_the_unroll_search_solves_each_candidate_once_and_quietly(monkeypatch):
    """vecadd: the loop as written, one II-only trial of U = 2 (cut off at the II that
    would not beat U = 1), and the unrolled loop from the trial's schedule: three solves,
    no probe in the last, and on stderr only the remark that the II written is the one its
    code runs at (278, the solver's proven 316 being the model's), no budget remark (the
    length is proven)."""
    calls = _solves(monkeypatch)
    run = run_console_script("ascend-opt", [str(ROOT / "examples" / "vecadd.mlir"), "-p", "ascend-compile"])
    remarks = run.stderr.decode().splitlines()
    assert run.returncode == 0 and len(remarks) == 1, run.stderr
    assert "II 316 proven minimal" in remarks[0] and "runs at 278 cycles" in remarks[0]
    assert "budget" not in remarks[0]
    assert len(calls) == 3
    (plain, first), (trial, second), (final, third) = calls
    assert plain.get("optimize_secondary") and not trial.get("optimize_secondary")
    assert trial["ii_below"] == cut_off(2, first.ii, 1)  # type: ignore[attr-defined]
    assert final.get("known") is not None and third.stats["probes"] == []  # type: ignore[attr-defined]


def test_a_factor_that_cannot_win_is_not_solved(monkeypatch):
    """softmax's row loop is vector-bound: U = 2's lower bound is twice its II, so U = 2
    is never solved (one solve in all)."""
    calls = _solves(monkeypatch)
    run = run_console_script("ascend-opt", [str(ROOT / "examples" / "softmax.mlir"), "-p", "ascend-compile"])
    assert run.returncode == 0
    assert len(calls) == 1


def test_better_compares_per_iteration_and_ties_keep_the_smaller_factor():
    assert better(390, 2, 198, 1)
    assert not better(396, 2, 198, 1)
    assert not better(792, 4, 396, 2)


# ----- the choice of U --------------------------------------------------------------------


def test_vecadd_is_unrolled_twice_and_runs_faster():
    text = (ROOT / "examples" / "vecadd.mlir").read_text()
    unrolled, single = _compiled(text), _compiled(text, unroll=1)
    assert [u for _, u in _loops(unrolled)] == [2]
    ((ii2, _),), ((ii1, _),) = _loops(unrolled), _loops(single)
    assert ii2 / 2 < ii1
    fast, slow = simulate(unrolled, None, blocks=1), simulate(single, None, blocks=1)
    assert not fast.races and not slow.races
    assert fast.cycles < slow.cycles


# The fast tier leaves out the cases that solve U = 4 (about 8 CPU s each: the unrolled
# problem has four copies of the body); U = 2 stands in for each (slow marks below), the
# runtime trip count keeps n = 3 at U = 4 (an unrolled loop and a remainder).
SOLVES_U4 = pytest.mark.slow


@pytest.mark.parametrize(("stages", "factor"), [(1, 1), (2, 2), pytest.param(4, 4, marks=SOLVES_U4)])
def test_factor_within_num_stages(stages, factor):
    """U copies of the body need U versions of each buffer: U <= num_stages."""
    assert [u for _, u in _loops(_compiled(_stream(16, stages)))] == [factor]


def test_loops_where_one_is_best_keep_their_output():
    """A loop whose unrolled body does not run faster keeps its code byte for byte (a
    softmax row loop: vector-bound, its drains are not what binds)."""
    text = (ROOT / "examples" / "softmax.mlir").read_text()
    assert str(_compiled(text)) == str(_compiled(text, unroll=1))


def _parsed_stream(trips: int):
    ctx = Context()
    register_dialects(ctx)
    module = parse_module(ctx, _stream(trips), "stream.mlir")
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    buffers = [op.results[0] for op in module.walk() if op.name == "memref.alloc"]
    return module, loop, buffers


@pytest.mark.parametrize("trips", [4, 5])  # without and with a remainder loop
def test_an_unrolled_copy_leaves_the_function_as_it_was(trips):
    """ascend-modulo-schedule unrolls a copy of the loop's function to compare the
    unrolled code as it would be written with the loop's own: the function is untouched,
    and the copy is what unroll_loop makes of the function itself."""
    module, loop, buffers = _parsed_stream(trips)
    before = str(module)
    main, rest = unrolled_copy(loop, 2, buffers)
    assert str(module) == before and (rest is None) == (trips % 2 == 0)
    copy = main.parent_op()
    assert copy is not None and copy.parent_op() is None  # the detached function
    unroll_loop(loop, 2, buffers)
    assert str(copy) == str(next(iter(module.body.block.ops)))


# ----- correctness of the unrolled code -----------------------------------------------------


def _sim(tmp_path: Path, text: str, *args: str) -> dict:
    path = tmp_path / "stream.mlir"
    path.write_text(text)
    run = run_console_script("ascend-sim", [str(path), "--json", "--perturb", "2", *args])
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


@pytest.mark.parametrize(("trips", "stages"), [(0, 2), (1, 2), (3, 2), pytest.param(3, 4, marks=SOLVES_U4),
                                               pytest.param(5, 4, marks=SOLVES_U4)])
def test_static_trip_counts_around_the_factor(tmp_path, trips, stages):
    """U = 2 and 4 (num_stages 2, 4): trips 0, 1, U - 1, U + 1 (a remainder loop, or no
    unrolled loop at all), race-free under perturbed latencies and equal to the reference."""
    result = _sim(tmp_path, _stream(trips, stages))
    assert result["ok"] and result["reference_match"] and not result["races"], (trips, stages)


@pytest.mark.parametrize("n", [pytest.param(0, marks=SOLVES_U4), 3, pytest.param(5, marks=SOLVES_U4)])
def test_runtime_trip_count(tmp_path, n):
    result = _sim(tmp_path, _stream("%n", 4), "--bind", f"n={n}")
    assert result["ok"] and result["reference_match"] and not result["races"], n


@SOLVES_U4  # test_static_trip_counts_around_the_factor[3-2] runs a remainder loop at U = 2
def test_unrolled_and_remainder_loops_for_an_odd_trip_count():
    loops = _loops(_compiled(_stream(7, 4)))
    assert [u for _, u in loops] == [4, 1]  # 4 trips unrolled, 3 in the remainder


# ----- scheduled II / U against the simulator -------------------------------------------------


@pytest.mark.parametrize(("stages", "tile", "op"), [
    (2, 256, "relu"), pytest.param(4, 256, "relu", marks=SOLVES_U4),
    # stage-skewed unrolled bodies: insert-sync took a copy's version ((iv - 2) / 2) mod 3
    # and the next pass's (iv / 2) mod 3 for unrelated (analysis.aliasing.floor_div), set
    # each copy's flag after its own store, each draining MTE3, and the code ran slower
    # than written: U = 2 of 1024-element exp tiles 131 written, 174.5 ran; U = 4 of 512
    # 64 and 110. Now 131 and 131, 66 and 66
    (4, 1024, "exp"), pytest.param(8, 512, "exp", marks=SOLVES_U4)])
def test_scheduled_ii_per_iteration_is_what_runs(stages, tile, op):
    """What one more source iteration costs in the steady state ((cycles at 32 trips -
    cycles at 16) / 16) is within 5% of the unrolled loop's II / U."""
    short, long = _compiled(_stream(16, stages, tile, op)), _compiled(_stream(32, stages, tile, op))
    ((ii, u),) = _loops(long)
    assert u > 1
    measured = (simulate(long, None, blocks=1).cycles - simulate(short, None, blocks=1).cycles) / 16
    assert abs(measured - ii / u) <= 0.05 * ii / u, (ii, u, measured)
