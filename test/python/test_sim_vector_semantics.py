"""Simulator semantics of the vector ops of foreign kernels (bitwise, shifts, compare and
select, vmod/vpow, transcendental, cumulative, bitcast), each run as a small synced
kernel (load, op, store) and checked against an independent numpy computation; and
their timing: each is a PIPE_V instruction of its latency class, not one scalar issue."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ascend_mlir.sim.memory import SimulationError
from ascend_mlir.sim.simulator import simulate

from test_sim_semantics import BARRIER, alloc, kernel, load, mr, parse, store


def run(ops: list[str], args: list[tuple[str, str, str]], inputs: dict, temps: tuple[tuple[str, str, str], ...] | list[tuple[str, str, str]] = ()):
    """Load every input arg (all but the last) to UB, run `ops`, store %out to the last arg."""
    body = [alloc(f"u{i}", s, t) for i, (_, s, t) in enumerate(args[:-1])]
    body += [alloc(n, s, t) for n, s, t in temps]
    name, shape, t = args[-1]
    body += [alloc("out", shape, t)]
    body += [load(n, f"u{i}", s, tt) for i, (n, s, tt) in enumerate(args[:-1])]
    body += [BARRIER, *ops, BARRIER, store("out", name, shape, t)]
    r = simulate(parse(kernel(args, "\n".join(body))), inputs)
    assert r.races == [] and not r.deadlock and not r.double_sets and r.ok, r.to_json()
    return r.outputs[f"arg{len(args) - 1}"], r


RNG = np.random.default_rng(7)
I16 = RNG.integers(-30000, 30000, size=(4, 8), dtype=np.int16)
J16 = RNG.integers(-30000, 30000, size=(4, 8), dtype=np.int16)


@pytest.mark.parametrize(("op", "fn"), [("vand", np.bitwise_and), ("vor", np.bitwise_or), ("vxor", np.bitwise_xor)])
def test_bitwise_binary(op, fn):
    line = f"    hivm.hir.{op} ins(%u0, %u1 : {mr('4x8', 'i16', 'ub')}, {mr('4x8', 'i16', 'ub')}) outs(%out : {mr('4x8', 'i16', 'ub')})"
    got, _ = run([line], [("a", "4x8", "i16"), ("b", "4x8", "i16"), ("c", "4x8", "i16")],
                 {"arg0": I16, "arg1": J16, "arg2": np.zeros((4, 8), np.int16)})
    assert np.array_equal(got, fn(I16, J16))


def test_vnot_on_integers_and_masks():
    line = f"    hivm.hir.vnot ins(%u0 : {mr('4x8', 'i16', 'ub')}) outs(%out : {mr('4x8', 'i16', 'ub')})"
    got, _ = run([line], [("a", "4x8", "i16"), ("c", "4x8", "i16")], {"arg0": I16, "arg1": np.zeros((4, 8), np.int16)})
    assert np.array_equal(got, ~I16)
    mask = RNG.integers(0, 2, size=(16,)).astype(np.bool_)
    line = f"    hivm.hir.vnot ins(%u0 : {mr('16', 'i1', 'ub')}) outs(%out : {mr('16', 'i1', 'ub')})"
    got, _ = run([line], [("a", "16", "i1"), ("c", "16", "i1")], {"arg0": mask, "arg1": np.zeros(16, np.bool_)})
    assert np.array_equal(got, ~mask)


@pytest.mark.parametrize("count", [0, 3, 15, 16])
def test_shifts_by_a_scalar(count):
    x = I16
    shl = (f"    %s = arith.constant {count} : i16\n"
           f"    hivm.hir.vshl ins(%u0, %s : {mr('4x8', 'i16', 'ub')}, i16) outs(%out : {mr('4x8', 'i16', 'ub')})")
    got, _ = run([shl], [("a", "4x8", "i16"), ("c", "4x8", "i16")], {"arg0": x, "arg1": np.zeros((4, 8), np.int16)})
    expected = np.zeros_like(x) if count >= 16 else (x.astype(np.int64) << count).astype(np.int16)
    assert np.array_equal(got, expected)
    for rounding in (False, True):
        shr = (f"    %s = arith.constant {count} : i16\n"
               f"    hivm.hir.vshr ins(%u0, %s : {mr('4x8', 'i16', 'ub')}, i16) outs(%out : {mr('4x8', 'i16', 'ub')}) round : {str(rounding).lower()}")
        got, _ = run([shr], [("a", "4x8", "i16"), ("c", "4x8", "i16")], {"arg0": x, "arg1": np.zeros((4, 8), np.int16)})
        if count >= 16:
            expected = np.where(x < 0, -1, 0).astype(np.int16)
        else:
            wide = x.astype(np.int64)
            expected = wide >> count
            if rounding and count > 0:
                expected = expected + ((wide >> (count - 1)) & 1)
            expected = expected.astype(np.int16)
        assert np.array_equal(got, expected), (count, rounding)


@pytest.mark.parametrize("mode", ["eq", "ne", "lt", "gt", "ge", "le"])
def test_vcmp_then_vsel(mode):
    """softmax a5's masking: a mask from a compare with a scalar, then a select between a vector and a scalar."""
    x = np.round(RNG.normal(size=(4, 8)) * 4).astype(np.float32)
    attr = "" if mode == "eq" else f" compare_mode = #hivm.compare_mode<{mode}>"
    ops = [
        "    %t = arith.constant 1.0 : f32",
        "    %z = arith.constant -7.5 : f32",
        f"    hivm.hir.vcmp ins(%u0, %t : {mr('4x8', 'f32', 'ub')}, f32) outs(%m : {mr('4x8', 'i1', 'ub')}){attr}",
        "    hivm.hir.pipe_barrier[<PIPE_V>]",
        f"    hivm.hir.vsel ins(%m, %u0, %z : {mr('4x8', 'i1', 'ub')}, {mr('4x8', 'f32', 'ub')}, f32) outs(%out : {mr('4x8', 'f32', 'ub')})",
    ]
    got, _ = run(ops, [("x", "4x8", "f32"), ("y", "4x8", "f32")], {"arg0": x, "arg1": np.zeros((4, 8), np.float32)},
                 temps=[("m", "4x8", "i1")])
    compare = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "gt": np.greater, "ge": np.greater_equal,
               "le": np.less_equal}[mode]
    assert np.array_equal(got, np.where(compare(x, np.float32(1.0)), x, np.float32(-7.5)))


