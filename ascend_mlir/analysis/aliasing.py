"""The one alias analysis: which bytes a memref access touches, on plain data (no IR).

Every pass and checker that asks "may these two accesses touch the same memory?"
(the scheduler's dependences, sync insertion, the sync verifier, the simulator's checks)
asks it here.
The IR adapter `ascend_mlir.analysis.views.footprint_of(value)` turns a memref SSA value
into a `Footprint`; everything in this module works on plain data.

Model
-----
A `Footprint` is a set of bytes of one *root*:

    { base + sum_k i_k * stride_k + e  |  0 <= i_k < count_k,  0 <= e < elem }

* `root`: the memory the offsets are relative to. A `memref.alloc` or a kernel argument
  is its own root (distinct roots never alias: distinct allocations, and kernel
  arguments are assumed not to overlap, as the kernels' callers guarantee). Every
  `hivm.hir.pointer_cast` of one scope shares the root `ScopeRoot(scope)`: the scope's
  memory, with the cast's address as byte offset, so two pointer_casts alias exactly when
  their byte ranges overlap. `None`: the buffer is not known, it may alias anything in
  its scope (or anywhere, when the scope is unknown too).
* `base`: the byte offset of the first element, an `Affine` expression over symbols
  (loop variables, unknown SSA values, `iv mod k` as `Mod`, `iv floordiv k` as
  `FloorDiv`). `None`: unknown, the footprint is "somewhere in the root".
* `dims`: `(count, stride in bytes)` per dimension (a subview's steps included); `None`:
  the extent is unknown (a dynamic size or stride), again "somewhere in the root".

API (all pure functions)
------------------------
* `may_alias(a, b)`: may the two footprints share a byte (same iteration, same values
  of all symbols)? Exact for static offsets and strides; unknown parts are may-alias.
* `may_alias_shifted(a, b, sym, k)`: the same, with `b` evaluated where symbol `sym`
  is larger by `k` (e.g. `b` in the iteration `d` later: `k = d * step`).
* `carried_distances(a, b, sym, step, max_distance)`: the iteration distances
  `d in 1..max_distance` at which `b` (iteration i + d) may touch what `a` (iteration i)
  touched; `min_carried_distance(...)`: the smallest such d, any trip count.
* `distance_window(a, b, sym, step)`: the range of distances at which the byte hulls of
  two footprints that move linearly with `sym` can meet (what makes the minimum exact
  and cheap for the scheduler's loops of many tasks).
* `strided_overlap(dims_a, elem_a, dims_b, elem_b, delta)`: the exact core on static
  data (is there a byte in A at offset 0 and in B at offset `delta`).
* `Footprint.widen(sym, lower, count, step)`: the union over a loop's iterations (a
  loop as one task); `Footprint.covers(nbytes)`: exactly the whole root;
  `Footprint.bind({sym: value})`: the footprint in one concrete iteration.

Soundness: whenever something is not understood the answer is "may alias" (never the
reverse); disjoint static tiles (e.g. different rows or columns of a matrix, different
buffer versions of a multi-buffer) are proven disjoint.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Literal
from dataclasses import dataclass
from itertools import product
from math import gcd

# how many rows the exact overlap test enumerates before answering "may alias"
ROW_LIMIT = 4096
# how many candidate offset differences a symbolic shift may produce before giving up
DELTA_LIMIT = 64


# ----------------------------------------------------------------------------- symbols


@dataclass(frozen=True)
class Affine:
    """const + sum(coeff * symbol); a symbol is any hashable (an SSA value, a name,
    a `Mod` or `FloorDiv` of another Affine)."""

    const: int = 0
    terms: tuple[tuple[Hashable, int], ...] = ()

    @staticmethod
    def symbol(sym: Hashable, coeff: int = 1) -> Affine:
        return Affine(0, ((sym, coeff),)) if coeff else Affine(0)

    def _map(self) -> dict[Hashable, int]:
        return dict(self.terms)

    @staticmethod
    def _from_map(const: int, m: dict[Hashable, int]) -> Affine:
        items = [(k, v) for k, v in m.items() if v != 0]
        items.sort(key=lambda kv: repr(kv[0]))
        return Affine(const, tuple(items))

    def __add__(self, other: Affine | int) -> Affine:
        if isinstance(other, int):
            return Affine(self.const + other, self.terms)
        m = self._map()
        for k, v in other.terms:
            m[k] = m.get(k, 0) + v
        return Affine._from_map(self.const + other.const, m)

    def __radd__(self, other: int) -> Affine:
        return self + other

    def __neg__(self) -> Affine:
        return Affine(-self.const, tuple((k, -v) for k, v in self.terms))

    def __sub__(self, other: Affine | int) -> Affine:
        return self + (-other if isinstance(other, Affine) else -other)

    def scale(self, factor: int) -> Affine:
        # the terms keep their order and stay non-zero: no sort (`_from_map` sorts by the
        # symbols' reprs, an SSA value's the dataclass repr of its owner op)
        if factor == 0:
            return Affine(0)
        return Affine(self.const * factor, tuple((k, v * factor) for k, v in self.terms))

    def coeff(self, sym: Hashable) -> int:
        return self._map().get(sym, 0)

    def shift(self, sym: Hashable, by: int) -> Affine:
        """Substitute sym -> sym + by (linear occurrences only; see `shift_deltas`)."""
        return Affine(self.const + self.coeff(sym) * by, self.terms)

    def without(self, sym: Hashable) -> Affine:
        return Affine(self.const, tuple((k, v) for k, v in self.terms if k != sym))

    def rename(self, mapping: Mapping[Hashable, Hashable]) -> Affine:
        """Replace symbols (also inside Mod/FloorDiv) by `mapping`'s values."""
        m: dict[Hashable, int] = {}
        for k, v in self.terms:
            if isinstance(k, Mod | FloorDiv):
                k = type(k)(k.expr.rename(mapping), k.modulus)
            else:
                k = mapping.get(k, k)
            m[k] = m.get(k, 0) + v
        return Affine._from_map(self.const, m)

    def symbols(self) -> set[Hashable]:
        """Every symbol that occurs, linearly or inside a Mod/FloorDiv."""
        out: set[Hashable] = set()
        for k, _ in self.terms:
            out |= k.expr.symbols() if isinstance(k, Mod | FloorDiv) else {k}
        return out

    def mentions(self, sym: Hashable) -> bool:
        """Whether `sym` occurs, linearly or inside a Mod/FloorDiv."""
        for k, _ in self.terms:
            if k == sym or (isinstance(k, Mod | FloorDiv) and k.expr.mentions(sym)):
                return True
        return False

    @property
    def is_constant(self) -> bool:
        return not self.terms

    def bind(self, values: Mapping[Hashable, int | Affine], rename: dict[Hashable, Hashable] | None = None) -> Affine:
        """Substitute known symbol values, numbers or Affines (and rename others); a
        Mod/FloorDiv whose expression becomes constant is evaluated."""
        out = Affine(self.const)
        for k, c in self.terms:
            if isinstance(k, Mod | FloorDiv):
                inner = k.expr.bind(values, rename)
                # normalised as when built: `(t + 2) / 2` bound at t = x is `x / 2 + 1`,
                # comparable with `x / 2` (verify-sync took a fixpipe's tile of iteration
                # 1 for one that may overlap iteration 0's: `FloorDiv(x + 1, 1)`)
                part = modulo(inner, k.modulus) if isinstance(k, Mod) else floor_div(inner, k.modulus)
                out = out + part.scale(c)
            elif k in values:
                value = values[k]
                out = out + (value.scale(c) if isinstance(value, Affine) else c * value)
            else:
                out = out + Affine.symbol((rename or {}).get(k, k), c)
        return out

    def shift_deltas(self, sym: Hashable, by: int) -> frozenset[int] | None:
        """The possible values of self[sym + by] - self[sym] (over all values of every
        symbol), or None when that is not a small set of constants."""
        deltas = {0}
        for k, c in self.terms:
            if k == sym:
                options = {c * by}
            elif isinstance(k, Mod | FloorDiv):
                inner = k.expr.shift_deltas(sym, by)
                if inner is None:
                    return None
                options = {c * v for t in inner for v in k.step_values(t)}
            else:
                continue
            deltas = {d + o for d in deltas for o in options}
            if len(deltas) > DELTA_LIMIT:
                return None
        return frozenset(deltas)


