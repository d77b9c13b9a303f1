"""Latency formulas on plain shapes (values the anchor's own tests expect) and the
combination rules; IR-level estimates are covered by the lit tests of the pass."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascend_mlir.analysis.latency_model import (
    Cost,
    branches,
    copy_cost,
    cube_cost,
    mmad_cost,
    seq,
    serial_loop,
    vector_cost,
)
from ascend_mlir.chips import ChipError, load_chip

CHIP = load_chip("ascend950")


def test_anchor_two_gm_to_l1_copies_in_one_task():
    one = copy_cost(CHIP, "gm", "cbuf", 16 * 16 * 2)
    assert one == Cost(196, 64)
    assert seq(one, one) == Cost(260, 128)


def test_anchor_l0c_to_ub_fp32():
    assert copy_cost(CHIP, "cc", "ub", 128 * 128 * 4) == Cost(570, 514)


def test_anchor_hf32_matmul():
    assert cube_cost(CHIP, 64, 64, 24, "hf32", 32) == Cost(115, 48)


def test_cube_alignment_and_bases():
    # bf16: K aligned to 16, M/N to 16; base 8
    assert cube_cost(CHIP, 16, 16, 16, "bf16", 16) == Cost(8 + 1, 1)
    assert cube_cost(CHIP, 1, 1, 1, "bf16", 16) == cube_cost(CHIP, 16, 16, 16, "bf16", 16)
    # fp32 (not HF32) is slow: 2*16*16*8 / 512 = 8
    assert cube_cost(CHIP, 16, 16, 8, "fp32", 32) == Cost(67 + 8, 8)
    with pytest.raises(ChipError):
        cube_cost(CHIP, 16, 16, 16, "int4", 4)


def test_copy_paths_formulas():
    # GM -> UB: base 90, bandwidth 100, min ii 13
    assert copy_cost(CHIP, "gm", "ub", 512 * 4) == Cost(90 + 21, 21)
    assert copy_cost(CHIP, "gm", "ub", 64) == Cost(91, 13)
    # UB -> GM: base 180, bandwidth 115, min ii 10
    assert copy_cost(CHIP, "ub", "gm", 512 * 4) == Cost(180 + 18, 18)
    # L1 -> L0A: issue 3
    assert copy_cost(CHIP, "cbuf", "ca", 8192) == Cost(5 + 32, 3 + 32)
    # L0C -> GM
    assert copy_cost(CHIP, "cc", "gm", 65536) == Cost(200 + 512, 2 + 512)
    with pytest.raises(ChipError, match="no copy path ub -> ca"):
        copy_cost(CHIP, "ub", "ca", 64)
    with pytest.raises(ChipError, match="no copy path cc -> ub"):
        copy_cost(load_chip("ascend910b"), "cc", "ub", 64)


def test_strided_gm_slice_costs_one_descriptor_per_row_burst():
    # 64 rows of 512 B from a wider GM tensor: 64 descriptors in sequence on MTE2
    contiguous = copy_cost(CHIP, "gm", "ub", 64 * 512)
    strided = copy_cost(CHIP, "gm", "ub", 64 * 512, bursts=64)
    row = copy_cost(CHIP, "gm", "ub", 512)
    assert strided == seq(*([row] * 64))
    assert strided.ii > contiguous.ii
    # nd2nz moves a strided 2-D slice with one instruction
    assert copy_cost(CHIP, "gm", "cbuf", 8192, bursts=128) == copy_cost(CHIP, "gm", "cbuf", 8192)


def test_mmad_includes_mte1_moves():
    # 256x224x128 bf16: MTE1 moves (261,259) then (229,227); cube (1800, 1792)
    assert mmad_cost(CHIP, 256, 224, 128, "bf16", 16) == Cost(486 + 1800, 1792)
    # small K: MTE1 = 70 cycles, cube = 128
    assert mmad_cost(CHIP, 128, 128, 32, "bf16", 16) == Cost(70 + 136, 128)


def test_mmad_ii_is_the_busiest_pipe():
    # 16x16 tiles with long K: moves of 16x4096 fp16 (131072 B) each, cube small
    cost = mmad_cost(CHIP, 16, 16, 4096, "fp16", 16)
    moves = seq(copy_cost(CHIP, "cbuf", "ca", 131072), copy_cost(CHIP, "cbuf", "cb", 131072))
    assert cost.ii == moves.ii


def test_vector_throughput_classes():
    # 4096 elements: add of two fp32 inputs is bound by reading 32 KiB (128 cycles),
    # of one fp16 input and a scalar by element throughput 51; exp by 8, div by 13
    assert vector_cost(CHIP, "vadd", 4096, 2 * 4096 * 4) == Cost(128, 128)
    assert vector_cost(CHIP, "vadd", 4096, 4096 * 2) == Cost(81, 81)
    assert vector_cost(CHIP, "vexp", 4096, 4096 * 4) == Cost(512, 512)
    assert vector_cost(CHIP, "vdiv", 4096, 2 * 4096 * 4) == Cost(316, 316)
    # bandwidth bound: few elements, many bytes
    assert vector_cost(CHIP, "vadd", 51, 256 * 10) == Cost(10, 10)
    with pytest.raises(ChipError, match="no vector class for 'vfoo'"):
        vector_cost(CHIP, "vfoo", 1, 1)


def test_serial_loop_and_branches():
    body = Cost(100, 30)
    assert serial_loop(body, 4) == Cost(30 * 3 + 100, 120)
    assert serial_loop(body, 0) == Cost(100, 30)
    assert branches(Cost(10, 5), Cost(8, 7)) == Cost(10, 7)


costs = st.builds(Cost, st.integers(1, 10_000), st.integers(1, 10_000)).map(
    lambda c: Cost(max(c.latency, c.ii), c.ii)
)


@given(st.lists(costs, min_size=1, max_size=6))
def test_seq_keeps_latency_at_least_ii(parts):
    total = seq(*parts)
    assert total.latency >= total.ii >= 1
    assert total.ii == sum(p.ii for p in parts)


@given(st.integers(0, 1 << 22), st.sampled_from(sorted(CHIP.latency.copy)), st.integers(1, 256))
def test_every_copy_has_latency_at_least_ii(nbytes, path, bursts):
    cost = copy_cost(CHIP, path[0], path[1], nbytes, bursts)
    assert cost.latency >= cost.ii >= 1


@given(st.integers(1, 512), st.integers(1, 512), st.integers(1, 512),
       st.sampled_from([("fp16", 16), ("bf16", 16), ("fp32", 32), ("hf32", 32), ("fp8", 8)]))
def test_every_cube_op_has_latency_at_least_ii(m, n, k, dtype):
    cost = mmad_cost(CHIP, m, n, k, *dtype)
    assert cost.latency >= cost.ii >= 1


# ----- latency from the op's own operands (issue 19 item 3) -------------------------------

_DYNAMIC = """
func.func @k(%a: memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>, %b: memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>,
             %c: memref<128x128xf32, #hivm.address_space<cc>>, %x: memref<4096xf32, #hivm.address_space<gm>>,
             %u: memref<4096xf32, #hivm.address_space<ub>>, %n: index, %p: index) {
  %true = arith.constant true
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  hivm.hir.mmadL1 ins(%a, %b, %true, %c128, %c128, %c128 : memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>, memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<128x128xf32, #hivm.address_space<cc>>)
  %xs = memref.subview %x[%p] [%c256] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
  %us = memref.subview %u[0] [%c256] [1] : memref<4096xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
  hivm.hir.load ins(%xs : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%us : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
  %xn = memref.subview %x[%p] [%n] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
  %un = memref.subview %u[0] [%n] [1] : memref<4096xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
  hivm.hir.load ins(%xn : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%un : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
  %d = memref.alloc(%n) : memref<?xf32, #hivm.address_space<ub>>
  hivm.hir.vexp ins(%d : memref<?xf32, #hivm.address_space<ub>>) outs(%d : memref<?xf32, #hivm.address_space<ub>>)
  func.return
}
"""


def _dynamic_ops():
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.tools.ascend_opt import AscendOptMain

    module = parse_module(AscendOptMain(args=[]).ctx, _DYNAMIC, "dynamic.mlir")
    return [op for op in module.walk() if op.name.startswith("hivm.hir.")]


def test_mmad_on_dynamic_fractal_views_takes_its_m_k_n_operands():
    # bishengir's gemm_910b: mmadL1 on memref<?x?x?x?xbf16> with m = k = n = 128 is the
    # same work as on 128x128 tiles, not a per-pipe fallback
    from ascend_mlir.analysis.latency_model import estimate, read_latencies

    mmad = _dynamic_ops()[0]
    for chip in (CHIP, load_chip("ascend910b")):
        assert estimate(mmad, chip) == (mmad_cost(chip, 128, 128, 128, "bf16", 16).latency,
                                        mmad_cost(chip, 128, 128, 128, "bf16", 16).ii)
        assert set(read_latencies(mmad, chip).values()) != {None}


def test_dma_on_dynamic_views_takes_constant_sizes_or_the_source_bound():
    from ascend_mlir.analysis.latency_model import LatencyError, estimate

    mmad, exact, bounded, vexp = _dynamic_ops()
    assert estimate(exact, CHIP) == tuple(copy_cost(CHIP, "gm", "ub", 256 * 4))
    # an unknown size: bounded by the 4096-element source (a view never exceeds it)
    assert estimate(bounded, CHIP) == tuple(copy_cost(CHIP, "gm", "ub", 4096 * 4))
    # an alloc of unknown size has no bound: named, never guessed
    with pytest.raises(LatencyError, match="no static bound"):
        estimate(vexp, CHIP)


def test_simulator_names_the_ops_it_cannot_cost():
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.sim.simulator import simulate
    from ascend_mlir.tools.ascend_opt import AscendOptMain

    text = """
func.func @k(%u: memref<4096xf32, #hivm.address_space<ub>>, %n: index) attributes {hacc.entry} {
  %d = memref.alloc(%n) : memref<?xf32, #hivm.address_space<ub>>
  hivm.hir.vexp ins(%d : memref<?xf32, #hivm.address_space<ub>>) outs(%d : memref<?xf32, #hivm.address_space<ub>>)
  func.return
}
"""
    from ascend_mlir.chips import load_chip
    from ascend_mlir.sim.simulator import _timing_fn

    module = parse_module(AscendOptMain(args=[]).ctx, text, "unknown.mlir")
    vexp = next(op for op in module.walk() if op.name == "hivm.hir.vexp")
    # with no shape to run at, the model has no latency: the per-pipe default, named
    unknown: dict[str, None] = {}
    _timing_fn(load_chip("ascend950"), unknown)(vexp)
    assert len(unknown) == 1 and next(iter(unknown)).startswith("hivm.hir.vexp at unknown.mlir:4:")
    # run, the op is timed at the shape it runs with (79a8516): nothing left to name
    result = simulate(module, None, blocks=1, trace=False)
    assert result.unknown_latency_ops == []
    assert result.to_json()["unknown_latency_ops"] == result.unknown_latency_ops


def _batch_mmad_ops(batch: int, m: int, k: int, n: int, sizes: str) -> tuple:
    """(batchMmadL1, mmadL1) on the same m/k/n; `sizes` "const" passes m/k/n as constants,
    "args" as kernel arguments (the model then reads one batch's matrices off A and B)."""
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.tools.ascend_opt import AscendOptMain

    def mr(shape: str, et: str, scope: str) -> str:
        return f"memref<{shape}x{et}, #hivm.address_space<{scope}>>"

    a3, b3, c3 = mr(f"{batch}x{m}x{k}", "f16", "cbuf"), mr(f"{batch}x{k}x{n}", "f16", "cbuf"), mr(f"{batch}x{m}x{n}", "f32", "cc")
    a2, b2, c2 = mr(f"{m}x{k}", "f16", "cbuf"), mr(f"{k}x{n}", "f16", "cbuf"), mr(f"{m}x{n}", "f32", "cc")
    sizes_def = (f"  %m = arith.constant {m} : index\n  %k = arith.constant {k} : index\n  %n = arith.constant {n} : index\n"
                 if sizes == "const" else "")
    args = ", %m: index, %k: index, %n: index" if sizes == "args" else ""
    text = f"""
func.func @k(%a3: {a3}, %b3: {b3}, %c3: {c3}, %a2: {a2}, %b2: {b2}, %c2: {c2}{args}) attributes {{hacc.entry}} {{
  %t = arith.constant true
{sizes_def}  hivm.hir.batchMmadL1 ins(%a3, %b3, %t, %m, %k, %n : {a3}, {b3}, i1, index, index, index) outs(%c3 : {c3})
  hivm.hir.mmadL1 ins(%a2, %b2, %t, %m, %k, %n : {a2}, {b2}, i1, index, index, index) outs(%c2 : {c2})
  func.return
}}
"""
    module = parse_module(AscendOptMain(args=[]).ctx, text, "batch.mmad.mlir")
    batched = next(op for op in module.walk() if op.name == "hivm.hir.batchMmadL1")
    single = next(op for op in module.walk() if op.name == "hivm.hir.mmadL1")
    return batched, single


@pytest.mark.parametrize("chip_name", ["ascend950", "ascend910b"])
@pytest.mark.parametrize("sizes", ["const", "args"])
@pytest.mark.parametrize("m, k, n", [(16, 32, 16), (64, 128, 48), (128, 256, 128)])
def test_batch_mmad_is_a_loop_of_mmads(chip_name, sizes, m, k, n):
    """batchMmadL1 costs what bishengir runs it as (hivm-tile-batchmm-into-loop: one
    mmadL1 per batch index, in a loop): its pipes are busy batch x mmadL1's ii, its result
    is ready one mmadL1 latency after the last batch issues; one batch is one mmadL1.
    Before, it took the scalar issue cost (1 cycle) whatever its size."""
    from ascend_mlir.analysis.latency_model import estimate, read_latencies

    chip = load_chip(chip_name)
    previous = None
    for batch in (1, 2, 3, 8):
        batched, single = _batch_mmad_ops(batch, m, k, n, sizes)
        one_lat, one_ii = estimate(single, chip)
        assert (one_lat, one_ii) == tuple(mmad_cost(chip, m, n, k, "fp16", 16))
        lat, ii = estimate(batched, chip)
        assert ii == batch * one_ii
        assert lat == (batch - 1) * one_ii + one_lat
        if previous is not None:
            assert lat > previous[0] and ii > previous[1]
        previous = (lat, ii)
        # L1 is read once the last batch's MTE1 feed is over (WAR towards an L1 loader)
        one_feed = set(read_latencies(single, chip).values())
        feeds = set(read_latencies(batched, chip).values())
        assert len(one_feed) == 1 and feeds == {(batch - 1) * one_ii + one_feed.pop()}
        assert max(feeds) <= lat



def test_mmad_on_nz_fractals_with_runtime_sizes_takes_the_fractals():
    """triton's matmul through bishengir: mmadL1 on [c1, r1, r0, c0] fractal tiles with
    m/k/n computed at run time is the (r1 r0) x (c1 c0) matrices' work (it was a per-pipe
    default: 'a and b must be 2-D')."""
    from ascend_mlir.analysis.latency_model import estimate
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.tools.ascend_opt import AscendOptMain

    a_t = "memref<4x2x16x16xf16, #hivm.address_space<cbuf>>"  # A: 32 rows x 64 (K)
    b_t = "memref<3x4x16x16xf16, #hivm.address_space<cbuf>>"  # B: 64 (K) x 48 columns
    c_t = "memref<3x2x16x16xf32, #hivm.address_space<cc>>"
    text = f"""
func.func @k(%a: {a_t}, %b: {b_t}, %c: {c_t}, %m: index, %k: index, %n: index, %init: i1) attributes {{hacc.entry}} {{
  hivm.hir.mmadL1 ins(%a, %b, %init, %m, %k, %n : {a_t}, {b_t}, i1, index, index, index) outs(%c : {c_t})
  func.return
}}
"""
    module = parse_module(AscendOptMain(args=[]).ctx, text, "nz.mlir")
    mmad = next(op for op in module.walk() if op.name == "hivm.hir.mmadL1")
    for chip in (CHIP, load_chip("ascend910b")):
        assert estimate(mmad, chip) == tuple(mmad_cost(chip, 32, 48, 64, "fp16", 16))