def test_vmod_truncates_and_vpow_integer():
    a = np.array([[7, -7, 7, -7, 0, 5, 9, -9]], dtype=np.int32)
    b = np.array([[3, 3, -3, -3, 4, 0, 2, 5]], dtype=np.int32)
    line = f"    hivm.hir.vmod ins(%u0, %u1 : {mr('1x8', 'i32', 'ub')}, {mr('1x8', 'i32', 'ub')}) outs(%out : {mr('1x8', 'i32', 'ub')})"
    got, _ = run([line], [("a", "1x8", "i32"), ("b", "1x8", "i32"), ("c", "1x8", "i32")],
                 {"arg0": a, "arg1": b, "arg2": np.zeros((1, 8), np.int32)})
    expected = np.array([[int(math.fmod(x, y)) if y else 0 for x, y in zip(a[0], b[0])]], dtype=np.int32)
    assert np.array_equal(got, expected)
    base = np.array([[2, -3, 1, -1, -1, 5, 0, 4]], dtype=np.int32)
    exp = np.array([[10, 3, -4, -3, -2, 0, 0, -1]], dtype=np.int32)
    line = f"    hivm.hir.vpow ins(%u0, %u1 : {mr('1x8', 'i32', 'ub')}, {mr('1x8', 'i32', 'ub')}) outs(%out : {mr('1x8', 'i32', 'ub')})"
    got, _ = run([line], [("a", "1x8", "i32"), ("b", "1x8", "i32"), ("c", "1x8", "i32")],
                 {"arg0": base, "arg1": exp, "arg2": np.zeros((1, 8), np.int32)})
    assert np.array_equal(got, np.array([[1024, -27, 1, -1, 1, 1, 1, 0]], dtype=np.int32))


