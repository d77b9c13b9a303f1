"""The state ascend-verify-sync carries from one pass of a varying nested loop to the
next (issue 17 item 4; docs/runtime-shapes.md, "Sequences of trip counts"): how many
passes back the part of the checker's state that a later step can still tell apart was
made (`Carry.age`), or with varying loops in varying loops how many consecutive runs
of each level a pass's checks can depend on (`Carry.lengths`), which decides how long
the sequences of trip counts it checks must be. Used by `verify_sync` and
`verify_sync_engine` only."""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation

from ascend_mlir.analysis.aliasing import Footprint, byte_hull, hulls_apart
from ascend_mlir.analysis.views import footprint_of
from ascend_mlir.chips import Chip, needs_barrier
from ascend_mlir.dialects import cce, hivm

# the checker's `Checker`, `Access` and `Step` (ascend_mlir.transforms.verify_sync_engine,
# which imports this module) are read through their fields: typed Any here
Checker = Any
Access = Any

CUBE_MULTIPLIES = (hivm.MmadL1Op, cce.MmadOp)


@dataclass
class Carry:
    """What the state at the end of a pass of a varying nested loop's sequence of runs
    (`Step.pass_index`: from the start of one run of it to the start of the next) holds
    from earlier passes (docs/runtime-shapes.md, "Why pairs of trip counts cover every
    sequence"). The part of the checker's state a later step can still be told apart by
    is: the accesses some unit that may touch their bytes (one of the two a write, by
    the byte hulls of the footprints over all values of their symbols) does not yet know
    of, the pending sets, the last wait of each flag its setting pipe does not yet know
    of, and steps a core has not issued yet. `age` is the largest number of passes back
    any of it was made: 0 means the state at the end of pass p is made by pass p alone,
    so every check depends on at most the trip counts of two consecutive runs. With
    several levels of varying loops (a pass begins at every run of any level) the same
    parts are counted per level, in runs of that level (docs/runtime-shapes.md, "Varying
    loops in varying loops")."""

    # per unit (core, pipe): the accesses of every op it may run, and which may conflict
    static: StaticConflicts
    chip: Chip | None = None
    # (pass, flag) -> how many sets of a counting (cross-core) flag were pending at the
    # end of that pass, shared by the runs that differ only in the varying loop's counts
    queues: dict[tuple[int, tuple], int] = field(default_factory=dict)
    # per pass, how many runs of each level of varying loops began up to its start (its
    # own cut included) and up to its end (`verify_sync._Runner`; one level, None, when
    # no varying loop is nested in another: its runs are the passes)
    starts: list[dict[Hashable, int]] = field(default_factory=list)
    ends: list[dict[Hashable, int]] = field(default_factory=list)
    # per level, how many consecutive runs of it the checks of a pass can depend on: from
    # the run in progress when a part of the state a later step can tell apart was made to
    # the last one begun by the end of the next pass
    lengths: dict[Hashable, int] = field(default_factory=dict)
    age: int = 0  # the largest of them, less 2 (with one level: passes back, as above)
    where: Operation | None = None  # an op of the oldest part found
    # pass -> [how many sets of each flag were pending at its end in the first run, the
    # oldest pending set (pass made, op) of any run there, whether every run agreed]
    # (`_pending_counts_agree`), shared as `queues`
    pending: dict[int, list[Any]] = field(default_factory=dict)

    def record(self, checker: Checker, streams: Iterable[deque], phase: int) -> None:
        for stream in streams:
            if stream and stream[0].pass_index < phase:  # a core behind by whole passes
                self._older(stream[0].pass_index, phase, stream[0].op)
        # pending sets count by how many of each flag are pending, not by when they were
        # made, where those numbers are the same at this pass's end in every run (by
        # induction a function of the pass alone; what a set's clock carries is known of
        # items at least as old, whose own age counts: docs/runtime-shapes.md, "Pending
        # sets are counted, not aged"); else by the pass they were made in
        if not self._pending_counts_agree(checker, phase):
            for pending in checker.flags.values():
                for _, op, made in pending:
                    self._older(made, phase, op)
        for key, pending in checker.flags.items():
            if pending and key[0] == "block" and self.queues.setdefault((phase, key), len(pending)) != len(pending):
                # how many a pass's waits leave of its sets depends on an earlier pass
                self._older(phase - 1, phase, pending[0][1])
        for key, (unit, index, op, made) in checker.last_wait.items():
            if made < phase and key[0] == "flag" and checker.knows((key[1], key[2])).get(unit, 0) < index:
                self._older(made, phase, op)
        for unit, accesses in checker.accesses.items():
            self._oldest_live(checker, unit, accesses, phase)

    def _pending_counts_agree(self, checker: Checker, phase: int) -> bool:
        """Whether this run left as many sets of each flag pending at the end of pass
        `phase` as every run before it of this shape. Once two runs differ there, every
        later run counts, besides its own, the oldest pending set any run had there (an
        earlier run counted none of its own: the longer sequences it needs are planned
        for the same shape)."""
        counts = frozenset((key, len(pending)) for key, pending in checker.flags.items() if pending)
        oldest = min(((made, op) for pending in checker.flags.values() for _, op, made in pending),
                     key=lambda m: m[0], default=None)
        first = self.pending.setdefault(phase, [counts, oldest, True])
        if first[1] is None or (oldest is not None and oldest[0] < first[1][0]):
            first[1] = oldest
        first[2] = first[2] and first[0] == counts
        if not first[2] and first[1] is not None:
            # with levels a pass's runs differ from run to run: the first pass bounds them
            self._older(first[1][0] if not self.ends else 0, phase, first[1][1])
        return first[2]

    def _older(self, made: int, phase: int, op: Operation) -> None:
        """A part of the state made in pass `made` is still told apart at the end of pass
        `phase`: the checks of pass phase + 1 depend, per level, on the runs from the one
        in progress at the start of `made` to the last begun by the end of phase + 1."""
        if not self.ends:  # one level, whose runs are the passes
            self._needs(None, phase - made + 2, op)
            return
        start, end = self.starts[made], self.ends[min(phase + 1, len(self.ends) - 1)]
        for level, runs in end.items():
            self._needs(level, runs - start.get(level, 0) + 1, op)

    def _would_raise(self, made: int, phase: int) -> bool:
        """Whether a part made in pass `made` would raise some level's length (a part
        made later never raises more: the runs begun before a pass never fall)."""
        if not self.ends:
            return phase - made + 2 > self.lengths.get(None, 0)
        start, end = self.starts[made], self.ends[min(phase + 1, len(self.ends) - 1)]
        return any(runs - start.get(level, 0) + 1 > self.lengths.get(level, 0) for level, runs in end.items())

    def _needs(self, level: Hashable, length: int, op: Operation) -> None:
        if length > self.lengths.get(level, 0):
            self.lengths[level] = length
        if length - 2 > self.age:
            self.age, self.where = length - 2, op

    def _oldest_live(self, checker: Checker, unit: tuple[str, str], accesses: list[Access], phase: int) -> None:
        """Raise the age to that of `unit`'s oldest access some unit that may touch its
        bytes does not know of yet. A unit's accesses are in issue order: their indices
        rise and their passes never fall, so the oldest is the first found, and none at
        or below the index every unit that may see them knows is."""
        others = [other for other in self.static.static if not self._in_order(unit, other)]
        floor = min((checker.knows(other).get(unit, 0) for other in others), default=None)
        if floor is None:
            return
        for a in accesses[bisect_right(accesses, floor, key=_index):]:
            if not self._would_raise(a.step.pass_index, phase):
                return  # no later access is older than the ages found
            if self._live(checker, a, unit, others):
                self._older(a.step.pass_index, phase, a.step.op)
                return

    def _in_order(self, unit: tuple[str, str], other: tuple[str, str]) -> bool:
        """`unit` is `other`, a pipe the chip keeps in order (but M, whose order holds
        between multiplies only)."""
        return other == unit and unit[1] != "M" and not needs_barrier(self.chip, unit[1], unit[1])

    def _live(self, checker: Checker, a: Access, unit: tuple[str, str], others: list[tuple[str, str]]) -> bool:
        """Some unit of `others` that may touch `a`'s bytes does not know of it yet."""
        conflicting = self.static.conflicting(a.step.op, a.write, unit)
        for other in others:
            if checker.knows(other).get(unit, 0) >= a.index:
                continue
            if other in conflicting:
                return True
        return False


