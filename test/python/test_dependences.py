"""Dependence analysis on footprints (the one alias analysis's byte sets): distances,
multi-buffer eligibility, in-order-pipe latencies, shared-port conflicts; conservative
where it must be and precise where it matters (disjoint tiles are independent)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_mlir.analysis.aliasing import Affine, Footprint, may_alias
from ascend_mlir.analysis.dependences import (
    IV,
    Access,
    BufferInfo,
    TaskInfo,
    carried_distance,
    eligible_buffers,
    loop_dependences,
    resource_conflicts,
)
from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task, compute_mii

iv = Affine.symbol(IV)


def tile(root, offset, size=512):
    """`size` bytes of `root` from byte `offset`."""
    return Footprint.contiguous(root, None, offset, size)


def box(root, row_bytes, offsets, sizes, elem=1):
    """A 2-D tile of a row-major matrix of `elem`-byte elements, `row_bytes` per row:
    `sizes` (rows, columns) from element (row, column) `offsets`."""
    (r, c), (h, w) = offsets, sizes
    base = (r if isinstance(r, Affine) else Affine(r)).scale(row_bytes) + (c if isinstance(c, Affine) else Affine(c)).scale(elem)
    return Footprint(root, None, base, ((h, row_bytes), (w, elem)), elem)


def task(name, pipe, lat, ii, *accesses, paths=()):
    return TaskInfo(name, (pipe,) if isinstance(pipe, str) else pipe, lat, ii, tuple(accesses), paths)


def R(footprint, pipe):
    return Access(footprint, False, pipe)


def W(footprint, pipe, exact=True):
    return Access(footprint, True, pipe, exact)


def test_same_tile_of_two_tensors_is_independent():
    x, y = tile("x", iv.scale(512)), tile("y", iv.scale(512))
    assert not may_alias(x, y)
    assert carried_distance(x, y, 1, None) is None


def test_consecutive_tiles_of_one_tensor_are_disjoint():
    x = tile("x", iv.scale(512))
    assert may_alias(x, x)
    assert carried_distance(x, x, 1, 100) is None
    # far beyond the alias analysis's horizon of single tests: still told apart
    assert carried_distance(x, x, 1, None) is None


def test_overlapping_tiles_give_the_exact_distance():
    # a window of 1024 sliding by 256 overlaps its next iteration
    x = tile("x", iv.scale(256), 1024)
    assert carried_distance(x, x, 1, None) == 1
    # the reader of iteration i + 3 reads what the writer of iteration i wrote
    writer = tile("x", iv.scale(256), 256)
    reader = tile("x", iv.scale(256) - 768, 256)
    assert carried_distance(writer, reader, 1, None) == 3
    assert not may_alias(writer, reader)
    # ... and never the other way round
    assert carried_distance(reader, writer, 1, None) is None
    # far apart: the reader of iteration i + 300, beyond any horizon of single tests
    far = tile("x", iv.scale(256) - 300 * 256, 256)
    assert carried_distance(writer, far, 1, None) == 300
    assert carried_distance(writer, far, 1, 300) is None


def test_distances_count_iterations_not_loop_variable_values():
    # for iv = lb, lb + 16, ...: the reader of x[iv - 16] reads, one iteration later,
    # what the writer of x[iv] wrote (distance 1, not 16)
    writer = tile("x", iv.scale(4), 4)
    reader = tile("x", iv.scale(4) - 64, 4)
    assert carried_distance(writer, reader, 16, None) == 1
    assert carried_distance(writer, reader, 1, None) == 16
    assert carried_distance(writer, reader, 32, None) is None  # iv - 16 is never written
    # an unknown step: any iteration may be the one
    assert carried_distance(writer, reader, None, None) == 1
    assert carried_distance(writer, tile("y", iv.scale(4)), None, None) is None


def test_trip_count_limits_distance():
    x = tile("x", iv.scale(256), 1024)
    assert carried_distance(x, x, 1, 1) is None
    assert carried_distance(x, x, 1, 2) == 1


def test_two_d_tiles_differ_in_one_dimension():
    blk = Affine.symbol("block")
    a = box("c", 1024, (blk.scale(128), iv.scale(64)), (128, 64))
    b = box("c", 1024, (blk.scale(128) + 128, iv.scale(64)), (128, 64))
    assert not may_alias(a, b)
    assert carried_distance(a, b, 1, None) is None
    # the 16 column tiles of one row band: byte hulls overlap, bytes do not ...
    left = box("c", 1024, (0, iv.scale(64)), (128, 64))
    assert may_alias(left, left) and carried_distance(left, left, 1, 16) is None
    # ... until a 17th would wrap around into the next row
    assert carried_distance(left, left, 1, None) == 16
    # an unknown row offset (another symbol): assume they meet
    c = box("c", 1024, (Affine.symbol("other"), iv.scale(64)), (128, 64))
    assert may_alias(a, c)


def test_unknown_regions_are_conservative():
    x = tile("x", iv.scale(512))
    assert may_alias(Footprint.whole("x"), x)
    assert may_alias(Footprint.unknown(), x)
    assert carried_distance(Footprint.unknown(), tile("y", 0), 1, None) == 1
    # different iv coefficients: the gap depends on i
    assert carried_distance(tile("x", iv.scale(512)), tile("x", iv.scale(256)), 1, None) == 1


@given(st.integers(-8, 8), st.integers(-64, 64), st.integers(1, 32), st.integers(1, 32),
       st.integers(-64, 64), st.integers(1, 40), st.sampled_from([1, 2, 3]))
def test_distance_matches_brute_force(coeff, shift, size_a, size_b, base_b, trip, step):
    a = tile("m", iv.scale(coeff), size_a)
    b = tile("m", iv.scale(coeff) + base_b + shift, size_b)
    expected = None
    for d in range(1, trip):
        start_a, start_b = 0, coeff * step * d + base_b + shift
        if start_a < start_b + size_b and start_b < start_a + size_a:
            expected = d
            break
    assert carried_distance(a, b, step, trip) == expected


ROW = 128  # bytes per row of the matrix of test_two_d_distance_is_exact: wider than any column reach


@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-6, 6), st.integers(1, 4)), min_size=2, max_size=2),
       st.lists(st.tuples(st.integers(-3, 3), st.integers(-6, 6), st.integers(1, 4)), min_size=2, max_size=2),
       st.integers(2, 8))
def test_two_d_distance_is_exact(dims_a, dims_b, trip):
    """No overlap at a smaller distance goes unreported; for tiles that move alike (the
    same coefficients) the answer is exactly the first overlapping distance."""
    def fp(dims):
        (cr, orow, h), (cc, ocol, w) = dims
        return box("m", ROW, (iv.scale(cr) + orow, iv.scale(cc) + ocol), (h, w))

    a, b = fp(dims_a), fp(dims_b)

    def cells(dims, i):
        rows = range(dims[0][0] * i + dims[0][1], dims[0][0] * i + dims[0][1] + dims[0][2])
        cols = range(dims[1][0] * i + dims[1][1], dims[1][0] * i + dims[1][1] + dims[1][2])
        return {(r, c) for r in rows for c in cols}

    first = None
    for d in range(1, trip):
        if any(cells(dims_a, i) & cells(dims_b, i + d) for i in range(0, trip - d)):
            first = d
            break
    got = carried_distance(a, b, 1, trip)
    if first is not None:
        assert got is not None and got <= first
    if [c for c, _, _ in dims_a] == [c for c, _, _ in dims_b]:
        assert got == first
    same_iteration = any(cells(dims_a, i) & cells(dims_b, i) for i in range(trip))
    if same_iteration:
        assert may_alias(a, b)


def gemm_tasks(a_bytes=65536, b_bytes=57344):
    """nd2nz A, nd2nz B, mmadL1 accumulating into one L0C tile (256x224x128 bf16)."""
    a_gm = box("A", 1024, (0, iv.scale(128)), (256, 128), 2)  # A: 256x512 bf16
    b_gm = box("B", 896, (iv.scale(128), 0), (128, 224), 2)  # B: 512x448 bf16
    la, lb = tile("la", 0, a_bytes), tile("lb", 0, b_bytes)
    acc = tile("acc", 0, 229376)
    tasks = [
        task("loadA", "MTE2", 846, 656, R(a_gm, "MTE2"), W(la, "MTE2"), paths=(("gm", "cbuf"),)),
        task("loadB", "MTE2", 764, 574, R(b_gm, "MTE2"), W(lb, "MTE2"), paths=(("gm", "cbuf"),)),
        task("mmad", ("MTE1", "M"), 2286, 1792, R(la, "MTE1"), R(lb, "MTE1"), R(acc, "M"), W(acc, "M")),
    ]
    buffers = [
        BufferInfo("la", "la", "cbuf", a_bytes, (256, 128)),
        BufferInfo("lb", "lb", "cbuf", b_bytes, (128, 224)),
        BufferInfo("acc", "acc", "cc", 229376, (256, 224)),
    ]
    return tasks, buffers


def test_gemm_dependences():
    tasks, buffers = gemm_tasks()
    assert [b.name for b in eligible_buffers(tasks, buffers)] == ["la", "lb"]
    deps = {(d.src, d.dst, d.distance, d.buffer, d.kind): d.latency for d in loop_dependences(tasks, buffers, 4)}
    # loads feed the matmul in the same iteration
    assert deps[(0, 2, 0, None, "RAW")] == 846
    assert deps[(1, 2, 0, None, "RAW")] == 764
    # the next load into a version of la may start once the matmul has read it
    assert deps[(2, 0, 0, "la", "WAR")] == 2286
    assert deps[(0, 0, 0, "la", "WAW")] == 846
    # accumulation: same in-order pipe M, costs the matmul's ii, not its latency
    assert deps[(2, 2, 1, None, "RAW")] == 1792
    # GM reads never depend on each other; no loop-carried RAW through la
    assert not any(k[0] == 0 and k[1] == 2 and k[2] > 0 for k in deps)


def gemm_problem(num_stages):
    """The solver's view of the gemm loop: the matmul counted on M only (its MTE1 moves
    are covered by M's ii), buffer dependences at up to `num_stages` versions."""
    tasks, buffers = gemm_tasks()
    deps = loop_dependences(tasks, buffers, 4)
    return LoopProblem(
        tasks=[Task(t.name, pipe=pipe, latency=t.latency, ii=t.ii) for t, pipe in zip(tasks, ["MTE2", "MTE2", "M"])],
        deps=[Dep(d.src, d.dst, latency=d.latency, buffer=d.buffer) if d.buffer
              else Dep(d.src, d.dst, latency=d.latency, distance=d.distance) for d in deps],
        buffers=[Buffer(b.name, scope=b.scope, size=b.bytes) for b in eligible_buffers(tasks, buffers)],
        num_stages=num_stages,
    )