@pytest.mark.parametrize(("op", "fn"), [("vsin", np.sin), ("vcos", np.cos), ("vtanh", np.tanh),
                                        ("verf", np.vectorize(math.erf))])
def test_transcendental_f16_round_once(op, fn):
    x = np.linspace(-3, 3, 16, dtype=np.float16).reshape(2, 8)
    line = f"    hivm.hir.{op} ins(%u0 : {mr('2x8', 'f16', 'ub')}) outs(%out : {mr('2x8', 'f16', 'ub')})"
    got, _ = run([line], [("x", "2x8", "f16"), ("y", "2x8", "f16")], {"arg0": x, "arg1": np.zeros((2, 8), np.float16)})
    assert np.array_equal(got, fn(x.astype(np.float64)).astype(np.float32).astype(np.float16))


@pytest.mark.parametrize(("op", "reverse", "dims"), [("vcumsum", False, [1]), ("vcumsum", True, [0]),
                                                       ("vcumprod", False, [0, 1]), ("vcumprod", True, [1])])
def test_cumulative(op, reverse, dims):
    x = RNG.uniform(0.5, 1.5, size=(3, 5)).astype(np.float32)
    line = (f"    hivm.hir.{op} ins(%u0 : {mr('3x5', 'f32', 'ub')}) outs(%out : {mr('3x5', 'f32', 'ub')}) "
            f"cum_dims = {dims} reverse = {str(reverse).lower()}")
    got, _ = run([line], [("x", "3x5", "f32"), ("y", "3x5", "f32")], {"arg0": x, "arg1": np.zeros((3, 5), np.float32)})
    expected = x.copy()
    acc = np.cumsum if op == "vcumsum" else np.cumprod
    for d in dims:
        expected = np.flip(acc(np.flip(expected, d), axis=d), d) if reverse else acc(expected, axis=d)
    assert np.allclose(got, expected, rtol=1e-6)


def test_bitcast_sees_the_same_bytes():
    """bitcast is a view: vand through an i32 view of f32 data clears the sign bits."""
    x = RNG.normal(size=(2, 8)).astype(np.float32)
    ops = [
        f"    %bits = hivm.hir.bitcast %u0 : {mr('2x8', 'f32', 'ub')} -> {mr('2x8', 'i32', 'ub')}",
        f"    %obits = hivm.hir.bitcast %out : {mr('2x8', 'f32', 'ub')} -> {mr('2x8', 'i32', 'ub')}",
        f"    hivm.hir.vand ins(%bits, %u1 : {mr('2x8', 'i32', 'ub')}, {mr('2x8', 'i32', 'ub')}) outs(%obits : {mr('2x8', 'i32', 'ub')})",
    ]
    got, _ = run(ops, [("x", "2x8", "f32"), ("m", "2x8", "i32"), ("y", "2x8", "f32")],
                 {"arg0": x, "arg1": np.full((2, 8), 0x7FFFFFFF, np.int32), "arg2": np.zeros((2, 8), np.float32)},
                 temps=[])
    assert np.array_equal(got, np.abs(x))


def test_new_vector_ops_take_their_latency_class():
    """vsin is a `special` op of PIPE_V (hundreds of cycles on 4096 elements), not a one-cycle scalar issue."""
    x = np.zeros((64, 64), np.float32)
    line = f"    hivm.hir.vsin ins(%u0 : {mr('64x64', 'f32', 'ub')}) outs(%out : {mr('64x64', 'f32', 'ub')})"
    _, r_sin = run([line], [("x", "64x64", "f32"), ("y", "64x64", "f32")], {"arg0": x, "arg1": x.copy()})
    line = f"    hivm.hir.vand ins(%u0, %u0 : {mr('64x64', 'i32', 'ub')}, {mr('64x64', 'i32', 'ub')}) outs(%out : {mr('64x64', 'i32', 'ub')})"
    xi = np.zeros((64, 64), np.int32)
    _, r_and = run([line], [("x", "64x64", "i32"), ("y", "64x64", "i32")], {"arg0": xi, "arg1": xi.copy()})
    assert r_sin.pipe_busy["V"] > 4096 / 16 and r_and.pipe_busy["V"] > 4096 / 64
    assert r_sin.pipe_busy["V"] > r_and.pipe_busy["V"]


