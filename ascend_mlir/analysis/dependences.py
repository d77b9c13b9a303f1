"""Dependences between the tasks of one loop body, on plain data (no IR).

A task touches memory through `Access`es: the bytes (`Footprint`, from the one alias
analysis `ascend_mlir.analysis.aliasing`) it reads or writes, on one pipe. Between two
tasks we find

* intra-iteration dependences (distance 0) in program order, where the footprints may
  share a byte (`aliasing.may_alias`),
* loop-carried dependences at the smallest iteration distance d >= 1 at which they may
  (`aliasing.min_carried_distance`, the loop variable "iv" advancing by the loop's step
  each iteration),
* for an on-chip buffer that may be multi-buffered (written in full before any read in
  every iteration), loop-carried WAR/WAW at a distance of "the version count of that
  buffer" and no loop-carried RAW.

Whatever the alias analysis does not understand may alias (never the reverse); distinct
roots (distinct kernel arguments, distinct allocations) never do.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

from ascend_mlir import hardware
from ascend_mlir.analysis import aliasing
from ascend_mlir.analysis.aliasing import Footprint
from ascend_mlir.chips import Chip, needs_barrier

IV = "iv"  # the symbol of the loop variable of the loop being analysed

# Pipes that issue and complete in order: a dependence between two ops of one of these
# pipes is met as soon as the producer lets the pipe issue again (its ii). The hardware
# orders only S (and mmadL1 -> mmadL1): hardware.ORDERED_PIPES. On every other pipe a
# dependent pair needs a pipe_barrier, which waits for the producer to complete (the
# same-pipe rule, reference/hivm-syntax.md), so the consumer waits the full latency.
IN_ORDER_PIPES = hardware.ORDERED_PIPES



def publishes(chip: Chip | None, src_pipe: str, dst_pipe: str) -> bool:
    """Whether a dependence from an op on `src_pipe` to a later op on `dst_pipe` makes the
    producer's pipe publish its completion: a flag to another pipe, or on one pipe a
    `pipe_barrier` where `chips.needs_barrier` says the chip does not order that pipe
    (the 910B's V and every chip's DMA pipes). Either drains the producer's pipe; a
    same-pipe pair the chip orders (S, M at the hivm level, the 950's V) needs neither
    and costs no drain. The scheduler's drain model asks this (loop_model.flag_drains)."""
    return src_pipe != dst_pipe or needs_barrier(chip, src_pipe, dst_pipe)


# DMA paths that share one HBM port although they run on different pipes.
DEFAULT_SHARED_PATHS: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = hardware.SHARED_PORT_PATHS


@dataclass(frozen=True)
class IterationLocal:
    """A footprint symbol computed in the loop body (not the loop variable): the same
    within one iteration, possibly different in another (`later`)."""

    value: Hashable
    later: bool = False


@dataclass(frozen=True)
class Access:
    footprint: Footprint
    write: bool
    pipe: str
    # A write that certainly happens and covers exactly `footprint` (not a widened or
    # conditional one): only such writes make a buffer eligible for multi-buffering.
    exact: bool = True
    # Cycles after the task issues at which this access is over, when earlier than the
    # task's latency (mmadL1 has read its L1 inputs once its MTE1 moves are done).
    done: int | None = None
    # Cycles after the task issues before which this access does not begin (0 for an
    # op; for a scheduled nested loop, the issue of the first op that makes it): a
    # consumer loop may start that much before what it waits for is over.
    begin: int = 0
    # Cycles after the op's issue at which its cube part, which follows its MTE1 feed,
    # begins with this operand (mmadL1's accumulator): the feed of the next tile's
    # mmadL1 runs while the fixpipe still reads the accumulator (the wait_flag[FIX, M]
    # before it holds the M queue only), so a dependence towards it is over that much
    # sooner. A nested loop's window (accesses._access_window) leaves it out: the outer
    # loop's model of a K loop does not see the previous tile's fixpipe delay the K
    # loop's loads on the HBM port, which costs it about as much (nested_gemm(4, 3) of
    # 128 x 128 x 256 tiles on the 910B: written 5026 with it, ran 5359; 5266 without).
    fed: int = 0
    # A partial tile (a view with dynamic sizes; `footprint` is then its static bound):
    # a key equal for accesses to the same bytes at any runtime size, else None.
    extent: Hashable | None = None


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


# ----------------------------------------------------------------------------- distances


def carried_distance(a: Footprint, b: Footprint, step: int | None, trip_count: int | None) -> int | None:
    """The smallest d >= 1 (d < trip_count when known) at which `b` of iteration i + d
    may touch what `a` touched in iteration i; None if never. With an unknown step only
    footprints that do not move with the loop variable are told apart; symbols marked
    `IterationLocal` are taken to change from one iteration to the next."""
    return _carried_distance(a, in_later_iteration(b), step, trip_count)


def in_later_iteration(fp: Footprint) -> Footprint:
    """`fp` as a later iteration sees it: values computed in the body are other values."""
    if fp.base is None:
        return fp
    local: dict[Hashable, Hashable] = {
        k: IterationLocal(k.value, True) for k in fp.base.symbols() if isinstance(k, IterationLocal)
    }
    return fp.rename(local) if local else fp


def _carried_distance(a: Footprint, b: Footprint, step: int | None, trip_count: int | None) -> int | None:
    """`carried_distance` with `b` already `in_later_iteration`."""
    if trip_count is not None and trip_count < 2:
        return None
    if step is None:
        # b in some other iteration: its loop variable is an unrelated value
        return 1 if aliasing.may_alias(a, b.rename({IV: _OTHER_ITERATION})) else None
    return aliasing.min_carried_distance(a, b, IV, step, trip_count)


_OTHER_ITERATION = "iv'"  # the loop variable of another iteration, when the step is unknown


# ----------------------------------------------------------------------------- dependences


def dependence_latency(producer: TaskInfo, consumer: TaskInfo, src: Access, dst: Access) -> int:
    """Cycles the consumer waits after the producer issued: until the producer's access
    is over, less the cycles after its own issue at which the consumer's access begins
    (a nested loop's later op: the latency may then be negative, which only a carried
    dependence keeps, see loop_dependences). On an in-order pipe shared by both accesses
    the pipe already orders them: the producer's ii is enough."""
    if src.pipe == dst.pipe and src.pipe in IN_ORDER_PIPES:
        # the pipe orders their parts on it, each `fed` after its own issue
        return min(producer.ii, producer.latency) - dst.begin - (dst.fed - src.fed)
    if src.done is not None:
        over = min(src.done, producer.latency)
    else:
        over = producer.latency
    return over - dst.begin - dst.fed


def multi_buffer_eligible(tasks: Sequence[TaskInfo], buffer: BufferInfo) -> bool:
    """A buffer may get several versions when, in every iteration, the first task that
    touches it writes all of it (exactly, unconditionally) and does not read it."""
    for task in tasks:
        touching = [a for a in task.accesses if a.footprint.root == buffer.root]
        unknown = [a for a in task.accesses if a.footprint.root is None]
        if unknown:
            return False
        if not touching:
            continue
        if any(not a.write for a in touching):
            return False
        if any(a.exact and a.footprint.covers(buffer.bytes) for a in touching):
            return True
        return _partial_writes_cover_reads(tasks, buffer, {a.extent for a in touching if a.extent is not None})
    return False


def _partial_writes_cover_reads(tasks: Sequence[TaskInfo], buffer: BufferInfo, written: set[Hashable]) -> bool:
    """A buffer first written through partial tiles (`written`: their extent keys) may
    be multi-buffered when every read of it in the iteration reads one of those exact
    partial tiles: no read sees bytes an earlier iteration left (the unused part of a
    partial tile is never read, see docs/runtime-shapes.md)."""
    if not written:
        return False
    reads = [a for t in tasks for a in t.accesses if a.footprint.root == buffer.root and not a.write]
    return all(a.extent in written for a in reads)


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
    distinct known roots never alias, so only these pairs can depend on each other."""
    everything = [(v, k, av) for v, tv in enumerate(tasks) for k, av in enumerate(tv.accesses)]
    unknown = [e for e in everything if e[2].footprint.root is None]
    groups: dict[Hashable, list[tuple[int, int, Access]]] = {}
    for e in everything:
        root = e[2].footprint.root
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
    step: int | None = 1,
) -> list[Dependence]:
    """All dependences of a loop body (tasks in program order), one per (src, dst,
    distance, kind) with the largest latency. The loop runs `trip_count` iterations
    (None: unknown) and its variable advances by `step` (None: unknown). Buffers listed
    in `buffers` that are eligible for multi-buffering carry WAR/WAW at their version
    count."""
    eligible = {b.root: b for b in buffers if multi_buffer_eligible(tasks, b)}
    best: dict[tuple[int, int, int, str | None, str], Dependence] = {}

    def add(dep: Dependence) -> None:
        if dep.distance == 0 and dep.buffer is None and dep.latency < 0:
            # within one iteration the consumer still issues after the producer (program
            # order); a carried one may issue before it (the next iteration's nested loop
            # reaches its first conflicting op after the producer's access is over)
            dep = replace(dep, latency=0)
        key = (dep.src, dep.dst, dep.distance, dep.buffer, dep.kind)
        old = best.get(key)
        if old is None or dep.latency > old.latency:
            best[key] = dep

    everything, groups = _partners(tasks)
    # each access as a later iteration sees it, once (not once per pair)
    later = {(v, k): in_later_iteration(av.footprint) for v, k, av in everything}
    for u, _, au in everything:
        root = au.footprint.root
        for v, k, av in everything if root is None else groups[root]:
            kind = _kind(au, av)
            if kind is None:
                continue
            lat = dependence_latency(tasks[u], tasks[v], au, av)
            if u < v and aliasing.may_alias(au.footprint, av.footprint):
                add(Dependence(u, v, lat, 0, None, kind, root))
            if root is not None and root in eligible and av.footprint.root == root:
                if kind != "RAW":  # every iteration rewrites it before reading: no RAW
                    add(Dependence(u, v, lat, 0, eligible[root].name, kind, root))
                continue
            d = _carried_distance(au.footprint, later[(v, k)], step, trip_count)
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
