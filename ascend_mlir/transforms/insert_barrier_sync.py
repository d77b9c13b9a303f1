"""`ascend-insert-barrier-sync`: the trivially correct synchronisation.

The baseline every cleverer sync pass is compared with, and the fallback that needs no
schedule. Two mechanisms:

* **Within a core**: before a hivm op `B` that conflicts with an op `A` issued since the
  last barrier on the same core (they touch the same buffer, one of them writes) the pass
  inserts `hivm.hir.pipe_barrier[<PIPE_ALL>]`, unless `A` and `B` both run on the same
  single pipe that keeps them in order on the chip (`chips.needs_barrier`: S and M
  everywhere, V on the register-based Ascend 950). Two conflicting V ops on a chip whose
  V pipe does not keep them in order (the 910B) get `pipe_barrier[<PIPE_V>]` instead,
  which is what bishengir's own sync inserts between dependent vector ops there. The chip
  is the module's `hacc.target` or the `chip` option. A PIPE_ALL barrier drains every pipe of the core and a PIPE_V
  barrier every V op, so "every conflicting pair has a barrier between it, or is
  same-pipe in order" holds by construction. Loops are handled by a fixpoint over the
  back edge: the ops still open at the end of the body are open at its start, so a
  loop-carried conflict gets its barrier inside the body. A final barrier before
  `func.return` drains the kernel (as bishengir does).
* **Across cores** (MIX kernels, where the cube and the vector cores run their own
  streams of the same function): the memory-touching ops are passed like a baton in
  program order. When the next such op `B` runs on another core than the previous one
  `A`, the pass inserts, before `B`:

      pipe_barrier[<PIPE_ALL>]                                   (drains A's core)
      sync_block_set[<A core>, <A pipe>, <B pipe>] flag = F      (on A's core)
      sync_block_wait[<B core>, <A pipe>, <B pipe>] flag = F     (on B's core)
      pipe_barrier[<PIPE_ALL>]                                   (B's core waits for it)

  F is 0 from cube to vector and 1 from vector to cube; set and wait of one hand-off sit
  in the same block, so they run equally often (the flags balance). The cube's wait
  consumes one set of each vector core. A loop whose body touches memory is entered and
  left with the baton on the core of its first memory op: a hand-off before the loop and
  one at the end of the body when needed, so every path into the body agrees.

Aliasing: `ascend_mlir.analysis.aliasing` (byte footprints through views; pointer_casts
of one scope alias when their byte ranges overlap). An access carried around a loop's back
edge, or out of the loop, is widened over the loop's iterations first, so footprints that
depend on the loop variable are compared across iterations, not as if in one.

Existing sync is recognised (the pass is idempotent): pipe barriers drain what they drain,
and a `sync_block_wait` passes the baton to its core.

Cost: each loop's fixpoint caches the loop's effect per entry state, so nested loops are
analysed a bounded number of times each (linear in the nesting depth, not exponential).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from ascend_mlir import hardware
from ascend_mlir.chips import in_order
from ascend_mlir.analysis.aliasing import Footprint, may_alias
from ascend_mlir.analysis.views import footprint_of, widen_out_of
from ascend_mlir.analysis.hardware_checks import require_hivm_level
from ascend_mlir.analysis.kernel_layout import scalar_core
from ascend_mlir.dialects import hivm
from ascend_mlir.transforms.estimate_latency import module_chip

# the two cross-core flag ids this pass uses, one per direction (of hardware.CROSS_CORE_FLAGS)
CUBE_TO_VECTOR_FLAG = 0
VECTOR_TO_CUBE_FLAG = 1

# --------------------------------------------------------------------------------------
# buffers and accesses
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Access:
    """One memory-touching hivm op as the pass sees it."""

    op: Operation
    core: str
    pipes: tuple[str, ...]
    reads: tuple[Footprint, ...]
    writes: tuple[Footprint, ...]

    def conflicts(self, later: _Access) -> bool:
        return any(may_alias(w, r) for w in self.writes for r in later.reads + later.writes) or any(
            may_alias(r, w) for r in self.reads for w in later.writes
        )

    def both_mmad(self, later: _Access) -> bool:
        """mmadL1 -> mmadL1 on one core: ordered by the op (the same-pipe rule)."""
        return self.core == later.core and isinstance(self.op, hivm.MmadL1Op) and isinstance(later.op, hivm.MmadL1Op)

    def widened(self, loop: Operation) -> _Access:
        """This access over all iterations of `loop` (itself when it does not depend on them)."""
        reads = tuple(widen_out_of(f, loop) for f in self.reads)
        writes = tuple(widen_out_of(f, loop) for f in self.writes)
        if reads == self.reads and writes == self.writes:
            return self
        return _Access(self.op, self.core, self.pipes, reads, writes)

    def same_single_pipe(self, later: _Access) -> str | None:
        """The pipe both ops run on alone, on the same core (None otherwise)."""
        if self.core == later.core and len(self.pipes) == 1 and self.pipes == later.pipes:
            return self.pipes[0]
        return None


def _access_of(op: Operation, default_core: str) -> _Access | None:
    if not isinstance(op, hivm.HivmPipeOp) or isinstance(op, hivm.SYNC_OPS):
        return None
    reads, writes = op.memref_reads(), op.memref_writes()
    if not reads and not writes:
        return None
    core = op.core_type()
    if core == "SCALAR":
        core = default_core
    return _Access(
        op,
        core,
        op.pipes(),
        tuple(footprint_of(v) for v in reads if isinstance(v.type, MemRefType)),
        tuple(footprint_of(v) for v in writes if isinstance(v.type, MemRefType)),
    )


# --------------------------------------------------------------------------------------
# the analysis state
# --------------------------------------------------------------------------------------


@dataclass
class _State:
    """Per core: the accesses issued since that core's last barrier; the core holding
    the baton (the last memory op's core) and each core's last memory pipe."""

    open: dict[str, frozenset[_Access]] = field(default_factory=dict)
    # the V-only accesses of `open` that no PIPE_V barrier has fenced yet
    v_open: dict[str, frozenset[_Access]] = field(default_factory=dict)
    owner: str | None = None
    last_pipe: dict[str, str] = field(default_factory=dict)

    def copy(self) -> _State:
        return _State(dict(self.open), dict(self.v_open), self.owner, dict(self.last_pipe))

    def drain(self, cores: Iterable[str] | None = None) -> None:
        """A PIPE_ALL barrier ran on `cores` (default: every core)."""
        for core in list(self.open) if cores is None else cores:
            self.open[core] = frozenset()
            self.v_open[core] = frozenset()

    def join(self, other: _State) -> _State:
        """Both control-flow paths' facts: open (and unfenced) accesses of either; the
        owner must agree (loops and branches are canonicalised so that it does)."""

        def union(a: dict[str, frozenset[_Access]], b: dict[str, frozenset[_Access]]):
            return {c: a.get(c, frozenset()) | b.get(c, frozenset()) for c in sorted(set(a) | set(b))}

        return _State(
            union(self.open, other.open),
            union(self.v_open, other.v_open),
            self.owner if self.owner is not None else other.owner,
            {**other.last_pipe, **self.last_pipe},
        )

    def same_as(self, other: _State) -> bool:
        def equal(a: dict[str, frozenset[_Access]], b: dict[str, frozenset[_Access]]) -> bool:
            return all(a.get(k, frozenset()) == b.get(k, frozenset()) for k in set(a) | set(b))

        return self.owner == other.owner and equal(self.open, other.open) and equal(self.v_open, other.v_open)

    def key(self) -> tuple:
        """A hashable summary (for caching a loop's effect per entry state)."""

        def items(a: dict[str, frozenset[_Access]]) -> tuple:
            return tuple(sorted((k, v) for k, v in a.items() if v))

        return (self.owner, items(self.open), items(self.v_open), tuple(sorted(self.last_pipe.items())))

    def mapped(self, f) -> _State:
        """The state with every open access replaced by f(access)."""

        def each(a: dict[str, frozenset[_Access]]) -> dict[str, frozenset[_Access]]:
            return {k: frozenset(f(x) for x in v) for k, v in a.items()}

        return _State(each(self.open), each(self.v_open), self.owner, dict(self.last_pipe))


def _first_access_core(ops: Iterable[Operation], default_core: str) -> str | None:
    for op in ops:
        access = _access_of(op, default_core)
        if access is not None:
            return access.core
        for region in op.regions:
            for block in region.blocks:
                core = _first_access_core(block.ops, default_core)
                if core is not None:
                    return core
    return None


# --------------------------------------------------------------------------------------
# the pass proper
# --------------------------------------------------------------------------------------


class _Inserter:
    def __init__(self, func_op: func.FuncOp, in_order_pipes: frozenset[str], intra_core: bool = True):
        self.func_op = func_op
        # pipes that keep two dependent ops of their own in order on the chip
        self.in_order_pipes = in_order_pipes
        self.intra_core = intra_core
        # SCALAR-typed memory ops (none today) belong to the function's core
        self.default_core = scalar_core(func_op)
        # one _Access per op (and per op widened over a loop), so that the fixpoint
        # compares stable identities
        self._accesses: dict[Operation, _Access | None] = {}
        self._widened: dict[tuple[_Access, Operation], _Access] = {}
        # a loop's analysed effect (apply=False) per entry state
        self._loop_effects: dict[tuple[Operation, tuple], _State] = {}
        # ops visited by the walk: bounded by a small multiple of the program size
        self.visits = 0

    def access(self, op: Operation) -> _Access | None:
        if op not in self._accesses:
            self._accesses[op] = _access_of(op, self.default_core)
        return self._accesses[op]

    def run(self) -> None:
        body = self.func_op.body.block
        state = self._block(body, _State(), apply=True)
        terminator = body.last_op
        if terminator is not None and any(state.open.values()) and self.intra_core:
            self._barrier(InsertPoint.before(terminator))

    # ----- insertion helpers ---------------------------------------------------------

    @staticmethod
    def _barrier(point: InsertPoint, pipe: str = "ALL") -> None:
        Builder(point).insert(hivm.PipeBarrierOp(pipe))

    def _handoff(self, point: InsertPoint, state: _State, to_core: str, to_pipe: str, apply: bool) -> None:
        """Pass the baton from `state.owner` to `to_core` at `point`."""
        from_core = state.owner
        assert from_core is not None and from_core != to_core
        if apply:
            from_pipe = state.last_pipe.get(from_core, "S")
            flag = CUBE_TO_VECTOR_FLAG if from_core == "CUBE" else VECTOR_TO_CUBE_FLAG
            builder = Builder(point)
            if state.open.get(from_core):
                builder.insert(hivm.PipeBarrierOp("ALL"))
            builder.insert(hivm.SyncBlockSetOp(from_core, from_pipe, to_pipe, flag))
            builder.insert(hivm.SyncBlockWaitOp(to_core, from_pipe, to_pipe, flag))
            builder.insert(hivm.PipeBarrierOp("ALL"))
        # the barriers drained both cores
        state.drain()
        state.owner = to_core

    # ----- walking -------------------------------------------------------------------

    def _block(self, block: Block, state: _State, apply: bool) -> _State:
        state = state.copy()
        for op in list(block.ops):
            self.visits += 1
            if isinstance(op, hivm.SyncBlockWaitOp):
                # an existing cross-core hand-off: the baton is on the waiting core
                state.owner = op.core_type()
                continue
            if isinstance(op, hivm.PipeBarrierOp):
                if op.stalls_issue:
                    state.drain()
                elif op.pipe.pipe_name == "V":
                    state.v_open = {core: frozenset() for core in state.v_open}
                continue
            access = self.access(op)
            if access is not None:
                self._access(op, access, state, apply)
            elif isinstance(op, scf.ForOp | scf.WhileOp):
                state = self._loop(op, state, apply)
            elif op.regions:
                state = self._branches(op, state, apply)
        return state

    def _access(self, op: Operation, access: _Access, state: _State, apply: bool) -> None:
        if state.owner is not None and state.owner != access.core:
            self._handoff(InsertPoint.before(op), state, access.core, access.pipes[0], apply)
        core = access.core
        v_open = state.v_open.get(core, frozenset())
        unordered = [
            a for a in state.open.get(core, frozenset()) if a.conflicts(access) and not self._ordered(a, access, v_open)
        ]
        if unordered and all(a.same_single_pipe(access) == "V" for a in unordered):
            # only same-pipe vector hazards: fence the V pipe, as bishengir does
            if apply and self.intra_core:
                self._barrier(InsertPoint.before(op), "V")
            state.v_open[core] = frozenset()
        elif unordered:
            if apply and self.intra_core:
                self._barrier(InsertPoint.before(op))
            state.drain([core])
        state.open[core] = state.open.get(core, frozenset()) | {access}
        if access.pipes == ("V",):
            state.v_open[core] = state.v_open.get(core, frozenset()) | {access}
        state.owner = core
        state.last_pipe[access.core] = access.pipes[-1]

    def _ordered(self, earlier: _Access, later: _Access, v_open: frozenset[_Access]) -> bool:
        """Whether the hardware already keeps `earlier` before `later` (same core): the
        chip's same-pipe rule (`chips.needs_barrier`; mmadL1 -> mmadL1 is ordered by the op
        itself), or a PIPE_V barrier since `earlier` on V."""
        if earlier.both_mmad(later):
            return True
        pipe = earlier.same_single_pipe(later)
        if pipe in self.in_order_pipes:
            return True
        return pipe == "V" and earlier not in v_open

    def _widen(self, state: _State, loop: Operation) -> _State:
        """Open accesses of `loop`'s iterations seen from another iteration or after it."""

        def widen(access: _Access) -> _Access:
            key = (access, loop)
            if key not in self._widened:
                self._widened[key] = access.widened(loop)
            return self._widened[key]

        return state.mapped(widen)

    def _loop(self, loop: Operation, state: _State, apply: bool) -> _State:
        first_core = _first_access_core([loop], self.default_core)
        if first_core is None:
            return state
        cache_key = (loop, state.key())
        if not apply and cache_key in self._loop_effects:
            return self._loop_effects[cache_key].copy()
        if state.owner is not None and state.owner != first_core:
            self._handoff(InsertPoint.before(loop), state, first_core, self._first_pipe(loop), apply)
        state.owner = first_core
        # fixpoint over the back edge: what is open at the end of an iteration is open at
        # the start of the next one
        entry = state.copy()
        for _ in range(64):
            end = self._widen(self._loop_body(loop, entry, apply=False), loop)
            joined = state.join(end)
            if joined.same_as(entry):
                break
            entry = joined
        else:  # pragma: no cover - the lattice is finite and small
            raise AssertionError("barrier-sync fixpoint did not converge")
        end = self._widen(self._loop_body(loop, entry, apply=apply), loop)
        # zero trips leave the entry state, otherwise the end of the last iteration
        result = state.join(end)
        if not apply:
            self._loop_effects[cache_key] = result.copy()
        return result

    def _loop_body(self, loop: Operation, entry: _State, apply: bool) -> _State:
        state = entry
        for region in loop.regions:
            for block in region.blocks:
                state = self._block(block, state, apply)
        first_core = entry.owner
        if state.owner is not None and state.owner != first_core:
            # hand the baton back so that every iteration starts on the same core
            assert first_core is not None
            last_block = loop.regions[-1].blocks.last
            terminator = last_block.last_op if last_block is not None else None
            assert terminator is not None
            self._handoff(InsertPoint.before(terminator), state, first_core, self._first_pipe(loop), apply)
        return state

    def _first_pipe(self, op: Operation) -> str:
        for inner in op.walk():
            access = self.access(inner)
            if access is not None:
                return access.pipes[0]
        return "S"

    def _branches(self, op: Operation, state: _State, apply: bool) -> _State:
        """Regions that run at most once each (scf.if, ...): join their end states. The
        baton must be on one core whichever region ran, so each region end hands it back
        to a canonical core: the entry owner, or the core of the op's first memory op."""
        canonical = state.owner or _first_access_core([op], self.default_core)
        result: _State | None = None
        for region in op.regions:
            for block in region.blocks:
                end = self._block(block, state, apply)
                if end.owner not in (None, canonical) and block.last_op is not None:
                    assert canonical is not None
                    self._handoff(InsertPoint.before(block.last_op), end, canonical, "S", apply)
                result = end if result is None else result.join(end)
        # a region may not run at all (scf.if without else): the entry state survives
        joined = state if result is None else result.join(state)
        if canonical is not None and joined.owner is not None:
            joined.owner = canonical
        return joined


@dataclass(frozen=True)
class InsertBarrierSyncPass(ModulePass):
    """Insert pipe_barrier[<PIPE_ALL>] between conflicting hivm ops (and cross-core
    sync_block_set/wait hand-offs in MIX kernels): correct for any schedule-free input."""

    name = "ascend-insert-barrier-sync"

    # the chip whose same-pipe rule applies, chosen as by every pass (chips.resolve_chip)
    chip: str | None = None
    chip_file: str | None = None
    # false: only the cross-core hand-offs of MIX kernels (sync_block_set/wait with the
    # barriers that drain the handing core), for a consumer that syncs within a core
    # itself (bishengir-compile's inject-sync)
    intra_core: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # an op this pass cannot see the pipes of would be left unsynchronised
        require_hivm_level(op, self.name)
        chip = module_chip(op, self.chip, self.chip_file)
        ordered = frozenset(p for p in hardware.PIPES if in_order(chip, p))
        for func_op in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            if func_op.body.blocks and any(isinstance(o, hivm.HivmPipeOp) for o in func_op.walk()):
                _Inserter(func_op, ordered, self.intra_core).run()