@pytest.mark.parametrize(("mode", "unsigned"), [("si2si", False), ("ui2si", True)])
def test_vcast_unsigned_mode_reads_the_source_as_written(mode, unsigned):
    """bishengir-a5's `hivm.unsigned_mode` on vcast: ui2si reads the i32 source unsigned."""
    x = np.array([[-1, -2, 5, 2**31 - 1, -(2**31), 0, 7, -7]], dtype=np.int32)
    line = (f"    hivm.hir.vcast {{hivm.unsigned_mode = #hivm.unsigned_mode<{mode}>}} ins(%u0 : {mr('1x8', 'i32', 'ub')}) "
            f"outs(%out : {mr('1x8', 'f32', 'ub')})")
    got, _ = run([line], [("x", "1x8", "i32"), ("y", "1x8", "f32")], {"arg0": x, "arg1": np.zeros((1, 8), np.float32)})
    source = x.view(np.uint32) if unsigned else x
    assert np.array_equal(got, source.astype(np.float64).astype(np.float32))


def test_vbrc_into_cbuf_is_an_mte2_fill_of_the_cube_core():
    """bishengir's VBrcOp::getPipe: a broadcast into L1 runs on PIPE_MTE2 (the cube core),
    into UB on PIPE_V."""
    from ascend_mlir.dialects import hivm

    module = parse(
        "func.func @f(%l1: memref<64xf16, #hivm.address_space<cbuf>>, %ub: memref<64xf16, #hivm.address_space<ub>>) {\n"
        "  %z = arith.constant 0.0 : f16\n"
        "  hivm.hir.vbrc ins(%z : f16) outs(%l1 : memref<64xf16, #hivm.address_space<cbuf>>)\n"
        "  hivm.hir.vbrc ins(%z : f16) outs(%ub : memref<64xf16, #hivm.address_space<ub>>)\n"
        "  return\n}\n")
    fill, vector = [op for op in module.walk() if isinstance(op, hivm.VBrcOp)]
    assert (fill.pipes(), fill.core_type()) == (("MTE2",), "CUBE")
    assert (vector.pipes(), vector.core_type()) == (("V",), "VECTOR")


def test_vtranspose_and_vflip():
    x = RNG.normal(size=(4, 8)).astype(np.float32)
    line = f"    hivm.hir.vtranspose ins(%u0 : {mr('4x8', 'f32', 'ub')}) outs(%out : {mr('8x4', 'f32', 'ub')}) permutation = [1, 0]"
    got, _ = run([line], [("x", "4x8", "f32"), ("y", "8x4", "f32")], {"arg0": x, "arg1": np.zeros((8, 4), np.float32)})
    assert np.array_equal(got, x.T)
    line = f"    hivm.hir.vflip ins(%u0 : {mr('4x8', 'f32', 'ub')}) outs(%out : {mr('4x8', 'f32', 'ub')}) flip_axis = 1"
    got, _ = run([line], [("x", "4x8", "f32"), ("y", "4x8", "f32")], {"arg0": x, "arg1": np.zeros((4, 8), np.float32)})
    assert np.array_equal(got, x[:, ::-1])


