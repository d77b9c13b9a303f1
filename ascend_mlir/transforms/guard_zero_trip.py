"""`ascend-guard-zero-trip-loops`: a runtime-bounded loop that may run 0 times, with the
sync around it, under `scf.if lb < ub` (issue 17 item 2).

Unrolling a runtime-bounded loop by U (`unroll_loop`) leaves a main loop of floor(N / U)
passes and a remainder; at N < U (one tile per block) the main loop runs 0 times, and the
sync insert-sync placed around it (its primes, its drains, the flags and barriers between
it and the next loop, a pipe_barrier[PIPE_ALL] for reused ids) still runs: 14 scalar-unit
cycles of vecadd_dyn's 402 at n = 4096. Here such a loop, followed by another loop of the
function body, is wrapped with that sync in `scf.if %lb < %ub`:

* the loop's region: the set_flags right before it and the run of flags and barriers
  right after it (up to the next op that is not one);
* every set of that region whose wait is not in it (the next loop's primes) moves to
  right after the `scf.if` (a set issued later orders more, never less); a wait of the
  region whose set comes before it keeps the loop unguarded;
* what the skipped sync ordered besides the loop's own accesses is checked, not assumed:
  ascend-compile runs ascend-verify-sync after this pass and compiles the loop unguarded
  when it refuses (`AscendCompilePass`).

Loops with constant bounds are left alone (their code is as before, byte for byte).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.analysis.latency_model import constant_int
from ascend_mlir.dialects import hivm

_REGION_SYNC = (hivm.SetFlagOp, hivm.WaitFlagOp, hivm.PipeBarrierOp)


def _flag_key(op: hivm.SetFlagOp | hivm.WaitFlagOp) -> tuple | None:
    if op.event_id is None:
        return None  # a computed id: not matched here
    return (op.set_pipe.pipe_name, op.wait_pipe.pipe_name, op.event_id)


def _region(loop: scf.ForOp) -> tuple[list[Operation], list[Operation]] | None:
    """(the ops to guard with `loop`, the sets to move after the guard), or None when
    the sync around it cannot be guarded."""
    lead: list[Operation] = []
    op = loop.prev_op
    while isinstance(op, hivm.SetFlagOp):
        lead.insert(0, op)
        op = op.prev_op
    trail: list[Operation] = []
    op = loop.next_op
    while isinstance(op, _REGION_SYNC):
        trail.append(op)
        op = op.next_op
    # with 0 trips, the region's flags are the lead's and the trail's: match each wait
    # with the earliest unmatched set of its flag before it
    open_sets: dict[tuple, list[Operation]] = {}
    for op in lead + trail:
        if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp):
            key = _flag_key(op)
            if key is None:
                return None
            if isinstance(op, hivm.SetFlagOp):
                open_sets.setdefault(key, []).append(op)
            elif open_sets.get(key):
                open_sets[key].pop(0)
            else:
                return None  # a wait for a set before the region
    moved = {id(s) for sets in open_sets.values() for s in sets}
    inside = [op for op in lead if id(op) not in moved] + [loop] + [op for op in trail if id(op) not in moved]
    return inside, [op for op in lead + trail if id(op) in moved]


def _may_not_run(loop: scf.ForOp) -> bool:
    lb, ub = constant_int(loop.lb), constant_int(loop.ub)
    step = constant_int(loop.step)
    return (lb is None or ub is None) and step is not None and step > 0


def guard_loop(loop: scf.ForOp) -> scf.IfOp | None:
    """Wrap `loop` and its sync in `scf.if lb < ub` (see the module doc); None when it
    cannot be."""
    found = _region(loop)
    if found is None:
        return None
    inside, moved = found
    if not any(isinstance(op, _REGION_SYNC) for op in inside):
        return None  # nothing to save
    first = inside[0]
    runs = arith.CmpiOp(loop.lb, loop.ub, "slt")
    guard = scf.IfOp(runs.result, [], Region(Block()))
    Rewriter.insert_op([runs, guard], InsertPoint.before(first))
    then = guard.true_region.block
    for op in inside:
        op.detach()
        then.add_op(op)
    then.add_op(scf.YieldOp())
    for op in reversed(moved):
        op.detach()
        Rewriter.insert_op(op, InsertPoint.after(guard))
    return guard


def guard_candidates(func_op: func.FuncOp) -> list[scf.ForOp]:
    """Runtime-bounded loops of the function body followed by another loop of it (an
    unrolled main loop and its remainder)."""
    body = list(func_op.body.block.ops)
    out = []
    for i, op in enumerate(body):
        if isinstance(op, scf.ForOp) and _may_not_run(op) and any(isinstance(o, scf.ForOp) for o in body[i + 1:]):
            if any(isinstance(o, hivm.HivmPipeOp) and not isinstance(o, _REGION_SYNC) for o in op.walk()):
                out.append(op)
    return out


@dataclass(frozen=True)
class GuardZeroTripLoopsPass(ModulePass):
    """Guard runtime-bounded loops followed by another loop, and their sync (module doc)."""

    name = "ascend-guard-zero-trip-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        guard_module(op)


def guard_module(module: ModuleOp, dry_run: bool = False) -> int:
    """Guard every candidate loop of the module (`dry_run`: only count those that can be)."""
    count = 0
    for func_op in [f for f in module.walk() if isinstance(f, func.FuncOp) and f.body.blocks]:
        for loop in guard_candidates(func_op):
            if dry_run:
                found = _region(loop)
                count += found is not None and any(isinstance(o, _REGION_SYNC) for o in found[0])
            elif guard_loop(loop) is not None:
                count += 1
    return count
