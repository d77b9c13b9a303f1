"""Dependences between the tasks of one loop body, on plain data (no IR).

A task touches memory through `Access`es: a box (`Region`) of a root buffer, read or
written, on one pipe. Between two tasks we find

* intra-iteration dependences (distance 0) in program order,
* loop-carried dependences at the smallest iteration distance d >= 1 at which the boxes
  overlap, where offsets are affine in the loop variable ("iv"),
* for an on-chip buffer that may be multi-buffered (written in full before any read in
  every iteration), loop-carried WAR/WAW at a distance of "the version count of that
  buffer" and no loop-carried RAW.

Whenever an offset is not understood, regions are taken to overlap (never the reverse).
Distinct roots (distinct kernel arguments, distinct allocations) never alias.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor

from ascend_mlir import hardware
from ascend_mlir.analysis.aliasing import Affine  # the alias analysis's affine offsets

IV = "iv"  # the symbol of the loop variable of the loop being analysed

# Pipes that issue and complete in order: a dependence between two ops of one of these
# pipes is met as soon as the producer lets the pipe issue again (its ii). The hardware
# orders only S (and mmadL1 -> mmadL1): hardware.ORDERED_PIPES. On every other pipe a
# dependent pair needs a pipe_barrier, which waits for the producer to complete (the
# same-pipe rule, reference/hivm-syntax.md), so the consumer waits the full latency.
IN_ORDER_PIPES = hardware.ORDERED_PIPES

# DMA paths that share one HBM port although they run on different pipes.
DEFAULT_SHARED_PATHS: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = hardware.SHARED_PORT_PATHS


@dataclass(frozen=True)
class Region:
    """A box of a root buffer: per root dimension an offset (affine) and an extent.

    `offsets is None` means "somewhere in the root" (unknown: overlaps everything of the
    root); `root is None` means the buffer itself is unknown and may alias anything."""

    root: Hashable | None
    offsets: tuple[Affine, ...] | None = None
    sizes: tuple[int, ...] | None = None

    @staticmethod
    def whole(root: Hashable | None) -> Region:
        return Region(root)

    @staticmethod
    def box(root: Hashable, offsets: Sequence[Affine | int], sizes: Sequence[int]) -> Region:
        offs = tuple(o if isinstance(o, Affine) else Affine(o) for o in offsets)
        return Region(root, offs, tuple(sizes))

    def covers(self, shape: Sequence[int]) -> bool:
        """Whether the box is exactly the whole of a root of this shape."""
        if self.offsets is None or self.sizes is None:
            return False
        return len(self.sizes) == len(shape) and all(
            o.is_constant and o.const == 0 and s == d
            for o, s, d in zip(self.offsets, self.sizes, shape)
        )

    def widen(self, sym: Hashable, lower: int | None, upper: int | None) -> Region:
        """The union of the region over sym in [lower, upper) (a bounding box)."""
        if self.offsets is None or self.sizes is None:
            return self
        if all(o.coeff(sym) == 0 for o in self.offsets):
            return self
        if lower is None or upper is None or upper <= lower:
            return Region(self.root)
        offsets, sizes = [], []
        for o, s in zip(self.offsets, self.sizes):
            c = o.coeff(sym)
            if c == 0:
                offsets.append(o)
                sizes.append(s)
                continue
            base = o.without(sym)
            first, last = c * lower, c * (upper - 1)
            lo = min(first, last)
            offsets.append(base + lo)
            sizes.append(abs(last - first) + s)
        return Region(self.root, tuple(offsets), tuple(sizes))


@dataclass(frozen=True)
class Access:
    region: Region
    write: bool
    pipe: str
    # A write that certainly happens and covers exactly `region` (not a widened or
    # conditional one): only such writes make a buffer eligible for multi-buffering.
    exact: bool = True
    # Cycles after the task issues at which this access is over, when earlier than the
    # task's latency (mmadL1 has read its L1 inputs once its MTE1 moves are done).
    done: int | None = None


@dataclass(frozen=True)
class TaskInfo:
    name: str
    pipes: tuple[str, ...]
    latency: int
    ii: int
    accesses: tuple[Access, ...] = ()
    # DMA paths (src scope, dst scope) the task uses, for shared-port conflicts
    paths: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class BufferInfo:
    """An on-chip allocation used by the loop (the candidates for multi-buffering)."""

    root: Hashable
    name: str
    scope: str
    bytes: int
    shape: tuple[int, ...]


@dataclass(frozen=True)
class Dependence:
    src: int
    dst: int
    latency: int
    distance: int = 0
    buffer: str | None = None  # distance = versions of this buffer
    kind: str = "RAW"  # RAW, WAR, WAW
    root: Hashable | None = field(default=None, compare=False)


# ----------------------------------------------------------------------------- overlap


def _dim_interval(
    rest: Affine, c: int, size_a: int, size_b: int
) -> tuple[Fraction, Fraction] | bool:
    """For one dimension, the distances d at which box A (iteration i) and box B
    (iteration i + d) overlap, where B.offset(i + d) - A.offset(i) = rest + c*d.
    Returns True (every d), False (none) or an open interval on d."""
    if not rest.is_constant:
        return True  # unknown symbols: assume overlap
    b = rest.const
    # overlap iff -size_b < b + c*d < size_a
    if c == 0:
        return -size_b < b < size_a
    lo, hi = Fraction(-size_b - b, c), Fraction(size_a - b, c)
    if c < 0:
        lo, hi = hi, lo
    return (lo, hi)


def overlap_distances(a: Region, b: Region) -> tuple[Fraction, Fraction] | bool:
    """Distances d (B in iteration i + d, A in iteration i) at which the regions overlap:
    True = every d, False = none, else an open interval (lo, hi)."""
    if a.root is not None and b.root is not None and a.root != b.root:
        return False
    if a.root is None or b.root is None:
        return True
    if a.offsets is None or b.offsets is None or a.sizes is None or b.sizes is None:
        return True
    if len(a.offsets) != len(b.offsets):
        return True
    lo: Fraction | None = None
    hi: Fraction | None = None
    for oa, ob, sa, sb in zip(a.offsets, b.offsets, a.sizes, b.sizes):
        if oa.coeff(IV) != ob.coeff(IV):
            continue  # the gap depends on i itself: assume they meet at every d
        r = _dim_interval((ob - oa).without(IV), ob.coeff(IV), sa, sb)
        if r is False:
            return False
        if r is True:
            continue
        lo = r[0] if lo is None else max(lo, r[0])
        hi = r[1] if hi is None else min(hi, r[1])
    if lo is None or hi is None:
        return True
    if lo >= hi:
        return False
    return (lo, hi)


def overlaps_at(a: Region, b: Region, d: int) -> bool:
    return _overlaps_at(overlap_distances(a, b), d)


def _overlaps_at(r: tuple[Fraction, Fraction] | bool, d: int) -> bool:
    if isinstance(r, bool):
        return r
    return r[0] < d < r[1]


def min_carried_distance(a: Region, b: Region, trip_count: int | None) -> int | None:
    """Smallest d >= 1 (and < trip_count when known) at which B of iteration i + d
    touches what A of iteration i touched; None if no such d."""
    return _min_carried_distance(overlap_distances(a, b), trip_count)


def _min_carried_distance(r: tuple[Fraction, Fraction] | bool, trip_count: int | None) -> int | None:
    max_d = None if trip_count is None else trip_count - 1
    if max_d is not None and max_d < 1:
        return None
    if r is False:
        return None
    if r is True:
        return 1
    lo, hi = r
    d = max(1, floor(lo) + 1)
    if Fraction(d) >= hi:
        return None
    if max_d is not None and d > max_d:
        return None
    return d


# ----------------------------------------------------------------------------- dependences


def dependence_latency(producer: TaskInfo, consumer: TaskInfo, src: Access, dst: Access) -> int:
    """Cycles the consumer waits after the producer issued: until the producer's access
    is over. On an in-order pipe shared by both accesses the pipe already orders them:
    the producer's ii is enough."""
    if src.pipe == dst.pipe and src.pipe in IN_ORDER_PIPES:
        return min(producer.ii, producer.latency)
    if src.done is not None:
        return min(src.done, producer.latency)
    return producer.latency