@pytest.mark.parametrize(("dim", "shapes", "out"), [(1, ("4x8", "4x16"), "4x24"), (0, ("4x8", "2x8", "1x8"), "7x8")])
def test_vconcat_is_numpy_concatenate(dim, shapes, out):
    xs = [RNG.normal(size=tuple(int(d) for d in s.split("x"))).astype(np.float16) for s in shapes]
    names = ", ".join(f"%u{i}" for i in range(len(xs)))
    types = ", ".join(mr(s, "f16", "ub") for s in shapes)
    line = f"    hivm.hir.vconcat dim({dim}) ins({names} : {types}) outs(%out : {mr(out, 'f16', 'ub')})"
    args = [(f"x{i}", s, "f16") for i, s in enumerate(shapes)] + [("y", out, "f16")]
    inputs = {f"arg{i}": x for i, x in enumerate(xs)}
    inputs[f"arg{len(xs)}"] = np.zeros(tuple(int(d) for d in out.split("x")), np.float16)
    got, _ = run([line], args, inputs)
    assert np.array_equal(got, np.concatenate(xs, axis=dim))


def test_vconcat_whose_sizes_do_not_add_up_is_refused_at_the_op():
    line = f"    hivm.hir.vconcat dim(1) ins(%u0, %u1 : {mr('4x8', 'f32', 'ub')}, {mr('4x8', 'f32', 'ub')}) outs(%out : {mr('4x20', 'f32', 'ub')})"
    x = np.zeros((4, 8), np.float32)
    with pytest.raises(SimulationError, match=r"concatenated on dim 1 do not give the destination's shape \[4, 20\]"):
        run([line], [("a", "4x8", "f32"), ("b", "4x8", "f32"), ("y", "4x20", "f32")],
            {"arg0": x, "arg1": x, "arg2": np.zeros((4, 20), np.float32)})


@pytest.mark.parametrize(("low", "high", "shape", "out"), [
    ("[1, 0]", "[2, 3]", "4x8", "7x11"),
    ("[0, %c2]", "[%c2, 0]", "4x8", "6x10"),  # dynamic pads, known when the op runs
    ("[3]", "[0]", "8", "11"),
])
def test_vpad_is_numpy_constant_pad(low, high, shape, out):
    x = RNG.normal(size=tuple(int(d) for d in shape.split("x"))).astype(np.float32)
    size = tuple(int(d) for d in out.split("x"))
    ops = ["    %c2 = arith.constant 2 : index", "    %pad = arith.constant -1.5 : f32",
           f"    hivm.hir.vpad ins(%u0 : {mr(shape, 'f32', 'ub')}) outs(%out : {mr(out, 'f32', 'ub')}) "
           f"low{low} high{high} pad_value %pad : f32"]
    got, _ = run(ops, [("x", shape, "f32"), ("y", out, "f32")], {"arg0": x, "arg1": np.zeros(size, np.float32)})
    widths = [(int(lo.replace("%c2", "2")), int(hi.replace("%c2", "2")))
              for lo, hi in zip(low.strip("[]").split(", "), high.strip("[]").split(", "))]
    assert np.array_equal(got, np.pad(x, widths, constant_values=-1.5))


def test_vpad_whose_sizes_do_not_add_up_is_refused_at_the_op():
    ops = ["    %pad = arith.constant 0.0 : f32",
           f"    hivm.hir.vpad ins(%u0 : {mr('4x8', 'f32', 'ub')}) outs(%out : {mr('4x12', 'f32', 'ub')}) "
           "low[0, 1] high[0, 1] pad_value %pad : f32"]
    with pytest.raises(SimulationError, match=r"padded by \[\[0, 0\], \[1, 1\]\] does not give the destination's shape \[4, 12\]"):
        run(ops, [("x", "4x8", "f32"), ("y", "4x12", "f32")], {"arg0": np.zeros((4, 8), np.float32),
                                                              "arg1": np.zeros((4, 12), np.float32)})