def test_gemm_is_not_recurrence_bound():
    bounds = compute_mii(gemm_problem(num_stages=2))
    assert bounds.res_mii == {"MTE2": 1230, "M": 1792}
    assert bounds.rec_mii <= 1792
    assert bounds.binding == "M"
    # with a single L1 version the loads wait for the matmul: recurrence-bound
    bounds1 = compute_mii(gemm_problem(num_stages=1))
    assert bounds1.rec_mii == 846 + 2286
    assert bounds1.binding == "recurrence"


def test_read_before_write_is_not_multi_bufferable():
    buf = tile("u", 0, 2048)
    tasks = [task("use", "V", 10, 10, R(buf, "V")), task("fill", "V", 10, 10, W(buf, "V"))]
    info = BufferInfo("u", "u", "ub", 2048, (512,))
    assert eligible_buffers(tasks, [info]) == []
    deps = loop_dependences(tasks, [info], None)
    assert any(d.src == 1 and d.dst == 0 and d.distance == 1 and d.kind == "RAW" for d in deps)


def test_partial_or_inexact_write_is_not_multi_bufferable():
    info = BufferInfo("u", "u", "ub", 2048, (512,))
    half = [task("w", "MTE2", 10, 10, W(tile("u", 0, 1024), "MTE2"))]
    widened = [task("w", "MTE2", 10, 10, W(tile("u", 0, 2048), "MTE2", exact=False))]
    full = [task("w", "MTE2", 10, 10, W(tile("u", 0, 2048), "MTE2"))]
    # every other element: as many bytes, not all of them
    strided = [task("w", "MTE2", 10, 10, W(Footprint("u", None, Affine(0), ((256, 8),), 4), "MTE2"))]
    assert eligible_buffers(half, [info]) == []
    assert eligible_buffers(widened, [info]) == []
    assert eligible_buffers(full, [info]) == [info]
    assert eligible_buffers(strided, [info]) == []


