"""The stepping and memory model of `ascend-verify-sync` (`verify_sync`, which plans the
runs and unrolls the kernel into them): one run's issued steps (`Step`) executed core by
core (`run_streams`) over vector clocks per (core, pipe) (`Checker`), with the checks the
module docstring of `verify_sync` lists (unordered accesses to overlapping bytes, waits
without a set, a flag set twice, flags left set at exit)."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
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
from ascend_mlir.transforms.verify_sync_carry import CUBE_MULTIPLIES, Carry, StaticConflicts, per_core_memory


def op_where(op: Operation) -> str:
    loc = location_of(op)
    return str(loc) if loc is not None else op.name


@dataclass(slots=True)
class Step:
    """One issued instruction of the run."""

    op: Operation
    core: str
    # loop variable values (symbolic in runtime-bounded loops): the same for every step of
    # one op, core and tag (each loop variable is lb + k * step of its iteration k, its
    # bounds over the enclosing loops' variables)
    env: dict[Hashable, int | Affine]
    tag: tuple  # iteration numbers of the enclosing loops (renames values made in loops)
    # runs of the varying nested loop begun before this step (0 without one): the pass
    # of the sequence of its trip counts the step belongs to (`Carry`)
    pass_index: int = 0
    facts: OpFacts | None = None  # op_facts(op), when the runner keeps them


# ----------------------------------------------------------------------------- the check


@dataclass(slots=True)
class Access:
    step: Step
    pipe: str
    index: int  # the op's number on its (core, pipe)
    footprint: Footprint
    write: bool
    hull: tuple[int, int] | None  # byte_hull(footprint), kept: asked against every later access
    # the footprint's number in `RunMemo.ids`: equal footprints, equal numbers (the key of
    # the memoised conflict test)
    fid: int = -1
    template: AccessTemplate | None = None  # the op's access it is one of


# what an op is to the checker (`OpFacts.kind`), in the order `Checker.step` tells them apart
_BARRIER, _SET, _WAIT, _BLOCK_SET, _BLOCK_WAIT, _OTHER_SYNC, _MEMORY = range(7)


class AccessTemplate:
    """One memref access of an op (value, write, pipe), with what its steps compute alike:
    its numbered footprints per (core, tag) (a step's loop-variable values are those of its
    op, core and tag: `Step.env`) and the units whose accesses may conflict with it per
    core (`StaticConflicts.conflicting`)."""

    __slots__ = ("value", "write", "pipe", "bound", "conflicting")

    def __init__(self, value: SSAValue, write: bool, pipe: str):
        self.value, self.write, self.pipe = value, write, pipe
        self.bound: dict[tuple[str, tuple], tuple[tuple[int, Footprint, tuple[int, int] | None], ...]] = {}
        self.conflicting: dict[str, frozenset[tuple[str, str]]] = {}


class OpFacts:
    """What the checker reads of one op, the same in every step of it: its kind, pipes,
    memref accesses (reads first) and flag id (a static id, or its dynamic id's affine
    form, bound per step)."""

    __slots__ = ("kind", "pipes", "accesses", "stalls_issue", "flag_id", "cube_multiply")

    def __init__(self, kind: int, pipes: tuple[str, ...] = (), accesses: tuple[AccessTemplate, ...] = (),
                 stalls_issue: bool = False, flag_id: int | Affine | None = None, cube_multiply: bool = False):
        self.kind, self.pipes, self.accesses = kind, pipes, accesses
        self.stalls_issue, self.flag_id, self.cube_multiply = stalls_issue, flag_id, cube_multiply


def op_facts(op: Operation) -> OpFacts:
    if isinstance(op, hivm.PipeBarrierOp):
        return OpFacts(_BARRIER, (op.pipe.pipe_name,), stalls_issue=op.stalls_issue)
    if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp):
        kind = _SET if isinstance(op, hivm.SetFlagOp) else _WAIT
        flag = op.event_id if op.event_id is not None else affine_of(op.dynamic_event_id) if op.dynamic_event_id is not None else None
        return OpFacts(kind, (op.set_pipe.pipe_name, op.wait_pipe.pipe_name), flag_id=flag)
    if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
        pipe = op.tpipe.pipe_name if isinstance(op, hivm.SyncBlockSetOp) else op.pipe.pipe_name
        dynamic = op.dynamic_flag_id
        flag = op.flag_id if op.flag_id is not None else affine_of(dynamic) if dynamic is not None else None
        return OpFacts(_BLOCK_SET if isinstance(op, hivm.SyncBlockSetOp) else _BLOCK_WAIT, (pipe,), flag_id=flag)
    if isinstance(op, hivm.SYNC_OPS) or not isinstance(op, hivm.HivmPipeOp):
        return OpFacts(_OTHER_SYNC)
    pipes = op.pipes()
    writes = [v for v in op.memref_writes() if isinstance(v.type, MemRefType)]
    reads = [v for v in op.memref_reads() if isinstance(v.type, MemRefType)]
    accesses = tuple(AccessTemplate(v, write, pipes[-1] if write or v in writes else pipes[0])
                     for v, write in [(v, False) for v in reads] + [(v, True) for v in writes])
    return OpFacts(_MEMORY, pipes, accesses, cube_multiply=isinstance(op, CUBE_MULTIPLIES))


_ABSENT = object()  # a symbol the step's loop variables do not bind


@dataclass
class RunMemo:
    """What every run of one kernel computes alike, kept across its runs (the IR does not
    change while it is checked; a run's counts change which steps there are, not what a
    step's op, loop-variable values and iterations make of its memory): each op's facts,
    each memref value's footprint, each bound footprint per (value, core, the values of
    its symbols, the iterations of its values made in loops), and whether two bound
    footprints may share a byte (`may_conflict`). Pure functions of their keys, so a
    verdict is the same with or without them."""

    facts: dict[Operation, OpFacts] = field(default_factory=dict)
    # per memref value: its footprint, the symbols in it and those of them made in a loop
    footprints: dict[SSAValue, tuple[Footprint, tuple, tuple]] = field(default_factory=dict)
    bound: dict[tuple, tuple[tuple[int, Footprint, tuple[int, int] | None], ...]] = field(default_factory=dict)
    ids: dict[Footprint, int] = field(default_factory=dict)
    conflicts: dict[tuple[int, int], bool] = field(default_factory=dict)
    footprint_list: list[tuple[Footprint, tuple[int, int] | None]] = field(default_factory=list)
    # every access each unit may make: a unit none of whose accesses may conflict with an
    # op's is not searched for that op's conflicts (None: every unit is)
    static: StaticConflicts | None = None

    def of(self, op: Operation) -> OpFacts:
        facts = self.facts.get(op)
        if facts is None:
            facts = self.facts[op] = op_facts(op)
        return facts

    def footprints_in(self, value: SSAValue, s: Step, vector_cores: tuple[str, ...]) -> tuple:
        """(number, footprint, byte hull) of each memory `value` names in step `s` on its
        core: its loop variables bound, values made in a loop told apart by iteration."""
        cached = self.footprints.get(value)
        if cached is None:
            fp = footprint_of(value)
            symbols = tuple(_symbols_of(fp))
            cached = self.footprints[value] = (fp, symbols, tuple(v for v in symbols if _loops_around(v)))
        fp, symbols, in_loop = cached
        env = s.env
        renamed = any(v not in env for v in in_loop)
        key = (value, s.core, tuple(env.get(v, _ABSENT) for v in symbols), s.tag if renamed else None)
        found = self.bound.get(key)
        if found is None:
            bound = fp.bind(env, iteration_names((v for v in in_loop if v not in env), s.tag))
            found = self.bound[key] = tuple(self._numbered(f) for f in per_core_memory(bound, s.core, vector_cores))
        return found

    def _numbered(self, fp: Footprint) -> tuple[int, Footprint, tuple[int, int] | None]:
        fid = self.ids.get(fp)
        if fid is None:
            fid = self.ids[fp] = len(self.footprint_list)
            self.footprint_list.append((fp, byte_hull(fp)))
        return fid, fp, self.footprint_list[fid][1]

    def may_conflict(self, e: int, a: int) -> bool:
        """Whether footprints number e and a may share a byte: not apart by roots or byte
        hulls, and `may_alias`."""
        key = (e, a)
        hit = self.conflicts.get(key)
        if hit is None:
            (fe, he), (fa, ha) = self.footprint_list[e], self.footprint_list[a]
            hit = self.conflicts[key] = not hulls_apart(fe, fa, (he, ha)) and may_alias(fe, fa)
        return hit


@dataclass
class Checker:
    vector_cores: tuple[str, ...] = ("VEC0",)
    chip: Chip | None = None  # whose same-pipe rule applies (None: the default chip)
    known: dict[tuple[str, str], dict[tuple[str, str], int]] = field(default_factory=dict)
    count: dict[tuple[str, str], int] = field(default_factory=dict)
    flags: dict[tuple, deque] = field(default_factory=dict)  # pending sets
    last_wait: dict[tuple, tuple[tuple[str, str], int, Operation, int]] = field(default_factory=dict)
    accesses: dict[tuple[str, str], list[Access]] = field(default_factory=dict)
    memo: RunMemo = field(default_factory=RunMemo)  # shared by the runs of one kernel
    _in_order: dict[str, bool] = field(default_factory=dict)  # per pipe: the chip keeps it in order

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
        facts = s.facts if s.facts is not None else self.memo.of(s.op)
        kind = facts.kind
        if kind == _MEMORY:
            self._memory(s, facts)
        elif kind == _BARRIER:
            self._barrier(s.core, facts)
        elif kind == _SET:
            set_pipe, wait_pipe = facts.pipes
            self._set(s, (s.core, set_pipe), ("flag", s.core, set_pipe, wait_pipe, _event(facts, s)), None)
        elif kind == _WAIT:
            set_pipe, wait_pipe = facts.pipes
            self._wait(s, (s.core, wait_pipe), ("flag", s.core, set_pipe, wait_pipe, _event(facts, s)))
        elif kind == _BLOCK_SET:
            unit = (s.core, facts.pipes[0])
            for peer in _peers(s.core, self.vector_cores):
                self._set(s, unit, ("block", peer, s.core, _block_flag(facts, s)), counting=True)
            self.issue(unit)
        elif kind == _BLOCK_WAIT:
            # the cube waits for one set of each vector core
            for peer in _peers(s.core, self.vector_cores):
                self._wait(s, (s.core, facts.pipes[0]), ("block", s.core, peer, _block_flag(facts, s)))

    def _barrier(self, core: str, facts: OpFacts) -> None:
        # PIPE_S too, as in the simulator and the CCE printer (PipeBarrierOp.stalls_issue)
        if not facts.stalls_issue:
            unit = (core, facts.pipes[0])
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

    def _memory(self, s: Step, facts: OpFacts) -> None:
        pipes = facts.pipes
        core = s.core
        mine: list[Access] = []
        for t in facts.accesses:
            found = t.bound.get((core, s.tag))
            if found is None:
                found = t.bound[(core, s.tag)] = self.memo.footprints_in(t.value, s, self.vector_cores)
            for fid, fp, hull in found:
                mine.append(Access(s, t.pipe, 0, fp, t.write, hull, fid, t))
        if len(pipes) > 1:
            # one instruction on several pipes starts once every one of them let it
            # (mmadL1: MTE1 and M): they share what each knew
            joined: dict[tuple[str, str], int] = {}
            for p in pipes:
                for k, v in self.knows((core, p)).items():
                    joined[k] = max(joined.get(k, 0), v)
            for p in pipes:
                self.merge((core, p), joined)
        for a in mine:
            self._check(a, facts.cube_multiply)
        indices = {p: self.issue((core, p)) for p in pipes}
        for a in mine:
            a.index = indices[a.pipe]
            self.accesses.setdefault((core, a.pipe), []).append(a)

    def blocked(self, s: Step) -> bool:
        """A cross-core wait whose set has not been issued yet (another core may)."""
        facts = s.facts if s.facts is not None else self.memo.of(s.op)
        if facts.kind != _BLOCK_WAIT:
            return False
        flag = _block_flag(facts, s)
        return any(not self.flags.get(("block", s.core, peer, flag)) for peer in _peers(s.core, self.vector_cores))

    def _conflicting(self, a: Access) -> frozenset[tuple[str, str]] | None:
        """The units whose accesses may conflict with `a`'s op's (None: any may)."""
        static, t = self.memo.static, a.template
        if static is None or t is None:
            return None
        core = a.step.core
        found = t.conflicting.get(core)
        if found is None:
            found = t.conflicting[core] = static.conflicting(a.step.op, a.write, (core, a.pipe))
        return found

    def _check(self, a: Access, cube_multiply: bool) -> None:
        unit = (a.step.core, a.pipe)
        # a pipe the chip keeps in order (but M, whose order holds between multiplies
        # only) has each of its accesses ordered after all its earlier ones
        in_order = self._in_order.get(a.pipe)
        if in_order is None:
            in_order = self._in_order[a.pipe] = a.pipe != "M" and not needs_barrier(self.chip, a.pipe, a.pipe)
        knows = self.knows(unit)
        write, fid, may_conflict = a.write, a.fid, self.memo.may_conflict
        conflicting = self._conflicting(a)
        # every core's earlier accesses: a cube fixpipe into ub against a vector op too
        for (core, pipe), earlier_list in self.accesses.items():
            if in_order and (core, pipe) == unit:
                continue
            if conflicting is not None and (core, pipe) not in conflicting:
                continue
            floor = knows.get((core, pipe), 0)
            for e in reversed(earlier_list):
                if e.index <= floor:
                    break
                if (e.write or write) and may_conflict(e.fid, fid) and not _hardware_ordered(e, a, self.chip, cube_multiply):
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


def _hardware_ordered(e: Access, a: Access, chip: Chip | None, cube_multiply: bool) -> bool:
    """Two accesses of one pipe of one core that the chip keeps in order without a barrier
    (`cube_multiply`: `a`'s op is one of CUBE_MULTIPLIES)."""
    if e.pipe != a.pipe or e.step.core != a.step.core:
        return False
    # the cube accumulates into L0C in issue order: mmadL1 -> mmadL1, and the L0 multiplies
    # of its lowered form (cce.mmad, ascend-lower-mmad-l0), need no barrier
    if cube_multiply and isinstance(e.step.op, CUBE_MULTIPLIES):
        return True
    return e.pipe != "M" and not needs_barrier(chip, e.pipe, a.pipe)


def _iteration_text(e: Step, a: Step) -> str:
    if e.tag == a.tag:
        return ""
    return f" (iterations {list(e.tag)} and {list(a.tag)})"


def _name(op: Operation) -> str:
    text = str(op)
    return text.split(" attributes")[0][:90]


def _loops_around(value: Hashable) -> int:
    """How many loops enclose the definition of `value` (an SSA value; 0 for anything
    else): the loops whose iterations make it anew."""
    if isinstance(value, BlockArgument):
        owner = value.owner
        parent = owner.parent_op() if isinstance(owner, Block) else None
        node = parent
    elif isinstance(value, SSAValue) and isinstance(value.owner, Operation):
        node = value.owner.parent_op()
    else:
        return 0
    depth = 0
    while node is not None:
        depth += isinstance(node, scf.ForOp | scf.WhileOp)
        node = node.parent_op()
    return depth


def iteration_names(symbols: Iterable[Hashable], tag: tuple) -> dict[Hashable, Hashable]:
    """Each symbol made in a loop (a value the affine forms cannot see through) named by
    the iterations of the loops around its definition: the first of `tag`'s (those
    loops enclose every use too), not the use's own. A bound computed in an outer loop
    (a runtime inner loop's lower bound) is then one value in every iteration of the
    inner loop, as the loop's variable has it (a nested runtime loop's remainder after
    unrolling: its version `(j - lb) % 2` was two names apart from j's `lb + k`, and the
    two versions of its buffer looked like one: verify-sync refused the kernel)."""
    return {v: (v, tag[:depth]) for v in symbols if (depth := _loops_around(v))}


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


def _event(facts: OpFacts, s: Step) -> int | tuple:
    flag = facts.flag_id
    if isinstance(flag, int):
        return flag
    assert flag is not None
    value = flag.bind(s.env, iteration_names(flag.symbols(), s.tag))
    if not value.is_constant:
        raise op_error(s.op, "ascend-verify-sync: cannot evaluate this dynamic event id")
    return value.const


def _block_flag(facts: OpFacts, s: Step) -> int:
    flag = facts.flag_id
    if isinstance(flag, int):
        return flag
    value = flag.bind(s.env, iteration_names(flag.symbols(), s.tag)) if flag is not None else None
    if value is None or not value.is_constant:
        raise op_error(s.op, "ascend-verify-sync: cannot evaluate this dynamic cross-core flag id")
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
            while stream and (s := stream[0]).pass_index <= phase and not (
                    (s.facts is None or s.facts.kind == _BLOCK_WAIT) and checker.blocked(s)):
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