def multi_buffer_eligible(tasks: Sequence[TaskInfo], buffer: BufferInfo) -> bool:
    """A buffer may get several versions when, in every iteration, the first task that
    touches it writes all of it (exactly, unconditionally) and does not read it."""
    for task in tasks:
        touching = [a for a in task.accesses if a.region.root == buffer.root]
        unknown = [a for a in task.accesses if a.region.root is None]
        if unknown:
            return False
        if not touching:
            continue
        if any(not a.write for a in touching):
            return False
        return any(a.exact and a.region.covers(buffer.shape) for a in touching)
    return False


def _kind(src: Access, dst: Access) -> str | None:
    if src.write and not dst.write:
        return "RAW"
    if not src.write and dst.write:
        return "WAR"
    if src.write and dst.write:
        return "WAW"
    return None


def _partners(
    tasks: Sequence[TaskInfo],
) -> tuple[list[tuple[int, int, Access]], dict[Hashable, list[tuple[int, int, Access]]]]:
    """Every (task, access index, access) in program order, and the same grouped by
    root with the unknown-root accesses (root None) in every group: accesses of two
    distinct known roots never overlap (`overlap_distances`), so only these pairs
    can depend on each other."""
    everything = [(v, k, av) for v, tv in enumerate(tasks) for k, av in enumerate(tv.accesses)]
    unknown = [e for e in everything if e[2].region.root is None]
    groups: dict[Hashable, list[tuple[int, int, Access]]] = {}
    for e in everything:
        root = e[2].region.root
        if root is not None:
            groups.setdefault(root, []).append(e)
    for root, members in groups.items():
        if unknown:
            groups[root] = sorted(members + unknown, key=lambda e: (e[0], e[1]))
    return everything, groups