def test_vector_chain_waits_for_completion():
    # same-pipe rule: dependent V ops are separated by pipe_barrier[V], which waits for
    # the producer to complete, so the consumer waits the latency, not the ii
    u, w = tile("u", 0, 2048), tile("w", 0, 2048)
    tasks = [
        task("exp", "V", 300, 64, R(u, "V"), W(w, "V")),
        task("add", "V", 100, 20, R(w, "V"), W(u, "V")),
    ]
    deps = {(d.src, d.dst, d.distance, d.kind): d.latency for d in loop_dependences(tasks, [], None)}
    assert deps[(0, 1, 0, "RAW")] == 300
    assert deps[(0, 1, 0, "WAR")] == 300


def test_scalar_chain_in_order_pipe_costs_ii():
    # S is ordered by the hardware: the next scalar op may issue after the producer's ii
    u, w = tile("u", 0, 16), tile("w", 0, 16)
    tasks = [task("a", "S", 30, 2, R(u, "S"), W(w, "S")), task("b", "S", 30, 2, R(w, "S"), W(u, "S"))]
    deps = {(d.src, d.dst, d.distance, d.kind): d.latency for d in loop_dependences(tasks, [], None)}
    assert deps[(0, 1, 0, "RAW")] == 2


def test_shared_hbm_ports_conflict():
    tasks = [
        task("load", "MTE2", 100, 20, paths=(("gm", "ub"),)),
        task("store", "MTE3", 100, 20, paths=(("ub", "gm"),)),
        task("nd2nz", "MTE2", 100, 20, paths=(("gm", "cbuf"),)),
        task("fix", "FIX", 100, 20, paths=(("cc", "gm"),)),
        task("vadd", "V", 10, 10),
    ]
    assert resource_conflicts(tasks) == [(0, 1), (2, 3)]


# ----------------------------------------------------------------------------- IR adapter

from xdsl.context import Context  # noqa: E402
from xdsl.dialects import scf  # noqa: E402
from xdsl.parser import Parser  # noqa: E402