def test_vinterleave_then_vdeinterleave():
    """vinterleave puts a and b in turn on the last axis; vdeinterleave splits them back,
    all channels or one (CHANNEL_1: the odd elements)."""
    a = RNG.integers(-1000, 1000, size=(2, 16)).astype(np.int16)
    b = RNG.integers(-1000, 1000, size=(2, 16)).astype(np.int16)
    line = (f"    hivm.hir.vinterleave ins(%u0, %u1 : {mr('2x16', 'i16', 'ub')}, {mr('2x16', 'i16', 'ub')}) "
            f"outs(%out : {mr('2x32', 'i16', 'ub')}) interleave_channel_nums = 2")
    got, _ = run([line], [("a", "2x16", "i16"), ("b", "2x16", "i16"), ("c", "2x32", "i16")],
                 {"arg0": a, "arg1": b, "arg2": np.zeros((2, 32), np.int16)})
    expected = np.stack([a, b], axis=-1).reshape(2, 32)
    assert np.array_equal(got, expected)
    whole = f"{mr('2x32', 'i16', 'ub')}"
    half = f"{mr('2x16', 'i16', 'ub')}"
    line = f"    hivm.hir.vdeinterleave ins(%u0 : {whole}) outs(%even, %out : {half}, {half})"
    got, _ = run([line], [("c", "2x32", "i16"), ("odd", "2x16", "i16")],
                 {"arg0": expected, "arg1": np.zeros((2, 16), np.int16)}, temps=[("even", "2x16", "i16")])
    assert np.array_equal(got, b)
    line = f"    hivm.hir.vdeinterleave ins(%u0 : {whole}) outs(%out : {half}) index_mode = <CHANNEL_0>"
    got, _ = run([line], [("c", "2x32", "i16"), ("even", "2x16", "i16")],
                 {"arg0": expected, "arg1": np.zeros((2, 16), np.int16)})
    assert np.array_equal(got, a)


def test_vdeinterleave_of_an_odd_axis_is_refused_at_the_op():
    line = (f"    hivm.hir.vdeinterleave ins(%u0 : {mr('2x15', 'f16', 'ub')}) "
            f"outs(%out : {mr('2x7', 'f16', 'ub')}) index_mode = <CHANNEL_0>")
    with pytest.raises(SimulationError, match=r"source \[2, 15\] split into 2 channels does not give"):
        run([line], [("c", "2x15", "f16"), ("y", "2x7", "f16")],
            {"arg0": np.zeros((2, 15), np.float16), "arg1": np.zeros((2, 7), np.float16)})


def _batch_mmad_kernel(b: int, m: int, k: int, n: int, synced: bool) -> str:
    """GM -> L1 (nd2nz), batchMmadL1, fixpipe to GM; the M -> FIX flag only when `synced`."""
    a_t, b_t, c_t = f"{b}x{m}x{k}", f"{b}x{k}x{n}", f"{b}x{m}x{n}"
    flag = ["    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]",
            "    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]"] if synced else []
    body = "\n".join([
        alloc("a1", a_t, "f16", "cbuf"), alloc("b1", b_t, "f16", "cbuf"), alloc("c0", c_t, "f32", "cc"),
        f"    hivm.hir.nd2nz ins(%a : {mr(a_t, 'f16', 'gm')}) outs(%a1 : {mr(a_t, 'f16', 'cbuf')})",
        f"    hivm.hir.nd2nz ins(%b : {mr(b_t, 'f16', 'gm')}) outs(%b1 : {mr(b_t, 'f16', 'cbuf')})",
        "    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]",
        "    %t = arith.constant true", f"    %m = arith.constant {m} : index",
        f"    %k = arith.constant {k} : index", f"    %n = arith.constant {n} : index",
        f"    hivm.hir.batchMmadL1 ins(%a1, %b1, %t, %m, %k, %n : {mr(a_t, 'f16', 'cbuf')}, {mr(b_t, 'f16', 'cbuf')}, "
        f"i1, index, index, index) outs(%c0 : {mr(c_t, 'f32', 'cc')})",
        *flag,
        f"    hivm.hir.fixpipe ins(%c0 : {mr(c_t, 'f32', 'cc')}) outs(%c : {mr(c_t, 'f32', 'gm')})",
    ])
    return kernel([("a", a_t, "f16"), ("b", b_t, "f16"), ("c", c_t, "f32")], body)


