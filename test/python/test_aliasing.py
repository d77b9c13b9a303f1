"""The alias analysis: the IR-free core against brute force, and the IR adapter
(subviews, reshapes, pointer_casts in one scope, versions `iv mod 2`)."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp

from ascend_mlir.analysis.aliasing import (
    Affine,
    FloorDiv,
    Footprint,
    Mod,
    ScopeRoot,
    carried_distances,
    floor_div,
    may_alias,
    may_alias_shifted,
    min_carried_distance,
    strided_overlap,
)
from ascend_mlir.analysis.views import footprint_of
from xdsl.context import Context
from xdsl.parser import Parser

from ascend_mlir.dialects import register_dialects


def _bytes(dims, elem, base=0):
    out = set()
    for idx in product(*(range(n) for n, _ in dims)):
        start = base + sum(i * s for i, (_, s) in zip(idx, dims, strict=False))
        out.update(range(start, start + elem))
    return out


dims_strategy = st.lists(st.tuples(st.integers(0, 4), st.integers(-6, 24)), min_size=0, max_size=3)


@settings(max_examples=400, deadline=None)
@given(dims_strategy, st.integers(1, 4), dims_strategy, st.integers(1, 4), st.integers(-40, 40))
def test_strided_overlap_is_exact_on_small_sets(dims_a, elem_a, dims_b, elem_b, delta):
    truth = bool(_bytes(dims_a, elem_a) & _bytes(dims_b, elem_b, delta))
    assert strided_overlap(dims_a, elem_a, dims_b, elem_b, delta) == truth


# tiles of one row-major matrix: rows x cols of a (R x C) matrix of `elem` bytes
tile_strategy = st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(1, 4), st.integers(1, 6))


@settings(max_examples=300, deadline=None)
@given(tile_strategy, tile_strategy, st.sampled_from([1, 2, 4]), st.integers(6, 12))
def test_tiles_of_one_matrix(t1, t2, elem, cols):
    def tile(t):
        r, c, h, w = t
        w = min(w, cols - c) if c < cols else 0
        return r * cols * elem + c * elem, ((h, cols * elem), (w, elem))

    (b1, d1), (b2, d2) = tile(t1), tile(t2)
    truth = bool(_bytes(d1, elem, b1) & _bytes(d2, elem, b2))
    a = Footprint("m", "ub", Affine(b1), d1, elem)
    b = Footprint("m", "ub", Affine(b2), d2, elem)
    assert may_alias(a, b) == truth


def test_disjoint_columns_of_a_large_matrix_are_proven_disjoint():
    # two 128x64 column tiles of a 128x128 f32 matrix: byte hulls overlap, bytes do not
    left = Footprint("m", "gm", Affine(0), ((128, 512), (64, 4)), 4)
    right = Footprint("m", "gm", Affine(256), ((128, 512), (64, 4)), 4)
    assert not may_alias(left, right)
    assert may_alias(left, Footprint("m", "gm", Affine(252), ((128, 512), (64, 4)), 4))


def test_roots_and_scopes():
    a = Footprint.contiguous("x", "gm", 0, 64)
    assert not may_alias(a, Footprint.contiguous("y", "gm", 0, 64))
    assert may_alias(a, Footprint.unknown("gm"))
    assert not may_alias(a, Footprint.unknown("ub"))
    assert may_alias(Footprint.whole("x", "gm"), Footprint.contiguous("x", "gm", 1000, 4))


def test_pointer_casts_alias_by_byte_range():
    ub = ScopeRoot("ub")
    a = Footprint.contiguous(ub, "ub", 0, 1024)
    assert not may_alias(a, Footprint.contiguous(ub, "ub", 1024, 1024))
    assert may_alias(a, Footprint.contiguous(ub, "ub", 1020, 8))
    assert not may_alias(a, Footprint.contiguous(ScopeRoot("cbuf"), "cbuf", 0, 8))


def test_symbolic_offsets():
    i = "i"
    row = Footprint("m", "gm", Affine.symbol(i, 256), ((256, 1),), 1)
    nxt = Footprint("m", "gm", Affine.symbol(i, 256) + 256, ((256, 1),), 1)
    other = Footprint("m", "gm", Affine.symbol("j", 256), ((256, 1),), 1)
    assert not may_alias(row, nxt)
    assert may_alias(row, other)  # unknown relation between i and j
    assert may_alias_shifted(row, row, i, 0)
    assert not may_alias_shifted(row, row, i, 1)
    assert may_alias_shifted(row, nxt, i, -1)
    assert min_carried_distance(row, nxt, i, 1, None) is None
    assert min_carried_distance(nxt, row, i, 1, None) == 1
    assert min_carried_distance(row, row, i, 1, 8) is None


def test_versions_iv_mod_2():
    i = "i"
    version = Affine.symbol(Mod(Affine.symbol(i), 2), 1024)
    buf = Footprint(ScopeRoot("ub"), "ub", version, ((1024, 1),), 1)
    other_buf = Footprint(ScopeRoot("ub"), "ub", version + 2048, ((1024, 1),), 1)
    assert may_alias(buf, buf)
    assert not may_alias(buf, other_buf)
    assert carried_distances(buf, buf, i, 1, 6) == [2, 4, 6]
    assert min_carried_distance(buf, buf, i, 1, None) == 2
    assert min_carried_distance(buf, buf, i, 2, None) == 1  # step 2: same version each time
    # a three-version buffer: the same version comes back after 3 iterations
    v3 = Footprint(ScopeRoot("ub"), "ub", Affine.symbol(Mod(Affine.symbol(i), 3), 512), ((512, 1),), 1)
    assert min_carried_distance(v3, v3, i, 1, 100) == 3


def test_versioned_buffer_next_to_a_plain_one():
    # gemm's L1 after plan-memory: A at [0, 64K) in one version, B's two versions at
    # 64K + 56K * (i mod 2). B of any iteration never touches A: shifting B by an
    # iteration must not count B's version step on top of its whole version range.
    i = "i"
    a = Footprint(ScopeRoot("cbuf"), "cbuf", Affine(0), ((256, 256), (128, 2)), 2)
    b = Footprint(ScopeRoot("cbuf"), "cbuf", Affine.symbol(Mod(Affine.symbol(i), 2), 57344) + 65536,
                  ((128, 448), (224, 2)), 2)
    for d in (1, 2, 3):
        assert not may_alias_shifted(a, b, i, d)
        assert not may_alias_shifted(b, a, i, d)
    assert min_carried_distance(a, b, i, 1, None) is None
    assert min_carried_distance(b, b, i, 1, None) == 2
    # a buffer that does overlap one of B's versions is still found at every distance
    c = Footprint(ScopeRoot("cbuf"), "cbuf", Affine(65536 + 57344), ((16, 1),), 1)
    assert may_alias_shifted(c, b, i, 1) and may_alias_shifted(b, c, i, 1)


def test_widen_and_covers():
    j = "j"
    row = Footprint("m", "ub", Affine.symbol(j, 64), ((16, 4),), 4)
    whole = row.widen(j, 0, 4, 1)
    assert whole.covers(256)
    assert not row.covers(256)
    assert not row.widen(j, 0, 3, 1).covers(256)
    assert may_alias(whole, Footprint.contiguous("m", "ub", 250, 2))


KERNEL = """
func.func @k(%g: memref<64x64xf32, #hivm.address_space<gm>>, %h: memref<64x64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c4096 = arith.constant 4096 : i64
  %c0_i64 = arith.constant 0 : i64
  %a = hivm.hir.pointer_cast(%c0_i64) : memref<16x64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%c4096) : memref<16x64xf32, #hivm.address_space<ub>>
  %al = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %left = memref.subview %g[0, 0] [64, 32] [1, 1] : memref<64x64xf32, #hivm.address_space<gm>> to memref<64x32xf32, strided<[64, 1]>, #hivm.address_space<gm>>
  %right = memref.subview %g[0, 32] [64, 32] [1, 1] : memref<64x64xf32, #hivm.address_space<gm>> to memref<64x32xf32, strided<[64, 1], offset: 32>, #hivm.address_space<gm>>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<16x64xf32, #hivm.address_space<ub>> into memref<1024xf32, #hivm.address_space<ub>>
  %tail = memref.subview %flat[1000] [24] [1] : memref<1024xf32, #hivm.address_space<ub>> to memref<24xf32, strided<[1], offset: 1000>, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.remui %i, %c2 : index
    %vi = arith.index_cast %v : index to i64
    %off = arith.muli %vi, %c4096 : i64
    %ver = hivm.hir.pointer_cast(%off) : memref<16x64xf32, #hivm.address_space<ub>>
    %r = arith.muli %i, %c16 : index
    %rows = memref.subview %h[%r, 0] [16, 64] [1, 1] : memref<64x64xf32, #hivm.address_space<gm>> to memref<16x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    "test.use"(%ver, %rows) : (memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) -> ()
  }
  "test.use"(%a, %b, %al, %left, %right, %tail) : (memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>, memref<64x32xf32, strided<[64, 1]>, #hivm.address_space<gm>>, memref<64x32xf32, strided<[64, 1], offset: 32>, #hivm.address_space<gm>>, memref<24xf32, strided<[1], offset: 1000>, #hivm.address_space<ub>>) -> ()
  return
}
"""


@pytest.fixture(scope="module")
def kernel() -> ModuleOp:
    ctx = register_dialects(Context(allow_unregistered=True))
    return Parser(ctx, KERNEL).parse_module()


def _uses(module: ModuleOp):
    return [op for op in module.walk() if "test.use" in (op.name, getattr(getattr(op, "op_name", None), "data", ""))]


def test_ir_adapter(kernel):
    loop_use, top_use = _uses(kernel)
    a, b, al, left, right, tail = (footprint_of(v) for v in top_use.operands)
    assert not may_alias(a, b)  # pointer_casts at 0 and 4096, 4096 bytes each
    assert not may_alias(a, al) and not may_alias(b, al)  # an alloc is its own memory
    assert not may_alias(left, right)  # column halves of one matrix
    assert may_alias(tail, a) and not may_alias(tail, b)  # through collapse_shape
    loop = next(op for op in kernel.walk() if isinstance(op, scf.ForOp))
    iv = loop.body.block.args[0]
    ver, rows = (footprint_of(v, {iv: "iv"}) for v in loop_use.operands)
    assert may_alias(ver, a) and may_alias(ver, b)  # either version
    assert min_carried_distance(ver, ver, "iv", 1, 4) == 2
    assert min_carried_distance(rows, rows, "iv", 1, 4) is None


def test_bind_evaluates_versions():
    i = "i"
    version = Affine.symbol(Mod(Affine.symbol(i), 2), 1024) + Affine.symbol("blk", 4096)
    fp = Footprint(ScopeRoot("ub"), "ub", version, ((1024, 1),), 1)
    b3 = fp.bind({i: 3})
    assert b3.base == Affine(1024) + Affine.symbol("blk", 4096)
    assert not may_alias(fp.bind({i: 0}), b3)
    assert may_alias(fp.bind({i: 1}), b3)
    renamed = fp.bind({i: 0}, {"blk": ("blk", 1)})
    assert may_alias(renamed, fp.bind({i: 0}))  # unknown relation between blk copies


def test_bind_normalises_a_bound_floor_div_and_mod_as_when_built():
    """A tile index `(t + blk) / n` and `(t + blk) mod n` bound at two iterations compare:
    `(blk + 2) / 2` is `blk / 2 + 1`, `(blk + 3) mod 2` is `(blk + 1) mod 2`, and by 1 the
    division is the index and the rest 0. Bound as built symbols they were unrelated, and
    verify-sync took a grid of one column's fixpipe into tile t + 1 for one that may
    overlap tile t's (unseen_cube seed 2, gemm_bf16 on one block)."""
    t, blk = "t", "blk"
    index = Affine.symbol(t) + Affine.symbol(blk)
    assert Affine.symbol(FloorDiv(index, 2), 4096).bind({t: 2}) == Affine.symbol(FloorDiv(Affine.symbol(blk), 2), 4096) + 4096
    assert Affine.symbol(Mod(index, 2), 64).bind({t: 3}) == Affine.symbol(Mod(Affine.symbol(blk) + 1, 2), 64)
    assert floor_div(index, 1) == index
    one_column = Affine.symbol(FloorDiv(index, 1), 4096) + Affine.symbol(Mod(index, 1), 64)
    assert one_column.bind({t: 1}) == Affine.symbol(blk, 4096) + 4096
    tile = Footprint(ScopeRoot("gm"), "gm", one_column, ((16, 256), (64, 4)), 4)
    assert not may_alias(tile.bind({t: 0}), tile.bind({t: 1}))
    assert may_alias(tile.bind({t: 1}), tile.bind({t: 1}))


