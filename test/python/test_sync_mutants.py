"""Sync mutants that one oracle caught and the other did not (bench/safety/mutants.py's
campaign, bench/README "Sync mutation campaign"), each pinned with the mutant as input.

A set_flag issued before the wait that takes its flag's previous set, with nothing
ordering that wait before it, is a double set on the hardware under some timing: the set
may complete before the wait is even issued. ascend-verify-sync refuses it ("set again
while still set"); the simulator's double-set check looked only at its own run's timing,
where the wait (at the head of an idle pipe) took the flag first, so it passed. It now
judges the pair by happens-before, as its race detector does (`_Run._check_set_after_its_wait`)."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.utils.exceptions import DiagnosticException

from pathlib import Path

from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.transforms.verify_sync import VerifySyncPass

# x -> ub -> exp -> ub -> z on one vector core. `SETS` is the MTE2 -> V flag's part: the
# correct kernel sets it once after the load; the mutants set it a second time before its
# wait (the ring of ids cut short: two flags on one id)
KERNEL = """
builtin.module attributes {{hacc.target = #hacc.target<"{target}">}} {{
  func.func @k(%x: memref<256xf32, #hivm.address_space<gm>>, %z: memref<256xf32, #hivm.address_space<gm>>) attributes {{hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>}} {{
    %c0 = arith.constant 0 : i64
    %c1024 = arith.constant 1024 : i64
    %ux = hivm.hir.pointer_cast(%c0) : memref<256xf32, #hivm.address_space<ub>>
    %uz = hivm.hir.pointer_cast(%c1024) : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
{sets}
    hivm.hir.vexp ins(%ux : memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%z : memref<256xf32, #hivm.address_space<gm>>)
    return
  }}
}}
"""

CORRECT = """    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]"""
# the second set is issued before the first wait: nothing orders that wait before it
SET_TWICE = """    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]"""
# the same pair with the second set issued after the first wait and ordered after it (the
# wait's pipe, V, sets a flag MTE2 waits for before setting again): no double set
SET_AFTER_ITS_WAIT = """    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]"""

TARGETS = ["Ascend950PR_9599", "Ascend910B1"]
INPUTS = Path(__file__).parent / "Inputs"


def _module(sets: str, target: str):
    return parse_module(make_context(), KERNEL.format(sets=sets, target=target), "mutant.mlir")


def _static_check_reports(module) -> str | None:
    try:
        VerifySyncPass().apply(Context(), module)
    except DiagnosticException as e:
        return str(e)
    return None


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("sets", [CORRECT, SET_AFTER_ITS_WAIT], ids=["correct", "set_after_its_wait"])
def test_ordered_sets_pass_both_oracles(sets, target):
    module = _module(sets, target)
    result = simulate(module, None, trace=False, blocks=1)
    assert result.ok, (result.double_sets, [r.message() for r in result.races])
    assert _static_check_reports(module) is None


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("perturb", [None, 1])
def test_a_set_before_its_previous_wait_is_a_double_set(target, perturb):
    module = _module(SET_TWICE, target)
    result = simulate(module, None, trace=False, blocks=1, perturb=perturb)
    assert not result.races and not result.deadlock and not result.unbalanced_flags
    assert any(d.startswith("set_flag at mutant.mlir:10:5 [vec]: flag MTE2->V event 0 may be set again "
                            "before wait_flag at mutant.mlir:11:5")
               for d in result.double_sets), result.double_sets
    assert not result.ok
    assert "set again while still set" in (_static_check_reports(module) or "")


def test_a_race_past_the_record_cap_is_reported():
    """A synced kernel with many ub buffers: the record of the store that the moved set no
    longer covers must outlive the accesses of the next iteration's loads (a pipe that
    never learns of MTE3 keeps every MTE3 record unpruned, so only the cap bounds them)."""
    path = INPUTS / "random3_set_before_store.mlir"
    module = parse_module(make_context(), path.read_text(), path.name)
    result = simulate(module, None, trace=False, blocks=1)
    assert any(r.first == "store" and r.second == "vabs" and r.kind == "read-write" and ":195:" in r.first_loc
               for r in result.races), [r.message() for r in result.races]
    assert "hivm.hir.store at random3_set_before_store.mlir:195:7 (MTE3) read" in (_static_check_reports(module) or "")
