"""Replaying one block's engine run for another block that provably runs the same way.

The blocks of a grid usually issue the same instruction stream at other GM offsets. The
engine's run of a block (its timing, races, reads of never-written memory, flags,
deadlock) depends on the instructions only through what `stream_signature` collects:
per instruction its kind, pipes, latency, ii, flag, scalar cost, resources, names and
static identity, and per access its memory label, direction and geometry. Geometry is
taken relative to the memory the view lies in, with every memory numbered in order of
first use (so the aliasing between accesses is the same), and each memory may be shifted
as a whole (a block's GM tile at another offset): overlap of two views of one memory,
their byte bounds and the engine's dedup keys do not change when both move by the same
number of bytes. Two blocks with equal signatures therefore make the engine take the
same decisions in the same order; only the data differs. The engine records the order
in which it started and completed the data-carrying instructions (`Engine(record=...)`),
and `replay_data` runs the other block's `on_start`/`on_end` callbacks in that order,
which is what its own engine run would have done. The verdicts are the first block's.

The data is never skipped: every block computes its own outputs. A block whose latencies
are perturbed by its own random draws, whose tile is a tail, or whose views alias
differently has another signature and runs the engine itself.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ascend_mlir.sim.engine import OP, Access, Core, EngineResult
from ascend_mlir.sim.memory import array_address, array_root


def _access_key(acc: Access) -> tuple:
    """What the signature takes of an access before its memories are numbered: its
    labels, and per view (the access's and its written mask's) the root array, the
    address and the geometry. Kept on the access: a later block that reissues the first
    block's instructions reissues their accesses."""
    key = acc.signature_key
    if key is None:
        view = acc.view
        root, address = acc.place[:2] if acc.place is not None else (array_root(view), array_address(view))
        written = acc.written
        if written is None:
            mask = None
        else:
            mroot, maddress = (acc.written_place if acc.written_place is not None
                               else (array_root(written), array_address(written)))
            mask = (mroot, maddress, written.shape, written.strides, written.dtype.str)
        key = acc.signature_key = (acc.mem, acc.write, acc.atomic, acc.origin, root, address, view.shape,
                                   view.strides, view.dtype.str, mask)
    return key


def stream_signature(cores: Sequence[Core]) -> Hashable:
    """Everything about a block's instruction streams that the engine's run depends on
    (see the module docstring); equal signatures, equal runs. Per access: (label, write,
    atomic, origin, geometry of the view, geometry of its written mask or None), a
    geometry being (memory number, offset from the memory's origin, shape, strides,
    dtype); memories (root arrays) are numbered in order of first use, and each one's
    origin is the address of its first access."""
    index: dict[int, tuple[int, int]] = {}  # id(root) -> (number, origin address)
    roots: list[np.ndarray] = []  # keeps the roots alive while their ids are compared

    def geometry(root: np.ndarray, address: int, shape, strides, dtype: str) -> tuple:
        hit = index.get(id(root))
        if hit is None:
            hit = index[id(root)] = (len(roots), address)
            roots.append(root)
        return hit[0], address - hit[1], shape, strides, dtype

    out: list[Any] = []
    append = out.append
    for core in cores:
        append((core.name, core.kind, len(core.instrs)))
        for ins in core.instrs:
            accesses = []
            for acc in ins.accesses:
                mem, write, atomic, origin, root, address, shape, strides, dtype, mask = _access_key(acc)
                view = geometry(root, address, shape, strides, dtype)
                accesses.append((mem, write, atomic, origin, view, None if mask is None else geometry(*mask)))
            append((ins.kind, ins.pipes, ins.latency, ins.ii, ins.flag, ins.name, ins.loc, ins.static_id,
                    ins.scalar_cost, ins.resources, ins.after_previous, ins.on_start is None,
                    ins.on_end is None, tuple(accesses)))
    return tuple(out)


@dataclass
class RecordedRun:
    """An engine run to replay: its result (copied before the simulator merges report
    counts into it) and the order of its data events, (core, position, completed)."""

    result: EngineResult
    events: list[tuple[int, int, bool]]

    @staticmethod
    def keep(result: EngineResult, events: list[tuple[int, int, bool]]) -> RecordedRun:
        kept = copy.copy(result)
        kept.races = copy.deepcopy(result.races)
        kept.uninitialized_reads = copy.deepcopy(result.uninitialized_reads)
        kept.trace = []
        return RecordedRun(kept, list(events))

    def replayed(self, cores: Sequence[Core]) -> EngineResult:
        """Run `cores`' data in the recorded order; the recorded verdicts, fresh copies."""
        replay_data(cores, self.events)
        result = copy.copy(self.result)
        result.races = copy.deepcopy(self.result.races)
        result.uninitialized_reads = copy.deepcopy(self.result.uninitialized_reads)
        result.deadlock_info = list(self.result.deadlock_info)
        result.unbalanced_flags = list(self.result.unbalanced_flags)
        result.double_sets = list(self.result.double_sets)
        result.pipe_busy = {core: dict(busy) for core, busy in self.result.pipe_busy.items()}
        result.trace = []
        return result


def replay_data(cores: Sequence[Core], events: Sequence[tuple[int, int, bool]]) -> None:
    """Call the instructions' data callbacks as the engine does: `on_start` when an op
    starts (a second part takes its first part's state), `on_end(state)` when it
    completes."""
    states: dict[tuple[int, int], Any] = {}
    for c, pos, completed in events:
        instrs = cores[c].instrs
        ins = instrs[pos]
        if completed:
            state = states.get((c, pos))
            if ins.on_end is not None:
                ins.on_end(state)
            if pos + 1 >= len(instrs) or not instrs[pos + 1].after_previous:
                states.pop((c, pos), None)
            continue
        state = states.pop((c, pos - 1), None) if ins.after_previous else None
        if ins.kind == OP and ins.on_start is not None:
            state = ins.on_start()
        states[(c, pos)] = state
