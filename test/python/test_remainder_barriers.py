"""The remainder loop of a loop unrolled U times whose count is known at run time runs at
most U - 1 passes: where program order with its hand-offs as pipe_barrier[<PIPE_ALL>]s
replays no slower at each of those counts, that is its code
(scheduling/small_trips.remainder_barriers), not a pipelined loop whose primes, drains and
version arithmetic a pass or two never pays back.

Narrow unseen seed 4157 on the 910B (one chain of 3 ops, num_stages 3, unrolled twice):
before, its remainder was pipelined with two versions of its output buffer; 1, 2 and 3
trips ran 346, 391 and 716 cycles (barrier-all: 327, 538, 749)."""

from __future__ import annotations

import sys
from pathlib import Path

from xdsl.dialects import scf

from ascend_mlir.dialects import ascend

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "e2e"))
import unseen  # noqa: E402

CHIP = "ascend910b"


def test_a_remainder_of_one_pass_runs_in_program_order_with_barriers():
    shape = unseen.draw_narrow(4157)
    assert shape.dynamic
    ours, _ = unseen._compiled(unseen.kernel(shape), CHIP)
    loops = [op for op in ours.walk() if isinstance(op, scf.ForOp) and ascend.loop_of(op) is not None]
    main = max(loops, key=ascend.unroll_of)
    assert ascend.unroll_of(main) == 2
    (rest,) = [loop for loop in loops if loop is not main]
    assert ascend.is_barrier_sync(rest)
    assert "%ver" not in str(rest)  # one version of each buffer: no version arithmetic
    barrier_all, _ = unseen._compiled(unseen.kernel(shape), CHIP, sync="barrier-all", schedule="program-order")
    cycles = {trips: unseen._cycles(ours, shape, trips, CHIP) for trips in (1, 2, 3)}
    assert cycles[1] < 346 and cycles[3] < 716, cycles
    assert cycles[3] < unseen._cycles(barrier_all, shape, 3, CHIP)
    assert unseen.check_oracle(shape, CHIP, 4157) == []