def _index(a: Access) -> int:
    return a.index


@dataclass
class StaticConflicts:
    """Per unit (core, pipe): the accesses of every op it may run (op, unbound footprint
    over all values of its symbols, its byte hull, write), and whether an op's accesses
    on one unit may conflict with some access of another (memoised): one of the two a
    write, their byte hulls over all values of their symbols not apart. A bound footprint
    lies in its unbound one's hull (binding turns a version `c * (x mod m)` into one of
    its values), so no two accesses of a pair this says no to can conflict in any run."""

    static: dict[tuple[str, str], list[StaticAccess]]
    _memo: dict[tuple, frozenset[tuple[str, str]]] = field(default_factory=dict)

    def may_conflict(self, op: Operation, write: bool, unit: tuple[str, str], other: tuple[str, str]) -> bool:
        """Whether some access of `other` may touch bytes `op`'s accesses (reads or
        writes, `write`) on `unit` touch, one of the two a write, over all values of both
        footprints' symbols (cube multiplies on one unit are ordered by the hardware)."""
        return other in self.conflicting(op, write, unit)

    def conflicting(self, op: Operation, write: bool, unit: tuple[str, str]) -> frozenset[tuple[str, str]]:
        """The units `may_conflict` says yes to."""
        key = (op, write, unit)
        found = self._memo.get(key)
        if found is None:
            mine = [m for m in self.static.get(unit, []) if m.op is op and m.write == write]
            found = self._memo[key] = frozenset(other for other, theirs in self.static.items() if any(
                (m.write or t.write) and not hulls_apart(m.footprint, t.footprint, (m.hull, t.hull))
                and not (other == unit and isinstance(m.op, CUBE_MULTIPLIES) and isinstance(t.op, CUBE_MULTIPLIES))
                for m in mine for t in theirs
            ))
        return found


