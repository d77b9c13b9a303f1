"""Dependence analysis on abstract access regions: distances, multi-buffer eligibility,
in-order-pipe latencies, shared-port conflicts; conservative where it must be and
precise where it matters (disjoint tiles are independent)."""

from hypothesis import given
from hypothesis import strategies as st

from ascend_mlir.analysis.dependences import (
    IV,
    Access,
    Affine,
    BufferInfo,
    Region,
    TaskInfo,
    eligible_buffers,
    loop_dependences,
    min_carried_distance,
    overlaps_at,
    resource_conflicts,
)
from ascend_mlir.analysis.mii import binding, rec_mii, res_mii

iv = Affine.symbol(IV)


def tile(root, offset, size=512):
    return Region.box(root, [offset], [size])


def task(name, pipe, lat, ii, *accesses, paths=()):
    return TaskInfo(name, (pipe,) if isinstance(pipe, str) else pipe, lat, ii, tuple(accesses), paths)


def R(region, pipe):
    return Access(region, False, pipe)


def W(region, pipe, exact=True):
    return Access(region, True, pipe, exact)


def test_same_tile_of_two_tensors_is_independent():
    x, y = tile("x", iv.scale(512)), tile("y", iv.scale(512))
    assert not overlaps_at(x, y, 0)
    assert min_carried_distance(x, y, None) is None


def test_consecutive_tiles_of_one_tensor_are_disjoint():
    x = tile("x", iv.scale(512))
    assert overlaps_at(x, x, 0)
    assert min_carried_distance(x, x, 100) is None


def test_overlapping_tiles_give_the_exact_distance():
    # a window of 1024 sliding by 256 overlaps its next iteration
    x = tile("x", iv.scale(256), 1024)
    assert min_carried_distance(x, x, None) == 1
    # the reader of iteration i + 3 reads what the writer of iteration i wrote
    writer = tile("x", iv.scale(256), 256)
    reader = tile("x", iv.scale(256) - 768, 256)
    assert min_carried_distance(writer, reader, None) == 3
    assert not overlaps_at(writer, reader, 0)
    # ... and never the other way round
    assert min_carried_distance(reader, writer, None) is None


def test_trip_count_limits_distance():
    x = tile("x", iv.scale(256), 1024)
    assert min_carried_distance(x, x, 1) is None
    assert min_carried_distance(x, x, 2) == 1


def test_two_d_tiles_differ_in_one_dimension():
    blk = Affine.symbol("block")
    a = Region.box("c", [blk.scale(128), iv.scale(64)], [128, 64])
    b = Region.box("c", [blk.scale(128) + 128, iv.scale(64)], [128, 64])
    assert not overlaps_at(a, b, 0)
    assert min_carried_distance(a, b, None) is None
    # an unknown row offset (another symbol): assume they meet
    c = Region.box("c", [Affine.symbol("other"), iv.scale(64)], [128, 64])
    assert overlaps_at(a, c, 0)


def test_unknown_regions_are_conservative():
    x = tile("x", iv.scale(512))
    assert overlaps_at(Region.whole("x"), x, 0)
    assert overlaps_at(Region.whole(None), x, 0)
    assert min_carried_distance(Region.whole(None), tile("y", 0), None) == 1
    # different iv coefficients: the gap depends on i
    assert min_carried_distance(tile("x", iv.scale(512)), tile("x", iv.scale(256)), None) == 1


@given(st.integers(-8, 8), st.integers(-64, 64), st.integers(1, 32), st.integers(1, 32),
       st.integers(-64, 64), st.integers(1, 40))
def test_distance_matches_brute_force(coeff, shift, size_a, size_b, base_b, trip):
    a = Region.box("m", [iv.scale(coeff)], [size_a])
    b = Region.box("m", [iv.scale(coeff) + base_b + shift], [size_b])
    expected = None
    for d in range(1, trip):
        start_a, start_b = 0, coeff * d + base_b + shift
        if start_a < start_b + size_b and start_b < start_a + size_a:
            expected = d
            break
    assert min_carried_distance(a, b, trip) == expected