from ascend_mlir.analysis.loop_model import (  # noqa: E402
    build_loop_model,
    loops_innermost_first,
    scheduled_loop_cost,
)
from ascend_mlir.chips import load_chip  # noqa: E402
from ascend_mlir.dialects import register_dialects  # noqa: E402


def parse(text):
    ctx = register_dialects(Context())
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def gm(shape, elem="bf16"):
    return f"memref<{shape}x{elem}, #hivm.address_space<gm>>"


def on(scope, shape, elem="bf16"):
    return f"memref<{shape}x{elem}, #hivm.address_space<{scope}>>"


GEMM = f"""
func.func @gemm(%a: {gm("256x512")}, %b: {gm("512x448")}, %c: {gm("256x448", "f32")}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c224 = arith.constant 224 : index
  %c256 = arith.constant 256 : index
  %blk = hivm.hir.get_block_idx -> i64
  %bi = arith.index_cast %blk : i64 to index
  %n0 = arith.muli %bi, %c224 : index
  %la = memref.alloc() : {on("cbuf", "256x128")}
  %lb = memref.alloc() : {on("cbuf", "128x224")}
  %acc = memref.alloc() : {on("cc", "256x224", "f32")}
  scf.for %k = %c0 to %c4 step %c1 {{
    %k0 = arith.muli %k, %c128 : index
    %as = memref.subview %a[0, %k0] [256, 128] [1, 1] : {gm("256x512")} to memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
    %bs = memref.subview %b[%k0, %n0] [128, 224] [1, 1] : {gm("512x448")} to memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.nd2nz {{dst_continuous}} ins(%as : memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : {on("cbuf", "256x128")})
    hivm.hir.nd2nz {{dst_continuous}} ins(%bs : memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : {on("cbuf", "128x224")})
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.mmadL1 ins(%la, %lb, %first, %c256, %c128, %c224 : {on("cbuf", "256x128")}, {on("cbuf", "128x224")}, i1, index, index, index) outs(%acc : {on("cc", "256x224", "f32")})
  }} {{ascend.num_stages = 2 : i64}}
  %cs = memref.subview %c[0, %n0] [256, 224] [1, 1] : {gm("256x448", "f32")} to memref<256x224xf32, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
  hivm.hir.fixpipe {{dma_mode = #hivm.dma_mode<nz2nd>}} ins(%acc : {on("cc", "256x224", "f32")}) outs(%cs : memref<256x224xf32, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>)
  return
}}
"""


def only_loop_model(text, chip="ascend950"):
    module = parse(text)
    loops = loops_innermost_first(module)
    assert len(loops) == 1
    index, loop = loops[0]
    return build_loop_model(loop, load_chip(chip), scheduled_loop_cost, index)


def test_ir_gemm_loop_model():
    model = only_loop_model(GEMM)
    assert model.name == "gemm.k"
    assert [(t.op.name, t.pipe, t.info.latency, t.info.ii) for t in model.tasks] == [
        ("hivm.hir.nd2nz", "MTE2", 846, 656),
        ("hivm.hir.nd2nz", "MTE2", 764, 574),
        ("hivm.hir.mmadL1", "M", 2286, 1792),
    ]
    # L1 tiles are rewritten in full every step: multi-bufferable; the accumulator is
    # read-modify-write and used after the loop: not
    assert [(b.name, b.scope, b.bytes) for b in model.buffers] == [("la", "cbuf", 65536), ("lb", "cbuf", 57344)]
    assert model.num_stages == 2 and model.trip_count == 4
    assert model.capacity == {"cbuf": 524288}
    deps = model.solver_deps()
    assert (0, 2, 846, 0, None) in deps and (1, 2, 764, 0, None) in deps
    # the matmul has read its L1 inputs once the MTE1 moves are over (488 cycles)
    assert (2, 0, 488, 0, "la") in deps and (2, 1, 488, 0, "lb") in deps
    # accumulation on the in-order cube pipe costs ii, not latency
    assert (2, 2, 1792, 1, None) in deps
    # GM tiles of A and B are read only: no dependence between the loads
    assert not any(s in (0, 1) and t in (0, 1) and s != t for s, t, *_ in deps)
    # MTE2 publishes the tiles to MTE1 with a set_flag each step, which waits for the
    # last load to complete: one drain of latency - ii (the smaller of 190, 190) per step
    assert model.flag_drains() == {"MTE2": 190}
    bounds = model.bounds()
    assert bounds.res_mii == {"MTE2": 656 + 574 + 190, "M": 1792}
    assert bounds.rec_mii == 1792
    assert bounds.binding == "M"