def loop_dependences(
    tasks: Sequence[TaskInfo],
    buffers: Sequence[BufferInfo] = (),
    trip_count: int | None = None,
) -> list[Dependence]:
    """All dependences of a loop body (tasks in program order), one per (src, dst,
    distance, kind) with the largest latency. Buffers listed in `buffers` that are
    eligible for multi-buffering carry WAR/WAW at their version count."""
    eligible = {b.root: b for b in buffers if multi_buffer_eligible(tasks, b)}
    best: dict[tuple[int, int, int, str | None, str], Dependence] = {}

    def add(dep: Dependence) -> None:
        key = (dep.src, dep.dst, dep.distance, dep.buffer, dep.kind)
        old = best.get(key)
        if old is None or dep.latency > old.latency:
            best[key] = dep

    everything, groups = _partners(tasks)
    for u, _, au in everything:
        tu = tasks[u]
        root = au.region.root
        for v, _, av in everything if root is None else groups[root]:
            kind = _kind(au, av)
            if kind is None:
                continue
            tv = tasks[v]
            lat = dependence_latency(tu, tv, au, av)
            overlap = overlap_distances(au.region, av.region)
            if u < v and _overlaps_at(overlap, 0):
                add(Dependence(u, v, lat, 0, None, kind, root))
            if root is not None and root in eligible and av.region.root == root:
                if kind == "RAW":
                    continue  # every iteration rewrites it before reading
                add(Dependence(u, v, lat, 0, eligible[root].name, kind, root))
                continue
            d = _min_carried_distance(overlap, trip_count)
            if d is not None:
                add(Dependence(u, v, lat, d, None, kind, root))
    return sorted(best.values(), key=lambda d: (d.src, d.dst, d.distance, d.buffer or "", d.kind))


def eligible_buffers(tasks: Sequence[TaskInfo], buffers: Sequence[BufferInfo]) -> list[BufferInfo]:
    return [b for b in buffers if multi_buffer_eligible(tasks, b)]


def resource_conflicts(
    tasks: Sequence[TaskInfo],
    shared_paths: Sequence[tuple[tuple[str, str], tuple[str, str]]] = DEFAULT_SHARED_PATHS,
) -> list[tuple[int, int]]:
    """Pairs of tasks on different pipes that still cannot overlap (shared HBM port).
    Same-pipe pairs are implied by the pipe and not listed."""
    out: list[tuple[int, int]] = []
    for i, ti in enumerate(tasks):
        for j in range(i + 1, len(tasks)):
            tj = tasks[j]
            if set(ti.pipes) & set(tj.pipes):
                continue
            for p, q in shared_paths:
                if (p in ti.paths and q in tj.paths) or (q in ti.paths and p in tj.paths):
                    out.append((i, j))
                    break
    return out
