"""ascend-insert-sync on a chain of vector ops ping-ponging between two UB tiles on the
910B (whose V -> V dependences need a pipe_barrier, so every pair of the chain's ops is
examined): the alias questions it asks are answered once per distinct pair of footprints,
so their number does not grow with the chain, and the barriers are those of the chain."""

from __future__ import annotations

import pytest
from xdsl.context import Context

from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import UPSTREAM_DIALECTS, hivm, register_dialects
from ascend_mlir.transforms import insert_sync, sync_requirements

UB = "memref<8x32xf32, #hivm.address_space<ub>>"
GM = "memref<8x32xf32, #hivm.address_space<gm>>"


def ping_pong(ops: int) -> str:
    """A loop of 4 trips: load into %a, `ops` vabs alternating %a -> %b and %b -> %a, store."""
    body = [f"hivm.hir.load ins(%x : {GM}) outs(%a : {UB})"]
    for i in range(ops):
        src, dst = ("%a", "%b") if i % 2 == 0 else ("%b", "%a")
        body.append(f"hivm.hir.vabs ins({src} : {UB}) outs({dst} : {UB})")
    last = "%b" if ops % 2 else "%a"
    body.append(f"hivm.hir.store ins({last} : {UB}) outs(%y : {GM})")
    lines = "\n      ".join(body)
    return f"""func.func @chain(%x: {GM}, %y: {GM}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %o0 = arith.constant 0 : i64
  %o1 = arith.constant 1024 : i64
  %a = hivm.hir.pointer_cast(%o0) : {UB}
  %b = hivm.hir.pointer_cast(%o1) : {UB}
  scf.for %i = %c0 to %c4 step %c1 {{
      {lines}
  }}
  func.return
}}"""


def synced(ops: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(alias questions asked, V pipe_barriers in the loop) for a chain of `ops` vabs."""
    asked = [0]

    def counting(function):
        def wrapper(*args, **kwargs):
            asked[0] += 1
            return function(*args, **kwargs)
        return wrapper

    for name in ("may_alias", "min_carried_distance"):  # asked where the dependences are collected
        monkeypatch.setattr(sync_requirements, name, counting(getattr(sync_requirements, name)))
    module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), ping_pong(ops), "chain")
    insert_sync.InsertSyncPass(chip="ascend910b").apply(Context(), module)
    barriers = [op for op in module.walk() if isinstance(op, hivm.PipeBarrierOp) and not hivm.is_barrier_all(op)]
    return asked[0], len(barriers)


def test_alias_questions_do_not_grow_with_the_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    short_asked, short_barriers = synced(6, monkeypatch)
    long_asked, long_barriers = synced(24, monkeypatch)
    # one pipe_barrier[V] between consecutive vabs (each reads what the previous wrote)
    assert (short_barriers, long_barriers) == (5, 23)
    assert long_asked == short_asked