def test_ir_disjoint_tiles_of_one_tensor_are_independent():
    text = f"""
func.func @k(%x: {gm("4096", "f32")}, %y: {gm("4096", "f32")}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %u = memref.alloc() : {on("ub", "512", "f32")}
  %v = memref.alloc() : {on("ub", "512", "f32")}
  scf.for %i = %c0 to %c8 step %c1 {{
    %off = arith.muli %i, %c512 : index
    %xs = memref.subview %x[%off] [512] [1] : {gm("4096", "f32")} to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %ys = memref.subview %y[%off] [512] [1] : {gm("4096", "f32")} to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : {on("ub", "512", "f32")})
    hivm.hir.vexp ins(%u : {on("ub", "512", "f32")}) outs(%v : {on("ub", "512", "f32")})
    hivm.hir.store ins(%v : {on("ub", "512", "f32")}) outs(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  }}
  return
}}
"""
    model = only_loop_model(text)
    deps = {(s, t, d, b) for s, t, _, d, b in model.solver_deps()}
    # load -> exp -> store in the iteration; buffer reuse across iterations by versions
    assert (0, 1, 0, None) in deps and (1, 2, 0, None) in deps
    assert (1, 0, 0, "u") in deps and (2, 1, 0, "v") in deps
    # the GM store of tile i never feeds the GM load of tile i + d (different tensors),
    # and x[i*512:+512] of different iterations are disjoint
    assert not any(s == 2 and t == 0 for s, t, _, _ in deps)
    assert not any(s == 0 and t == 0 and b is None for s, t, _, b in deps)
    # GM -> UB and UB -> GM share the HBM port
    assert model.conflicts == [(0, 2)]


def test_ir_in_place_update_of_one_gm_tensor():
    # y[i*512] is read and written in place: RAW/WAR only inside the iteration, and the
    # store of tile i may not feed the load of tile i+1 (disjoint)
    text = f"""
func.func @k(%y: {gm("4096", "f32")}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %u = memref.alloc() : {on("ub", "512", "f32")}
  scf.for %i = %c0 to %c8 step %c1 {{
    %off = arith.muli %i, %c256 : index
    %ys = memref.subview %y[%off] [512] [1] : {gm("4096", "f32")} to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : {on("ub", "512", "f32")})
    hivm.hir.store ins(%u : {on("ub", "512", "f32")}) outs(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  }}
  return
}}
"""
    model = only_loop_model(text)
    deps = {(s, t, d, b) for s, t, _, d, b in model.solver_deps()}
    # windows of 512 sliding by 256 overlap the next iteration: store(i) -> load(i+1)
    assert (1, 0, 1, None) in deps
    assert (0, 1, 0, None) in deps


def test_ir_distances_of_a_stepped_loop_count_iterations():
    # iv = 512, 1024, ...: the load reads the tile the store of the previous iteration
    # wrote (x[iv - 512 .. +256] = x[(iv - 512) .. +256]): a RAW at distance 1. Read as a
    # distance in loop-variable units it would be 512 (past the trip count: missed).
    tile = "memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    text = f"""
func.func @k(%x: {gm("8192", "f32")}) {{
  %c512 = arith.constant 512 : index
  %c4096 = arith.constant 4096 : index
  %u = memref.alloc() : {on("ub", "256", "f32")}
  scf.for %i = %c512 to %c4096 step %c512 {{
    %prev = arith.subi %i, %c512 : index
    %xs = memref.subview %x[%prev] [256] [1] : {gm("8192", "f32")} to {tile}
    %ys = memref.subview %x[%i] [256] [1] : {gm("8192", "f32")} to {tile}
    hivm.hir.load ins(%xs : {tile}) outs(%u : {on("ub", "256", "f32")})
    hivm.hir.vexp ins(%u : {on("ub", "256", "f32")}) outs(%u : {on("ub", "256", "f32")})
    hivm.hir.store ins(%u : {on("ub", "256", "f32")}) outs(%ys : {tile})
  }}
  return
}}
"""
    model = only_loop_model(text)
    assert model.trip_count == 7
    deps = {(s, t, d, b) for s, t, _, d, b in model.solver_deps()}
    assert (2, 0, 1, None) in deps
    # the stores write disjoint tiles: no loop-carried WAW between them
    assert not any(s == 2 and t == 2 and b is None for s, t, _, b in deps)


def test_ir_values_computed_in_the_body_change_between_iterations():
    # %o is computed in the body by an op the analysis does not see through: within an
    # iteration the load (x[o, +64]) and the store (x[o + 64, +64]) are disjoint, but
    # the next iteration's %o is another value, so its load may read this store.
    tile = "memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    text = f"""
func.func @k(%x: {gm("8192", "f32")}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %u = memref.alloc() : {on("ub", "64", "f32")}
  scf.for %i = %c0 to %c8 step %c1 {{
    %o = arith.maxsi %i, %c8 : index
    %o2 = arith.addi %o, %c64 : index
    %xs = memref.subview %x[%o] [64] [1] : {gm("8192", "f32")} to {tile}
    %ys = memref.subview %x[%o2] [64] [1] : {gm("8192", "f32")} to {tile}
    hivm.hir.load ins(%xs : {tile}) outs(%u : {on("ub", "64", "f32")})
    hivm.hir.store ins(%u : {on("ub", "64", "f32")}) outs(%ys : {tile})
  }}
  return
}}
"""
    model = only_loop_model(text)
    deps = {(s, t, d, b) for s, t, _, d, b in model.solver_deps()}
    assert (1, 0, 1, None) in deps  # store(i) -> load(i + 1): may be the same bytes
    x = model.loop.parent_op().body.block.args[0]
    through_x = {(d.src, d.dst, d.distance, d.kind) for d in model.deps if d.root is x}
    assert (1, 0, 1, "RAW") in through_x
    assert (0, 1, 0, "WAR") not in through_x  # disjoint within one iteration


def test_ir_nested_loop_is_one_task():
    text = f"""