@dataclass(frozen=True)
class Mod:
    """`expr mod modulus` (a value in [0, modulus)): a buffer version `iv mod k`."""

    expr: Affine
    modulus: int

    def step_values(self, t: int) -> set[int]:
        """(x + t) mod m - x mod m over all x."""
        r = t % self.modulus
        return {0} if r == 0 else {r, r - self.modulus}


@dataclass(frozen=True)
class FloorDiv:
    """`floor(expr / modulus)` (named `modulus` to share Mod's shape)."""

    expr: Affine
    modulus: int

    def step_values(self, t: int) -> set[int]:
        """floor((x + t) / m) - floor(x / m) over all x."""
        q = t // self.modulus
        return {q} if t % self.modulus == 0 else {q, q + 1}


def modulo(expr: Affine, modulus: int) -> Affine:
    """`expr mod modulus` (expr >= 0), its constant reduced: (x + t) mod m = (x + t mod m)
    mod m, so that one value bound at two iterations compares; anything mod 1 is 0."""
    if expr.is_constant or modulus == 1:
        return Affine(expr.const % modulus)
    return Affine.symbol(Mod(Affine(expr.const % modulus, expr.terms), modulus))


def floor_div(expr: Affine, modulus: int) -> Affine:
    """`floor(expr / modulus)`, its constant taken out where a multiple of `modulus`:
    floor((x + t) / m) = floor((x + t mod m) / m) + t // m, so an unrolled loop's version
    `((iv - 2) / 2) mod 3` compares with `(iv / 2) mod 3` (insert-sync took them for
    unrelated and carried every store's flag one pass where the versions keep it two).
    A modulus of 1 is `expr` itself (a tile index `t / 1` over a grid of one column)."""
    if expr.is_constant:
        return Affine(expr.const // modulus)
    if modulus == 1:
        return expr
    t = expr.const
    return Affine.symbol(FloorDiv(Affine(t % modulus, expr.terms), modulus)) + t // modulus


@dataclass(frozen=True)
class ScopeRoot:
    """The memory of one on-chip scope: the root of every pointer_cast into it."""

    scope: str


# ----------------------------------------------------------------------------- footprints


Dims = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Footprint:
    """The bytes one access may touch (see the module docstring)."""

    root: Hashable | None
    scope: str | None = None
    base: Affine | None = None
    dims: Dims | None = None
    elem: int = 1

    @staticmethod
    def unknown(scope: str | None = None) -> Footprint:
        return Footprint(None, scope)

    @staticmethod
    def whole(root: Hashable, scope: str | None = None) -> Footprint:
        """Somewhere in `root` (offset or extent unknown)."""
        return Footprint(root, scope)

    @staticmethod
    def contiguous(root: Hashable, scope: str | None, base: Affine | int, nbytes: int) -> Footprint:
        b = base if isinstance(base, Affine) else Affine(base)
        return Footprint(root, scope, b, ((nbytes, 1),), 1)

    @property
    def is_exact(self) -> bool:
        """Root, offset and extent all known."""
        return self.root is not None and self.base is not None and self.dims is not None

    @property
    def is_empty(self) -> bool:
        return self.dims is not None and any(n <= 0 for n, _ in self.dims)

    def span(self) -> int | None:
        """Bytes from the first to one past the last byte (None if unknown)."""
        if self.dims is None:
            return None
        if self.is_empty:
            return 0
        return sum((n - 1) * abs(s) for n, s in self.dims) + self.elem

    def covers(self, nbytes: int) -> bool:
        """Whether the footprint is exactly bytes [0, nbytes) of its root."""
        if not self.is_exact or self.base != Affine(0) or self.is_empty:
            return False
        dims = _normal_dims(self.dims or (), self.elem)
        return dims == (((nbytes, 1),) if nbytes > 0 else ())

    def shifted(self, sym: Hashable, by: int) -> Footprint | None:
        """The footprint with `sym` larger by `by`, when that is one footprint (linear)."""
        if self.base is None:
            return self
        deltas = self.base.shift_deltas(sym, by)
        if deltas is None or len(deltas) != 1:
            return None
        return Footprint(self.root, self.scope, self.base + next(iter(deltas)), self.dims, self.elem)

    def widen(self, sym: Hashable, lower: int | None, count: int | None, step: int | None) -> Footprint:
        """The union over `sym` in lower, lower + step, ... (count values): a loop's
        accesses as one task. A linear occurrence becomes one more strided dimension; a
        version term `c * Mod(.., m)` of `sym` one more dimension (m values, stride c: all
        versions, a superset when fewer are used); anything else (unknown bounds, `sym`
        inside a FloorDiv) widens to the whole root."""
        if self.base is None or not self.base.mentions(sym):
            return self
        if self.dims is None:
            return Footprint.whole(self.root, self.scope) if self.root is not None else self
        base, dims = self.base, self.dims
        versions = {k: c for k, c in base.terms if isinstance(k, Mod) and k.expr.mentions(sym)}
        if versions:
            base = Affine._from_map(base.const, {k: c for k, c in base.terms if k not in versions})
            dims = dims + tuple((k.modulus, c) for k, c in versions.items())
            if not base.mentions(sym):
                return Footprint(self.root, self.scope, base, dims, self.elem)
        if lower is None or count is None or step is None:
            return Footprint.whole(self.root, self.scope) if self.root is not None else self
        if count <= 0:
            return Footprint(self.root, self.scope, Affine(0), ((0, 1),), self.elem)
        c = base.coeff(sym)
        rest = base.without(sym)
        if rest.mentions(sym):
            return Footprint.whole(self.root, self.scope) if self.root is not None else self
        return Footprint(self.root, self.scope, rest + c * lower, dims + ((count, c * step),), self.elem)

    def bind(self, values: Mapping[Hashable, int | Affine], rename: dict[Hashable, Hashable] | None = None) -> Footprint:
        """The footprint with known symbol values substituted (see `Affine.bind`)."""
        if self.base is None:
            return self
        return Footprint(self.root, self.scope, self.base.bind(values, rename), self.dims, self.elem)

    def rename(self, mapping: Mapping[Hashable, Hashable]) -> Footprint:
        if self.base is None:
            return self
        return Footprint(self.root, self.scope, self.base.rename(mapping), self.dims, self.elem)


# ----------------------------------------------------------------------------- the exact core


def _normal_dims(dims: Iterable[tuple[int, int]], elem: int) -> Dims:
    """The same byte set (relative to its lowest byte) as dims over non-negative strides,
    sorted by stride, outermost first, the element bytes as the innermost dimension,
    unit and zero-stride dimensions dropped and contiguous neighbours merged."""
    ds = [(n, abs(s)) for n, s in dims if n > 1 and s != 0]
    ds.append((elem, 1))
    ds.sort(key=lambda d: -d[1])
    merged: list[tuple[int, int]] = []
    for n, s in reversed(ds):  # innermost first
        if merged:
            mn, ms = merged[-1]
            if s == mn * ms:
                merged[-1] = (n * mn, ms)
                continue
        merged.append((n, s))
    return tuple(d for d in reversed(merged) if d[0] > 1)


def _lowest(dims: Iterable[tuple[int, int]]) -> int:
    """Offset of the lowest byte relative to the base (negative strides reach down)."""
    return sum((n - 1) * s for n, s in dims if s < 0 and n > 0)


def _span(dims: Dims) -> int:
    """Largest offset in a normalised set (its smallest is 0)."""
    return sum((n - 1) * s for n, s in dims)


def _hits_interval(dims: Dims, lo: int, hi: int, budget: list[int]) -> bool:
    """Whether the normalised set (lowest byte 0) has a byte in [lo, hi]."""
    if hi < lo or hi < 0 or lo > _span(dims):
        return False
    if not dims:
        return lo <= 0 <= hi
    (n, s), inner = dims[0], dims[1:]
    t = _span(inner)
    if t == 0 and len(inner) == 0 and s == 1:
        return True  # contiguous [0, n) meets [lo, hi] (bounds checked above)
    first = max(0, -(-(lo - t) // s))
    last = min(n - 1, hi // s)
    if first > last:
        return False
    if last - first >= 2 and t < s:
        return True  # a middle row's first byte lies inside (see the proof in tests)
    for i in range(first, last + 1):
        budget[0] -= 1
        if budget[0] < 0:
            return True  # too much work: may alias
        if _hits_interval(inner, lo - i * s, hi - i * s, budget):
            return True
    return False


def _rows(dims: Dims) -> tuple[Dims, int]:
    """Split a normalised set into its row dims (all but a contiguous innermost run)
    and the row length in bytes."""
    if dims and dims[-1][1] == 1:
        return dims[:-1], dims[-1][0]
    return dims, 1


def _overlap_normal(a: Dims, b: Dims, delta: int, budget: list[int]) -> bool:
    """Whether set A (lowest byte 0) and set B (lowest byte delta) share a byte."""
    if delta > _span(a) or delta + _span(b) < 0:
        return False
    if not a or not b:
        # one of them is a single byte
        if not a:
            return _hits_interval(b, -delta, -delta, budget)
        return _hits_interval(a, delta, delta, budget)
    (na, sa), (nb, sb) = a[0], b[0]
    ta, tb = _span(a[1:]), _span(b[1:])
    if sa == sb and ta < sa and tb < sa:
        # same outer stride, rows inside one period: x = i*s + r, y = delta + j*s + r'
        q, m = divmod(delta, sa)
        for row_shift, inner_delta in ((q, m), (q + 1, m - sa)):
            # need i - j == row_shift with i in [0, na), j in [0, nb)
            if -(nb - 1) <= row_shift <= na - 1 and _overlap_normal(a[1:], b[1:], inner_delta, budget):
                return True
        return False
    # enumerate the rows of the set with fewer of them
    if _row_count(b) < _row_count(a):
        a, b, delta = b, a, -delta
    rows, length = _rows(a)
    if _row_count(a) > budget[0]:
        return True
    for idx in product(*(range(n) for n, _ in rows)):
        budget[0] -= 1
        if budget[0] < 0:
            return True
        start = sum(i * s for i, (_, s) in zip(idx, rows, strict=False))
        if _hits_interval(b, start - delta, start - delta + length - 1, budget):
            return True
    return False


def _row_count(dims: Dims) -> int:
    rows, _ = _rows(dims)
    count = 1
    for n, _ in rows:
        count *= n
    return count


def strided_overlap(
    dims_a: Sequence[tuple[int, int]], elem_a: int, dims_b: Sequence[tuple[int, int]], elem_b: int, delta: int
) -> bool:
    """Whether {sum i_k*sa_k + e} (e < elem_a) and {delta + sum j_k*sb_k + e} share a byte.

    Exact whenever the work stays below ROW_LIMIT steps (always for tiles of one row-major
    layout); beyond that it answers True (may alias)."""
    if any(n <= 0 for n, _ in dims_a) or any(n <= 0 for n, _ in dims_b) or elem_a <= 0 or elem_b <= 0:
        return False
    lo_a, lo_b = _lowest(dims_a), _lowest(dims_b)
    na, nb = _normal_dims(dims_a, elem_a), _normal_dims(dims_b, elem_b)
    return _overlap_normal(na, nb, delta + lo_b - lo_a, [ROW_LIMIT])


# ----------------------------------------------------------------------------- queries


def _same_memory(a: Footprint, b: Footprint) -> bool | None:
    """False when the roots are known apart, True when known equal, None if unknown."""
    if a.root is None or b.root is None:
        if a.scope is not None and b.scope is not None and a.scope != b.scope:
            return False
        return None
    return a.root == b.root


def _overlap_with_deltas(a: Footprint, b: Footprint, deltas: Iterable[int]) -> bool:
    assert a.dims is not None and b.dims is not None
    return any(strided_overlap(a.dims, a.elem, b.dims, b.elem, d) for d in deltas)


def byte_hull(fp: Footprint) -> tuple[int, int] | None:
    """Bytes [lo, hi) of its root that `fp` touches whatever the values of its symbols,
    when its offset is a constant plus bounded terms (versions `c * (x mod m)`): a planned
    buffer in every version and iteration. None when unbounded or unknown. Footprints of
    one root with disjoint hulls never alias, at any distance: a cheap filter before
    `may_alias` for the passes that compare many pairs."""
    if fp.base is None or fp.dims is None:
        return None
    lo = hi = fp.base.const
    for sym, c in fp.base.terms:
        if not isinstance(sym, Mod):
            return None
        top = c * (sym.modulus - 1)
        lo, hi = lo + min(0, top), hi + max(0, top)
    extent = sum((n - 1) * abs(stride) for n, stride in fp.dims)
    return lo - extent, hi + extent + fp.elem


def hulls_apart(a: Footprint, b: Footprint, hulls: tuple[tuple[int, int] | None, tuple[int, int] | None] | None = None) -> bool:
    """Whether `a` and `b` are proven apart by their roots or byte hulls alone (a sound,
    cheap `not may_alias` for every shift of their symbols). `hulls`: their byte_hull,
    when the caller keeps them."""
    if _same_memory(a, b) is False:
        return True
    if a.root is None or b.root is None:
        return False
    ha, hb = hulls if hulls is not None else (byte_hull(a), byte_hull(b))
    return ha is not None and hb is not None and (ha[1] <= hb[0] or hb[1] <= ha[0])


def may_alias(a: Footprint, b: Footprint) -> bool:
    """May `a` and `b` share a byte (all symbols taking the same values in both)?"""
    return may_alias_shifted(a, b, None, 0)


def may_alias_shifted(a: Footprint, b: Footprint, sym: Hashable | None, by: int) -> bool:
    """May `a` share a byte with `b` evaluated at `sym + by` (other symbols equal)?"""
    same = _same_memory(a, b)
    if same is False:
        return False
    if same is None:
        return True
    if a.is_empty or b.is_empty:
        return False
    if a.base is None or b.base is None or a.dims is None or b.dims is None:
        return True
    diff = b.base - a.base
    extra: frozenset[int] | None = frozenset({0})
    if sym is not None and by != 0:
        # Only terms `a` shares with `b` move the gap when `b` is shifted: a version term
        # of `b` alone (`Mod(sym, m)` that `a` lacks) keeps its whole range in `diff`
        # whatever the shift, so adding its step values too would count it twice.
        a_keys = {k for k, _ in a.base.terms}
        shared = Affine(0, tuple((k, c) for k, c in b.base.terms if k in a_keys))
        extra = shared.shift_deltas(sym, by)
        if extra is None:
            return True
    if diff.is_constant:
        return _overlap_with_deltas(a, b, (diff.const + e for e in extra))
    shifted = _shifted(b.base, sym, by) if sym is not None and by != 0 else b.base
    values = _mod_values(shifted - a.base) if shifted is not None else None
    if values is not None:
        return _overlap_with_deltas(a, b, values)
    # the difference still holds symbols: it may be anything unless only Mod/FloorDiv
    # terms are left, whose ranges are bounded
    rng = _value_range(diff)
    if rng is None:
        return True
    lo, hi = rng
    span_a, span_b = a.span(), b.span()
    assert span_a is not None and span_b is not None and a.dims is not None and b.dims is not None
    # byte hulls: a in [low_a, low_a + span_a), b in [gap + low_b, gap + low_b + span_b)
    # (a negative stride reaches below the base)
    low_a, low_b = _lowest(a.dims), _lowest(b.dims)
    return any(lo + e + low_b < low_a + span_a and hi + e + low_b + span_b > low_a for e in extra)


def _shifted(expr: Affine, sym: Hashable, by: int) -> Affine | None:
    """`expr` with sym -> sym + by, also inside its Mod and FloorDiv terms, one level of
    FloorDiv inside a Mod (an unrolled loop's version; None when deeper terms hold it)."""
    out = Affine(expr.const + expr.coeff(sym) * by)
    for k, c in expr.terms:
        if isinstance(k, Mod | FloorDiv):
            inner = _floor_divs_shifted(k.expr, sym, by)
            if inner is None:
                return None
            out = out + (Affine.symbol(Mod(inner, k.modulus), c) if isinstance(k, Mod)
                         else floor_div(inner, k.modulus).scale(c))
        else:
            out = out + Affine.symbol(k, c)
    return out


def _floor_divs_shifted(expr: Affine, sym: Hashable, by: int) -> Affine | None:
    """`expr` (a Mod's or FloorDiv's expression) with sym -> sym + by, into its FloorDiv
    terms of plain expressions too; None when a deeper term holds `sym`."""
    out = Affine(expr.const + expr.coeff(sym) * by)
    for k, c in expr.terms:
        if isinstance(k, Mod | FloorDiv) and k.expr.mentions(sym):
            if not isinstance(k, FloorDiv) or any(isinstance(inner, Mod | FloorDiv) for inner, _ in k.expr.terms):
                return None
            out = out + floor_div(k.expr.shift(sym, by), k.modulus).scale(c)
        else:
            out = out + Affine.symbol(k, c)
    return out


def _mod_values(expr: Affine) -> frozenset[int] | None:
    """Every value of an expression whose symbols are all `Mod(e + t, m)` terms, exactly,
    when the terms of one modulus differ only by constants in their expression: versions
    `(iv - 1) mod 2` against `iv mod 2` (a pipelined loop's stages) are never equal.
    None when the terms are unrelated or too many values."""
    groups: dict[tuple[Affine, int], list[tuple[int, int]]] = {}  # (e, m) -> [(t, coeff)]
    for k, c in expr.terms:
        if not isinstance(k, Mod):
            return None
        t = k.expr.const
        groups.setdefault((k.expr - t, k.modulus), []).append((t, c))
    values = {expr.const}
    for (_, m), terms in groups.items():
        # x = e mod m takes every value; each term is (x + t) mod m
        options = {sum(c * ((x + t) % m) for t, c in terms) for x in range(m)}
        values = {v + o for v in values for o in options}
        if len(values) > DELTA_LIMIT:
            return None
    return frozenset(values)


def _value_range(expr: Affine) -> tuple[int, int] | None:
    """[lo, hi] of an expression whose symbols are all Mod terms (bounded)."""
    lo = hi = expr.const
    for k, c in expr.terms:
        if not isinstance(k, Mod):
            return None
        top = c * (k.modulus - 1)
        lo, hi = lo + min(0, top), hi + max(0, top)
    return lo, hi


def carried_distances(
    a: Footprint, b: Footprint, sym: Hashable, step: int, max_distance: int
) -> list[int]:
    """Distances d in 1..max_distance at which `b` in iteration i + d may touch what `a`
    touched in iteration i (the loop variable `sym` advancing by `step` per iteration)."""
    return [d for d in range(1, max_distance + 1) if may_alias_shifted(a, b, sym, d * step)]


def min_carried_distance(
    a: Footprint, b: Footprint, sym: Hashable, step: int, trip_count: int | None, horizon: int = 64
) -> int | None:
    """The smallest d >= 1 (d < trip_count when known) at which `b` of iteration i + d
    may touch what `a` touched in iteration i; None when there is none.

    When the gap between the two footprints moves linearly with the distance (the usual
    case: tiles indexed by the loop variable, versions `iv mod k`), only the distances
    whose byte hulls can meet are tested (`distance_window`): exact at any distance, and
    cheap however far apart the tiles are. Otherwise distances up to `horizon` are tested
    one by one; beyond that the answer is exact for footprints whose offsets grow
    linearly (they drift apart) and periodic ones (a version `iv mod k` repeats within
    k), otherwise conservatively 1."""
    if a.is_empty or b.is_empty or _same_memory(a, b) is False:
        return None
    window = distance_window(a, b, sym, step)
    if window is False:
        return None
    if window is not None:
        return _first_in_window(a, b, sym, step, window, trip_count, horizon)
    limit = horizon if trip_count is None else min(horizon, trip_count - 1)
    for d in range(1, limit + 1):
        if may_alias_shifted(a, b, sym, d * step):
            return d
    if trip_count is not None and trip_count - 1 <= horizon:
        return None
    if _drifts_apart(a, b, sym, step, horizon):
        return None
    return 1


def _first_in_window(
    a: Footprint, b: Footprint, sym: Hashable, step: int,
    window: tuple[int, int], trip_count: int | None, horizon: int,
) -> int | None:
    """The smallest overlapping distance inside `window` (see `distance_window`); after
    `horizon` tests without an answer, the next candidate (every smaller one is proven
    apart, so it is a safe under-estimate)."""
    first, last = max(1, window[0]), window[1]
    if trip_count is not None:
        last = min(last, trip_count - 1)
    for tested, d in enumerate(range(first, last + 1)):
        if tested >= horizon or may_alias_shifted(a, b, sym, d * step):
            return d
    return None


def _moving_part(base: Affine, sym: Hashable) -> tuple[int, int, int, Affine] | None:
    """`base` split into (coefficient of `sym`, [lo, hi] of its bounded version terms
    that depend on `sym`, the rest that does not depend on `sym`); None when `sym`
    occurs inside a FloorDiv (an unbounded step function)."""
    lo = hi = 0
    rest: dict[Hashable, int] = {}
    for k, c in base.terms:
        if k == sym:
            continue
        if isinstance(k, Mod | FloorDiv) and k.expr.mentions(sym):
            if isinstance(k, FloorDiv):
                return None
            top = c * (k.modulus - 1)
            lo, hi = lo + min(0, top), hi + max(0, top)
        else:
            rest[k] = c
    return base.coeff(sym), lo, hi, Affine._from_map(base.const, rest)


def distance_window(a: Footprint, b: Footprint, sym: Hashable, step: int) -> tuple[int, int] | Literal[False] | None:
    """The distances d at which `b` with `sym` larger by `d * step` may meet `a`, judged by
    byte hulls: an inclusive range (lo, hi) of d; False when no d can (the gap never
    closes); None when the gap does not move linearly with d (unknown symbols, different
    coefficients of `sym`, `sym` inside a FloorDiv) or every d stays possible.

    With equal coefficients c of `sym`, the gap at distance d is c * step * d + r, where r
    ranges over the constant difference plus every version term's range; the hulls meet
    only while that gap stays within the two footprints' extents."""
    if a.base is None or b.base is None or a.dims is None or b.dims is None or _same_memory(a, b) is not True:
        return None
    pa, pb = _moving_part(a.base, sym), _moving_part(b.base, sym)
    if pa is None or pb is None or pa[0] != pb[0]:
        return None
    rest = _value_range(pb[3] - pa[3])
    span_a, span_b = a.span(), b.span()
    if rest is None or span_a is None or span_b is None:
        return None
    r_lo, r_hi = rest[0] + pb[1] - pa[2], rest[1] + pb[2] - pa[1]
    # byte offsets from the base: a in [low_a, low_a + span_a), b in [gap + low_b, ...)
    low_a, low_b = _lowest(a.dims), _lowest(b.dims)
    p = low_a - low_b - span_b + 1 - r_hi  # the moving part c*step*d must lie in [p, q]
    q = low_a - low_b + span_a - 1 - r_lo
    k = pa[0] * step
    if k == 0:
        return None if p <= 0 <= q else False
    if k < 0:
        p, q, k = -q, -p, -k
    first, last = -(-p // k), q // k
    return (first, last) if first <= last else False


def _drifts_apart(a: Footprint, b: Footprint, sym: Hashable, step: int, horizon: int) -> bool:
    """Whether no distance beyond `horizon` can overlap either: offsets that depend on
    `sym` only through versions `Mod(.., m)` repeat with period lcm(m) (all tested when
    it is <= horizon); offsets linear in `sym` drift apart once the drift outgrows both
    footprints and every bounded term."""
    same = _same_memory(a, b)
    if same is not True:
        return same is False
    span_a, span_b = a.span(), b.span()
    if a.base is None or b.base is None or span_a is None or span_b is None:
        return False
    if any(isinstance(k, FloorDiv) and k.expr.mentions(sym) for k, _ in b.base.terms):
        return False
    if a.base.coeff(sym) != b.base.coeff(sym):
        return False
    diff = (b.base - a.base).without(sym)
    bounded = _value_range(Affine(diff.const, tuple((k, c) for k, c in diff.terms if isinstance(k, Mod))))
    if bounded is None or any(not isinstance(k, Mod) for k, _ in diff.terms):
        return False  # unknown symbols in the gap: overlaps were reported at d = 1 already
    moduli = [k.modulus for k, _ in b.base.terms if isinstance(k, Mod) and k.expr.mentions(sym)]
    version_reach = sum(abs(c) * (k.modulus - 1) for k, c in b.base.terms if isinstance(k, Mod) and k.expr.mentions(sym))
    linear = b.base.coeff(sym) * step
    if linear == 0:
        period = 1
        for m in moduli:
            period = period * m // gcd(period, m)
        return period <= horizon
    reach = span_a + span_b + max(abs(bounded[0]), abs(bounded[1])) + version_reach
    return abs(linear) * (horizon + 1) >= reach


def conflict_candidates(leaves: Sequence[Sequence[tuple[Footprint, str, bool]]]) -> list[set[int]]:
    """For each leaf (its accesses: footprint, pipe, is_write), the leaves (itself
    included) with an access it may conflict with:
    one of the two writes, and they may share a byte in some iteration (same root or an
    unknown one, and overlapping hulls where both are bounded). A sweep over the hulls of
    each root instead of every pair: the ring of a wide loop's planned buffers pairs each
    buffer with its neighbours only."""
    out: list[set[int]] = [set() for _ in leaves]
    by_root: dict[Hashable, list[tuple[int, tuple[int, int] | None, bool]]] = {}
    unknown: list[tuple[int, bool]] = []
    for i, leaf in enumerate(leaves):
        for fp, _, write in leaf:
            if fp.root is None:
                unknown.append((i, write))
            else:
                by_root.setdefault(fp.root, []).append((i, byte_hull(fp), write))

    def link(i: int, wi: bool, j: int, wj: bool) -> None:
        if wi or wj:
            out[i].add(j)
            out[j].add(i)

    everything = [(i, w) for accesses in by_root.values() for i, _, w in accesses] + unknown
    for i, wi in unknown:
        for j, wj in everything:
            link(i, wi, j, wj)
    for accesses in by_root.values():
        _sweep_root(accesses, link)
    return out


def _sweep_root(accesses: list[tuple[int, tuple[int, int] | None, bool]], link: Callable) -> None:
    """`link` the accesses of one root that may overlap: unbounded ones with all, bounded
    ones whose hulls overlap (a sweep by the hulls' starts)."""
    for i, hull, wi in accesses:
        if hull is None:
            for j, _, wj in accesses:
                link(i, wi, j, wj)
    bounded = sorted((hull, i, w) for i, hull, w in accesses if hull is not None)
    active: list[tuple[int, int, bool]] = []  # (hi, leaf, write)
    for (lo, hi), i, wi in bounded:
        active = [a for a in active if a[0] > lo]
        for _, j, wj in active:
            link(i, wi, j, wj)
        link(i, wi, i, wi)
        active.append((hi, i, wi))