# ----------------------------------------------------------------------------- carried distances


def _moving(coeff, const, version):
    """coeff * i + const (+ version[1] * (i mod version[0]))."""
    base = Affine.symbol("i", coeff) + const
    if version is not None:
        base = base + Affine.symbol(Mod(Affine.symbol("i"), version[0]), version[1])
    return base


def _bytes_at(fp, value):
    base = fp.base.bind({"i": value})
    assert base.is_constant
    return _bytes(fp.dims, fp.elem, base.const)


def _first_meeting(a, b, step, trip):
    """By brute force, the first distance d at which `b` of iteration i + d touches a byte
    `a` touched in iteration i (i stepping by `step` over `trip` iterations); None if none."""
    for d in range(1, trip):
        if any(_bytes_at(a, i * step) & _bytes_at(b, (i + d) * step) for i in range(trip - d)):
            return d
    return None


def test_version_gap_next_to_a_negative_stride():
    # a = {i, i - 1} (stride -1 reaches below its base), b = {i - 3 + (i mod 2)}: in the
    # next iteration b may land on i - 1. The gap's range must be compared with a's byte
    # hull, which starts below the base.
    i = "i"
    a = Footprint("m", "ub", Affine.symbol(i), ((2, -1),), 1)
    b = Footprint("m", "ub", Affine.symbol(i) - 3 + Affine.symbol(Mod(Affine.symbol(i), 2)), ((1, 0),), 1)
    assert not may_alias(a, b)
    assert may_alias_shifted(a, b, i, 1)
    assert min_carried_distance(a, b, i, 1, 2) == 1