def gemm_tasks(a_bytes=65536, b_bytes=57344):
    """nd2nz A, nd2nz B, mmadL1 accumulating into one L0C tile (256x224x128 bf16)."""
    a_gm = Region.box("A", [0, iv.scale(128)], [256, 128])
    b_gm = Region.box("B", [iv.scale(128), 0], [128, 224])
    la, lb = Region.box("la", [0, 0], [256, 128]), Region.box("lb", [0, 0], [128, 224])
    acc = Region.box("acc", [0, 0], [256, 224])
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


def test_gemm_is_not_recurrence_bound():
    tasks, buffers = gemm_tasks()
    deps = loop_dependences(tasks, buffers, 4)
    num_stages = 2
    edges = [(d.src, d.dst, d.latency, num_stages if d.buffer else d.distance) for d in deps]
    res = res_mii(["MTE2", "MTE2", "M"], [t.ii for t in tasks])
    rec = rec_mii(len(tasks), edges)
    assert res == {"MTE2": 1230, "M": 1792}
    assert rec <= 1792
    assert binding(res, rec) == "M"
    # with a single L1 version the loads wait for the matmul: recurrence-bound
    edges1 = [(d.src, d.dst, d.latency, 1 if d.buffer else d.distance) for d in deps]
    assert rec_mii(len(tasks), edges1) == 846 + 2286
    assert binding(res, rec_mii(len(tasks), edges1)) == "recurrence"


def test_read_before_write_is_not_multi_bufferable():
    buf = Region.box("u", [0], [512])
    tasks = [task("use", "V", 10, 10, R(buf, "V")), task("fill", "V", 10, 10, W(buf, "V"))]
    info = BufferInfo("u", "u", "ub", 2048, (512,))
    assert eligible_buffers(tasks, [info]) == []
    deps = loop_dependences(tasks, [info], None)
    assert any(d.src == 1 and d.dst == 0 and d.distance == 1 and d.kind == "RAW" for d in deps)


def test_partial_or_inexact_write_is_not_multi_bufferable():
    info = BufferInfo("u", "u", "ub", 2048, (512,))
    half = [task("w", "MTE2", 10, 10, W(Region.box("u", [0], [256]), "MTE2"))]
    widened = [task("w", "MTE2", 10, 10, W(Region.box("u", [0], [512]), "MTE2", exact=False))]
    full = [task("w", "MTE2", 10, 10, W(Region.box("u", [0], [512]), "MTE2"))]
    assert eligible_buffers(half, [info]) == []
    assert eligible_buffers(widened, [info]) == []
    assert eligible_buffers(full, [info]) == [info]


def test_vector_chain_in_order_pipe_costs_ii():
    u, w = Region.box("u", [0], [512]), Region.box("w", [0], [512])
    tasks = [
        task("exp", "V", 300, 64, R(u, "V"), W(w, "V")),
        task("add", "V", 100, 20, R(w, "V"), W(u, "V")),
    ]
    deps = {(d.src, d.dst, d.distance, d.kind): d.latency for d in loop_dependences(tasks, [], None)}
    assert deps[(0, 1, 0, "RAW")] == 64
    assert deps[(0, 1, 0, "WAR")] == 64


def test_shared_hbm_ports_conflict():
    tasks = [
        task("load", "MTE2", 100, 20, paths=(("gm", "ub"),)),
        task("store", "MTE3", 100, 20, paths=(("ub", "gm"),)),
        task("nd2nz", "MTE2", 100, 20, paths=(("gm", "cbuf"),)),
        task("fix", "FIX", 100, 20, paths=(("cc", "gm"),)),
        task("vadd", "V", 10, 10),
    ]
    assert resource_conflicts(tasks) == [(0, 1), (2, 3)]
