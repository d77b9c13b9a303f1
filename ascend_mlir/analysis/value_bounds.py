"""Static ranges of index expressions: what an `Affine` can be, given ranges of its symbols.

Plain data in, plain data out (the IR adapter that finds the ranges of loop variables and
block ids is `views.symbol_ranges`). A range is an inclusive `(lo, hi)`; a symbol with no
range is unbounded, so any expression that mentions it linearly has no range (None), while
`x mod m` is still within `[0, m)` (index values are non-negative, as in `views.affine_of`).
Used to bound computed event ids over a loop's iterations and to check loop-indexed
windows against their buffer at compile time.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Literal

from ascend_mlir.analysis.aliasing import Affine, FloorDiv, Mod

Range = tuple[int, int]


def trunc_div(a: int, b: int) -> int:
    """arith.divsi's quotient (b != 0): rounded toward zero, not down as Python's `//`.
    The scalar interpreters' arith.divsi / remsi and the compile-time window checks
    (`views.enumerated_values`) share it."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _scaled(r: Range, c: int) -> Range:
    a, b = r[0] * c, r[1] * c
    return (min(a, b), max(a, b))


def _symbol_range(sym: Hashable, ranges: Mapping[Hashable, Range]) -> Range | None:
    if isinstance(sym, Mod):
        inner = affine_range(sym.expr, ranges)
        m = sym.modulus
        if inner is not None and inner[0] >= 0 and inner[0] // m == inner[1] // m:
            return (inner[0] % m, inner[1] % m)  # within one period: no wrap
        return (0, m - 1)
    if isinstance(sym, FloorDiv):
        inner = affine_range(sym.expr, ranges)
        if inner is None:
            return None
        return (inner[0] // sym.modulus, inner[1] // sym.modulus)
    return ranges.get(sym)


def affine_range(expr: Affine, ranges: Mapping[Hashable, Range]) -> Range | None:
    """The inclusive range of `expr` when each symbol lies in its range (interval
    arithmetic: exact for expressions that mention each loop variable once)."""
    lo = hi = expr.const
    for sym, c in expr.terms:
        r = _symbol_range(sym, ranges)
        if r is None:
            return None
        a, b = _scaled(r, c)
        lo, hi = lo + a, hi + b
    return (lo, hi)


def iteration_range(lb: Range | None, ub: Range | None, step: int | None) -> Range | None | Literal[False]:
    """The values a loop variable takes for `for iv = lb to ub step step`: a range, None
    when unbounded, False when the loop never runs (its smallest lower bound is at least
    its largest upper bound)."""
    if lb is None or step is None or step <= 0:
        return None
    if ub is None:
        return None
    if lb[0] >= ub[1]:
        return False
    if lb[0] == lb[1] and ub[0] == ub[1]:
        trips = -(-(ub[0] - lb[0]) // step)
        return (lb[0], lb[0] + (trips - 1) * step)
    return (lb[0], ub[1] - 1)