func.func @k(%x: {gm("8x4096", "f32")}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %u = memref.alloc() : {on("ub", "512", "f32")}
  scf.for %i = %c0 to %c8 step %c1 {{
    scf.for %j = %c0 to %c4 step %c1 {{
      %off = arith.muli %j, %c512 : index
      %xs = memref.subview %x[%i, %off] [1, 512] [1, 1] : {gm("8x4096", "f32")} to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : {on("ub", "512", "f32")})
      hivm.hir.vexp ins(%u : {on("ub", "512", "f32")}) outs(%u : {on("ub", "512", "f32")})
    }}
  }}
  return
}}
"""
    module = parse(text)
    loops = loops_innermost_first(module)
    assert [loop.body.block.args[0].name_hint for _, loop in loops] == ["j", "i"]
    chip = load_chip()
    inner = build_loop_model(loops[0][1], chip, scheduled_loop_cost, loops[0][0])
    assert [t.pipe for t in inner.tasks] == ["MTE2", "V"]
    outer = build_loop_model(loops[1][1], chip, scheduled_loop_cost, loops[1][0])
    assert len(outer.tasks) == 1 and isinstance(outer.tasks[0].op, scf.ForOp)
    task = outer.tasks[0]
    # serial loop of 4 iterations of (load; exp): load (111, 21), exp (64, 64) in
    # sequence = (max(111, 21 + 64), 85); 4 iterations = (85 * 3 + 111, 85 * 4)
    assert (task.info.latency, task.info.ii) == (85 * 3 + 111, 85 * 4)
    assert set(task.info.pipes) == {"MTE2", "V"}
    # u is written in place by exp (read and written): not multi-bufferable
    assert outer.buffers == []


# ----------------------------------------------------------------------------- benchmarks


def test_loop_problems_of_example_gemm():
    import sys
    from pathlib import Path

    from ascend_mlir.scheduling import LoopProblem

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "bench" / "scheduler"))
    from mlir_problems import loop_problems_of_file

    examples = root / "examples"
    problems = loop_problems_of_file(str(examples / "gemm.mlir"))
    assert [name for name, _ in problems] == ["gemm.k"]
    problem = problems[0][1]
    assert isinstance(problem, LoopProblem)
    # the body's three tasks, then MTE2's flag drain (see test_ir_gemm_loop_model)
    assert [(t.pipe, t.latency, t.ii) for t in problem.tasks] == [
        ("MTE2", 846, 656), ("MTE2", 764, 574), ("M", 2286, 1792), ("MTE2", 190, 190)]
    assert [(b.name, b.scope, b.size) for b in problem.buffers] == [
        ("la", "cbuf", 65536), ("lb", "cbuf", 57344)]
    assert problem.num_stages == 2
    assert problem.capacity == {"cbuf": 524288}
    deps = {(d.src, d.dst, d.latency, d.distance, d.buffer) for d in problem.deps}
    assert deps == {
        (0, 0, 846, 0, "la"), (0, 2, 846, 0, None),
        (1, 1, 764, 0, "lb"), (1, 2, 764, 0, None),
        (2, 0, 488, 0, "la"), (2, 1, 488, 0, "lb"),
        (2, 2, 1792, 1, None),
    }


def _func_body_ops(module):
    return list(module.body.block.first_op.body.block.ops)


def test_ir_footprints_through_nested_and_stepped_subviews():
    from xdsl.dialects import memref

    from ascend_mlir.analysis.accesses import footprint_in_loop

    text = f"""