@pytest.mark.parametrize("synced", [True, False])
def test_batch_mmad_is_a_matmul_per_batch(synced):
    """batchMmadL1: C[b] = A[b] x B[b] on the cube (MTE1 feed, M compute) for each b of the
    batch axis, equal to numpy's batched matmul; without the M -> FIX flag the fixpipe
    reads C while the cube writes it, a race. Every op is timed by the latency model."""
    b, m, k, n = 2, 16, 32, 16
    x = RNG.normal(size=(b, m, k)).astype(np.float16)
    y = RNG.normal(size=(b, k, n)).astype(np.float16)
    r = simulate(parse(_batch_mmad_kernel(b, m, k, n, synced)),
                 {"arg0": x, "arg1": y, "arg2": np.zeros((b, m, n), np.float32)})
    assert r.unknown_latency_ops == [], r.unknown_latency_ops
    if synced:
        assert r.ok and r.races == [] and not r.deadlock, r.to_json()
        np.testing.assert_allclose(r.outputs["arg2"], x.astype(np.float32) @ y.astype(np.float32), rtol=1e-6, atol=1e-5)
    else:
        assert [(race.first, race.second) for race in r.races] in (
            [("batchMmadL1", "fixpipe")], [("fixpipe", "batchMmadL1")]), r.to_json()


@pytest.mark.parametrize("chip", ["ascend950", "ascend910b"])
def test_batch_mmad_takes_longer_with_the_batch(chip):
    """The simulator times batchMmadL1 by the latency model (a loop of mmadL1s): the M
    pipe is busy batch x one mmadL1's ii, so the cube part grows with the batch."""
    from ascend_mlir.analysis.latency_model import mmad_cost
    from ascend_mlir.chips import load_chip

    m, k, n = 64, 128, 48
    one = mmad_cost(load_chip(chip), m, n, k, "fp16", 16)
    cycles = []
    for b in (1, 4):
        inputs = {"arg0": np.ones((b, m, k), np.float16), "arg1": np.ones((b, k, n), np.float16),
                  "arg2": np.zeros((b, m, n), np.float32)}
        r = simulate(parse(_batch_mmad_kernel(b, m, k, n, True)), inputs, chip=chip)
        assert r.ok and r.unknown_latency_ops == [], r.to_json()
        np.testing.assert_array_equal(r.outputs["arg2"], np.full((b, m, n), k, np.float32))
        cycles.append(r.cycles)
    # the loads and the fixpipe grow too, so at least the cube's 3 more batches
    assert cycles[1] - cycles[0] >= 3 * one.ii, cycles


def _load_scale_kernel(mt: int, kt: int, rows: int, cols: int, transposed: bool = False) -> str:
    """load_scale of a rows x cols i8 scale into [mt, kt, 16, 2] fractals of L1, then read
    back through the cube: the fractals collapsed to (mt*kt*16) x 2 rows, multiplied by a
    2x2 identity (i8, accumulated in i32) and fixpiped to GM, so GM holds L1's bytes in
    order."""
    f0, f1 = 16, 2
    flat = mt * kt * f0
    s_t, src_t, rows_t = f"{mt}x{kt}x{f0}x{f1}", f"{rows}x{cols}", f"{flat}x{f1}"
    body = "\n".join([
        alloc("s", s_t, "i8", "cbuf"), alloc("e", f"{f1}x{f1}", "i8", "cbuf"), alloc("c0", rows_t, "i32", "cc"),
        f"    hivm.hir.load_scale ins(%x : {mr(src_t, 'i8', 'gm')}) outs(%s : {mr(s_t, 'i8', 'cbuf')})"
        + (" is_transposed = true" if transposed else ""),
        f"    hivm.hir.nd2nz ins(%eye : {mr(f'{f1}x{f1}', 'i8', 'gm')}) outs(%e : {mr(f'{f1}x{f1}', 'i8', 'cbuf')})",
        f"    %flat = memref.collapse_shape %s [[0, 1, 2], [3]] : {mr(s_t, 'i8', 'cbuf')} into {mr(rows_t, 'i8', 'cbuf')}",
        "    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]",
        "    %t = arith.constant true", f"    %m = arith.constant {flat} : index", f"    %k = arith.constant {f1} : index",
        f"    hivm.hir.mmadL1 ins(%flat, %e, %t, %m, %k, %k : {mr(rows_t, 'i8', 'cbuf')}, {mr(f'{f1}x{f1}', 'i8', 'cbuf')}, "
        f"i1, index, index, index) outs(%c0 : {mr(rows_t, 'i32', 'cc')})",
        "    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]",
        "    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]",
        f"    hivm.hir.fixpipe ins(%c0 : {mr(rows_t, 'i32', 'cc')}) outs(%y : {mr(rows_t, 'i32', 'gm')})",
    ])
    return kernel([("x", src_t, "i8"), ("eye", f"{f1}x{f1}", "i8"), ("y", rows_t, "i32")], body)


