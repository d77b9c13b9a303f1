"""Plain-data description of a scheduling problem and of its solution.

Nothing here knows about IR: the modulo-schedule pass turns a loop body into a
`LoopProblem`, the solver returns a `LoopResult`.  Validation happens once, in
`LoopProblem.validate()`, so the solvers can trust indices and names.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterator, Sequence, TypeVar

from ascend_mlir import hardware

T = TypeVar("T")
_UNKNOWN = object()  # `LoopProblem.remembered`: not asked yet

# The replays of equal problems posed by different compiles, while `sharing_replays()` is
# open (the test suite's, with its shared solves: compile_cache.sharing_solves): a kernel
# compiled again at another trip count, in another sync mode or for the oracle poses the
# same loops, whose replays it asked again (15 of the suite's CPU s). Keyed by the
# problem's repr, as a shared solve is; the most recent SHARED_REPLAY_PROBLEMS problems.
SHARED_REPLAY_PROBLEMS = 64
_shared_replays: list[OrderedDict[str, dict[tuple, Any]]] = []


@contextlib.contextmanager
def sharing_replays() -> Iterator[None]:
    """Share `LoopProblem.remembered` between equal problems while open."""
    _shared_replays.append(OrderedDict())
    try:
        yield
    finally:
        _shared_replays.pop()


class SchedulingError(Exception):
    """The problem has no schedule at all (not a budget issue).

    Raised for capacity that cannot hold even one version of every buffer and
    for dependence cycles whose total distance is zero but whose latency is not.
    """


@dataclass(frozen=True)
class Task:
    """One operation of the loop body.

    `pipe` is one pipe name or a tuple of names (a task that occupies several
    pipes, e.g. mmadL1 on MTE1 and M).  `latency` is issue-to-result, `ii` is
    how long the task blocks its pipe(s); `latency >= ii >= 1`.  `hold` is how
    much longer it keeps its own pipes (not the shared resources of `conflicts`,
    which are free after `ii`): a set_flag right after the task waits for its
    completion, and the pipe's later ops queue behind that set (a flag drain).
    """

    name: str
    pipe: str | tuple[str, ...]
    latency: int
    ii: int
    hold: int = 0

    @cached_property
    def pipes(self) -> tuple[str, ...]:
        # cached: the replay asks it of every dependence's tasks, millions of times on a
        # loop of 256 ops (the frozen dataclass's fields do not change)
        return (self.pipe,) if isinstance(self.pipe, str) else tuple(self.pipe)

    @property
    def pipe_time(self) -> int:
        """Cycles the task keeps its own pipes: `ii + hold`."""
        return self.ii + self.hold


@dataclass(frozen=True)
class Dep:
    """`dst` of iteration j + distance must start `latency` cycles after `src` of iteration j.

    With `buffer`, the iteration distance is the number of versions the solver
    gives that buffer (plus `distance`, normally 0): this is the write-after-read
    edge that multi-buffering relaxes.
    """

    src: int
    dst: int
    latency: int
    distance: int = 0
    buffer: str | None = None


@dataclass(frozen=True)
class Buffer:
    """An on-chip buffer that can be multi-versioned; `size` in bytes per version."""

    name: str
    scope: str
    size: int
    max_versions: int | None = None


@dataclass
class LoopProblem:
    tasks: Sequence[Task]
    deps: Sequence[Dep] = ()
    buffers: Sequence[Buffer] = ()
    # bytes per scope; a scope that is absent is not limited (e.g. gm)
    capacity: dict[str, int] = field(default_factory=dict)
    # upper bound on the versions of every buffer (tile.num_stages)
    num_stages: int = 1
    # extra pairs of tasks that may not overlap (besides tasks sharing a pipe)
    conflicts: Sequence[tuple[int, int]] = ()
    # event ids per pipe pair (the chip's): when a loop body's flags of a pair need more,
    # ascend-insert-sync gathers their sets at the fewest points, which the replay of the
    # code (realize.py) follows; no solver reads it
    events_per_pipe_pair: int = hardware.EVENTS_PER_PIPE_PAIR
    # the pipes the chip does not keep in order (chips.needs_barrier): a dependence on one
    # of them is a pipe_barrier of that pipe, an instruction of a cycle before the
    # consumer, which the replay of the code counts; no solver reads it
    barrier_pipes: frozenset[str] = frozenset()
    # the replay's answers for this problem (loop_code.py and realize.py: a schedule's
    # code, its steady state and its cycles), which depend on nothing else: one compile
    # asks them of the same schedule from several places (its written form, its code's
    # label, the choice of forms), a third of the calls on wide kernels. Not part of the
    # problem's value: no constructor argument (`replace` starts an empty one), no part
    # of equality or repr (`compile_cache.solve_through` keys a solve by the repr).
    replayed: dict[tuple, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def remembered(self, key: tuple, compute: Callable[[], T]) -> T:
        """`compute()`, asked once per `key` (`replayed`): what it answers depends on the
        problem and the key alone, and nothing changes what it returns."""
        if _shared_replays and "_replays_shared" not in self.__dict__:
            self._share_replays(_shared_replays[-1])
        known = self.replayed.get(key, _UNKNOWN)
        if known is _UNKNOWN:
            known = self.replayed[key] = compute()
        return known

    def _share_replays(self, shared: OrderedDict[str, dict[tuple, Any]]) -> None:
        """Take the replays an equal problem remembered (`sharing_replays`), and share ours."""
        text = repr(self)
        known = shared.pop(text, None)
        if known is None:
            known = self.replayed
        else:
            known.update(self.replayed)
        shared[text] = self.replayed = known
        while len(shared) > SHARED_REPLAY_PROBLEMS:
            shared.popitem(last=False)
        self.__dict__["_replays_shared"] = True

    def validate(self) -> None:
        """Raise ValueError with a precise message on malformed input."""
        n = len(self.tasks)
        if n == 0:
            raise ValueError("loop problem has no tasks")
        for i, t in enumerate(self.tasks):
            _validate_task(i, t)
        if not isinstance(self.num_stages, int) or self.num_stages < 1:
            raise ValueError(f"num_stages must be an int >= 1, got {self.num_stages!r}")
        names = _validate_buffers(self.buffers)
        for scope, cap in self.capacity.items():
            if not isinstance(cap, int) or cap < 0:
                raise ValueError(f"capacity of scope {scope!r} must be an int >= 0, got {cap!r}")
        for e, d in enumerate(self.deps):
            _validate_dep(e, d, n, names)
        for c in self.conflicts:
            _validate_conflict(c, n)

    # ----- derived data used by every solver -------------------------------------
    def max_versions(self, b: Buffer) -> int:
        return self.num_stages if b.max_versions is None else min(self.num_stages, b.max_versions)

    def resource_pairs(self) -> list[tuple[int, int]]:
        """Unordered pairs (i < j) that may not overlap in the modulo window.

        Every solver step asks for them: computed once per (pipes, conflicts)."""
        key = (tuple(t.pipes for t in self.tasks), tuple(self.conflicts))
        cached = self.__dict__.get("_pairs")
        if cached is not None and cached[0] == key:
            return list(cached[1])
        by_pipe: dict[str, list[int]] = {}
        for i, t in enumerate(self.tasks):
            for pipe in t.pipes:
                by_pipe.setdefault(pipe, []).append(i)
        pairs: set[tuple[int, int]] = set()
        for members in by_pipe.values():
            pairs.update(itertools.combinations(members, 2))  # members ascending: i < j
        for i, j in self.conflicts:
            pairs.add((min(i, j), max(i, j)))
        result = sorted(pairs)
        self.__dict__["_pairs"] = (key, result)
        return list(result)

    def pair_arcs(self) -> dict[tuple[int, int], tuple[int, int]]:
        """For each resource pair (i < j): the cycles i keeps j from starting and the
        cycles j keeps i from starting. Tasks sharing a pipe hold it for their
        `pipe_time` (issue and flag drain); a pair that shares only a conflicting
        resource (the HBM port) holds it for `ii` (issue only)."""
        key = (tuple((t.pipes, t.ii, t.hold) for t in self.tasks), tuple(self.conflicts))
        cached = self.__dict__.get("_arcs")
        if cached is not None and cached[0] == key:
            return cached[1]
        arcs: dict[tuple[int, int], tuple[int, int]] = {}
        pipes = [frozenset(t.pipes) for t in self.tasks]
        held, issued = [t.pipe_time for t in self.tasks], [t.ii for t in self.tasks]
        for i, j in self.resource_pairs():
            if pipes[i].isdisjoint(pipes[j]):
                arcs[(i, j)] = (issued[i], issued[j])
            else:
                arcs[(i, j)] = (held[i], held[j])
        self.__dict__["_arcs"] = (key, arcs)
        return arcs


def _validate_task(i: int, t: Task) -> None:
    where = f"task {i} ({t.name!r})"
    if not t.pipes:
        raise ValueError(f"{where} has no pipe")
    for p in t.pipes:
        if p not in hardware.PIPES:
            raise ValueError(f"{where} has unknown pipe {p!r}; expected one of {', '.join(hardware.PIPES)}")
    for attr in ("latency", "ii"):
        v = getattr(t, attr)
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"{where} {attr} must be an int, got {v!r}")
    if t.latency < 0:
        raise ValueError(f"{where} has negative latency {t.latency}")
    if t.ii < 1:
        raise ValueError(f"{where} has ii {t.ii}; a task occupies its pipe at least 1 cycle")
    if t.latency < t.ii:
        raise ValueError(f"{where} has latency {t.latency} < ii {t.ii}")
    if not isinstance(t.hold, int) or isinstance(t.hold, bool) or t.hold < 0:
        raise ValueError(f"{where} hold must be an int >= 0, got {t.hold!r}")


def _validate_buffers(buffers: Sequence[Buffer]) -> set[str]:
    """The buffer names, each checked once."""
    names: set[str] = set()
    for b in buffers:
        if b.name in names:
            raise ValueError(f"buffer {b.name!r} is declared twice")
        names.add(b.name)
        if not isinstance(b.size, int) or b.size < 0:
            raise ValueError(f"buffer {b.name!r} has invalid size {b.size!r}")
        if b.max_versions is not None and b.max_versions < 1:
            raise ValueError(f"buffer {b.name!r} has max_versions {b.max_versions} < 1")
    return names


def _is_task_index(idx: Any, n: int) -> bool:
    return isinstance(idx, int) and 0 <= idx < n


def _validate_dep(e: int, d: Dep, n: int, buffer_names: set[str]) -> None:
    where = f"dependence {e} ({d.src} -> {d.dst})"
    for idx in (d.src, d.dst):
        if not _is_task_index(idx, n):
            raise ValueError(f"{where} refers to task {idx!r}; the loop has {n} tasks")
    if d.latency < 0 and d.distance == 0 and d.buffer is None:
        # a carried dependence may let its consumer issue before its producer (a nested
        # loop whose conflicting op comes late); within one iteration it may not
        raise ValueError(f"{where} has negative latency {d.latency} at iteration distance 0")
    if d.distance < 0:
        raise ValueError(f"{where} has negative distance {d.distance}")
    if d.buffer is not None and d.buffer not in buffer_names:
        raise ValueError(f"{where} names unknown buffer {d.buffer!r}")


def _validate_conflict(c: tuple[int, int], n: int) -> None:
    if len(c) != 2:
        raise ValueError(f"conflict {c!r} is not a pair of task indices")
    i, j = c
    for idx in (i, j):
        if not _is_task_index(idx, n):
            raise ValueError(f"conflict {c!r} refers to task {idx!r}; the loop has {n} tasks")
    if i == j:
        raise ValueError(f"conflict {c!r} pairs a task with itself")


@dataclass
class LoopResult:
    """Schedule of one loop.

    status: "optimal"   II proven minimal (everything below MII is impossible,
                        everything from MII to II-1 proven infeasible by the solver);
            "feasible"  solver schedule, II optimality not proven (budget);
            "heuristic" iterative-modulo-scheduling (or sequential) schedule, the
                        solver found nothing better within the budget;
            "fallback"  (search="bisect" only) the anchor's sequential fallback.
    Buffer bytes and schedule length are optimised at the final II; whether that
    was proven is in stats["bytes_optimal"] / stats["length_optimal"].

    mii = max(1, max res_mii, conflict clique bound, rec_mii); binding names
    what sets it: a pipe, "conflict" (a clique of tasks on different pipes
    joined by `conflicts`) or "recurrence".  stats["search_lower_bound"] may be
    above mii: RecMII with the versions the capacity actually allows.
    start[i] = stage[i] * ii + offset[i]; length = max(start + latency).
    """

    ii: int
    mii: int
    res_mii: dict[str, int]
    rec_mii: int
    binding: str
    status: str
    start: list[int]
    stage: list[int]
    offset: list[int]
    versions: dict[str, int]
    length: int
    buffer_bytes: dict[str, int]
    message: str
    stats: dict[str, Any]


@dataclass
class RegionResult:
    """Schedule of a straight-line region; status "optimal" or "feasible"."""

    start: list[int]
    makespan: int
    status: str
    message: str
    stats: dict[str, Any]
