"""Data semantics of the hivm front end of the simulator (numpy results checked against
independent numpy computations), GM handling over blocks, aliasing of planned buffers,
and the latency perturbation."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_mlir.diagnostics import parse_module
from ascend_mlir.sim import numerics
from ascend_mlir.sim.hivm_frontend import SimulationError
from ascend_mlir.sim.reference_numerics import BF16, round_to_bf16
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.tools.ascend_opt import AscendOptMain

_CTX = None


def parse(text: str):
    global _CTX
    if _CTX is None:
        _CTX = AscendOptMain(args=[]).ctx
    return parse_module(_CTX, text, "test.mlir")


def mr(shape: str, dtype: str, scope: str) -> str:
    return f"memref<{shape}x{dtype}, #hivm.address_space<{scope}>>"


def kernel(args: list[tuple[str, str, str]], body: str, attrs: str = "hacc.entry") -> str:
    """A one-function module; args are (name, shape, dtype) GM memrefs."""
    params = ", ".join(f"%{n}: {mr(s, t, 'gm')}" for n, s, t in args)
    return f"module {{\n  func.func @k({params}) attributes {{{attrs}}} {{\n{body}\n    return\n  }}\n}}\n"


def load(gm: str, ub: str, shape: str, t: str) -> str:
    return f"    hivm.hir.load ins(%{gm} : {mr(shape, t, 'gm')}) outs(%{ub} : {mr(shape, t, 'ub')})"


def store(ub: str, gm: str, shape: str, t: str, extra: str = "") -> str:
    return f"    hivm.hir.store ins(%{ub} : {mr(shape, t, 'ub')}) outs(%{gm} : {mr(shape, t, 'gm')}){extra}"


def alloc(name: str, shape: str, t: str, scope: str = "ub") -> str:
    return f"    %{name} = memref.alloc() : {mr(shape, t, scope)}"


BARRIER = "    hivm.hir.pipe_barrier[<PIPE_ALL>]"
# same-pipe rule: dependent vector ops need a V barrier between them
V_BARRIER = "    hivm.hir.pipe_barrier[<PIPE_V>]"


def run_ok(text: str, inputs: dict, **kw):
    r = simulate(parse(text), inputs, **kw)
    assert r.races == [] and not r.deadlock and not r.double_sets, r.to_json()
    return r


def unary_program(op_line: str, src_t: str, dst_t: str, shape: str = "4x8") -> str:
    return kernel(
        [("x", shape, src_t), ("y", shape, dst_t)],
        "\n".join([
            alloc("u", shape, src_t), alloc("v", shape, dst_t),
            load("x", "u", shape, src_t), BARRIER, op_line, BARRIER, store("v", "y", shape, dst_t),
        ]),
    )


@pytest.mark.parametrize("mode", ["rint", "round", "floor", "ceil", "trunc"])
def test_vcast_f32_to_i32_round_modes(mode):
    x = np.array([[-2.5, -1.5, -0.5, 0.5], [1.5, 2.5, 2.4, -2.6]], dtype=np.float32).reshape(2, 4)
    attr = "" if mode == "rint" else f" round_mode = <{mode}>"
    op = (f"    hivm.hir.vcast ins(%u : {mr('2x4', 'f32', 'ub')}) outs(%v : {mr('2x4', 'i32', 'ub')}){attr}")
    r = run_ok(unary_program(op, "f32", "i32", "2x4"), {"arg0": x, "arg1": np.zeros((2, 4), np.int32)})
    expected = {
        "rint": np.rint(x),
        "round": np.sign(x) * np.floor(np.abs(x) + 0.5),
        "floor": np.floor(x),
        "ceil": np.ceil(x),
        "trunc": np.trunc(x),
    }[mode].astype(np.int32)
    assert np.array_equal(r.outputs["arg1"], expected)


@pytest.mark.parametrize("mode", ["rint", "floor", "ceil", "trunc", "odd"])
def test_vcast_f32_to_f16_directed_rounding(mode):
    # 1 + 2^-12 lies strictly between the f16 neighbours 1 and 1 + 2^-10
    lo, hi = np.float16(1.0), np.nextafter(np.float16(1.0), np.float16(2.0))
    x = np.array([1 + 2.0**-12, -(1 + 2.0**-12), 3.0, 1 + 2.0**-11], dtype=np.float32)
    attr = "" if mode == "rint" else f" round_mode = <{mode}>"
    op = f"    hivm.hir.vcast ins(%u : {mr('4', 'f32', 'ub')}) outs(%v : {mr('4', 'f16', 'ub')}){attr}"
    r = run_ok(unary_program(op, "f32", "f16", "4"), {"arg0": x, "arg1": np.zeros(4, np.float16)})
    got = r.outputs["arg1"]
    expected_first = {"rint": lo, "floor": lo, "ceil": hi, "trunc": lo, "odd": hi}[mode]
    assert got[0] == expected_first
    assert got[1] == -{"rint": lo, "floor": hi, "ceil": lo, "trunc": lo, "odd": hi}[mode]
    assert got[2] == np.float16(3.0)  # exact values never move
    # the tie 1 + 2^-11: nearest-even gives 1.0
    if mode == "rint":
        assert got[3] == lo


def test_bf16_storage_and_rounding():
    x = np.array([1.0, 1 + 2.0**-8, 1 + 3 * 2.0**-9, -3.140625], dtype=np.float32)
    expected = round_to_bf16(x)
    assert expected[1] == 1.0  # tie to even
    assert expected[2] == np.float32(1 + 2.0**-7)
    op = f"    hivm.hir.vcast ins(%u : {mr('4', 'f32', 'ub')}) outs(%v : {mr('4', 'bf16', 'ub')})"
    r = run_ok(unary_program(op, "f32", "bf16", "4"), {"arg0": x, "arg1": np.zeros(4, BF16)})
    assert r.outputs["arg1"].dtype == BF16  # one storage convention: ml_dtypes.bfloat16
    assert np.array_equal(r.outputs["arg1"].astype(np.float32), expected)


def test_vreduce_and_vbrc_and_scalar_operand():
    body = "\n".join([
        alloc("u", "4x8", "f32"), alloc("r", "4x1", "f32"), alloc("m", "4x1", "f32"),
        alloc("b", "4x8", "f32"), alloc("w", "4x8", "f32"),
        load("x", "u", "4x8", "f32"), BARRIER,
        f"    hivm.hir.vreduce <sum> ins(%u : {mr('4x8', 'f32', 'ub')}) outs(%r : {mr('4x1', 'f32', 'ub')}) reduce_dims = [1]",
        f"    hivm.hir.vreduce <max> ins(%u : {mr('4x8', 'f32', 'ub')}) outs(%m : {mr('4x1', 'f32', 'ub')}) reduce_dims = [1]",
        V_BARRIER,
        f"    hivm.hir.vbrc ins(%r : {mr('4x1', 'f32', 'ub')}) outs(%b : {mr('4x8', 'f32', 'ub')}) broadcast_dims = [1]",
        "    %half = arith.constant 0.5 : f32",
        V_BARRIER,
        f"    hivm.hir.vmul ins(%b, %half : {mr('4x8', 'f32', 'ub')}, f32) outs(%w : {mr('4x8', 'f32', 'ub')})",
        V_BARRIER,
        f"    hivm.hir.vsub ins(%w, %u : {mr('4x8', 'f32', 'ub')}, {mr('4x8', 'f32', 'ub')}) outs(%w : {mr('4x8', 'f32', 'ub')})",
        BARRIER, store("w", "y", "4x8", "f32"), store("m", "z", "4x1", "f32"),
    ])
    text = kernel([("x", "4x8", "f32"), ("y", "4x8", "f32"), ("z", "4x1", "f32")], body)
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
    r = run_ok(text, {"arg0": x, "arg1": np.zeros((4, 8), np.float32), "arg2": np.zeros((4, 1), np.float32)})
    s = np.sum(x, axis=1, keepdims=True, dtype=np.float32)
    assert np.array_equal(r.outputs["arg1"], (np.broadcast_to(s, (4, 8)) * np.float32(0.5)) - x)
    assert np.array_equal(r.outputs["arg2"], x.max(axis=1, keepdims=True))


def test_unary_ops_f16_round_once():
    x = np.linspace(0.5, 2.0, 16, dtype=np.float16).reshape(2, 8)
    ops = {"vexp": np.exp, "vsqrt": np.sqrt, "vrec": lambda v: 1 / v, "vrsqrt": lambda v: 1 / np.sqrt(v),
           "vln": np.log, "vabs": np.abs, "vrelu": lambda v: np.maximum(v, 0)}
    for name, fn in ops.items():
        op = f"    hivm.hir.{name} ins(%u : {mr('2x8', 'f16', 'ub')}) outs(%v : {mr('2x8', 'f16', 'ub')})"
        r = run_ok(unary_program(op, "f16", "f16", "2x8"), {"arg0": x, "arg1": np.zeros((2, 8), np.float16)})
        expected = fn(x.astype(np.float32)).astype(np.float16)
        assert np.array_equal(r.outputs["arg1"], expected), name


def mmad_program(b_transpose: bool) -> str:
    bshape = "32x16" if b_transpose else "16x32"
    attr = " {b_transpose}" if b_transpose else ""
    body = "\n".join([
        "    %t = arith.constant true",
        "    %f = arith.constant false",
        "    %c16 = arith.constant 16 : index",
        "    %c32 = arith.constant 32 : index",
        alloc("la", "32x16", "f16", "cbuf"), alloc("lb", bshape, "f16", "cbuf"), alloc("acc", "32x32", "f32", "cc"),
        f"    hivm.hir.nd2nz {{dst_continuous}} ins(%a : {mr('32x16', 'f16', 'gm')}) outs(%la : {mr('32x16', 'f16', 'cbuf')})",
        f"    hivm.hir.nd2nz {{dst_continuous}} ins(%b : {mr(bshape, 'f16', 'gm')}) outs(%lb : {mr(bshape, 'f16', 'cbuf')})",
        "    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]",
        # init: acc = A @ B, then accumulate the same product once more
        f"    hivm.hir.mmadL1{attr} ins(%la, %lb, %t, %c32, %c16, %c32 : {mr('32x16', 'f16', 'cbuf')}, {mr(bshape, 'f16', 'cbuf')}, i1, index, index, index) outs(%acc : {mr('32x32', 'f32', 'cc')})",
        f"    hivm.hir.mmadL1{attr} ins(%la, %lb, %f, %c32, %c16, %c32 : {mr('32x16', 'f16', 'cbuf')}, {mr(bshape, 'f16', 'cbuf')}, i1, index, index, index) outs(%acc : {mr('32x32', 'f32', 'cc')})",
        "    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]",
        f"    hivm.hir.fixpipe {{dma_mode = #hivm.dma_mode<nz2nd>}} ins(%acc : {mr('32x32', 'f32', 'cc')}) outs(%c : {mr('32x32', 'f32', 'gm')})",
    ])
    return kernel([("a", "32x16", "f16"), ("b", bshape, "f16"), ("c", "32x32", "f32")], body)


@pytest.mark.parametrize("b_transpose", [False, True])
def test_mmad_init_accumulate_and_transpose(b_transpose):
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (32, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 16) if b_transpose else (16, 32)).astype(np.float16)
    r = run_ok(mmad_program(b_transpose), {"arg0": a, "arg1": b, "arg2": np.zeros((32, 32), np.float32)})
    bm = b.T if b_transpose else b
    prod = a.astype(np.float32) @ bm.astype(np.float32)
    assert np.allclose(r.outputs["arg2"], prod + prod, rtol=1e-6, atol=1e-6)
    assert r.cores == ["cube"]


def test_mmad_without_sync_races():
    text = mmad_program(False).replace("    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]\n", "")
    r = simulate(parse(text), None)
    assert {(x.first, x.second) for x in r.races} >= {("nd2nz", "mmadL1")}


def grid_store_program(offset_by_block: bool, atomic: bool) -> str:
    body = "\n".join([
        "    %c0 = arith.constant 0 : index",
        "    %c16 = arith.constant 16 : index",
        "    %blk = hivm.hir.get_block_idx -> i64",
        "    %bi = arith.index_cast %blk : i64 to index",
        f"    %off = arith.muli %bi, {'%c16' if offset_by_block else '%c0'} : index",
        f"    %xs = memref.subview %x[%off] [16] [1] : {mr('64', 'f32', 'gm')} to memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>",
        f"    %zs = memref.subview %z[%off] [16] [1] : {mr('64', 'f32', 'gm')} to memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>",
        alloc("u", "16", "f32"),
        "    hivm.hir.load ins(%xs : memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)",
        BARRIER,
        "    hivm.hir.store ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%zs : memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)"
        + (" atomic = <add>" if atomic else ""),
    ])
    return kernel([("x", "64", "f32"), ("z", "64", "f32")], body, "hacc.entry, ascend.grid = 4 : i64")


def test_all_blocks_run_on_shared_gm():
    x = np.arange(64, dtype=np.float32)
    r = run_ok(grid_store_program(True, False), {"arg0": x, "arg1": np.zeros(64, np.float32)})
    assert np.array_equal(r.outputs["arg1"], x) and r.blocks == 4


def test_blocks_writing_the_same_gm_race_unless_atomic():
    x = np.arange(64, dtype=np.float32)
    inputs = {"arg0": x, "arg1": np.zeros(64, np.float32)}
    r = simulate(parse(grid_store_program(False, False)), inputs)
    assert r.races and {x.kind for x in r.races} == {"write-write"}
    assert r.races[0].first_core.startswith("block") and r.races[0].second_core.startswith("block")
    r = run_ok(grid_store_program(False, True), inputs)
    assert np.array_equal(r.outputs["arg1"][:16], x[:16] * 4)


def test_pointer_casts_at_the_same_offset_alias():
    body = "\n".join([
        "    %zero = arith.constant 0 : i64",
        f"    %p = hivm.hir.pointer_cast(%zero) : {mr('8', 'f32', 'ub')}",
        f"    %q = hivm.hir.pointer_cast(%zero) : {mr('8', 'f32', 'ub')}",
        load("x", "p", "8", "f32"), BARRIER,
        f"    hivm.hir.store ins(%q : {mr('8', 'f32', 'ub')}) outs(%y : {mr('8', 'f32', 'gm')})",
    ])
    x = np.arange(8, dtype=np.float32) + 1
    r = run_ok(kernel([("x", "8", "f32"), ("y", "8", "f32")], body), {"arg0": x, "arg1": np.zeros(8, np.float32)})
    assert np.array_equal(r.outputs["arg1"], x)
    # without the barrier, the store through the alias races with the load
    r = simulate(parse(kernel([("x", "8", "f32"), ("y", "8", "f32")], body.replace(BARRIER + "\n", ""))),
                 {"arg0": x, "arg1": np.zeros(8, np.float32)})
    assert [(x.first, x.second, x.kind) for x in r.races] == [("load", "store", "write-read")]


def test_perturbed_latencies_keep_outputs_and_change_timing():
    text = mmad_program(False)
    rng = np.random.default_rng(1)
    inputs = {"arg0": rng.uniform(-1, 1, (32, 16)).astype(np.float16),
              "arg1": rng.uniform(-1, 1, (16, 32)).astype(np.float16),
              "arg2": np.zeros((32, 32), np.float32)}
    base = run_ok(text, inputs)
    cycles = {base.cycles}
    for seed in range(1, 4):
        r = run_ok(text, inputs, perturb=seed)
        assert np.array_equal(r.outputs["arg2"], base.outputs["arg2"])
        cycles.add(r.cycles)
    assert len(cycles) > 1


def test_latency_attributes_drive_timing():
    body = "\n".join([alloc("u", "8", "f32"), load("x", "u", "8", "f32")]).replace(
        "outs(%u : memref<8xf32, #hivm.address_space<ub>>)",
        "outs(%u : memref<8xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 777, ii = 5>}",
    )
    r = run_ok(kernel([("x", "8", "f32")], body), {"arg0": np.zeros(8, np.float32)})
    (load_event,) = [e for e in r.trace if e.name == "load"]
    assert load_event.end - load_event.start == 777


def test_unsupported_op_is_a_located_error():
    body = ("    %u = memref.alloc() : memref<8xf32>\n    %v = memref.alloc() : memref<8xf32>\n"
            "    memref.copy %u, %v : memref<8xf32> to memref<8xf32>")
    with pytest.raises(SimulationError) as info:
        simulate(parse(kernel([("x", "8", "f32")], body)), {"arg0": np.zeros(8, np.float32)})
    assert "the simulator does not support 'memref.copy'" in str(info.value)
    assert info.value.op is not None and info.value.op.name == "memref.copy"


SPLIT_PAIR = """
module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @mm_mix_aic(%a: memref<32x16xf16, #hivm.address_space<gm>>, %b: memref<16x32xf16, #hivm.address_space<gm>>,
                        %c: memref<32x32xf32, #hivm.address_space<gm>>) attributes {hacc.entry} {
    %t = arith.constant true
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %la = memref.alloc() : memref<32x16xf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<16x32xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<32x32xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<32x32xf32, #hivm.address_space<ub>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x16xf16, #hivm.address_space<gm>>) outs(%la : memref<32x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<16x32xf16, #hivm.address_space<gm>>) outs(%lb : memref<16x32xf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.mmadL1 ins(%la, %lb, %t, %c32, %c16, %c32 : memref<32x16xf16, #hivm.address_space<cbuf>>, memref<16x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32, #hivm.address_space<cc>>)
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<32x32xf32, #hivm.address_space<cc>>) outs(%uc : memref<32x32xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 3
    return
  }
  func.func @mm_mix_aiv(%a: memref<32x16xf16, #hivm.address_space<gm>>, %b: memref<16x32xf16, #hivm.address_space<gm>>,
                        %c: memref<32x32xf32, #hivm.address_space<gm>>) attributes {hacc.entry} {
    %ur = memref.alloc() : memref<32x32xf32, #hivm.address_space<ub>>
    %uc = memref.alloc() : memref<32x32xf32, #hivm.address_space<ub>>
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 3
    hivm.hir.vrelu ins(%uc : memref<32x32xf32, #hivm.address_space<ub>>) outs(%ur : memref<32x32xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%ur : memref<32x32xf32, #hivm.address_space<ub>>) outs(%c : memref<32x32xf32, #hivm.address_space<gm>>)
    return
  }
}
"""


def test_split_mix_pair_shares_the_named_ub_buffer():
    rng = np.random.default_rng(2)
    a = rng.uniform(-1, 1, (32, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 32)).astype(np.float16)
    r = run_ok(SPLIT_PAIR, {"arg0": a, "arg1": b, "arg2": np.zeros((32, 32), np.float32)})
    assert r.cores == ["cube", "vec0"]
    expected = np.maximum(a.astype(np.float32) @ b.astype(np.float32), 0)
    assert np.allclose(r.outputs["arg2"], expected, rtol=1e-6, atol=1e-6)
    # without the cross-core wait the vector core reads the tile too early
    racy = SPLIT_PAIR.replace("    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 3\n", "")
    r = simulate(parse(racy), {"arg0": a, "arg1": b, "arg2": np.zeros((32, 32), np.float32)})
    assert [(x.first, x.first_core, x.second, x.second_core) for x in r.races] == [
        ("fixpipe", "cube", "vrelu", "vec0")
    ]


def test_scalar_unit_rounds_float_scalars_to_their_type():
    body = "\n".join([
        "    %a = arith.constant 0.1 : f16",
        "    %b = arith.constant 0.2 : f16",
        "    %s = arith.addf %a, %b : f16",
        alloc("u", "4", "f32"), alloc("v", "4", "f32"),
        "    %w = arith.extf %s : f16 to f32",
        f"    hivm.hir.vbrc ins(%w : f32) outs(%v : {mr('4', 'f32', 'ub')})",
        BARRIER, store("v", "y", "4", "f32"),
    ])
    r = run_ok(kernel([("y", "4", "f32")], body), {"arg0": np.zeros(4, np.float32)})
    expected = np.float32(np.float16(np.float16(0.1) + np.float16(0.2)))
    assert np.all(r.outputs["arg0"] == expected)


def test_vcast_bitcast_and_unsigned_source():
    x = np.array([1.0, -2.0, 0.5, 3.0], dtype=np.float32)
    op = f"    hivm.hir.vcast ins(%u : {mr('4', 'f32', 'ub')}) outs(%v : {mr('4', 'i32', 'ub')}) cast = <bitcast>"
    r = run_ok(unary_program(op, "f32", "i32", "4"), {"arg0": x, "arg1": np.zeros(4, np.int32)})
    assert np.array_equal(r.outputs["arg1"], x.view(np.int32))
    b = np.array([-1, 2, -128, 127], dtype=np.int8)
    op = f"    hivm.hir.vcast ins(%u : {mr('4', 'i8', 'ub')}) outs(%v : {mr('4', 'f16', 'ub')}) cast = <cast_unsigned>"
    r = run_ok(unary_program(op, "i8", "f16", "4"), {"arg0": b, "arg1": np.zeros(4, np.float16)})
    assert np.array_equal(r.outputs["arg1"], b.view(np.uint8).astype(np.float16))


def test_reinterpret_cast_and_collapse_address_the_allocation():
    body = "\n".join([
        "    %c4 = arith.constant 4 : index",
        "    %off = arith.constant 64 : i64",
        f"    %p = hivm.hir.pointer_cast(%off) : {mr('4x4', 'f32', 'ub')}",
        load("x", "p", "4x4", "f32"), BARRIER,
        # rows 1..2 of the tile through a subview, then back to the allocation's row 2
        f"    %s = memref.subview %p[1, 0] [2, 4] [1, 1] : {mr('4x4', 'f32', 'ub')} to memref<2x4xf32, strided<[4, 1], offset: 4>, #hivm.address_space<ub>>",
        "    %r = memref.reinterpret_cast %s to offset: [8], sizes: [4], strides: [1] : memref<2x4xf32, strided<[4, 1], offset: 4>, #hivm.address_space<ub>> to memref<4xf32, strided<[1], offset: 8>, #hivm.address_space<ub>>",
        f"    %flat = memref.collapse_shape %p [[0, 1]] : {mr('4x4', 'f32', 'ub')} into {mr('16', 'f32', 'ub')}",
        "    hivm.hir.store ins(%r : memref<4xf32, strided<[1], offset: 8>, #hivm.address_space<ub>>) outs(%y : memref<4xf32, #hivm.address_space<gm>>)",
        f"    hivm.hir.store ins(%flat : {mr('16', 'f32', 'ub')}) outs(%z : {mr('16', 'f32', 'gm')})",
    ])
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    text = kernel([("x", "4x4", "f32"), ("y", "4", "f32"), ("z", "16", "f32")], body)
    r = run_ok(text, {"arg0": x, "arg1": np.zeros(4, np.float32), "arg2": np.zeros(16, np.float32)})
    assert np.array_equal(r.outputs["arg1"], x[2])
    assert np.array_equal(r.outputs["arg2"], x.reshape(-1))


def test_load_padding():
    def program(extra: str) -> str:
        body = "\n".join([
            "    %pad = arith.constant -1.0 : f32",
            "    %two = arith.constant 2 : index",
            alloc("u", "2x8", "f32"),
            f"    hivm.hir.load ins(%x : {mr('2x4', 'f32', 'gm')}) outs(%u : {mr('2x8', 'f32', 'ub')}){extra}",
            BARRIER, store("u", "y", "2x8", "f32"),
        ])
        return kernel([("x", "2x4", "f32"), ("y", "2x8", "f32")], body)

    x = np.arange(8, dtype=np.float32).reshape(2, 4) + 1
    inputs = {"arg0": x, "arg1": np.zeros((2, 8), np.float32)}
    r = run_ok(program(" pad_mode = <PadValue> pad_value = %pad : f32 left_padding_num = %two : index"), inputs)
    expected = np.full((2, 8), -1, np.float32)
    expected[:, 2:6] = x
    assert np.array_equal(r.outputs["arg1"], expected)
    # without a pad value nothing but the data is written (the ub starts zeroed here)
    r = run_ok(program(" pad_mode = <PadNull>"), inputs)
    expected = np.zeros((2, 8), np.float32)
    expected[:, :4] = x
    assert np.array_equal(r.outputs["arg1"], expected)


def test_unsigned_integer_ops_read_their_operands_unsigned():
    """arith.divui / remui / maxui treat the bits as unsigned, as MLIR does: -8 as i32 is
    4294967288. One table (sim/scalar_semantics.py) serves the simulator's scalar unit
    and the reference interpreter, so they cannot disagree."""
    from xdsl.dialects import arith, func
    from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
    from xdsl.ir import Block, Region

    from ascend_mlir.sim import reference
    from ascend_mlir.sim.scalar_semantics import register_scalar_functions, scalar

    cases = ((arith.DivUIOp, 4294967288 // 3), (arith.RemUIOp, 4294967288 % 3), (arith.MaxUIOp, -8),
             (arith.DivSIOp, -2), (arith.RemSIOp, -2), (arith.ShRUIOp, 4294967288 >> 3))
    for op_type, want in cases:
        lhs = arith.ConstantOp(IntegerAttr(-8, i32))
        rhs = arith.ConstantOp(IntegerAttr(3, i32))
        op = op_type(lhs.result, rhs.result)
        body = Block([lhs, rhs, op, func.ReturnOp(op.result)])
        kernel = func.FuncOp("f", ((), (i32,)), Region(body))
        module = ModuleOp([kernel])
        for make in (lambda m: _scalar_interpreter(m, register_scalar_functions), reference.make_interpreter):
            (got,) = make(module).call_op("f", ())
            assert scalar(got) == want, (op_type.__name__, make)


def _scalar_interpreter(module, register):
    from xdsl.interpreter import Interpreter

    interpreter = Interpreter(module, index_bitwidth=64)
    register(interpreter)
    return interpreter


def test_scalar_unit_costs_instructions_not_constants():
    """arith.constant is an immediate of the instructions that use it: a kernel with
    many constants before its first load issues that load as early as one without
    them, while real scalar work (arith.addi) delays it one cycle per op."""
    base = [alloc("u", "8", "f32"), load("x", "u", "8", "f32"), BARRIER, store("u", "y", "8", "f32")]
    consts = [f"    %k{i} = arith.constant {i} : index" for i in range(20)]
    adds = [f"    %a{i} = arith.addi %k{i}, %k{i} : index" for i in range(20)]
    x = {"arg0": np.arange(8, dtype=np.float32), "arg1": np.zeros(8, np.float32)}

    def first_load(body: list[str]) -> int:
        r = run_ok(kernel([("x", "8", "f32"), ("y", "8", "f32")], "\n".join(body)), dict(x))
        return min(e.start for e in r.trace if e.name == "load")

    plain = first_load(base)
    assert first_load(consts + base) == plain
    assert first_load(consts + adds + base) == plain + len(adds)


def test_scalar_read_back_of_a_reduction_feeds_a_vector_op():
    """bishengir's softmax shape: vreduce into UB, wait_flag[V, S], memref.load of the
    result by the scalar unit, then a vector op with it as the scalar operand (which
    overwrites the reduction's input, ordered by the wait on S alone)."""
    body = "\n".join([
        "    %c0 = arith.constant 0 : index",
        "    %zero = arith.constant 0.0 : f32",
        alloc("u", "8", "f32"), alloc("m", "1", "f32"),
        load("x", "u", "8", "f32"),
        "    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]",
        f"    hivm.hir.vreduce <max> ins(%u : {mr('8', 'f32', 'ub')}) outs(%m : {mr('1', 'f32', 'ub')}) reduce_dims = [0]",
        "    hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]",
        f"    %mx = memref.load %m[%c0] : {mr('1', 'f32', 'ub')}",
        "    %neg = arith.subf %zero, %mx : f32",
        f"    hivm.hir.vadd ins(%u, %neg : {mr('8', 'f32', 'ub')}, f32) outs(%u : {mr('8', 'f32', 'ub')})",
        "    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]",
        store("u", "y", "8", "f32"),
    ])
    x = np.arange(8, dtype=np.float32) - 3
    r = run_ok(kernel([("x", "8", "f32"), ("y", "8", "f32")], body), {"arg0": x, "arg1": np.zeros(8, np.float32)})
    np.testing.assert_array_equal(r.outputs["arg1"], x - x.max())


def test_scalar_counter_on_the_stack_across_loop_iterations():
    """bishengir-a5's loop counters: an alloca without a memory space (the scalar unit's
    stack, each core's own) that memref.store sets and memref.load reads back on PIPE_S;
    the count picks the add of the first iteration apart from the others (the triton
    matmul_kconst dump runs such counters in four blocks, race-free: test_triton_dumps)."""
    body = "\n".join([
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c3 = arith.constant 3 : index",
        "    %i0 = arith.constant 0 : i32",
        "    %i1 = arith.constant 1 : i32",
        "    %one = arith.constant 1.0 : f32",
        "    %ten = arith.constant 10.0 : f32",
        "    %count = memref.alloca() : memref<1xi32>",
        "    memref.store %i0, %count[%c0] : memref<1xi32>",
        alloc("u", "8", "f32"),
        load("x", "u", "8", "f32"),
        BARRIER,
        "    scf.for %iv = %c0 to %c3 step %c1 {",
        "      %n = memref.load %count[%c0] : memref<1xi32>",
        "      %first = arith.cmpi eq, %n, %i0 : i32",
        "      %step = arith.select %first, %ten, %one : f32",
        f"      hivm.hir.vadd ins(%u, %step : {mr('8', 'f32', 'ub')}, f32) outs(%u : {mr('8', 'f32', 'ub')})",
        "      hivm.hir.pipe_barrier[<PIPE_V>]",
        "      %next = arith.addi %n, %i1 : i32",
        "      memref.store %next, %count[%c0] : memref<1xi32>",
        "    }",
        BARRIER,
        store("u", "y", "8", "f32"),
    ])
    x = np.arange(8, dtype=np.float32)
    r = run_ok(kernel([("x", "8", "f32"), ("y", "8", "f32")], body), {"arg0": x, "arg1": np.zeros(8, np.float32)})
    np.testing.assert_array_equal(r.outputs["arg1"], x + 12)


@pytest.mark.parametrize("et", [numerics.BF16, numerics.F16, numerics.F32], ids=lambda et: et.name)
def test_stored_values_stored_again_are_the_round_trip(et):
    """A copy between memories of one element type stores what it read as it is
    (numerics.stored_again), which is the decode/encode round trip on every 16-bit
    pattern (bf16 NaNs become the canonical quiet NaN, as the round trip makes them)
    and on random f32 patterns."""
    if et.itemsize == 2:
        bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    else:
        bits = np.random.default_rng(0).integers(0, 1 << 32, size=1 << 16, dtype=np.uint64).astype(np.uint32)
    stored = bits.view(et.storage)
    again = numerics.stored_again(stored, et).view(bits.dtype)
    round_trip = numerics.encode(numerics.decode(stored, et), et).view(bits.dtype)
    assert (again == round_trip).all()
    assert et.name != "bf16" or (again != bits).any()  # the NaN case was exercised


def test_cmpi_answers_as_xdsl_does():
    """ScalarFunctions.run_cmpi (shared i1 attributes) gives xDSL's ArithFunctions'
    answer for every predicate, signed and unsigned, at widths 1, 8, 32 and index, on
    operands that differ only as signed or unsigned numbers."""
    from xdsl.dialects import arith, func
    from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
    from xdsl.interpreter import Interpreter
    from xdsl.interpreters.arith import ArithFunctions
    from xdsl.interpreters.func import FuncFunctions
    from xdsl.ir import Block, Region

    from ascend_mlir.sim.scalar_semantics import ScalarFunctions

    for value_type, values in ((IntegerType(1), (0, -1)), (IntegerType(8), (-128, -1, 0, 5, 127)),
                               (IntegerType(32), (-8, 3, 0, 2**31 - 1)), (IndexType(), (-2, 0, 7))):
        for predicate in range(10):
            for a in values:
                for b in values:
                    lhs, rhs = arith.ConstantOp(IntegerAttr(a, value_type)), arith.ConstantOp(IntegerAttr(b, value_type))
                    op = arith.CmpiOp(lhs.result, rhs.result, predicate)
                    body = Block([lhs, rhs, op, func.ReturnOp(op.result)])
                    module = ModuleOp([func.FuncOp("f", ((), (IntegerType(1),)), Region(body))])
                    answers = []
                    for functions in (ArithFunctions(), ScalarFunctions()):
                        interpreter = Interpreter(module, index_bitwidth=64)
                        interpreter.register_implementations(ArithFunctions())
                        interpreter.register_implementations(FuncFunctions())
                        interpreter.register_implementations(functions, override=True)
                        answers.append(interpreter.call_op("f", ())[0])
                    assert answers[0] == answers[1], (value_type, predicate, a, b, answers)