func.func @k(%x: {gm("64x4096", "f32")}, %i: index, %n: index) {{
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %r = arith.muli %i, %c2 : index
  %o = arith.addi %r, %c64 : index
  %a = memref.subview %x[%i, 128] [8, 1024] [1, 1] : {gm("64x4096", "f32")} to memref<8x1024xf32, strided<[4096, 1], offset: ?>, #hivm.address_space<gm>>
  %b = memref.subview %a[2, %o] [4, 256] [1, 1] : memref<8x1024xf32, strided<[4096, 1], offset: ?>, #hivm.address_space<gm>> to memref<4x256xf32, strided<[4096, 1], offset: ?>, #hivm.address_space<gm>>
  %c = memref.subview %x[0, 0] [1, 16] [1, 4] : {gm("64x4096", "f32")} to memref<16xf32, strided<[4]>, #hivm.address_space<gm>>
  %d = memref.subview %x[0, 0] [1, %n] [1, 1] : {gm("64x4096", "f32")} to memref<?xf32, strided<[1]>, #hivm.address_space<gm>>
  return
}}
"""
    module = parse(text)
    func_op = module.body.block.first_op
    x = func_op.body.block.args[0]
    i = func_op.body.block.args[1]
    views = [op for op in _func_body_ops(module) if isinstance(op, memref.SubviewOp)]
    a, b, c, d = (footprint_in_loop(v.results[0], i) for v in views)
    row = 4096 * 4
    assert a.root is x and a.elem == 4
    assert a.base == Affine.symbol(IV).scale(row) + 128 * 4 and a.dims == ((8, row), (1024, 4))
    # offsets compose: rows i + 2, columns 128 + 2*i + 64
    assert b.base == (Affine.symbol(IV) + 2).scale(row) + (Affine.symbol(IV).scale(2) + 192).scale(4)
    assert b.dims == ((4, row), (256, 4))
    # a stepped slice keeps its step: every fourth element, not the hull
    assert c.base == Affine(0) and c.dims == ((16, 16),)
    assert not may_alias(c, Footprint(x, "gm", Affine(4), ((15, 16),), 4))
    # a dynamic size: somewhere in %x
    assert d.root is x and d.dims is None


def test_ir_if_is_one_task_with_the_larger_branch():
    from ascend_mlir.analysis.accesses import task_of

    text = f"""
func.func @k(%u: {on("ub", "4096", "f16")}, %v: {on("ub", "4096", "f16")}, %c: i1) {{
  scf.if %c {{
    hivm.hir.vexp ins(%u : {on("ub", "4096", "f16")}) outs(%v : {on("ub", "4096", "f16")})
  }} else {{
    hivm.hir.vadd ins(%u, %u : {on("ub", "4096", "f16")}, {on("ub", "4096", "f16")}) outs(%v : {on("ub", "4096", "f16")})
  }}
  return
}}
"""
    module = parse(text)
    if_op = _func_body_ops(module)[0]
    task = task_of(if_op, None, scheduled_loop_cost, load_chip())
    # vexp 4096/8 = 512 beats vadd 4096/51 = 81
    assert (task.info.latency, task.info.ii) == (512, 512)
    assert task.info.pipes == ("V",) and task.pipe == "V"
    # a conditional write never makes a buffer multi-bufferable
    assert all(not a.exact for a in task.info.accesses)
    assert {a.write for a in task.info.accesses} == {True, False}


def test_ir_regions_of_planned_buffers_are_byte_ranges_of_the_scope():
    from xdsl.dialects import memref

    from ascend_mlir.analysis.accesses import footprint_in_loop
    from ascend_mlir.analysis.aliasing import ScopeRoot
    from ascend_mlir.dialects import hivm

    text = f"""