small_dims = st.lists(st.tuples(st.integers(1, 3), st.integers(-9, 9)), min_size=1, max_size=2)
versions = st.one_of(st.none(), st.tuples(st.integers(2, 3), st.integers(-12, 12)))


@settings(max_examples=300, deadline=None)
@given(st.integers(-6, 6), st.integers(-30, 30), small_dims, st.integers(1, 3), versions,
       st.integers(-6, 6), st.integers(-30, 30), small_dims, st.integers(1, 3), versions,
       st.integers(1, 3), st.integers(2, 90), st.booleans())
def test_min_carried_distance_against_brute_force(ca, ka, da, ea, va, cb, kb, db, eb, vb, step, trip, alike):
    """Never larger than the first distance at which the bytes really meet (sound), and
    exactly it when both footprints move alike and linearly (the tiles of a loop), also
    far beyond the horizon of single tests (trip counts up to 90)."""
    if alike:
        cb, vb = ca, None
        va = None
    a = Footprint("m", "ub", _moving(ca, ka, va), tuple(da), ea)
    b = Footprint("m", "ub", _moving(cb, kb, vb), tuple(db), eb)
    truth = _first_meeting(a, b, step, trip)
    got = min_carried_distance(a, b, "i", step, trip)
    if truth is not None:
        assert got is not None and got <= truth
    if alike:
        assert got == truth


