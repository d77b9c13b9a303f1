"""IR-free core of the pipe-level simulator: an event-driven engine over abstract
instructions, with a happens-before race detector built on vector clocks.

One `Block` is one AI core group: one or more cores (a cube core and/or vector cores),
each with a scalar unit that issues a pre-computed instruction stream (`Instr`, in
program order) into in-order per-pipe queues. The front end (`sim.hivm_frontend`) walks
the IR and produces the streams; this module knows nothing about MLIR.

Timing rules (DESIGN.md section 8):
* the scalar unit issues one instruction per cycle plus the scalar work recorded before
  it (`Instr.scalar_cost`); `BARRIER_ALL` stalls issue until every pipe of the core drained;
* an instruction starts when it heads the queue of every pipe it uses, the pipe allows it
  (previous start + ii) and its wait condition holds; it completes `latency` cycles later;
* same-pipe rule (reference/hivm-syntax.md): MTE1/MTE2/MTE3/V/FIX overlap their own ops,
  dependent or not (a dependent pair needs pipe_barrier[P]); M (mmadL1 -> mmadL1, the op's
  own business) and S are in-order pipes: an op there also waits for earlier in-flight ops
  of the same pipe that it conflicts with;
* SET (set_flag) runs on the producer pipe once all earlier ops of that pipe completed and
  sets the flag at completion (later ops of the pipe queue behind it in time, but the race
  detector does not count that as ordering: same-pipe hazards need pipe_barrier); WAIT (wait_flag) blocks the consumer pipe until the flag is
  set and consumes it; BARRIER (pipe_barrier[P]) waits for P to drain; BLOCK_SET /
  BLOCK_WAIT are the cross-core counterparts (counting, in order).
* data: `Instr.on_start()` reads operands, `Instr.on_end(state)` writes results.
* the scalar unit is PIPE_S: an instruction of S alone (a wait_flag whose consumer is S,
  a scalar load of on-chip memory) runs on the issuer itself, so nothing after it issues
  until it completed, and everything issued after it knows what it knew (a
  `wait_flag[P, PIPE_S]` therefore orders every later op of every pipe after P's set:
  bishengir orders two vector ops around a scalar read-back this way).

Happens-before (independent of timing): a vector clock entry (core, pipe) = n means "the
first n ops of that pipe on that core have completed". Such knowledge is always
prefix-closed, because only prefix-closing events create it: the in-order successor on
M/S, SET/BARRIER/BLOCK_SET (they wait for their whole pipe; only BARRIER passes that on to
later ops of its pipe), and BARRIER_ALL. WAIT/BLOCK_WAIT pass the flag's knowledge on to
later ops of their pipe, not the completion of earlier ops of it. Two
accesses to overlapping bytes, at least one a write, race unless the earlier op's
completion is in the later op's start clock.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ascend_mlir import hardware

# Pipes that keep dependent ops of their own in order (the same-pipe rule) depend on the
# chip: the Engine takes them as `in_order_pipes`, which the simulator computes with
# `chips.in_order` (S and M everywhere, V on the Ascend 950).
PIPE_INDEX = {p: i for i, p in enumerate(hardware.PIPES)}

# instruction kinds
OP = "op"
SET = "set_flag"
WAIT = "wait_flag"
BARRIER = "pipe_barrier"
BARRIER_ALL = "pipe_barrier_all"
BLOCK_SET = "sync_block_set"
BLOCK_WAIT = "sync_block_wait"


@dataclass(eq=False)
class Access:
    """One memory access of an instruction: `view` is a numpy view into the byte array
    of memory instance `mem` (used only to test byte overlap with np.shares_memory)."""

    mem: Hashable
    view: np.ndarray
    write: bool
    # atomic read-modify-writes (store with atomic add) commute with each other
    atomic: bool = False
    # on-chip memory: the bytes of the memory's written mask this access covers (a read
    # of a byte no op wrote is reported; a write sets them at completion), and where the
    # memory was allocated
    written: np.ndarray | None = None
    origin: str = ""
    # where `view` and `written` lie, when their maker knows it (a non-empty view of a
    # sim.memory.Buffer): (root array, first byte address, end address) and (the mask's
    # root, its first byte address); numpy's answer is the same, asked per access
    place: tuple[np.ndarray, int, int] | None = None
    written_place: tuple[np.ndarray, int] | None = None
    # sim.replay's per-access part of a stream signature, taken once the access is
    # complete (an access is never changed after its instruction is issued)
    signature_key: tuple | None = field(default=None, compare=False, repr=False)


@dataclass(eq=False)
class Instr:
    kind: str
    pipes: tuple[str, ...]
    latency: int = 1
    ii: int = 1
    accesses: tuple[Access, ...] = ()
    on_start: Callable[[], Any] | None = None
    on_end: Callable[[Any], None] | None = None
    # SET/WAIT: (src_pipe, dst_pipe, event); BLOCK_SET/BLOCK_WAIT: (flag_id,)
    flag: tuple | None = None
    name: str = ""
    loc: str = ""
    # a static identity of the instruction (the IR op) to deduplicate reports in loops
    static_id: Hashable = None
    scalar_cost: int = 0
    # shared resources besides its pipes (e.g. the core's HBM path, used by GM copies on
    # different pipes): each is busy for `ii` cycles from the op's start
    resources: tuple[str, ...] = ()
    # the second part of a macro op (mmadL1's cube part after its MTE1 feed): starts only
    # once the previous instruction of the stream has completed, knowing what it knew,
    # and its on_start state is what the previous one's on_start returned
    after_previous: bool = False

    def describe(self) -> str:
        where = f" at {self.loc}" if self.loc else ""
        return f"{self.name or self.kind}{where}"

    def flag_key(self) -> tuple:
        """The flag of a SET/WAIT/BLOCK_SET/BLOCK_WAIT (always built with one)."""
        assert self.flag is not None, f"{self.describe()} has no flag"
        return self.flag


@dataclass
class Core:
    name: str
    kind: str  # "CUBE" | "VECTOR" | "SCALAR"
    instrs: Sequence[Instr]


@dataclass
class Race:
    first: str  # op name of the earlier-started access
    first_loc: str
    second: str
    second_loc: str
    memory: str
    kind: str  # "write-write" | "read-write" | "write-read"
    first_core: str = ""
    second_core: str = ""
    count: int = 1
    block: int | None = None
    # bytes [lo, hi) of the memory both accesses touch (of their first racing instance:
    # the hull of the overlap, offsets from the memory's start: a GM argument's first
    # byte, an on-chip buffer's or arena's), and where the on-chip memory each access
    # touches was allocated (its alloc or pointer_cast), when known
    span: tuple[int, int] | None = None
    origins: tuple[str, ...] = ()

    def where(self) -> str:
        """`ub %x of vec bytes [0, 2048) (memref.alloc at f.mlir:3:5)`: the memory, the
        bytes and their allocation, as the message names them."""
        text = self.memory
        if self.span is not None:
            text += f" bytes [{self.span[0]}, {self.span[1]})"
        if self.origins:
            text += f" ({' and '.join(self.origins)})"
        return text

    def message(self) -> str:
        return (
            f"race ({self.kind}) on {self.where()}: {self.first} [{self.first_core}] at "
            f"{self.first_loc or '?'} and {self.second} [{self.second_core}] at "
            f"{self.second_loc or '?'} are not ordered"
            + (f" ({self.count} dynamic instances)" if self.count > 1 else "")
        )

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "memory": self.memory,
            "first": {"op": self.first, "loc": self.first_loc, "core": self.first_core},
            "second": {"op": self.second, "loc": self.second_loc, "core": self.second_core},
            "count": self.count,
            "block": self.block,
            "bytes": list(self.span) if self.span is not None else None,
            "allocated": list(self.origins),
        }


@dataclass
class UninitializedRead:
    """An op read on-chip bytes that no op of the kernel wrote (the hardware's memory
    holds whatever ran before: the result is undefined)."""

    op: str
    loc: str
    core: str
    memory: str
    origin: str  # where that memory was allocated
    unwritten: int  # bytes of the access never written (first dynamic instance)
    nbytes: int
    count: int = 1
    block: int | None = None

    def message(self) -> str:
        return (
            f"read of never-written memory: {self.op} [{self.core}] at {self.loc or '?'} reads "
            f"{self.memory}, {self.unwritten} of its {self.nbytes} bytes never written "
            f"(allocated by {self.origin or '?'})"
            + (f" ({self.count} dynamic instances)" if self.count > 1 else "")
        )

    def to_json(self) -> dict:
        return {"op": self.op, "loc": self.loc, "core": self.core, "memory": self.memory,
                "allocated": self.origin, "unwritten_bytes": self.unwritten, "bytes": self.nbytes,
                "count": self.count, "block": self.block}


@dataclass
class TraceEvent:
    name: str
    core: str
    pipe: str
    start: int
    end: int
    loc: str


@dataclass
class EngineResult:
    cycles: int
    races: list[Race]
    deadlock: bool
    deadlock_info: list[str]
    unbalanced_flags: list[str]
    double_sets: list[str]
    pipe_busy: dict[str, dict[str, int]]  # core -> pipe -> busy cycles
    trace: list[TraceEvent]
    steps: int
    step_limit_hit: bool = False
    uninitialized_reads: list[UninitializedRead] = field(default_factory=list)


class _Record:
    """A started access kept for race checks until every thread is known to be past it."""

    __slots__ = ("instr", "core", "pos", "view", "write", "atomic", "seqs", "lo", "hi", "origin")

    def __init__(self, instr: Instr, core: int, pos: int, acc: Access, seqs, bounds):
        self.instr = instr
        self.core = core
        self.pos = pos
        self.view = acc.view
        self.write = acc.write
        self.atomic = acc.atomic
        self.seqs = seqs  # tuple of (thread index, sequence number)
        self.origin = acc.origin
        self.lo, self.hi = bounds


def _memory_start(view: np.ndarray) -> int:
    """The address of the first byte of the memory `view` looks into (the byte array at
    the root of its chain of bases)."""
    root = view
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root.__array_interface__["data"][0]


def _byte_bounds(view: np.ndarray) -> tuple[int, int]:
    """[first, last + 1) byte address a view touches."""
    lo = hi = view.__array_interface__["data"][0]
    for extent, stride in zip(view.shape, view.strides):
        if extent == 0:
            return lo, lo
        if stride < 0:
            lo += (extent - 1) * stride
        else:
            hi += (extent - 1) * stride
    return lo, hi + view.itemsize


class _Running:
    __slots__ = ("instr", "core", "pos", "start", "end", "state", "clock", "accesses")

    def __init__(self, instr, core, pos, start, end, state, clock):
        self.instr = instr
        self.core = core
        self.pos = pos
        self.start = start
        self.end = end
        self.state = state
        self.clock = clock


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.shares_memory(a, b))


class Engine:
    """Simulates one block. `max_steps` bounds the work so a broken program never hangs."""

    PRUNE_PERIOD = 32
    # Accesses kept for race checks (besides pruning what every thread is past). A newer
    # dynamic instance of the same op on the same bytes subsumes an older one for
    # *detection* (anything unordered with the old one is unordered with the new one), but
    # the older one may pair with an op between the two in program order (a lagging pipe),
    # so the last RECENT_INSTANCES instances per op and view are kept, and per memory the
    # views of RECENT_INSTANCES per static op accessing it (`max_views`; a ub arena holds
    # every buffer's versions), at least MAX_RECORDS_PER_MEMORY / RECENT_INSTANCES.
    RECENT_INSTANCES = 8
    MAX_RECORDS_PER_MEMORY = 1024

    def __init__(self, cores: Sequence[Core], *, max_steps: int | None = None, trace: bool = True,
                 in_order_pipes: frozenset[str] = hardware.ORDERED_PIPES,
                 record: list[tuple[int, int, bool]] | None = None):
        self.cores = list(cores)
        # when given, the order of the ops' data events, (core, position, completed):
        # what sim.replay needs to run another block's data the same way
        self.record = record
        # pipes whose dependent ops need no pipe_barrier (an op waits for the in-flight
        # ops of its pipe it conflicts with, and is ordered after them)
        self.in_order_pipes = in_order_pipes
        n = len(self.cores)
        self.nthreads = n * len(hardware.PIPES)
        total = sum(len(c.instrs) for c in self.cores)
        self.max_steps = max_steps if max_steps is not None else 50 * total + 100_000
        self.want_trace = trace
        # static per-core, per-pipe sequence numbers and remaining counts
        self.seq: list[dict[int, tuple]] = []  # core -> instr position -> ((thread, seq), ...)
        self.remaining = [0] * self.nthreads  # per thread: ops not started yet (Python ints: decremented per start)
        accessors: dict[Hashable, set] = {}
        for c, core in enumerate(self.cores):
            counts = dict.fromkeys(hardware.PIPES, 0)
            seqs: dict[int, tuple] = {}
            for i, ins in enumerate(core.instrs):
                if ins.kind == BARRIER_ALL:
                    continue
                for acc in ins.accesses:
                    accessors.setdefault(acc.mem, set()).add(ins.static_id or (ins.name, ins.loc))
                entry = []
                for p in ins.pipes:
                    counts[p] += 1
                    entry.append((self.thread(c, p), counts[p]))
                seqs[i] = tuple(entry)
            self.seq.append(seqs)
            for p, k in counts.items():
                self.remaining[self.thread(c, p)] = k
        least = self.MAX_RECORDS_PER_MEMORY // self.RECENT_INSTANCES
        self.max_views = {mem: max(least, self.RECENT_INSTANCES * len(ops)) for mem, ops in accessors.items()}

    def thread(self, core: int, pipe: str) -> int:
        return core * len(hardware.PIPES) + PIPE_INDEX[pipe]

    # ------------------------------------------------------------------ main loop
    def run(self) -> EngineResult:
        return _Run(self).execute()


class _Run:
    """The state of one `Engine.run`: clocks, queues, flags, in-flight ops, race records.
    Each step of the event loop is a method; `execute` drives them."""

    def __init__(self, engine: Engine) -> None:
        self.eng = engine
        self.cores = engine.cores
        n = self.n = len(engine.cores)
        # per thread: its ops known complete, then (nthreads on) its wait_flags known
        # passed (an op after a wait on its pipe starts after it): sets are checked on them
        self.width = 2 * engine.nthreads
        self.clock = [[np.zeros(self.width, dtype=np.int64) for _ in hardware.PIPES] for _ in range(n)]
        self.waits_passed = [dict.fromkeys(hardware.PIPES, 0) for _ in range(n)]
        self.issue_idx = [0] * n
        # thread index of (core, pipe), asked per start
        self.threads = [{p: engine.thread(c, p) for p in hardware.PIPES} for c in range(n)]
        self.next_issue = [c.instrs[0].scalar_cost if c.instrs else 0 for c in self.cores]
        self.queues: list[dict[str, deque]] = [{p: deque() for p in hardware.PIPES} for _ in range(n)]  # instr positions
        self.pipe_free = [dict.fromkeys(hardware.PIPES, 0) for _ in range(n)]
        self.resource_free: list[dict[str, int]] = [{} for _ in range(n)]
        self.inflight: list[dict[str, list[_Running]]] = [{p: [] for p in hardware.PIPES} for _ in range(n)]
        self.started_count = [dict.fromkeys(hardware.PIPES, 0) for _ in range(n)]  # per pipe, started so far
        self.flags: dict[tuple, np.ndarray] = {}
        self.block_fifos: dict[tuple, deque] = {}
        # (core, position) of a completed first part -> (its clock, its on_start state)
        self.handoff: dict[tuple[int, int], tuple[np.ndarray, Any]] = {}
        self.heap: list = []
        self.tie = 0
        self.records: dict[Hashable, dict[tuple, deque]] = {}
        self.races: dict[tuple, Race] = {}
        self.uninitialized: dict[tuple, UninitializedRead] = {}
        self.double_sets: list[str] = []
        # per flag, the wait that last took it: (clock component, its count there, wait, position)
        self.taken: dict[tuple, tuple[int, int, Instr, int]] = {}
        self.trace: list[TraceEvent] = []
        self.busy: list[dict[str, list[tuple[int, int]]]] = [{p: [] for p in hardware.PIPES} for _ in range(n)]
        # the pipes each core's instructions use, in PIPES order (the others' queues stay empty)
        self.used_pipes = [tuple(p for p in hardware.PIPES if any(p in ins.pipes for ins in core.instrs))
                           for core in self.cores]
        self.cube_cores = [i for i, c in enumerate(self.cores) if c.kind == "CUBE"]
        self.vector_cores = [i for i, c in enumerate(self.cores) if c.kind != "CUBE"]
        # the scalar unit waiting for one of its own S instructions (position, or None),
        # and what the instructions issued after the last such one know at their start
        self.scalar_wait: list[int | None] = [None] * n
        self.issue_knowledge: list[np.ndarray | None] = [None] * n
        self.issued_with: dict[tuple[int, int], np.ndarray] = {}
        self.now = 0
        self.steps = 0
        self.starts_since_prune = 0
        self.last_end = 0
        self.step_limit_hit = False
        # per core, the completions that can let one of its blocked ops go: its own
        # (in-flight ops, hand-offs, its flags) and its peers' sync_block_sets (its
        # cross-core counts). What can_start reads of a one-pipe instruction without
        # resources changes only with them: a start only takes a flag or a count and
        # fills in-flight lists, which blocks more, never less. So a head found blocked
        # stays blocked until its core's count moves; so does a pipe_barrier_all that
        # could not issue (it reads the core's queues and in-flight ops; a start moves an
        # op from the one to the other, and the core issues nothing while it waits)
        self.wakes = [0] * n
        self.blocked: dict[tuple[int, int], int] = {}  # (core, position) -> wakes when found blocked
        self.barrier_blocked: list[int | None] = [None] * n  # wakes when a core's pipe_barrier_all could not issue
        # an op started this moment whose pipes and resources are free again at once (ii 0)
        self.frees_at_once = False

    def peers(self, c: int) -> list[int]:
        other = self.vector_cores if self.cores[c].kind == "CUBE" else self.cube_cores
        return other if other else [c]

    def own_prefix(self, c: int, p: str) -> np.ndarray:
        """Knowledge of a pipe-draining event on pipe p of core c: p's clock plus the
        completion of every op of p issued before it."""
        v = self.clock[c][PIPE_INDEX[p]].copy()
        t = self.threads[c][p]
        v[t] = max(v[t], self.started_count[c][p])
        return v

    # ----- race detection
    def check_races(self, c: int, ins: Instr, pos: int, vs: np.ndarray) -> None:
        """Report every recorded access that conflicts with one of `ins`'s (starting with
        clock `vs`) unordered: the same bytes, one writes, not both atomic, not the same
        dynamic op, and its completion not known. The tests are inline, cheapest first,
        np.shares_memory last (each recorded access meets every access of its memory)."""
        fresh = []
        known = vs.tolist()  # Python ints: compared one entry at a time below
        for acc in ins.accesses:
            table = self.records.get(acc.mem)
            if table is None:
                table = self.records[acc.mem] = {}
            place = acc.place
            bounds = (place[1], place[2]) if place is not None else _byte_bounds(acc.view)
            fresh.append((acc, bounds, table))
            lo, hi = bounds
            write, atomic, view = acc.write, acc.atomic, acc.view
            for recent in table.values():  # reporting leaves the records as they are
                for r in recent:
                    if r.hi <= lo or hi <= r.lo or not (write or r.write) or (atomic and r.atomic):
                        continue
                    if r.instr is ins and r.core == c:
                        continue
                    for t, s in r.seqs:
                        if known[t] >= s:
                            break
                    else:
                        if _overlap(view, r.view):
                            self.report_race(c, ins, pos, acc, r, bounds)
        self.remember(c, ins, pos, fresh)

    def check_written(self, c: int, ins: Instr) -> None:
        """Report reads of on-chip bytes that no op wrote (once per static op and memory,
        counting its dynamic instances)."""
        counted = set()
        for acc in ins.accesses:
            mask = acc.written
            if acc.write or mask is None or mask.all():
                continue
            key = (ins.static_id or id(ins), c, str(acc.mem))
            seen = self.uninitialized.get(key)
            if seen is not None:
                if key not in counted:  # two operands in one memory: one instance
                    seen.count += 1
                counted.add(key)
                continue
            counted.add(key)
            self.uninitialized[key] = UninitializedRead(
                ins.name or ins.kind, ins.loc, self.cores[c].name, str(acc.mem), acc.origin,
                int(mask.size - np.count_nonzero(mask)), int(mask.size))

    def uninitialized_not_racing(self) -> list[UninitializedRead]:
        """The never-written reads, except those of a read that races with a write of the
        same memory: a writer exists, unordered with the read, and the race report names
        both ops; reporting the read a second time as never-written says the same bug
        twice (the run fails either way)."""
        racing_reads = set()
        for a_op, a_core, b_op, b_core, kind, memory in self.races:
            if kind == "write-read":
                racing_reads.add((b_op, b_core, memory))
            elif kind == "read-write":
                racing_reads.add((a_op, a_core, memory))
        return [u for key, u in self.uninitialized.items() if key not in racing_reads]

    def report_race(self, c: int, ins: Instr, pos: int, acc: Access, r: _Record,
                    bounds: tuple[int, int]) -> None:
        # report the pair in program order (core index, then position), so the report
        # does not depend on which op the timing started first
        a, b = (r.instr, r.core, r.write, r.origin), (ins, c, acc.write, acc.origin)
        if (c, pos) < (r.core, r.pos):
            a, b = b, a
        kind = f"{'write' if a[2] else 'read'}-{'write' if b[2] else 'read'}"
        key = (a[0].static_id or id(a[0]), a[1], b[0].static_id or id(b[0]), b[1], kind, str(acc.mem))
        if key in self.races:
            self.races[key].count += 1
        else:
            start = _memory_start(acc.view)
            span = (max(bounds[0], r.lo) - start, min(bounds[1], r.hi) - start)
            origins = tuple(dict.fromkeys(o for o in (a[3], b[3]) if o))
            self.races[key] = Race(
                a[0].name, a[0].loc, b[0].name, b[0].loc, str(acc.mem), kind,
                self.cores[a[1]].name, self.cores[b[1]].name, span=span, origins=origins,
            )

    def remember(self, c: int, ins: Instr, pos: int, fresh: list) -> None:
        """Record the started accesses (the most recent instances per op and view)."""
        eng = self.eng
        my_seqs = eng.seq[c][pos]
        for acc, bounds, table in fresh:
            key = (ins.static_id or id(ins), c, acc.write, bounds, acc.view.shape, acc.view.strides)
            recent = table.pop(key, None)
            if recent is None:
                recent = deque(maxlen=eng.RECENT_INSTANCES)
            recent.append(_Record(ins, c, pos, acc, my_seqs, bounds))
            table[key] = recent  # most recently used last
            if len(table) > eng.max_views[acc.mem]:
                del table[next(iter(table))]

    def prune(self) -> None:
        eng = self.eng
        live = [
            self.clock[c][PIPE_INDEX[p]]
            for c in range(self.n) for p in hardware.PIPES
            if eng.remaining[eng.thread(c, p)] > 0
        ]
        if not live:
            self.records.clear()
            return
        floor_known = np.min(np.stack(live), axis=0).tolist()
        for table in self.records.values():
            for k in list(table):
                kept = [r for r in table[k] if not any(floor_known[t] >= s for t, s in r.seqs)]
                if kept:
                    table[k] = deque(kept, maxlen=eng.RECENT_INSTANCES)
                else:
                    del table[k]

    # ----- starting an instruction
    def can_start(self, c: int, pos: int) -> bool:
        """Whether the instruction at `pos`, which heads the queue of its first pipe and
        finds that pipe free (start_ready asks only then), can start now."""
        ins = self.cores[c].instrs[pos]
        others = ins.pipes[1:]
        if others:
            queues, free = self.queues[c], self.pipe_free[c]
            for p in others:
                q = queues[p]
                if not q or q[0] != pos or free[p] > self.now:
                    return False
        if ins.resources:
            resource_free = self.resource_free[c]
            for res in ins.resources:
                if resource_free.get(res, 0) > self.now:
                    return False
        k = ins.kind
        if k == OP:
            return self._op_can_start(c, ins, pos)
        if k in (SET, BARRIER, BLOCK_SET):
            return not self.inflight[c][ins.pipes[0]]
        if k == WAIT:
            return (c, *ins.flag_key()) in self.flags
        if k == BLOCK_WAIT:
            return all(self.block_fifos.get((c, src, ins.flag_key()[0])) for src in self.peers(c))
        raise AssertionError(k)

    def _op_can_start(self, c: int, ins: Instr, pos: int) -> bool:
        """A second part waits for its first; on an in-order pipe an op waits for the
        in-flight ops it conflicts with."""
        if ins.after_previous and (c, pos - 1) not in self.handoff:
            return False
        for p in ins.pipes:
            if p in self.eng.in_order_pipes:
                for run in self.inflight[c][p]:
                    if _conflicts(ins, run.instr):
                        return False
        return True

    def start_clock(self, c: int, ins: Instr) -> np.ndarray:
        """What the instruction knows when it starts: its pipes' clocks, and by kind its
        own pipe's prefix (set/barrier), the flag's setter (wait) or every peer's set."""
        k = ins.kind
        if k in (SET, BARRIER, BLOCK_SET):
            return self.own_prefix(c, ins.pipes[0])
        vs = self.clock[c][PIPE_INDEX[ins.pipes[0]]].copy()
        for p in ins.pipes[1:]:
            np.maximum(vs, self.clock[c][PIPE_INDEX[p]], out=vs)
        if k == WAIT:
            np.maximum(vs, self.flags.pop((c, *ins.flag_key())), out=vs)
        elif k == BLOCK_WAIT:
            for src in self.peers(c):
                np.maximum(vs, self.block_fifos[(c, src, ins.flag_key()[0])].popleft(), out=vs)
        return vs

    def occupy(self, c: int, ins: Instr) -> None:
        """Take the instruction off its queues and block its pipes and resources for ii."""
        remaining, threads = self.eng.remaining, self.threads[c]
        queues, free, started = self.queues[c], self.pipe_free[c], self.started_count[c]
        until = self.now + ins.ii
        for p in ins.pipes:
            queues[p].popleft()
            free[p] = until
            started[p] += 1
            remaining[threads[p]] -= 1
        if ins.resources:
            resource_free = self.resource_free[c]
            for res in ins.resources:
                resource_free[res] = until

    def advance_clocks(self, c: int, ins: Instr, vs: np.ndarray) -> None:
        """What later ops of these pipes know when they start. A set_flag (or
        sync_block_set) on an overlapping pipe is *not* taken to order later ops of its
        pipe after earlier ones: only pipe_barrier does that (DESIGN.md section 7), so the
        detector never relies on the set stalling its queue."""
        k = ins.kind
        in_order = self.eng.in_order_pipes
        for p in ins.pipes:
            if k in (SET, BLOCK_SET) and p not in in_order:
                continue
            pc = self.clock[c][PIPE_INDEX[p]]
            np.maximum(pc, vs, out=pc)
            if k == BARRIER or p in in_order:
                t = self.threads[c][p]
                # in-order successor / after pipe_barrier (which drains its pipe): every
                # earlier op of the pipe has completed. A wait_flag does not drain its
                # pipe, so it orders later ops only after the flag's setter.
                pc[t] = max(pc[t], self.started_count[c][p])

    def start(self, c: int, pos: int) -> None:
        ins = self.cores[c].instrs[pos]
        vs = self.start_clock(c, ins)
        known = self.issued_with.pop((c, pos), None)
        if known is not None:
            np.maximum(vs, known, out=vs)
        state = None
        if ins.after_previous:
            previous_clock, state = self.handoff.pop((c, pos - 1))
            np.maximum(vs, previous_clock, out=vs)
        if ins.kind == OP:
            if ins.accesses:
                self.check_races(c, ins, pos, vs)
                self.check_written(c, ins)
                self.starts_since_prune += 1
            if ins.on_start is not None:
                state = ins.on_start()
            if self.eng.record is not None:
                self.eng.record.append((c, pos, False))
        elif ins.kind == WAIT:
            pipe = ins.pipes[0]
            self.waits_passed[c][pipe] += 1
            component = self.eng.nthreads + self.threads[c][pipe]
            vs[component] = max(vs[component], self.waits_passed[c][pipe])
            self.taken[(c, *ins.flag_key())] = (component, self.waits_passed[c][pipe], ins, pos)
        self.occupy(c, ins)
        if ins.ii <= 0:
            self.frees_at_once = True
        self.advance_clocks(c, ins, vs)
        run = _Running(ins, c, pos, self.now, self.now + ins.latency, state, vs)
        for p in ins.pipes:
            self.inflight[c][p].append(run)
        self.tie += 1
        heapq.heappush(self.heap, (run.end, self.tie, run))

    # ----- completing an instruction
    def complete(self, run: _Running) -> None:
        ins, c = run.instr, run.core
        self.wakes[c] += 1
        if ins.on_end is not None:
            ins.on_end(run.state)
        if ins.kind == OP and self.eng.record is not None:
            self.eng.record.append((c, run.pos, True))
        for acc in ins.accesses:
            if acc.write and acc.written is not None:
                acc.written[...] = 1
        for p in ins.pipes:
            self.inflight[c][p].remove(run)
            self.busy[c][p].append((run.start, run.end))
        self.last_end = max(self.last_end, run.end)
        if self.scalar_wait[c] == run.pos:
            self.release_scalar_unit(c, run)
        instrs = self.cores[c].instrs
        if run.pos + 1 < len(instrs) and instrs[run.pos + 1].after_previous:
            self.handoff[(c, run.pos)] = (run.clock, run.state)
        if ins.kind in (SET, BLOCK_SET):
            self.raise_flag(c, ins, run)
        if self.eng.want_trace:
            self.trace.append(
                TraceEvent(ins.name or ins.kind, self.cores[c].name, "+".join(ins.pipes),
                           run.start, run.end, ins.loc)
            )

    def raise_flag(self, c: int, ins: Instr, run: _Running) -> None:
        """A completed set_flag raises its flag (a raised one: a double set); a
        sync_block_set counts up its peers' flag."""
        if ins.kind == SET:
            key = (c, *ins.flag_key())
            if key in self.flags:
                self.double_sets.append(
                    f"{ins.describe()} [{self.cores[c].name}]: flag "
                    f"{_flag_name(ins.flag_key())} set again while already set"
                )
            else:
                self._check_set_after_its_wait(c, ins, run, key)
                self.flags[key] = run.clock
            return
        for dst in self.peers(c):
            self.wakes[dst] += 1
            self.block_fifos.setdefault((dst, c, ins.flag_key()[0]), deque()).append(run.clock)

    def _check_set_after_its_wait(self, c: int, ins: Instr, run: _Running, key: tuple) -> None:
        """A set issued before the wait that took its flag's previous set, not ordered after
        it by happens-before, may complete before that wait under other timings: a double
        set, judged as races are. (A wait issued before the set is left to the run's own
        check: Triton-Ascend's back-to-back `set; wait` pairs on one id.)"""
        taken = self.taken.get(key)
        if taken is None or taken[3] < run.pos or run.clock[taken[0]] >= taken[1]:
            return
        wait = taken[2]
        message = (f"{ins.describe()} [{self.cores[c].name}]: flag {_flag_name(ins.flag_key())} may be set again "
                   f"before {wait.describe()} took its previous set (the wait is issued after this set and "
                   f"nothing orders it before the set)")
        if message not in self.double_sets:  # once per site, not per iteration
            self.double_sets.append(message)

    # ----- issuing
    def barrier_all(self, c: int) -> bool:
        queues, inflight = self.queues[c], self.inflight[c]
        for p in hardware.PIPES:
            if queues[p] or inflight[p]:
                return False
        joined = np.zeros(self.width, dtype=np.int64)
        for p in hardware.PIPES:
            np.maximum(joined, self.own_prefix(c, p), out=joined)
        for p in hardware.PIPES:
            pc = self.clock[c][PIPE_INDEX[p]]
            np.maximum(pc, joined, out=pc)
        return True

    def release_scalar_unit(self, c: int, run: _Running) -> None:
        """The scalar unit's own S instruction completed: issue resumes, and what it knew
        (with its own completion) is known to everything issued from now on."""
        self.scalar_wait[c] = None
        known = run.clock.copy()
        t = self.threads[c]["S"]
        known[t] = max(known[t], self.started_count[c]["S"])
        previous = self.issue_knowledge[c]
        self.issue_knowledge[c] = known if previous is None else np.maximum(previous, known)
        self.next_issue[c] = max(self.next_issue[c], self.now + 1)

    def issue(self, c: int) -> bool:
        core = self.cores[c]
        instrs = core.instrs
        n_instrs = len(instrs)
        queues = self.queues[c]
        progressed = False
        while (self.issue_idx[c] < n_instrs and self.next_issue[c] <= self.now
               and self.scalar_wait[c] is None):
            pos = self.issue_idx[c]
            ins = instrs[pos]
            known = self.issue_knowledge[c]
            if known is not None:
                self.issued_with[(c, pos)] = known
            if ins.kind == BARRIER_ALL:
                # its answer reads the core's queues and in-flight ops: the same until an
                # op of the core completes (see `wakes`)
                if self.barrier_blocked[c] == self.wakes[c]:
                    break
                if not self.barrier_all(c):
                    self.barrier_blocked[c] = self.wakes[c]
                    break
                if self.eng.want_trace:
                    self.trace.append(TraceEvent(ins.name or "pipe_barrier", core.name, "ISSUE",
                                                 self.now, self.now + ins.latency, ins.loc))
                delay = ins.latency
            else:
                for p in ins.pipes:
                    queues[p].append(pos)
                delay = 1
                if ins.pipes == ("S",):
                    self.scalar_wait[c] = pos
            pos += 1
            self.issue_idx[c] = pos
            self.next_issue[c] = self.now + delay + (instrs[pos].scalar_cost if pos < n_instrs else 0)
            progressed = True
        return progressed

    # ----- the event loop
    def start_ready(self) -> bool:
        """Start every queue head that can start now (each multi-pipe op once, from the
        queue of its first pipe)."""
        started = False
        now = self.now
        blocked, wakes = self.blocked, self.wakes
        cores, all_queues, all_free = self.cores, self.queues, self.pipe_free
        for c, used in enumerate(self.used_pipes):
            queues, free, woken = all_queues[c], all_free[c], wakes[c]
            instrs = None
            for p in used:
                q = queues[p]
                # a head whose pipe is still busy cannot start (can_start asks it too;
                # the cheap test first, since most heads wait)
                if not q or free[p] > now:
                    continue
                pos = q[0]
                if instrs is None:
                    instrs = cores[c].instrs
                ins = instrs[pos]
                if ins.pipes[0] != p:
                    continue
                key = (c, pos)
                if blocked.get(key) == woken:
                    continue
                if self.can_start(c, pos):
                    self.start(c, pos)
                    started = True
                elif len(ins.pipes) == 1 and not ins.resources:  # its answer depends on no time
                    blocked[key] = wakes[c]
        return started

    def settle(self) -> None:
        """Everything that can happen at `now`: completions, issues, starts, until
        nothing changes (or the step limit is hit).

        One round (completions, then issues, then starts) sees what the round did before
        it, so a second round finds something only where a start let something happen at
        once: an op completing at once (latency 0: on the heap at `now`) or freeing its
        pipes and resources at once (ii 0). Otherwise a start only takes a queue head, a
        flag or a cross-core count and fills its pipes, resources and in-flight lists,
        which lets no other op start or issue (barrier_all waits for the in-flight ops
        too); completions and issues were seen by the round's own starts."""
        heap = self.heap
        while True:
            self.steps += 1
            if self.steps > self.eng.max_steps:
                self.step_limit_hit = True
                return
            now = self.now
            while heap and heap[0][0] <= now:
                self.complete(heapq.heappop(heap)[2])
            barrier_blocked, wakes = self.barrier_blocked, self.wakes
            for c in range(self.n):
                # issue(c) would stop at once otherwise (its loop's test, asked first; a blocked
                # pipe_barrier_all stays so until the core's wakes move: 3 calls in 4 under perturb)
                if (self.issue_idx[c] < len(self.cores[c].instrs) and self.next_issue[c] <= now
                        and self.scalar_wait[c] is None and barrier_blocked[c] != wakes[c]):
                    self.issue(c)
            self.frees_at_once = False
            started = self.start_ready()
            if self.starts_since_prune >= self.eng.PRUNE_PERIOD:
                self.prune()
                self.starts_since_prune = 0
            if not (started and (self.frees_at_once or (heap and heap[0][0] <= now))):
                return

    def next_moment(self) -> int | None:
        """The next time something can change: a completion, an issue, a pipe or a
        resource becoming free; None when nothing is left to wait for."""
        now = self.now
        best = self.heap[0][0] if self.heap else None
        next_issue, issue_idx, cores = self.next_issue, self.issue_idx, self.cores
        all_queues, all_free, all_resources = self.queues, self.pipe_free, self.resource_free
        for c, used in enumerate(self.used_pipes):
            t = next_issue[c]
            if t > now and (best is None or t < best) and issue_idx[c] < len(cores[c].instrs):
                best = t
            queues, free = all_queues[c], all_free[c]
            for p in used:  # the other pipes' queues stay empty
                t = free[p]
                if t > now and (best is None or t < best) and queues[p]:
                    best = t
            for t in all_resources[c].values():
                if t > now and (best is None or t < best):
                    best = t
        return best

    def execute(self) -> EngineResult:
        while True:
            self.settle()
            if self.step_limit_hit:
                break
            moment = self.next_moment()
            if moment is None:
                break
            self.now = moment
        return self.result()

    # ----- the outcome
    def stuck(self) -> tuple[list[tuple[int, int]], list[int]]:
        """(queued but never started (core, position), cores with unissued instructions)."""
        pending = [
            (c, pos)
            for c in range(self.n)
            for pos in sorted({q for p in hardware.PIPES for q in self.queues[c][p]})
        ]
        unissued = [c for c in range(self.n) if self.issue_idx[c] < len(self.cores[c].instrs)]
        return pending, unissued

    def deadlock_info(self, pending: list[tuple[int, int]], unissued: list[int]) -> list[str]:
        info: list[str] = []
        for c, pos in pending:
            ins = self.cores[c].instrs[pos]
            heads = [p for p in ins.pipes if self.queues[c][p] and self.queues[c][p][0] == pos]
            if len(heads) == len(ins.pipes):
                info.append(f"{ins.describe()} [{self.cores[c].name}] waits for " + _wait_reason(ins))
        for c in unissued:
            ins = self.cores[c].instrs[self.issue_idx[c]]
            info.append(
                f"{ins.describe()} [{self.cores[c].name}] cannot issue: pipes never drain"
                if ins.kind == BARRIER_ALL
                else f"{ins.describe()} [{self.cores[c].name}] not issued"
            )
        if self.step_limit_hit:
            info.insert(0, f"step limit {self.eng.max_steps} reached")
        return info

    def unbalanced(self) -> list[str]:
        """Flags still set at exit, cross-core flags set more often than waited."""
        unbalanced = [
            f"flag {_flag_name(key[1:])} [{self.cores[key[0]].name}] still set at exit"
            for key in self.flags
        ]
        for (dst, src, fid), fifo in self.block_fifos.items():
            if fifo:
                unbalanced.append(
                    f"cross-core flag {fid} from {self.cores[src].name} to "
                    f"{self.cores[dst].name} set {len(fifo)} more time(s) than waited"
                )
        return unbalanced

    def result(self) -> EngineResult:
        pending, unissued = self.stuck()
        deadlock = bool(pending or unissued) and not self.step_limit_hit
        deadlock_info = self.deadlock_info(pending, unissued) if pending or unissued else []
        pipe_busy = {
            self.cores[c].name: {p: _union_length(self.busy[c][p]) for p in hardware.PIPES if self.busy[c][p]}
            for c in range(self.n)
        }
        return EngineResult(
            cycles=max(self.last_end, self.now),
            races=list(self.races.values()),
            deadlock=deadlock or self.step_limit_hit,
            deadlock_info=deadlock_info,
            unbalanced_flags=self.unbalanced(),
            double_sets=self.double_sets,
            pipe_busy=pipe_busy,
            trace=self.trace,
            steps=self.steps,
            step_limit_hit=self.step_limit_hit,
            uninitialized_reads=self.uninitialized_not_racing(),
        )


def _conflicts(a: Instr, b: Instr) -> bool:
    for x in a.accesses:
        for y in b.accesses:
            if (x.write or y.write) and x.mem == y.mem and _overlap(x.view, y.view):
                if x.atomic and y.atomic:
                    continue
                return True
    return False


def _flag_name(flag: tuple) -> str:
    src, dst, event = flag
    return f"{src}->{dst} event {event}"


def _wait_reason(ins: Instr) -> str:
    if ins.kind == WAIT:
        return f"flag {_flag_name(ins.flag_key())} that is never set"
    if ins.kind == BLOCK_WAIT:
        return f"cross-core flag {ins.flag_key()[0]} that is never set"
    if ins.kind in (SET, BARRIER, BLOCK_SET):
        return f"pipe {ins.pipes[0]} to drain"
    return "its pipe"


def _union_length(intervals: list[tuple[int, int]]) -> int:
    total = 0
    cur_s = cur_e = 0
    started = False
    for s, e in sorted(intervals):
        if not started or s > cur_e:
            if started:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
            started = True
        else:
            cur_e = max(cur_e, e)
    if started:
        total += cur_e - cur_s
    return total
