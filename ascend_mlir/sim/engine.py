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
from dataclasses import dataclass
from typing import Any

import numpy as np

from ascend_mlir import hardware

PIPES: tuple[str, ...] = hardware.PIPES
# pipes that keep dependent ops of their own in order (same-pipe rule): S, and M, where
# only mmadL1 runs (mmadL1 -> mmadL1 is the op's own business)
IN_ORDER_PIPES = hardware.ORDERED_PIPES
PIPE_INDEX = {p: i for i, p in enumerate(PIPES)}

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

    def message(self) -> str:
        return (
            f"race ({self.kind}) on {self.memory}: {self.first} [{self.first_core}] at "
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
        }


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


class _Record:
    """A started access kept for race checks until every thread is known to be past it."""

    __slots__ = ("instr", "core", "pos", "view", "write", "atomic", "seqs", "lo", "hi")

    def __init__(self, instr: Instr, core: int, pos: int, acc: Access, seqs, bounds):
        self.instr = instr
        self.core = core
        self.pos = pos
        self.view = acc.view
        self.write = acc.write
        self.atomic = acc.atomic
        self.seqs = seqs  # tuple of (thread index, sequence number)
        self.lo, self.hi = bounds


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
    # so the last RECENT_INSTANCES instances per op and view are kept. The caps only bite
    # in programs without synchronisation, whose races have been reported by then.
    RECENT_INSTANCES = 8
    MAX_RECORDS_PER_MEMORY = 1024

    def __init__(self, cores: Sequence[Core], *, max_steps: int | None = None, trace: bool = True):
        self.cores = list(cores)
        n = len(self.cores)
        self.nthreads = n * len(PIPES)
        total = sum(len(c.instrs) for c in self.cores)
        self.max_steps = max_steps if max_steps is not None else 50 * total + 100_000
        self.want_trace = trace
        # static per-core, per-pipe sequence numbers and remaining counts
        self.seq: list[dict[int, tuple]] = []  # core -> instr position -> ((thread, seq), ...)
        self.remaining = np.zeros(self.nthreads, dtype=np.int64)
        for c, core in enumerate(self.cores):
            counts = dict.fromkeys(PIPES, 0)
            seqs: dict[int, tuple] = {}
            for i, ins in enumerate(core.instrs):
                if ins.kind == BARRIER_ALL:
                    continue
                entry = []
                for p in ins.pipes:
                    counts[p] += 1
                    entry.append((self.thread(c, p), counts[p]))
                seqs[i] = tuple(entry)
            self.seq.append(seqs)
            for p, k in counts.items():
                self.remaining[self.thread(c, p)] = k

    def thread(self, core: int, pipe: str) -> int:
        return core * len(PIPES) + PIPE_INDEX[pipe]

    # ------------------------------------------------------------------ main loop
    def run(self) -> EngineResult:  # noqa: C901 (over the limit before the limit was set; split pending)
        n = len(self.cores)
        T = self.nthreads
        self.clock = [[np.zeros(T, dtype=np.int64) for _ in PIPES] for _ in range(n)]
        issue_idx = [0] * n
        next_issue = [c.instrs[0].scalar_cost if c.instrs else 0 for c in self.cores]
        queues = [{p: deque() for p in PIPES} for _ in range(n)]  # instr positions
        pipe_free = [dict.fromkeys(PIPES, 0) for _ in range(n)]
        resource_free: list[dict[str, int]] = [{} for _ in range(n)]
        inflight: list[dict[str, list[_Running]]] = [{p: [] for p in PIPES} for _ in range(n)]
        started_count = [dict.fromkeys(PIPES, 0) for _ in range(n)]  # per pipe, started so far
        flags: dict[tuple, np.ndarray] = {}
        block_fifos: dict[tuple, deque] = {}
        # (core, position) of a completed first part -> (its clock, its on_start state)
        handoff: dict[tuple[int, int], tuple[np.ndarray, Any]] = {}
        heap: list = []
        tie = 0
        records: dict[Hashable, dict[tuple, deque]] = {}
        races: dict[tuple, Race] = {}
        double_sets: list[str] = []
        trace: list[TraceEvent] = []
        busy: list[dict[str, list[tuple[int, int]]]] = [{p: [] for p in PIPES} for _ in range(n)]
        cube_cores = [i for i, c in enumerate(self.cores) if c.kind == "CUBE"]
        vector_cores = [i for i, c in enumerate(self.cores) if c.kind != "CUBE"]
        now = 0
        steps = 0
        starts_since_prune = 0
        last_end = 0

        def peers(c: int) -> list[int]:
            other = vector_cores if self.cores[c].kind == "CUBE" else cube_cores
            return other if other else [c]

        def own_prefix(c: int, p: str) -> np.ndarray:
            """Knowledge of a pipe-draining event on pipe p of core c: p's clock plus the
            completion of every op of p issued before it."""
            v = self.clock[c][PIPE_INDEX[p]].copy()
            t = self.thread(c, p)
            v[t] = max(v[t], started_count[c][p])
            return v

        def check_races(c: int, ins: Instr, pos: int, vs: np.ndarray) -> None:  # noqa: C901 (over the limit before the limit was set; split pending)
            my_seqs = self.seq[c][pos]
            fresh = []
            for acc in ins.accesses:
                table = records.get(acc.mem)
                if table is None:
                    table = records[acc.mem] = {}
                lo, hi = bounds = _byte_bounds(acc.view)
                fresh.append((acc, bounds, table))
                for r in [r for recent in table.values() for r in recent]:
                    if not (acc.write or r.write) or (acc.atomic and r.atomic):
                        continue
                    if r.hi <= lo or hi <= r.lo or (r.instr is ins and r.core == c):
                        continue
                    if any(vs[t] >= s for t, s in r.seqs):
                        continue
                    if not _overlap(acc.view, r.view):
                        continue
                    # report the pair in program order (core index, then position), so
                    # the report does not depend on which op the timing started first
                    a, b = (r.instr, r.core, r.write), (ins, c, acc.write)
                    if (c, pos) < (r.core, r.pos):
                        a, b = b, a
                    kind = f"{'write' if a[2] else 'read'}-{'write' if b[2] else 'read'}"
                    key = (a[0].static_id or id(a[0]), a[1], b[0].static_id or id(b[0]), b[1],
                           kind, str(acc.mem))
                    if key in races:
                        races[key].count += 1
                    else:
                        races[key] = Race(
                            a[0].name, a[0].loc, b[0].name, b[0].loc, str(acc.mem), kind,
                            self.cores[a[1]].name, self.cores[b[1]].name,
                        )
            for acc, bounds, table in fresh:
                key = (ins.static_id or id(ins), c, acc.write, bounds, acc.view.shape, acc.view.strides)
                recent = table.pop(key, None)
                if recent is None:
                    recent = deque(maxlen=self.RECENT_INSTANCES)
                recent.append(_Record(ins, c, pos, acc, my_seqs, bounds))
                table[key] = recent  # most recently used last
                if len(table) > self.MAX_RECORDS_PER_MEMORY // self.RECENT_INSTANCES:
                    del table[next(iter(table))]

        def prune() -> None:
            live = [
                self.clock[c][PIPE_INDEX[p]]
                for c in range(n) for p in PIPES
                if self.remaining[self.thread(c, p)] > 0
            ]
            if not live:
                records.clear()
                return
            floor = np.min(np.stack(live), axis=0)
            for table in records.values():
                for k in list(table):
                    kept = [r for r in table[k] if not any(floor[t] >= s for t, s in r.seqs)]
                    if kept:
                        table[k] = deque(kept, maxlen=self.RECENT_INSTANCES)
                    else:
                        del table[k]

        def can_start(c: int, pos: int) -> bool:  # noqa: C901 (over the limit before the limit was set; split pending)
            ins = self.cores[c].instrs[pos]
            for p in ins.pipes:
                q = queues[c][p]
                if not q or q[0] != pos or pipe_free[c][p] > now:
                    return False
            k = ins.kind
            for res in ins.resources:
                if resource_free[c].get(res, 0) > now:
                    return False
            if k == OP:
                if ins.after_previous and (c, pos - 1) not in handoff:
                    return False
                for p in ins.pipes:
                    if p in IN_ORDER_PIPES:
                        for run in inflight[c][p]:
                            if _conflicts(ins, run.instr):
                                return False
                return True
            if k in (SET, BARRIER, BLOCK_SET):
                return not inflight[c][ins.pipes[0]]
            if k == WAIT:
                return (c, *ins.flag_key()) in flags
            if k == BLOCK_WAIT:
                return all(block_fifos.get((c, src, ins.flag_key()[0])) for src in peers(c))
            raise AssertionError(k)

        def start(c: int, pos: int) -> None:  # noqa: C901 (over the limit before the limit was set; split pending)
            nonlocal tie, starts_since_prune
            ins = self.cores[c].instrs[pos]
            k = ins.kind
            vs = self.clock[c][PIPE_INDEX[ins.pipes[0]]].copy()
            for p in ins.pipes[1:]:
                np.maximum(vs, self.clock[c][PIPE_INDEX[p]], out=vs)
            if k in (SET, BARRIER, BLOCK_SET):
                vs = own_prefix(c, ins.pipes[0])
            elif k == WAIT:
                np.maximum(vs, flags.pop((c, *ins.flag_key())), out=vs)
            elif k == BLOCK_WAIT:
                for src in peers(c):
                    np.maximum(vs, block_fifos[(c, src, ins.flag_key()[0])].popleft(), out=vs)
            state = None
            if ins.after_previous:
                previous_clock, state = handoff.pop((c, pos - 1))
                np.maximum(vs, previous_clock, out=vs)
            if k == OP:
                if ins.accesses:
                    check_races(c, ins, pos, vs)
                    starts_since_prune += 1
                if ins.on_start is not None:
                    state = ins.on_start()
            for p in ins.pipes:
                queues[c][p].popleft()
                pipe_free[c][p] = now + ins.ii
                started_count[c][p] += 1
                self.remaining[self.thread(c, p)] -= 1
            for res in ins.resources:
                resource_free[c][res] = now + ins.ii
            # what later ops of these pipes know when they start. A set_flag (or
            # sync_block_set) on an overlapping pipe is *not* taken to order later ops of
            # its pipe after earlier ones: only pipe_barrier does that (DESIGN.md section 7),
            # so the detector never relies on the set stalling its queue.
            for p in ins.pipes:
                if k in (SET, BLOCK_SET) and p not in IN_ORDER_PIPES:
                    continue
                pc = self.clock[c][PIPE_INDEX[p]]
                np.maximum(pc, vs, out=pc)
                if k == BARRIER or p in IN_ORDER_PIPES:
                    t = self.thread(c, p)
                    # in-order successor / after pipe_barrier (which drains its pipe):
                    # every earlier op of the pipe has completed. A wait_flag does not
                    # drain its pipe, so it orders later ops only after the flag's setter.
                    pc[t] = max(pc[t], started_count[c][p])
            run = _Running(ins, c, pos, now, now + ins.latency, state, vs)
            for p in ins.pipes:
                inflight[c][p].append(run)
            tie += 1
            heapq.heappush(heap, (run.end, tie, run))

        def complete(run: _Running) -> None:
            nonlocal last_end
            ins, c = run.instr, run.core
            if ins.on_end is not None:
                ins.on_end(run.state)
            for p in ins.pipes:
                inflight[c][p].remove(run)
                busy[c][p].append((run.start, run.end))
            last_end = max(last_end, run.end)
            instrs = self.cores[c].instrs
            if run.pos + 1 < len(instrs) and instrs[run.pos + 1].after_previous:
                handoff[(c, run.pos)] = (run.clock, run.state)
            if ins.kind == SET:
                key = (c, *ins.flag)
                if key in flags:
                    double_sets.append(
                        f"{ins.describe()} [{self.cores[c].name}]: flag "
                        f"{_flag_name(ins.flag)} set again while already set"
                    )
                else:
                    flags[key] = run.clock
            elif ins.kind == BLOCK_SET:
                for dst in peers(c):
                    block_fifos.setdefault((dst, c, ins.flag[0]), deque()).append(run.clock)
            if self.want_trace:
                trace.append(
                    TraceEvent(ins.name or ins.kind, self.cores[c].name, "+".join(ins.pipes),
                               run.start, run.end, ins.loc)
                )

        def barrier_all(c: int) -> bool:
            if any(queues[c][p] or inflight[c][p] for p in PIPES):
                return False
            joined = np.zeros(T, dtype=np.int64)
            for p in PIPES:
                np.maximum(joined, own_prefix(c, p), out=joined)
            for p in PIPES:
                pc = self.clock[c][PIPE_INDEX[p]]
                np.maximum(pc, joined, out=pc)
            return True

        def issue(c: int) -> bool:
            core = self.cores[c]
            progressed = False
            while issue_idx[c] < len(core.instrs) and next_issue[c] <= now:
                pos = issue_idx[c]
                ins = core.instrs[pos]
                if ins.kind == BARRIER_ALL:
                    if not barrier_all(c):
                        break
                    if self.want_trace:
                        trace.append(TraceEvent(ins.name or "pipe_barrier", core.name, "ISSUE",
                                                now, now + ins.latency, ins.loc))
                    delay = ins.latency
                else:
                    for p in ins.pipes:
                        queues[c][p].append(pos)
                    delay = 1
                issue_idx[c] += 1
                nxt = core.instrs[issue_idx[c]].scalar_cost if issue_idx[c] < len(core.instrs) else 0
                next_issue[c] = now + delay + nxt
                progressed = True
            return progressed

        step_limit_hit = False
        while True:
            # settle everything that can happen at `now`
            changed = True
            while changed:
                changed = False
                steps += 1
                if steps > self.max_steps:
                    step_limit_hit = True
                    break
                while heap and heap[0][0] <= now:
                    complete(heapq.heappop(heap)[2])
                    changed = True
                for c in range(n):
                    if issue(c):
                        changed = True
                for c in range(n):
                    for p in PIPES:
                        q = queues[c][p]
                        if q and self.cores[c].instrs[q[0]].pipes[0] == p and can_start(c, q[0]):
                            start(c, q[0])
                            changed = True
                if starts_since_prune >= self.PRUNE_PERIOD:
                    prune()
                    starts_since_prune = 0
            if step_limit_hit:
                break
            # next moment something can change
            candidates = []
            if heap:
                candidates.append(heap[0][0])
            for c in range(n):
                if issue_idx[c] < len(self.cores[c].instrs) and next_issue[c] > now:
                    candidates.append(next_issue[c])
                for p in PIPES:
                    if queues[c][p] and pipe_free[c][p] > now:
                        candidates.append(pipe_free[c][p])
                candidates.extend(t for t in resource_free[c].values() if t > now)
            if not candidates:
                break
            now = min(candidates)

        pending = [
            (c, pos)
            for c in range(n)
            for pos in sorted({q for p in PIPES for q in queues[c][p]})
        ]
        unissued = [c for c in range(n) if issue_idx[c] < len(self.cores[c].instrs)]
        deadlock = bool(pending or unissued) and not step_limit_hit
        deadlock_info: list[str] = []
        if pending or unissued:
            for c, pos in pending:
                ins = self.cores[c].instrs[pos]
                heads = [p for p in ins.pipes if queues[c][p] and queues[c][p][0] == pos]
                if len(heads) == len(ins.pipes):
                    deadlock_info.append(
                        f"{ins.describe()} [{self.cores[c].name}] waits for "
                        + _wait_reason(ins)
                    )
            for c in unissued:
                ins = self.cores[c].instrs[issue_idx[c]]
                deadlock_info.append(
                    f"{ins.describe()} [{self.cores[c].name}] cannot issue: pipes never drain"
                    if ins.kind == BARRIER_ALL
                    else f"{ins.describe()} [{self.cores[c].name}] not issued"
                )
            if step_limit_hit:
                deadlock_info.insert(0, f"step limit {self.max_steps} reached")
        unbalanced = [
            f"flag {_flag_name(key[1:])} [{self.cores[key[0]].name}] still set at exit"
            for key in flags
        ]
        for (dst, src, fid), fifo in block_fifos.items():
            if fifo:
                unbalanced.append(
                    f"cross-core flag {fid} from {self.cores[src].name} to "
                    f"{self.cores[dst].name} set {len(fifo)} more time(s) than waited"
                )
        pipe_busy = {
            self.cores[c].name: {p: _union_length(busy[c][p]) for p in PIPES if busy[c][p]}
            for c in range(n)
        }
        return EngineResult(
            cycles=max(last_end, now),
            races=list(races.values()),
            deadlock=deadlock or step_limit_hit,
            deadlock_info=deadlock_info,
            unbalanced_flags=unbalanced,
            double_sets=double_sets,
            pipe_busy=pipe_busy,
            trace=trace,
            steps=steps,
            step_limit_hit=step_limit_hit,
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
