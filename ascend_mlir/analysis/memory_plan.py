"""On-chip memory planning on plain data: byte offsets for buffers with live ranges.

A `PlanBuffer` is one allocation: its scope, its aligned size of one version, its version
count and its live range `[first, last]` (positions in the function's top-level program
order). Buffers whose live ranges overlap get disjoint byte ranges; the others share
bytes only where the scope cannot hold every buffer side by side. A reuse is a false
dependence: the later buffer's first write waits for the earlier one's last read, which
serialises code that could overlap (a K loop of two trips peeled into straight-line code
at the top level of a function: its second step's loads waited for the first step's
mmadL1, as in program order; unseen_cube's gemm_910b draws with K = 2 TK ran 4-10%
slower than with bytes of their own). Every version of a buffer gets its own slot:
version v sits at `offset + v * size`, so the addresses of a multi-buffer are evenly
spaced.

Placement is first fit in allocation order (deterministic). The end offset never exceeds
the sum of all buffers' `versions * size` in the scope: a set of buffers that fits the
modulo scheduler's capacity constraint (`sum(versions * size) <= capacity`) always fits
the plan, so the plan and the scheduler agree; the plan may fit more thanks to reuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class PlanBuffer:
    name: str
    scope: str
    size: int  # bytes of one version, already aligned
    versions: int
    first: int  # live range in program positions, inclusive
    last: int

    @property
    def bytes(self) -> int:
        return self.size * self.versions

    def overlaps(self, other: PlanBuffer) -> bool:
        return self.first <= other.last and other.first <= self.last


@dataclass(frozen=True)
class ScopePlan:
    scope: str
    offsets: dict[int, int]  # buffer index (in the input list) -> byte offset
    end: int  # bytes used: max(offset + versions * size)
    capacity: int

    @property
    def fits(self) -> bool:
        return self.end <= self.capacity


def _align(n: int, alignment: int) -> int:
    return -(-n // alignment) * alignment


def plan_scope(buffers: Sequence[PlanBuffer], scope: str, capacity: int, alignment: int) -> ScopePlan:
    """Offsets for the buffers of `scope` (others are ignored), first fit in input order;
    each its own bytes where all of them fit the capacity side by side."""
    mine = [b for b in buffers if b.scope == scope]
    if mine and sum(_align(b.bytes, alignment) for b in mine) <= capacity:
        # no reuse needed: every buffer live throughout, so none shares bytes
        first, last = min(b.first for b in mine), max(b.last for b in mine)
        buffers = [replace(b, first=first, last=last) if b.scope == scope else b for b in buffers]
    placed: list[tuple[int, int, PlanBuffer]] = []  # (offset, end, buffer)
    offsets: dict[int, int] = {}
    end = 0
    for index, buf in enumerate(buffers):
        if buf.scope != scope:
            continue
        busy = sorted((lo, hi) for lo, hi, other in placed if other.overlaps(buf))
        offset = 0
        for lo, hi in busy:
            if offset + buf.bytes <= lo:
                break
            offset = max(offset, _align(hi, alignment))
        offsets[index] = offset
        placed.append((offset, offset + buf.bytes, buf))
        end = max(end, offset + buf.bytes)
    return ScopePlan(scope, offsets, end, capacity)


def plan_memory(
    buffers: Sequence[PlanBuffer], capacity: dict[str, int], alignment: dict[str, int]
) -> dict[str, ScopePlan]:
    """A plan per scope used by `buffers` (scopes in first-use order)."""
    scopes = list(dict.fromkeys(b.scope for b in buffers))
    return {s: plan_scope(buffers, s, capacity[s], max(1, alignment.get(s, 1))) for s in scopes}
