"""Where the primes and drains of a loop's flags go (helpers of ascend-insert-sync).

A loop-carried flag is primed (set once before the loop, standing for iteration -1) and
drained (waited once after it). Right before and after the loop those ops would hold
pipes for no reason: a set_flag waits for every earlier op of its pipe, a wait_flag
blocks its pipe until the loop's last set. So primes move up and drains move down, as far
as no other op uses the same event in between and no pipe_barrier[PIPE_ALL] is crossed.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from ascend_mlir.dialects import hivm


def barrier_all_between(earlier: Operation, later: Operation) -> bool:
    """A pipe_barrier[<PIPE_ALL>] among the ops strictly between two ops of one block."""
    op = earlier.next_op
    while op is not None and op is not later:
        if hivm.is_barrier_all(op):
            return True
        op = op.next_op
    return False


def same_flag(op: Operation, flag: hivm.SetFlagOp | hivm.WaitFlagOp) -> bool:
    """Whether `op` (or an op inside it) may use the event of `flag`: the same pipe pair
    and the same static id, or any dynamic id."""
    for inner in op.walk():
        if not isinstance(inner, hivm.SetFlagOp | hivm.WaitFlagOp):
            continue
        if (inner.set_pipe, inner.wait_pipe) != (flag.set_pipe, flag.wait_pipe):
            continue
        if inner.event_id is None or inner.event_id == flag.event_id:
            return True
    return False


def hoist_prime(prime: hivm.SetFlagOp) -> None:
    """Move a priming set_flag up to the start of its block, or to just after the
    closest pipe_barrier[PIPE_ALL] above it, when no op in between uses its event.

    A set_flag runs once every earlier op of its pipe has completed; right before the
    loop it would wait for all the work before the loop on that pipe, and the loop's
    first wait with it, although the prime only stands for "iteration -1" (the work
    before the loop is ordered by the enclosing block's own flags). An earlier user of
    the event in between keeps it in place: nothing would order that user's wait before
    the moved set."""
    first: Operation | None = None  # the earliest op with pipe work above the prime
    cur = prime.prev_op
    while cur is not None and not hivm.is_barrier_all(cur):
        if same_flag(cur, prime):
            return
        if has_pipe_work(cur):
            first = cur
        cur = cur.prev_op
    if first is not None:
        prime.detach()
        Builder(InsertPoint.before(first)).insert(prime)


def has_pipe_work(op: Operation) -> bool:
    """Whether `op` is or holds an op that issues on a pipe, other than the primes
    already moved (scalar index arithmetic is left above a moved prime, which keeps
    primes in their order and the kernel readable)."""
    return any(
        isinstance(inner, hivm.HivmPipeOp) and not isinstance(inner, hivm.SetFlagOp | hivm.GetBlockIdxOp)
        for inner in op.walk()
    )


def sink_drain(drain: hivm.WaitFlagOp) -> None:
    """Move a draining wait_flag down to the closest pipe_barrier[PIPE_ALL] (or block
    terminator) below it, when no op in between uses its event: the wait blocks its pipe
    until the loop's last set, which no op after the loop needs."""
    cur = drain.next_op
    while cur is not None and not hivm.is_barrier_all(cur) and not cur.has_trait(IsTerminator):
        if same_flag(cur, drain):
            return
        cur = cur.next_op
    if cur is not None and cur is not drain.next_op:
        drain.detach()
        Builder(InsertPoint.before(cur)).insert(drain)
