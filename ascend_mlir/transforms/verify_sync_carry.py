"""The state ascend-verify-sync carries from one pass of a varying nested loop to the
next (issue 17 item 4; docs/runtime-shapes.md, "Sequences of trip counts"): how many
passes back the part of the checker's state that a later step can still tell apart was
made (`Carry.age`), which decides how long the sequences of trip counts it checks
must be. Used by `verify_sync` and `verify_sync_engine` only."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
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
    so every check depends on at most the trip counts of two consecutive runs."""

    # per unit (core, pipe): the accesses of every op it may run (op, unbound footprint
    # over all values of its symbols, its byte hull, write)
    static: dict[tuple[str, str], list[StaticAccess]]
    chip: Chip | None = None
    # (pass, flag) -> how many sets of a counting (cross-core) flag were pending at the
    # end of that pass, shared by the runs that differ only in the varying loop's counts
    queues: dict[tuple[int, tuple], int] = field(default_factory=dict)
    age: int = 0
    where: Operation | None = None  # an op of the oldest part found
    _conflicts: dict[tuple, bool] = field(default_factory=dict)

    def record(self, checker: Checker, streams: Iterable[deque], phase: int) -> None:
        for stream in streams:
            if stream and stream[0].pass_index < phase:  # a core behind by whole passes
                self._older(phase - stream[0].pass_index, stream[0].op)
        for key, pending in checker.flags.items():
            for _, op, made in pending:
                self._older(phase - made, op)
            if pending and key[0] == "block" and self.queues.setdefault((phase, key), len(pending)) != len(pending):
                # how many a pass's waits leave of its sets depends on an earlier pass
                self._older(1, pending[0][1])
        for key, (unit, index, op, made) in checker.last_wait.items():
            if made < phase and key[0] == "flag" and checker.knows((key[1], key[2])).get(unit, 0) < index:
                self._older(phase - made, op)
        for (core, pipe), accesses in checker.accesses.items():
            for a in reversed(accesses):
                if a.step.pass_index < phase and self._live(checker, a, (core, pipe)):
                    self._older(phase - a.step.pass_index, a.step.op)

    def _older(self, age: int, op: Operation) -> None:
        if age > self.age:
            self.age, self.where = age, op

    def _live(self, checker: Checker, a: Access, unit: tuple[str, str]) -> bool:
        """Some unit that may touch `a`'s bytes does not know of it yet."""
        for other in self.static:
            if other == unit and a.pipe != "M" and not needs_barrier(self.chip, a.pipe, a.pipe):
                continue  # a pipe the chip keeps in order
            if checker.knows(other).get(unit, 0) >= a.index:
                continue
            if self._may_conflict(a, unit, other):
                return True
        return False

    def _may_conflict(self, a: Access, unit: tuple[str, str], other: tuple[str, str]) -> bool:
        """Whether some access of `other` may touch bytes `a`'s op touches (one a write),
        over all values of both footprints' symbols."""
        key = (a.step.op, unit, a.write, other)
        hit = self._conflicts.get(key)
        if hit is None:
            mine = [m for m in self.static.get(unit, []) if m.op is a.step.op and m.write == a.write]
            hit = self._conflicts[key] = any(
                (m.write or t.write) and not hulls_apart(m.footprint, t.footprint, (m.hull, t.hull))
                and not (other == unit and isinstance(m.op, CUBE_MULTIPLIES) and isinstance(t.op, CUBE_MULTIPLIES))
                for m in mine for t in self.static[other]
            )
        return hit


@dataclass(frozen=True)
class StaticAccess:
    op: Operation
    footprint: Footprint
    hull: tuple[int, int] | None
    write: bool


def static_accesses(funcs: list[tuple[func.FuncOp, Callable[[hivm.HivmPipeOp], list[str]]]],
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