func.func @k(%i: index) {{
  %c0 = arith.constant 0 : i64
  %c256 = arith.constant 256 : i64
  %c64 = arith.constant 64 : index
  %a = hivm.hir.pointer_cast(%c0) : {on("ub", "64", "f32")}
  %b = hivm.hir.pointer_cast(%c256) : {on("ub", "64", "f32")}
  %off = arith.muli %i, %c64 : index
  %s = memref.subview %a[%i] [16] [1] : {on("ub", "64", "f32")} to memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>
  return
}}
"""
    module = parse(text)
    func_op = module.body.block.first_op
    i = func_op.body.block.args[0]
    ops = _func_body_ops(module)
    a, b = (footprint_in_loop(op.results[0], i) for op in ops if isinstance(op, hivm.PointerCastOp))
    s = footprint_in_loop(next(op for op in ops if isinstance(op, memref.SubviewOp)).results[0], i)
    assert a.root == b.root == ScopeRoot("ub")
    assert a.base == Affine(0) and a.span() == 256
    assert not may_alias(a, b)
    # elements i .. i + 15 of %a: 64 bytes at byte 4*i of the scope
    assert s.base == Affine.symbol(IV).scale(4) and s.span() == 64
    assert may_alias(s, a)
    assert carried_distance(s, s, 1, None) == 1  # iteration i + 1 overlaps 15 of them


def _all_pairs_dependences(tasks, buffers, trip_count):
    """loop_dependences as first written: every access pair of every task pair."""
    from ascend_mlir.analysis.dependences import Dependence, _kind, dependence_latency, multi_buffer_eligible

    eligible = {b.root: b for b in buffers if multi_buffer_eligible(tasks, b)}
    best = {}
    for u, tu in enumerate(tasks):
        for v, tv in enumerate(tasks):
            for au in tu.accesses:
                for av in tv.accesses:
                    kind = _kind(au, av)
                    if kind is None:
                        continue
                    lat = dependence_latency(tu, tv, au, av)
                    found = []
                    if u < v and may_alias(au.footprint, av.footprint):
                        found.append(Dependence(u, v, lat, 0, None, kind))
                    root = au.footprint.root
                    if root is not None and root in eligible and av.footprint.root == root:
                        if kind != "RAW":
                            found.append(Dependence(u, v, lat, 0, eligible[root].name, kind))
                    else:
                        d = carried_distance(au.footprint, av.footprint, 1, trip_count)
                        if d is not None:
                            found.append(Dependence(u, v, lat, d, None, kind))
                    for dep in found:
                        key = (dep.src, dep.dst, dep.distance, dep.buffer, dep.kind)
                        if key not in best or dep.latency > best[key].latency:
                            best[key] = dep
    return sorted(best.values(), key=lambda d: (d.src, d.dst, d.distance, d.buffer or "", d.kind))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(["a", "b", "c", None]), st.integers(-2, 2),
                                   st.booleans()), min_size=1, max_size=3), min_size=1, max_size=6),
       st.sampled_from([None, 3]))
def test_grouping_by_root_matches_all_pairs(spec, trip):
    # accesses of distinct known roots never overlap, so loop_dependences only pairs
    # accesses of one root (plus unknown roots): same result as every pair
    tasks = []
    for i, accesses in enumerate(spec):
        accs = tuple(
            Access(tile(root, Affine.symbol(IV, 4) + shift, 4) if root else Footprint.unknown(),
                   write, "V" if i % 2 else "MTE2")
            for root, shift, write in accesses)
        tasks.append(TaskInfo(f"t{i}", ("V" if i % 2 else "MTE2",), 10 + i, 2, accs))
    buffers = [BufferInfo("a", "a", "ub", 64, (16,))]
    assert loop_dependences(tasks, buffers, trip) == _all_pairs_dependences(tasks, buffers, trip)


def test_publishes_asks_the_chips_same_pipe_rule():
    from ascend_mlir.analysis.dependences import publishes

    a950, b910 = load_chip("ascend950"), load_chip("ascend910b")
    assert publishes(a950, "MTE2", "V") and publishes(b910, "V", "MTE3")  # a flag: always
    assert not publishes(a950, "V", "V")  # the 950 orders V: no barrier, no drain
    assert publishes(b910, "V", "V")  # the 910B does not: a pipe_barrier drains V
    assert publishes(a950, "MTE2", "MTE2") and publishes(b910, "MTE3", "MTE3")
    assert not publishes(a950, "S", "S") and not publishes(b910, "M", "M")


STORE_ONLY_LOOP = f"""
func.func @k(%x: {gm("512", "f32")}, %y: {gm("512", "f32")}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %u = memref.alloc() : {on("ub", "512", "f32")}
  hivm.hir.load ins(%x : {gm("512", "f32")}) outs(%u : {on("ub", "512", "f32")})
  scf.for %i = %c0 to %c8 step %c1 {{
    hivm.hir.store ins(%u : {on("ub", "512", "f32")}) outs(%y : {gm("512", "f32")})
  }}
  return
}}
"""


@pytest.mark.parametrize("chip", ["ascend950", "ascend910b"])
def test_a_same_pipe_dependence_the_chip_does_not_order_drains_its_pipe(chip):
    """Each store rewrites what the previous one wrote (MTE3 -> MTE3, carried): no chip
    orders MTE3, so a pipe_barrier publishes it and MTE3 drains (latency - ii), though no
    flag leaves the pipe. (V, the pipe whose order differs by chip, completes within its
    ii in the latency model: its barrier costs no drain on the 910B either.)"""
    model = only_loop_model(STORE_ONLY_LOOP, chip)
    assert [(d.src, d.dst, d.distance, d.kind) for d in model.deps] == [(0, 0, 1, "WAW")]
    info = model.tasks[0].info
    assert model.flag_drains() == {"MTE3": info.latency - info.ii} and info.latency > info.ii


def test_a_consumer_access_that_begins_late_waits_less():
    """A nested loop whose first access to a buffer is its op issued `begin` cycles after
    the loop (issue 18 item 4) may start that much before its producer's access is over,
    never before the producer issues."""
    a = tile("a", 0)
    producer = task("fixpipe", "FIX", 712, 514, Access(a, False, "FIX"))
    early = task("loop", ("MTE2", "M"), 2470, 2072, Access(a, True, "M"))
    late = task("loop", ("MTE2", "M"), 2470, 2072, Access(a, True, "M", begin=518))
    too_late = task("loop", ("MTE2", "M"), 2470, 2072, Access(a, True, "M", begin=900))
    assert [d.latency for d in loop_dependences([producer, early], trip_count=1)] == [712]
    assert [d.latency for d in loop_dependences([producer, late], trip_count=1)] == [194]
    assert [d.latency for d in loop_dependences([producer, too_late], trip_count=1)] == [0]
    # carried to the next iteration's loop, the dependence keeps its negative latency:
    # that loop may issue before the producer's access is over
    carried = [d for d in loop_dependences([too_late, producer], trip_count=2) if d.src == 1 and d.dst == 0]
    assert [(d.latency, d.distance) for d in carried] == [(712 - 900, 1)]
