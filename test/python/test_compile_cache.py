"""The suite's run-scoped compile cache (ascend_mlir/compile_cache.py): a hit gives the
module and the remarks a compile gives, under the caller's file name; refusals, stage
observers and a closed cache compile as before."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from xdsl.printer import Printer
from xdsl.utils.exceptions import PassFailedException

from ascend_mlir import compile_cache
from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.transforms.ascend_compile import AscendCompilePass
from ascend_mlir.transforms.stages import observe_stages

ROOT = Path(__file__).resolve().parents[2]
VECADD = (ROOT / "examples" / "vecadd.mlir").read_text()


def _located(module) -> str:
    out = io.StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()


def _compile(text: str, name: str, capsys, **options) -> tuple[str, str]:
    module = parse_module(make_context(), text, name)
    AscendCompilePass(**options).apply(make_context(), module)
    module.verify()
    return _located(module), capsys.readouterr().err


def _refusing_compile(*_args) -> None:
    raise AssertionError("compiled although the cache holds this input")


def test_a_hit_is_the_compile_under_the_callers_name(tmp_path, capsys, monkeypatch):
    fresh, fresh_err = _compile(VECADD, "a/vecadd.mlir", capsys)  # no cache open: compiled
    assert not list(tmp_path.iterdir())
    with compile_cache.caching(tmp_path):
        first, first_err = _compile(VECADD, "a/vecadd.mlir", capsys)
        assert first == fresh and first_err == fresh_err
        monkeypatch.setattr(AscendCompilePass, "_compile", _refusing_compile)
        again, again_err = _compile(VECADD, "b/other.mlir", capsys)
    assert again == fresh.replace('loc("a/vecadd.mlir":', 'loc("b/other.mlir":')
    assert 'loc("a/vecadd.mlir":' in fresh and "a/vecadd.mlir" not in again
    # vecadd's remark (its written II under the solver's) is located: the hit names the caller
    assert "a/vecadd.mlir:" in fresh_err
    assert again_err == fresh_err.replace("a/vecadd.mlir:", "b/other.mlir:")


def test_remarks_are_written_again_with_the_callers_name(tmp_path, capsys, monkeypatch):
    module = parse_module(make_context(), VECADD, "vecadd.mlir")
    AscendCompilePass().apply(make_context(), module)
    synced = str(module)  # ascend-compile's output, without its locations: already synced
    capsys.readouterr()  # this compile's own remarks are not the cached runs'
    with compile_cache.caching(tmp_path):
        _, first_err = _compile(synced, "x.mlir", capsys)
        monkeypatch.setattr(AscendCompilePass, "_compile", _refusing_compile)
        _, again_err = _compile(synced, "y/z.mlir", capsys)
    assert "remark: ascend-compile: the input is already synced" in first_err
    assert "x.mlir:" in first_err and "y/z.mlir:" in again_err
    assert again_err == first_err.replace("x.mlir:", "y/z.mlir:")


def test_options_are_part_of_the_key(tmp_path, capsys, monkeypatch):
    with compile_cache.caching(tmp_path):
        _compile(VECADD, "vecadd.mlir", capsys)
        monkeypatch.setattr(AscendCompilePass, "_compile", _refusing_compile)
        with pytest.raises(AssertionError, match="compiled although"):
            _compile(VECADD, "vecadd.mlir", capsys, sync="barrier-all")


def test_a_refusal_is_not_stored(tmp_path, capsys):
    with compile_cache.caching(tmp_path):
        for _ in range(2):
            with pytest.raises(PassFailedException, match="unknown sync=bogus"):
                _compile(VECADD, "vecadd.mlir", capsys, sync="bogus")
    assert not list(tmp_path.glob("*.mlir"))


def test_an_observed_compile_is_not_cached(tmp_path, capsys):
    seen: list[str] = []
    with compile_cache.caching(tmp_path), observe_stages(lambda name, _module: seen.append(name)):
        _compile(VECADD, "vecadd.mlir", capsys)
        _compile(VECADD, "vecadd.mlir", capsys)
    assert seen.count("ascend-verify-sync") == 0 and seen.count("convert-tile-to-hivm") == 2
    assert not list(tmp_path.glob("*.mlir"))


def _stream(trips: int) -> str:
    """A load -> relu -> store loop of `trips` tiles: its loop poses the same problem at
    every trip count."""
    ub = "memref<256xf32, #hivm.address_space<ub>>"
    gm = "memref<4096xf32, #hivm.address_space<gm>>"
    gt = "memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    return f"""func.func @s(%x: {gm}, %z: {gm}) attributes {{tile.kernel, tile.grid = 1 : i64}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {trips} : index
  %ct = arith.constant 256 : index
  %ux = memref.alloc() : {ub}
  %uz = memref.alloc() : {ub}
  scf.for %i = %c0 to %cn step %c1 {{
    %off = arith.muli %i, %ct : index
    %xs = memref.subview %x[%off] [256] [1] : {gm} to {gt}
    %zs = memref.subview %z[%off] [256] [1] : {gm} to {gt}
    tile.copy ins(%xs : {gt}) outs(%ux : {ub})
    tile.relu ins(%ux : {ub}) outs(%uz : {ub})
    tile.copy ins(%uz : {ub}) outs(%zs : {gt})
  }} {{tile.num_stages = 2 : i64}}
  return
}}
"""


def _counted_solves(monkeypatch) -> list[object]:
    from ascend_mlir.transforms import modulo_schedule

    solved: list[object] = []
    solve = modulo_schedule.schedule_loop

    def counted(problem, **options):
        solved.append(problem)
        return solve(problem, **options)

    monkeypatch.setattr(modulo_schedule, "schedule_loop", counted)
    return solved


def test_equal_loops_are_solved_once_while_solves_are_shared(capsys, monkeypatch):
    """Two trip counts of one loop pose one problem: shared, the second compile solves
    nothing and the outputs are those of unshared compiles; another option is another
    key; closed, every compile solves again."""
    monkeypatch.setattr(compile_cache, "_solves", {})
    solved = _counted_solves(monkeypatch)
    plain = _compile(_stream(8), "s.mlir", capsys, unroll=1)[0]
    per_compile = len(solved)
    assert per_compile >= 1
    plain_16 = _compile(_stream(16), "s.mlir", capsys, unroll=1)[0]
    assert len(solved) == 2 * per_compile
    with compile_cache.sharing_solves():
        shared = [_compile(_stream(trips), "s.mlir", capsys, unroll=1)[0] for trips in (8, 16, 8)]
        assert len(solved) == 3 * per_compile and shared == [plain, plain_16, plain]
        _compile(_stream(8), "s.mlir", capsys, unroll=1, num_stages=1)
        assert len(solved) > 3 * per_compile
    before = len(solved)
    _compile(_stream(8), "s.mlir", capsys, unroll=1)
    assert len(solved) == before + per_compile


def test_a_shared_solve_is_a_copy(monkeypatch):
    calls: list[int] = []

    def solve() -> list[int]:
        calls.append(1)
        return [1, 2]

    monkeypatch.setattr(compile_cache, "_solves", {})
    with compile_cache.sharing_solves():
        first = compile_cache.solve_through(("problem",), {"rlimit": 1}, solve)
        first.append(3)  # a caller changing its result changes no later one
        second = compile_cache.solve_through(("problem",), {"rlimit": 1}, solve)
        other = compile_cache.solve_through(("problem",), {"rlimit": 2}, solve)
    assert second == [1, 2] and other == [1, 2] and len(calls) == 2
    compile_cache.solve_through(("problem",), {"rlimit": 1}, solve)  # closed: solved again
    assert len(calls) == 3


def test_equal_problems_replay_each_schedule_once_while_solves_are_shared(capsys, monkeypatch):
    """A kernel compiled again (as measured_ii and the oracle do) poses equal loops: while
    solves are shared, the second compile asks no replay the first asked of an equal
    problem (scheduling.problem.sharing_replays), and the outputs are those of unshared
    compiles."""
    from ascend_mlir.scheduling.problem import LoopProblem

    asked: list[tuple] = []
    original = LoopProblem.remembered

    def counted(self, key, compute):
        return original(self, key, lambda: (asked.append(key), compute())[1])

    monkeypatch.setattr(LoopProblem, "remembered", counted)
    monkeypatch.setattr(compile_cache, "_solves", {})
    plain = [_compile(_stream(trips), "s.mlir", capsys, unroll=1)[0] for trips in (16, 16)]
    unshared = len(asked)
    assert unshared > 0 and unshared % 2 == 0  # each compile asks its own
    del asked[:]
    with compile_cache.sharing_solves():
        first = _compile(_stream(16), "s.mlir", capsys, unroll=1)[0]
        once = len(asked)
        second = _compile(_stream(16), "s.mlir", capsys, unroll=1)[0]
    assert once == unshared // 2 and len(asked) == once, (once, len(asked))
    assert [first, second] == plain
