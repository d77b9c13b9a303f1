"""The simulator's cross-block race check (GM accesses of different blocks are never
ordered): the per-byte clash mask, computed from distinct-block counts in time
proportional to the bytes accessed, equals the definition it replaced (one byte mask per
block and kind, summed), on random strided, overlapping and aliasing accesses."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import Float32Type, IntegerType

from ascend_mlir.sim.memory import Buffer, Ref
from ascend_mlir.sim.numerics import elem_type
from ascend_mlir.sim.simulator import _clash_mask, _covered, _cross_block_races

NBYTES = 96


def _definition(nbytes: int, items: list) -> np.ndarray:
    """One block writes the byte and another block reads or writes it (the per-block masks
    of the former implementation, blocks x bytes)."""
    blocks = sorted({b for b, _ in items})
    written = {b: np.zeros(nbytes, dtype=bool) for b in blocks}
    read = {b: np.zeros(nbytes, dtype=bool) for b in blocks}
    for b, (_, _, ref, write, _) in items:
        _covered((written if write else read)[b].view(np.uint8), ref)[...] = 1
    clash = np.zeros(nbytes, dtype=bool)
    for b in blocks:
        other_w = np.any([written[o] for o in blocks if o != b], axis=0) if len(blocks) > 1 else np.zeros(nbytes, bool)
        other_r = np.any([read[o] for o in blocks if o != b], axis=0) if len(blocks) > 1 else np.zeros(nbytes, bool)
        clash |= (written[b] & (other_w | other_r)) | (read[b] & other_w)
    return clash.astype(np.uint8)


@st.composite
def _accesses(draw):
    buf = Buffer("%g", "gm", NBYTES, shared=True)
    items = []
    aligned = draw(st.booleans())  # f32 views at whole elements: the mask works per 4 bytes
    for _ in range(draw(st.integers(1, 10))):
        types = [Float32Type()] if aligned else [Float32Type(), IntegerType(8), IntegerType(16)]
        et = elem_type(draw(st.sampled_from(types)))
        rows, cols = draw(st.integers(0, 3)), draw(st.integers(1, 4))
        col_stride = draw(st.integers(0, 2))  # 0: a broadcast view aliases its bytes
        row_stride = draw(st.integers(0, 6))
        span = ((max(rows, 1) - 1) * row_stride + (cols - 1) * col_stride + 1) * et.itemsize
        offset = draw(st.integers(0, NBYTES - span))
        offset -= offset % 4 if aligned else 0
        ref = Ref(buf, offset, (rows, cols), (row_stride, col_stride), et)
        block = draw(st.integers(0, 3))
        items.append((block, (None, None, ref, draw(st.booleans()), False)))
    return sorted(items, key=lambda item: item[0])


@settings(max_examples=60, deadline=None)
@given(_accesses())
def test_clash_mask_equals_the_per_block_definition(items):
    assert np.array_equal(_clash_mask(NBYTES, items), _definition(NBYTES, items))


def test_reads_only_and_disjoint_writes_report_no_race():
    buf = Buffer("%g", "gm", 64, shared=True)
    et = elem_type(Float32Type())

    class Op:
        static_id, name, loc = 0, "hivm.hir.store", "k.mlir:1:1"

    tile = [Ref(buf, 32 * b, (8,), (1,), et) for b in range(2)]
    whole = Ref(buf, 0, (16,), (1,), et)
    reads = [[(Op, None, whole, False, False)] for _ in range(2)]
    assert _cross_block_races(reads) == []
    writes = [[(Op, None, tile[b], True, False)] for b in range(2)]
    assert _cross_block_races(writes) == []
    overlapping = [[(Op, None, whole, True, False)] for _ in range(2)]
    races = _cross_block_races(overlapping)
    assert len(races) == 1 and races[0].kind == "write-write" and races[0].memory == "gm %g"


def test_race_names_the_bytes_both_blocks_touch():
    """The report says which bytes of the GM argument the two blocks' accesses share
    (offsets from the argument's first byte), not only the ops."""
    buf = Buffer("%out", "gm", 128, shared=True)
    et = elem_type(Float32Type())

    class Op:
        static_id, name, loc = 0, "store", "k.mlir:3:5"

    rows = [[(Op, None, Ref(buf, 16 + 32 * b, (12,), (1,), et), True, False)] for b in range(2)]
    races = _cross_block_races(rows)
    assert [(r.memory, r.span) for r in races] == [("gm %out", (48, 64))]
    assert "on gm %out bytes [48, 64): store [block 0] at k.mlir:3:5" in races[0].message()
