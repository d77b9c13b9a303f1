"""Where a block's set_flags go, and what they cost its pipes: one rule, on plain data,
for `ascend-insert-sync` (which emits the sets) and the scheduler (which reserves their
drains).

A `set_flag` on pipe P runs once every earlier op of P has completed, and later ops of P
queue behind it (DESIGN.md section 8): each *point* in P's op stream where sets stand
costs P one drain, however many sets stand there. So the sets of a block are gathered
into as few points as the consumers allow:

* a release (a producer item `src` on pipe P handing data or a freed buffer to a consumer
  item `dst` on pipe Q, `distance` iterations later) may have its set after any item
  `x` from `src` on, before `dst` when the consumer is in the same pass (distance 0), and
  no later than the last item on which its consumer does not wait for longer than the
  schedule says: every op of P up to `x` completes by the consumer's scheduled start
  (with no schedule known, the set stays right after its producer);
* the fewest points that give every release one (interval stabbing, greedy by the
  latest allowed point: optimal), each point then moved up to the latest producer it
  serves (the consumers wait the least);
* releases at one point with the same consumer pipe and distance are one set_flag /
  wait_flag (one event id), the wait before the earliest consumer.

`set_points` gives the point of every release; `drains` what they cost per pipe and
iteration (the scheduler's reservation, `flag_drains` of `analysis.loop_model`, counts
the same points).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    """One item of a block: the pipes it issues on and, when scheduled, its start (cycles
    from the start of the block's pass: a loop body's offset within the II), latency and
    ii (cycles its pipe is occupied)."""

    pipes: frozenset[str]
    start: int | None = None
    latency: int | None = None
    ii: int | None = None

    @property
    def timed(self) -> bool:
        return self.start is not None and self.latency is not None


@dataclass(frozen=True)
class Release:
    """A dependence that needs a flag: `src` (on `set_pipe`) before `dst` (on `wait_pipe`)
    of the pass `distance` later (0: the same pass)."""

    src: int
    dst: int
    set_pipe: str
    wait_pipe: str
    distance: int = 0


def _completion_by(items: Sequence[Item], pipe: str, src: int, limit: int) -> list[int | None]:
    """For x in src..limit, when every op of `pipe` in items src..x has completed (None
    once an untimed op of the pipe is among them)."""
    out: list[int | None] = []
    latest: int | None = 0
    for x in range(src, limit + 1):
        item = items[x]
        if pipe in item.pipes and latest is not None:
            latest = max(latest, item.start + item.latency) if item.timed else None  # type: ignore[operator]
        out.append(latest)
    return out


def latest_point(items: Sequence[Item], r: Release, ii: int | None, *, keep_slots: bool = True) -> int:
    """The latest item after which `r`'s set may stand without delaying its consumer
    (with `keep_slots=False`, the latest it may stand at all: before its consumer when in
    the same pass, else at the end of the block)."""
    last = r.dst - 1 if r.distance == 0 else len(items) - 1
    if not keep_slots:
        return max(r.src, last)
    consumer = items[r.dst]
    if ii is None or not consumer.timed or not items[r.src].timed or last <= r.src:
        return r.src
    deadline = consumer.start + r.distance * ii  # type: ignore[operator]
    # the producer itself may complete after the consumer's scheduled start (estimates
    # that the schedule rounds): never later than the producer's own completion then
    deadline = max(deadline, items[r.src].start + items[r.src].latency)  # type: ignore[operator]
    best = r.src
    for x, done in enumerate(_completion_by(items, r.set_pipe, r.src, last), start=r.src):
        if done is None or done > deadline:
            break
        best = x
    return best


def set_points(
    items: Sequence[Item], releases: Sequence[Release], ii: int | None = None, fewest: frozenset[str] = frozenset(),
) -> list[int]:
    """The item after which each release's set_flag goes (see the module doc). `ii`: the
    cycles between passes over the block (a loop's II), None when not scheduled. The sets
    of the pipes in `fewest` gather at the fewest points at all, consumers' slots or not
    (what a block with more flags than event ids needs before a barrier would do)."""
    points = [r.src for r in releases]
    by_pipe: dict[str, list[int]] = {}
    for i, r in enumerate(releases):
        by_pipe.setdefault(r.set_pipe, []).append(i)
    for pipe, members in by_pipe.items():
        keep = pipe not in fewest
        latest = {i: latest_point(items, releases[i], ii, keep_slots=keep) for i in members}
        open_ = sorted(members, key=lambda i: (latest[i], releases[i].src, i))
        done: set[int] = set()
        for i in open_:
            if i in done:
                continue
            stab = latest[i]
            group = [j for j in open_ if j not in done and releases[j].src <= stab <= latest[j]]
            point = max(releases[j].src for j in group)
            for j in group:
                points[j] = point
                done.add(j)
    return points


def flag_ids(distance: int, forward: bool) -> int:
    """The event ids one flag within a core takes: one per pass it is carried over
    (`distance`), one more when its producer comes first in the body (`forward`: set
    before it is waited in every pass, a ring of distance + 1 ids), one within the pass."""
    return distance + 1 if distance and forward else max(1, distance)


def flag_key(r: Release, point: int) -> tuple[int, str, str, int, bool]:
    """The flag of a loop body that release `r` set after item `point` belongs to, as
    insert-sync keeps its flags apart: by point, pipe pair, distance and direction (a
    carried flag waited after its point in a later pass takes one id more than one waited
    before it: `flag_ids`)."""
    return (point, r.set_pipe, r.wait_pipe, r.distance, r.src < r.dst)


def ids_needed(releases: Sequence[Release], points: Sequence[int],
               periods: Sequence[int] | None = None) -> dict[tuple[str, str], int]:
    """Per pipe pair, the event ids its flags in one loop body take (one flag per point,
    pipe pair, distance and direction, at `points`; every one live over the whole loop,
    `flag_ids` each, or `periods`: per release, the ids its flag takes)."""
    need: dict[tuple[str, str], int] = {}
    seen: set[tuple] = set()
    for k, (r, point) in enumerate(zip(releases, points, strict=True)):
        key = flag_key(r, point)
        if key not in seen:
            seen.add(key)
            pair = (r.set_pipe, r.wait_pipe)
            need[pair] = need.get(pair, 0) + (periods[k] if periods is not None else flag_ids(r.distance, r.src < r.dst))
    return need


def short_set_pipes(releases: Sequence[Release], points: Sequence[int], ids: int) -> frozenset[str]:
    """The set pipes of the pipe pairs whose flags in one loop body need more than `ids`
    event ids (`ids_needed`): `ascend-insert-sync` gathers those pipes' sets at the
    fewest points (`set_points(..., fewest)`) before it tries anything else."""
    return frozenset(pair[0] for pair, n in ids_needed(releases, points).items() if n > ids)


def drains(items: Sequence[Item], releases: Sequence[Release], ii: int | None = None) -> dict[str, list[int]]:
    """Per pipe, the cycles each of its set points stalls it in one pass: from the end of
    the point's op's ii to the completion of the pipe's ops up to it (0 when unknown or
    already complete), one entry per distinct point, in program order."""
    points = sorted({(r.set_pipe, p) for r, p in zip(releases, set_points(items, releases, ii), strict=True)},
                    key=lambda t: (t[0], t[1]))
    out: dict[str, list[int]] = {}
    for pipe, point in points:
        done = _completion_by(items, pipe, 0, point)[-1]
        item = items[point]
        free = item.start + (item.ii or 0) if item.start is not None else None
        stall = done - free if done is not None and free is not None and pipe in item.pipes else 0
        out.setdefault(pipe, []).append(max(0, stall))
    return out
