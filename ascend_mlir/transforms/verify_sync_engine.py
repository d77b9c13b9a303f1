"""The stepping and memory model of `ascend-verify-sync` (`verify_sync`, which plans the
runs and unrolls the kernel into them): one run's issued steps (`Step`) executed core by
core (`run_streams`) over vector clocks per (core, pipe) (`Checker`), with the checks the
module docstring of `verify_sync` lists (unordered accesses to overlapping bytes, waits
without a set, a flag set twice, flags left set at exit)."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ascend_mlir import hardware
from ascend_mlir.analysis.aliasing import Affine, Footprint, byte_hull, hulls_apart, may_alias
from ascend_mlir.analysis.views import affine_of, footprint_of
from ascend_mlir.chips import Chip, needs_barrier
from ascend_mlir.diagnostics import location_of, op_error
from ascend_mlir.dialects import hivm
from ascend_mlir.transforms.verify_sync_carry import CUBE_MULTIPLIES, Carry, per_core_memory


def op_where(op: Operation) -> str:
    loc = location_of(op)
    return str(loc) if loc is not None else op.name


@dataclass
class Step:
    """One issued instruction of the run."""

    op: Operation
    core: str
    env: dict[Hashable, int | Affine]  # loop variable values (symbolic in runtime-bounded loops)
    tag: tuple  # iteration numbers of the enclosing loops (renames values made in loops)
    # runs of the varying nested loop begun before this step (0 without one): the pass
    # of the sequence of its trip counts the step belongs to (`_pass_ages`)
    pass_index: int = 0


# ----------------------------------------------------------------------------- the check


@dataclass
class Access:
    step: Step
    pipe: str
    index: int  # the op's number on its (core, pipe)
    footprint: Footprint
    write: bool
    hull: tuple[int, int] | None = None  # byte_hull(footprint), kept: asked against every later access

    def __post_init__(self) -> None:
        self.hull = byte_hull(self.footprint)


@dataclass
class Checker:
    vector_cores: tuple[str, ...] = ("VEC0",)
    chip: Chip | None = None  # whose same-pipe rule applies (None: the default chip)
    known: dict[tuple[str, str], dict[tuple[str, str], int]] = field(default_factory=dict)
    count: dict[tuple[str, str], int] = field(default_factory=dict)
    flags: dict[tuple, deque] = field(default_factory=dict)  # pending sets
    last_wait: dict[tuple, tuple[tuple[str, str], int, Operation, int]] = field(default_factory=dict)
    accesses: dict[tuple[str, str], list[Access]] = field(default_factory=dict)
    # per memref value: its footprint, the symbols in it and those of them made in a loop
    # (the IR does not change while it is checked: computed once, bound per step)
    footprints: dict[SSAValue, tuple[Footprint, set, set]] = field(default_factory=dict)

    def knows(self, unit: tuple[str, str]) -> dict[tuple[str, str], int]:
        return self.known.setdefault(unit, {})

    def merge(self, unit: tuple[str, str], token: dict[tuple[str, str], int]) -> None:
        mine = self.knows(unit)
        for k, v in token.items():
            if v > mine.get(k, 0):
                mine[k] = v

    def issue(self, unit: tuple[str, str]) -> int:
        self.count[unit] = self.count.get(unit, 0) + 1
        return self.count[unit]

    def ordered(self, earlier: Access, unit: tuple[str, str]) -> bool:
        return self.knows(unit).get((earlier.step.core, earlier.pipe), 0) >= earlier.index

    # ----- events

    def step(self, s: Step) -> None:
        op = s.op
        if isinstance(op, hivm.PipeBarrierOp):
            self._barrier(s.core, op)
        elif isinstance(op, hivm.SetFlagOp):
            self._set(s, (s.core, op.set_pipe.pipe_name), ("flag", s.core, *self._pipes(op), _event(op, s)), None)
        elif isinstance(op, hivm.WaitFlagOp):
            self._wait(s, (s.core, op.wait_pipe.pipe_name), ("flag", s.core, *self._pipes(op), _event(op, s)))
        elif isinstance(op, hivm.SyncBlockSetOp):
            unit = (s.core, op.tpipe.pipe_name)
            for peer in _peers(s.core, self.vector_cores):
                self._set(s, unit, ("block", peer, s.core, _block_flag(op, s)), counting=True)
            self.issue(unit)
        elif isinstance(op, hivm.SyncBlockWaitOp):
            # the cube waits for one set of each vector core
            for peer in _peers(s.core, self.vector_cores):
                self._wait(s, (s.core, op.pipe.pipe_name), ("block", s.core, peer, _block_flag(op, s)))
        elif not isinstance(op, hivm.SYNC_OPS):
            self._memory(s)

    @staticmethod
    def _pipes(op: hivm.SetFlagOp | hivm.WaitFlagOp) -> tuple[str, str]:
        return (op.set_pipe.pipe_name, op.wait_pipe.pipe_name)

    def _barrier(self, core: str, op: hivm.PipeBarrierOp) -> None:
        # PIPE_S too, as in the simulator and the CCE printer (PipeBarrierOp.stalls_issue)
        if not op.stalls_issue:
            unit = (core, op.pipe.pipe_name)
            self.merge(unit, {unit: self.count.get(unit, 0)})
            return
        # every pipe of the core drained: what any of them knew, all of them know now
        drained: dict[tuple[str, str], int] = {(core, q): self.count.get((core, q), 0) for q in hardware.PIPES}
        for q in hardware.PIPES:
            for k, v in self.knows((core, q)).items():
                drained[k] = max(drained.get(k, 0), v)
        for q in hardware.PIPES:
            self.merge((core, q), drained)

    def _set(self, s: Step, unit: tuple[str, str], key: tuple, counting: bool | None) -> None:
        token = dict(self.knows(unit))
        token[unit] = self.count.get(unit, 0)
        pending = self.flags.setdefault(key, deque())
        if not counting:
            if pending:
                raise op_error(s.op, f"ascend-verify-sync: {_name(s.op)} is set again while still set (its last set at {op_where(pending[-1][1])} has not been waited for)")
            last = self.last_wait.get(key)
            if last is not None and self.knows(unit).get(last[0], 0) < last[1]:
                raise op_error(
                    s.op,
                    f"ascend-verify-sync: {_name(s.op)} may be set again before the wait at "
                    f"{op_where(last[2])} consumed its previous set (nothing orders that wait before this set)",
                )
        pending.append((token, s.op, s.pass_index))
        if not counting:
            self.issue(unit)

    def _wait(self, s: Step, unit: tuple[str, str], key: tuple) -> None:
        pending = self.flags.get(key)
        if not pending:
            raise op_error(s.op, f"ascend-verify-sync: {_name(s.op)} waits for a flag no earlier set raises (deadlock)")
        token, _, _ = pending.popleft()
        self.merge(unit, token)
        index = self.issue(unit)
        self.last_wait[key] = (unit, index, s.op, s.pass_index)

    def _memory(self, s: Step) -> None:
        op = s.op
        assert isinstance(op, hivm.HivmPipeOp)
        pipes = op.pipes()
        writes = [v for v in op.memref_writes() if isinstance(v.type, MemRefType)]
        reads = [v for v in op.memref_reads() if isinstance(v.type, MemRefType)]
        mine: list[Access] = []
        for v, write in [(v, False) for v in reads] + [(v, True) for v in writes]:
            pipe = pipes[-1] if write or v in writes else pipes[0]
            for fp in per_core_memory(self._bound(v, s), s.core, self.vector_cores):
                mine.append(Access(s, pipe, 0, fp, write))
        if len(pipes) > 1:
            # one instruction on several pipes starts once every one of them let it
            # (mmadL1: MTE1 and M): they share what each knew
            joined: dict[tuple[str, str], int] = {}
            for p in pipes:
                for k, v in self.knows((s.core, p)).items():
                    joined[k] = max(joined.get(k, 0), v)
            for p in pipes:
                self.merge((s.core, p), joined)
        for a in mine:
            self._check(a)
        indices = {p: self.issue((s.core, p)) for p in pipes}
        for a in mine:
            a.index = indices[a.pipe]
            self.accesses.setdefault((s.core, a.pipe), []).append(a)

    def _bound(self, value: SSAValue, s: Step) -> Footprint:
        """The footprint of `value` in step `s`: its loop variables bound, values made in a
        loop told apart by iteration."""
        cached = self.footprints.get(value)
        if cached is None:
            fp = footprint_of(value)
            symbols = _symbols_of(fp)
            cached = self.footprints[value] = (fp, symbols, {v for v in symbols if _made_in_loop(v)})
        fp, _, in_loop = cached
        return fp.bind(s.env, {v: (v, s.tag) for v in in_loop if v not in s.env})

    def blocked(self, s: Step) -> bool:
        """A cross-core wait whose set has not been issued yet (another core may)."""
        op = s.op
        if not isinstance(op, hivm.SyncBlockWaitOp):
            return False
        flag = _block_flag(op, s)
        return any(not self.flags.get(("block", s.core, peer, flag)) for peer in _peers(s.core, self.vector_cores))

    def _check(self, a: Access) -> None:
        unit = (a.step.core, a.pipe)
        # a pipe the chip keeps in order (but M, whose order holds between multiplies
        # only) has each of its accesses ordered after all its earlier ones
        in_order = a.pipe != "M" and not needs_barrier(self.chip, a.pipe, a.pipe)
        # every core's earlier accesses: a cube fixpipe into ub against a vector op too
        for (core, pipe), earlier_list in self.accesses.items():
            if in_order and (core, pipe) == unit:
                continue
            floor = self.knows(unit).get((core, pipe), 0)
            for e in reversed(earlier_list):
                if e.index <= floor:
                    break
                if not (e.write or a.write) or hulls_apart(e.footprint, a.footprint, (e.hull, a.hull)):
                    continue
                if _hardware_ordered(e, a, self.chip):
                    continue
                if may_alias(e.footprint, a.footprint):
                    here = a.pipe if core == a.step.core else f"{a.step.core} {a.pipe}"
                    there = e.pipe if core == a.step.core else f"{core} {e.pipe}"
                    raise op_error(
                        a.step.op,
                        f"ascend-verify-sync: {a.step.op.name} ({here}) may touch bytes that "
                        f"{e.step.op.name} at {op_where(e.step.op)} ({there}) "
                        f"{'wrote' if e.write else 'read'}, and nothing orders them"
                        f"{_iteration_text(e.step, a.step)}",
                    )

    def finish(self) -> None:
        for key, pending in self.flags.items():
            if pending and key[0] == "flag":
                raise op_error(pending[0][1], f"ascend-verify-sync: {_name(pending[0][1])} is still set at kernel exit")
        _check_cross_core_balance(self.flags)


def _check_cross_core_balance(flags: dict[tuple, deque]) -> None:
    """A cross-core set that no wait consumes leaves the flag counting at exit: the next
    kernel on the core would pass its first wait early."""
    for key, pending in flags.items():
        if pending and key[0] == "block":
            _, waiter, setter, flag = key
            op = pending[0][1]
            raise op_error(
                op,
                f"ascend-verify-sync: {_name(op)} ({setter}) is never waited for: cross-core flag {flag} "
                f"is set {len(pending)} more time(s) than {waiter} waits for it (unbalanced at kernel exit)",
            )


def _peers(core: str, vector_cores: tuple[str, ...]) -> tuple[str, ...]:
    if core == "CUBE":
        return vector_cores
    if core in vector_cores:
        return ("CUBE",)
    return ("CUBE",) if core == "VECTOR" else ("VECTOR",)




def _hardware_ordered(e: Access, a: Access, chip: Chip | None) -> bool:
    """Two accesses of one pipe of one core that the chip keeps in order without a barrier."""
    if e.pipe != a.pipe or e.step.core != a.step.core:
        return False
    # the cube accumulates into L0C in issue order: mmadL1 -> mmadL1, and the L0 multiplies
    # of its lowered form (cce.mmad, ascend-lower-mmad-l0), need no barrier
    if isinstance(e.step.op, CUBE_MULTIPLIES) and isinstance(a.step.op, CUBE_MULTIPLIES):
        return True
    return e.pipe != "M" and not needs_barrier(chip, e.pipe, a.pipe)


def _iteration_text(e: Step, a: Step) -> str:
    if e.tag == a.tag:
        return ""
    return f" (iterations {list(e.tag)} and {list(a.tag)})"


def _name(op: Operation) -> str:
    text = str(op)
    return text.split(" attributes")[0][:90]


def _made_in_loop(value: Hashable) -> bool:
    if isinstance(value, BlockArgument):
        owner = value.owner
        parent = owner.parent_op() if isinstance(owner, Block) else None
        node = parent
    elif isinstance(value, SSAValue) and isinstance(value.owner, Operation):
        node = value.owner.parent_op()
    else:
        return False
    while node is not None:
        if isinstance(node, scf.ForOp | scf.WhileOp):
            return True
        node = node.parent_op()
    return False


def _symbols_of(fp: Footprint) -> set:
    out: set = set()
    if fp.base is None:
        return out
    stack = [fp.base]
    while stack:
        expr = stack.pop()
        for k, _ in expr.terms:
            inner = getattr(k, "expr", None)
            if inner is not None:
                stack.append(inner)
            else:
                out.add(k)
    return out


def _event(op: hivm.SetFlagOp | hivm.WaitFlagOp, s: Step) -> int | tuple:
    if op.event_id is not None:
        return op.event_id
    assert op.dynamic_event_id is not None
    value = affine_of(op.dynamic_event_id).bind(s.env)
    if not value.is_constant:
        raise op_error(op, "ascend-verify-sync: cannot evaluate this dynamic event id")
    return value.const


def _block_flag(op: hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp, s: Step) -> int:
    if op.flag_id is not None:
        return op.flag_id
    dynamic = op.dynamic_flag_id
    value = affine_of(dynamic).bind(s.env) if dynamic is not None else None
    if value is None or not value.is_constant:
        raise op_error(op, "ascend-verify-sync: cannot evaluate this dynamic cross-core flag id")
    return value.const


def run_streams(checker: Checker, steps: list[Step], carry: Carry | None = None) -> None:
    """Each core issues its own steps in order; a core stops at a cross-core wait whose
    set is not there yet and the others go on (so sets come before the waits they
    release). All cores stopped: a deadlock.

    Pass by pass (`Step.pass_index`): every core issues what it can of the passes up to
    p before any of pass p + 1 (the order of issue between cores changes no verdict:
    what orders two steps is the flags and barriers between them); at the end of each
    pass `carry` records how many passes back the oldest part of the state still needed
    was made (`Carry.record`)."""
    streams: dict[str, deque[Step]] = {}
    for s in steps:
        streams.setdefault(s.core, deque()).append(s)
    last = max((s.pass_index for s in steps), default=0)
    phase = 0
    while any(streams.values()):
        progress = False
        for stream in streams.values():
            while stream and stream[0].pass_index <= phase and not checker.blocked(stream[0]):
                checker.step(stream.popleft())
                progress = True
        if progress:
            continue
        if phase < last:
            if carry is not None and phase >= 1:
                carry.record(checker, streams.values(), phase)
            phase += 1
            continue
        stuck = next(stream[0] for stream in streams.values() if stream)
        raise op_error(stuck.op, f"ascend-verify-sync: {_name(stuck.op)} waits for a cross-core flag no core ever raises (deadlock)")
    checker.finish()