@dataclass(frozen=True)
class StaticAccess:
    op: Operation
    footprint: Footprint
    hull: tuple[int, int] | None
    write: bool


def static_accesses(funcs: list[tuple[func.FuncOp, Callable[[hivm.HivmPipeOp], Sequence[str]]]],
                    vector_cores: tuple[str, ...]) -> dict[tuple[str, str], list[StaticAccess]]:
    """Every memory access each unit may make, over all values of its symbols (for
    `Carry`): each function with the cores that run each of its ops."""
    out: dict[tuple[str, str], list[StaticAccess]] = {}
    for f, cores_of in funcs:
        for op in f.walk():
            if not isinstance(op, hivm.HivmPipeOp) or isinstance(op, hivm.SYNC_OPS):
                continue
            pipes = op.pipes()
            writes = [v for v in op.memref_writes() if isinstance(v.type, MemRefType)]
            reads = [v for v in op.memref_reads() if isinstance(v.type, MemRefType)]
            for v, write in [(v, False) for v in reads] + [(v, True) for v in writes]:
                pipe = pipes[-1] if write or v in writes else pipes[0]
                for core in cores_of(op):
                    for fp in per_core_memory(footprint_of(v), core, vector_cores):
                        out.setdefault((core, pipe), []).append(StaticAccess(op, fp, byte_hull(fp), write))
    return out


def per_core_memory(fp: Footprint, core: str, vector_cores: tuple[str, ...]) -> list[Footprint]:
    """Each vector core of a MIX kernel has its own ub: qualify ub roots by core (the
    cube's fixpipe into ub writes both)."""
    if fp.scope != "ub" or core not in (*vector_cores, "CUBE") or fp.root is None:
        return [fp]
    cores = vector_cores if core == "CUBE" else (core,)
    return [Footprint((fp.root, c), fp.scope, fp.base, fp.dims, fp.elem) for c in cores]