def test_versions_of_neighbouring_stages_are_apart():
    """`(i - 1) mod 2` and `i mod 2` (a pipelined loop's two stages of one double buffer)
    are never the same version in one iteration, and are one iteration later."""
    from ascend_mlir.analysis.aliasing import Affine, Footprint, Mod, may_alias, may_alias_shifted

    i = "i"
    tile = ((2048, 1),)

    def version(shift: int) -> Footprint:
        return Footprint("ub", "ub", Affine(0) + Affine.symbol(Mod(Affine.symbol(i) + shift, 2), 2048), tile)

    older, newer = version(-1), version(0)
    assert not may_alias(older, newer)
    assert may_alias_shifted(older, newer, i, -1)  # newer one iteration earlier = older
    assert may_alias_shifted(newer, older, i, 1)
    assert not may_alias_shifted(older, newer, i, 2)


def _unrolled_version(shift: int, per: int, versions: int, size: int) -> Footprint:
    """A buffer version of a loop unrolled `per` times: ((i + shift) / per) mod versions."""
    return Footprint("ub", "ub", Affine.symbol(Mod(floor_div(Affine.symbol("i") + shift, per), versions), size),
                     ((size, 1),))


def test_an_unrolled_loops_versions_keep_their_distance():
    """U = 2, three versions a copy: the store of pass k reads version ((i - 2) / 2) mod 3,
    the load writes (i / 2) mod 3, i stepping by 2. The load of pass k + 2 is the first to
    write the store's version: distance 2 (taken for 1 when the divisions were compared as
    unrelated: insert-sync then set each copy's flag after its own store, and an unrolled
    stream ran 259 an iteration where its schedule said 147.5)."""
    store, load = _unrolled_version(-2, 2, 3, 4096), _unrolled_version(0, 2, 3, 4096)
    assert min_carried_distance(store, load, "i", 2, None) == 2
    assert not may_alias_shifted(store, load, "i", 2)
    assert may_alias_shifted(store, load, "i", 4)


@settings(max_examples=300, deadline=None)
@given(st.integers(-6, 6), st.integers(-6, 6), st.integers(1, 4), st.integers(2, 4), st.integers(1, 4),
       st.integers(3, 40))
def test_unrolled_versions_against_brute_force(shift_a, shift_b, per, versions, step, trip):
    """Sound for any division and step (never a distance past the first that really
    meets), and exact where the step and the two shifts' difference are multiples of
    the division (the versions of one unrolled loop)."""
    a, b = _unrolled_version(shift_a, per, versions, 8), _unrolled_version(shift_b, per, versions, 8)
    truth = _first_meeting(a, b, step, trip)
    got = min_carried_distance(a, b, "i", step, trip)
    if truth is not None:
        assert got is not None and got <= truth
    if step % per == 0 and (shift_a - shift_b) % per == 0 and trip > 2 * versions:
        assert got == truth