@pytest.mark.parametrize("mt, kt", [(1, 1), (3, 2), (13, 1), (2, 5)])
def test_load_scale_writes_the_scale_fractals(mt, kt):
    """load_scale is bishengir's load + convert_layout SCALEA_ND -> SCALEA_zZ fused
    (CombineOptimizedConvertLayout.cpp), whose elements ConvertLayoutToTranspose.cpp
    defines: [M, K] expanded to [Mt, 16, Kt, 2] and permuted to [Mt, Kt, 16, 2]. The L1
    bytes, read back through the cube, equal numpy's; it is timed as a GM -> L1 copy."""
    from ascend_mlir.analysis.latency_model import copy_cost, estimate
    from ascend_mlir.chips import load_chip

    rows, cols = mt * 16, kt * 2
    module = parse(_load_scale_kernel(mt, kt, rows, cols))
    x = RNG.integers(-128, 128, size=(rows, cols), dtype=np.int8)
    r = simulate(module, {"arg0": x, "arg1": np.eye(2, dtype=np.int8),
                          "arg2": np.zeros((mt * kt * 16, 2), np.int32)})
    assert r.ok and r.unknown_latency_ops == [], r.to_json()
    fractals = x.reshape(mt, 16, kt, 2).transpose(0, 2, 1, 3)
    np.testing.assert_array_equal(r.outputs["arg2"], fractals.reshape(-1, 2).astype(np.int32))
    load_scale = next(op for op in module.walk() if op.name == "hivm.hir.load_scale")
    chip = load_chip("ascend950")
    assert estimate(load_scale, chip) == tuple(copy_cost(chip, "gm", "cbuf", rows * cols))


@pytest.mark.parametrize("rows, cols, transposed, why", [
    (40, 2, False, r"load_scale source \[40, 2\] does not fill the fractals \[3, 1, 16, 2\] exactly"),
    (48, 2, True, r"a transposed load_scale is not simulated"),
])
def test_load_scale_refusals_are_located(rows, cols, transposed, why):
    """A partial fractal (whose padding the fused DMA does not state) and the transposed
    form (which bishengir does not support) are refused at the op."""
    with pytest.raises(SimulationError, match=why) as caught:
        simulate(parse(_load_scale_kernel(3, 1, rows, cols, transposed)),
                 {"arg0": np.zeros((rows, cols), np.int8), "arg1": np.eye(2, dtype=np.int8),
                  "arg2": np.zeros((48, 2), np.int32)})
    assert caught.value.op is not None and caught.value.op.name == "hivm.hir.load_scale"


def test_moving_ops_take_the_simple_class():
    """vpad, vinterleave and vdeinterleave move elements: the 950's `simple` vector class
    (as vtranspose, vflip and vconcat), not the per-pipe default of an op without one."""
    from ascend_mlir.chips import load_chip

    for chip in ("ascend950", "ascend910b"):
        classes = load_chip(chip).latency.vector_op_class
        assert [classes.get(name) for name in ("vpad", "vinterleave", "vdeinterleave")] == ["simple"] * 3
