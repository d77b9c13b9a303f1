"""numpy semantics of the hivm vector ops added for foreign kernels (bishengir-opt 1.2.0):
bitwise (vand, vor, vxor, vnot), shifts (vshl, vshr with `round`), compare and select
(vcmp, vsel), vmod and vpow, the transcendental ops (vsin, vcos, vtanh, verf), the
cumulative ones (vcumsum, vcumprod) and those that move elements (vtranspose, vflip,
vconcat, vpad, vinterleave, vdeinterleave). `semantics.SEMANTICS` takes them from
`VECTOR_SEMANTICS`.

Conventions are the simulator's (sim/numerics.py): operands are read in the compute
dtype (float32 for f16/bf16/f32, the integer itself for integers, bool for i1), a scalar
operand is first held in the element type of the vector it meets, and every result is
rounded once to the destination's element type. Integer ops wrap in their width (the
vector unit's two's-complement arithmetic); a shift count is taken modulo nothing: counts
of the element width or more give 0 (left, unsigned right) or the sign (signed right).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

from ascend_mlir.dialects.hivm.elementwise import (
    VAndOp,
    VCmpOp,
    VCosOp,
    VErfOp,
    VModOp,
    VNotOp,
    VOrOp,
    VPowOp,
    VSelOp,
    VShlOp,
    VShrOp,
    VSinOp,
    VTanhOp,
    VXorOp,
)
from ascend_mlir.dialects.hivm.interface import array_values
from ascend_mlir.dialects.hivm.attrs import DeinterleaveMode
from ascend_mlir.dialects.hivm.permute import (
    VConcatOp,
    VDeinterleaveOp,
    VFlipOp,
    VInterleaveOp,
    VPadOp,
    VTransposeOp,
)
from ascend_mlir.dialects.hivm.scan import VCumprodOp, VCumsumOp
from ascend_mlir.sim.memory import Ref, SimulationError
from ascend_mlir.sim.numerics import ElemType, decode, encode

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _shift(values: np.ndarray, count: np.ndarray, left: bool, rounding: bool) -> np.ndarray:
    """Shift integer `values` by `count` in their own width; `rounding` (vshr's round)
    adds the last bit shifted out."""
    values = np.asarray(values)
    width = values.dtype.itemsize * 8
    count = np.broadcast_to(np.asarray(count).astype(np.int64), values.shape)
    safe = np.clip(count, 0, width - 1).astype(values.dtype)
    if left:
        return np.where(count >= width, 0, np.left_shift(values, safe)).astype(values.dtype)
    shifted = np.right_shift(values, safe)
    if rounding:
        last_out = np.where(count > 0, np.right_shift(values, np.clip(count - 1, 0, width - 1).astype(values.dtype)) & 1, 0)
        shifted = shifted + last_out.astype(values.dtype)
    over = np.where(values < 0, -1, 0) if values.dtype.kind == "i" else 0
    return np.where(count >= width, over, shifted).astype(values.dtype)


def _mod(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """C's remainder (the dividend's sign), x mod 0 -> 0 for integers (as vdiv's x / 0)."""
    lhs, rhs = np.asarray(lhs), np.asarray(rhs)
    if lhs.dtype.kind in "iu":
        safe = np.where(rhs == 0, 1, rhs)
        return np.where(rhs == 0, 0, np.fmod(lhs, safe))
    return np.fmod(lhs, rhs)


def _power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """Integer power (vpow takes i32): a negative exponent gives 0 but for bases 1 and -1."""
    base, exponent = np.broadcast_arrays(np.asarray(base, dtype=np.int64), np.asarray(exponent, dtype=np.int64))
    positive = np.power(base, np.maximum(exponent, 0))
    odd = (np.abs(exponent) % 2) == 1
    negative = np.where(base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0))
    return np.where(exponent >= 0, positive, negative)


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "gt": np.greater, "ge": np.greater_equal, "le": np.less_equal,
}

_FUNCTIONS: dict[type, Callable[..., Any]] = {
    VAndOp: np.bitwise_and,
    VOrOp: np.bitwise_or,
    VXorOp: np.bitwise_xor,
    VNotOp: lambda x: np.logical_not(x) if x.dtype == np.bool_ else np.invert(x),
    VModOp: _mod,
    VPowOp: _power,
    VSinOp: np.sin,
    VCosOp: np.cos,
    VTanhOp: np.tanh,
    VErfOp: lambda x: _erf(np.asarray(x, dtype=np.float64)),
    VSelOp: lambda mask, a, b: np.where(mask, a, b),
}


def _reader(w: Any, value, op: Operation, reads: list, et: ElemType) -> Callable[[], Any]:
    """A vector operand (its decoded values at op start) or a scalar held in `et`."""
    x = w.val(value)
    if isinstance(x, Ref):
        (core,) = w.target_cores(x)[:1]
        reads.append((x, core))
        view = x.view(core)
        return lambda: decode(view, x.et)
    held = decode(encode(np.asarray(x), et), et)
    return lambda: held


def _function(op: Any) -> Callable[..., Any]:
    if isinstance(op, VCmpOp):
        return _COMPARE[op.compare_mode.data.value]
    if isinstance(op, VShlOp | VShrOp):
        rounding = isinstance(op, VShrOp) and op.round is not None and bool(op.round.value.data)
        left = isinstance(op, VShlOp)
        return lambda a, b: _shift(a, b, left, rounding)
    return _FUNCTIONS[type(op)]


def _elementwise(w: Any, op: Any, reads: list, writes: list):
    dst_ref: Ref = w.val(op.dst[0])
    # a scalar is held in the element type of the first vector input (vcmp, vsel's values: the output's)
    first = w.val(op.src[0])
    scalar_et = dst_ref.et if isinstance(op, VSelOp) or not isinstance(first, Ref) else first.et
    readers = [_reader(w, v, op, reads, scalar_et) for v in op.src]
    (core,) = w.target_cores(dst_ref)[:1]
    writes.append((dst_ref, core))
    view = dst_ref.view(core)
    shape = dst_ref.shape
    fn = _function(op)

    def compute():
        with np.errstate(all="ignore"):
            values = fn(*(read() for read in readers))
        return np.broadcast_to(np.asarray(values), shape)

    def end(values) -> None:
        view[...] = encode(values, dst_ref.et)

    return compute, end, False


def _cumulative(w: Any, op: Any, reads: list, writes: list):
    """vcumsum / vcumprod along each of `cum_dims` in turn (computed in the compute dtype,
    rounded once at the end), from the last element when `reverse`."""
    src_ref = w.val(op.src)
    if not isinstance(src_ref, Ref):
        raise SimulationError(op, "a cumulative op reads a memref")
    read = _reader(w, op.src, op, reads, src_ref.et)
    dst_ref: Ref = w.val(op.dst)
    (core,) = w.target_cores(dst_ref)[:1]
    writes.append((dst_ref, core))
    view = dst_ref.view(core)
    dims = array_values(op.cum_dims)
    reverse = bool(op.reverse.value.data)
    accumulate = np.cumsum if isinstance(op, VCumsumOp) else np.cumprod

    def compute():
        values = np.asarray(read())
        for dim in dims:
            values = np.flip(values, dim) if reverse else values
            values = accumulate(values, axis=dim, dtype=values.dtype)
            values = np.flip(values, dim) if reverse else values
        return values

    def end(values) -> None:
        view[...] = encode(np.broadcast_to(values, view.shape), dst_ref.et)

    return compute, end, False


def _permute(w: Any, op: Any, reads: list, writes: list):
    """vtranspose (np.transpose by `permutation`) and vflip (np.flip on `flip_axis`)."""
    src_ref = w.val(op.src)
    if not isinstance(src_ref, Ref):
        raise SimulationError(op, f"{op.name} reads a memref")
    read = _reader(w, op.src, op, reads, src_ref.et)
    dst_ref: Ref = w.val(op.dst)
    (core,) = w.target_cores(dst_ref)[:1]
    writes.append((dst_ref, core))
    view = dst_ref.view(core)
    if isinstance(op, VTransposeOp):
        perm = array_values(op.permutation)

        def compute():
            return np.transpose(np.asarray(read()), perm)
    else:
        axis = op.flip_axis.value.data

        def compute():
            return np.flip(np.asarray(read()), axis)

    def end(values) -> None:
        if values.shape != view.shape:
            raise SimulationError(op, f"result shape {list(values.shape)} does not fit {list(view.shape)}")
        view[...] = encode(values, dst_ref.et)

    return compute, end, False


def _concat(w: Any, op: Any, reads: list, writes: list):
    """vconcat: np.concatenate of its sources along `dim`; the sizes must add up to the
    destination's (bishengir-opt does not check them: refused here, at the op)."""
    dim = op.dim.value.data
    readers = []
    for value in op.src:
        ref = w.val(value)
        if not isinstance(ref, Ref):
            raise SimulationError(op, f"{op.name} reads memrefs")
        readers.append(_reader(w, value, op, reads, ref.et))
    dst_ref: Ref = w.val(op.dst)
    (core,) = w.target_cores(dst_ref)[:1]
    writes.append((dst_ref, core))
    view = dst_ref.view(core)
    shapes = [w.val(v).shape for v in op.src]
    if not 0 <= dim < len(view.shape) or any(len(s) != len(view.shape) for s in shapes):
        raise SimulationError(op, f"dim {dim} does not name an axis of every operand (rank {len(view.shape)})")
    expected = list(shapes[0])
    expected[dim] = sum(s[dim] for s in shapes)
    if any(s[:dim] + s[dim + 1:] != shapes[0][:dim] + shapes[0][dim + 1:] for s in shapes) or tuple(expected) != view.shape:
        raise SimulationError(op, f"sources {[list(s) for s in shapes]} concatenated on dim {dim} do not "
                                  f"give the destination's shape {list(view.shape)}")

    def compute():
        return np.concatenate([np.asarray(r()) for r in readers], axis=dim)

    def end(values) -> None:
        view[...] = encode(values, dst_ref.et)

    return compute, end, False


def _sources(w: Any, op: Any, values, reads: list) -> list[Callable[[], Any]]:
    readers = []
    for value in values:
        ref = w.val(value)
        if not isinstance(ref, Ref):
            raise SimulationError(op, f"{op.name} reads memrefs")
        readers.append(_reader(w, value, op, reads, ref.et))
    return readers


def _destination(w: Any, value, writes: list):
    """(view, element type) of a destination memref, recorded as written."""
    ref: Ref = w.val(value)
    (core,) = w.target_cores(ref)[:1]
    writes.append((ref, core))
    return ref.view(core), ref.et


def _pad(w: Any, op: VPadOp, reads: list, writes: list):
    """vpad: np.pad with the constant pad value (held in the element type), `low[i]` before
    and `high[i]` after axis i; the padded shape must be the destination's (a dynamic pad
    is known only now, so this is checked here, at the op)."""
    (read,) = _sources(w, op, (op.src,), reads)
    src_ref: Ref = w.val(op.src)
    pad = _reader(w, op.pad_value, op, reads, src_ref.et)()
    widths = [(int(lo if isinstance(lo, int) else w.scalar(lo, op)), int(hi if isinstance(hi, int) else w.scalar(hi, op)))
              for lo, hi in zip(op.pads("low"), op.pads("high"))]
    view, et = _destination(w, op.dst, writes)
    padded = [size + lo + hi for size, (lo, hi) in zip(src_ref.shape, widths)]
    if any(lo < 0 or hi < 0 for lo, hi in widths) or tuple(padded) != view.shape:
        raise SimulationError(op, f"source {list(src_ref.shape)} padded by {[list(p) for p in widths]} does not give "
                                  f"the destination's shape {list(view.shape)}")

    def compute():
        return np.pad(np.asarray(read()), widths, mode="constant", constant_values=pad)

    def end(values) -> None:
        view[...] = encode(values, et)

    return compute, end, False


def _interleave(w: Any, op: VInterleaveOp, reads: list, writes: list):
    """vinterleave: the destination's last axis takes the sources' elements in turn
    (`dst[..., c::n] = src_c`, n sources of one shape)."""
    readers = _sources(w, op, op.src, reads)
    shapes = [w.val(v).shape for v in op.src]
    view, et = _destination(w, op.dst, writes)
    count = len(readers)
    first = shapes[0]
    if any(s != first for s in shapes) or not first or view.shape != (*first[:-1], first[-1] * count):
        raise SimulationError(op, f"sources {[list(s) for s in shapes]} interleaved do not give the "
                                  f"destination's shape {list(view.shape)}")

    def compute():
        sources = [np.asarray(read()) for read in readers]
        out = np.empty(view.shape, dtype=sources[0].dtype)
        for channel, values in enumerate(sources):
            out[..., channel::count] = values
        return out

    def end(values) -> None:
        view[...] = encode(values, et)

    return compute, end, False


def _deinterleave(w: Any, op: VDeinterleaveOp, reads: list, writes: list):
    """vdeinterleave: output k takes the elements k, k + n, ... of the source's last axis
    (n = channel_num); CHANNEL_0 / CHANNEL_1 write only that channel to their one output."""
    (read,) = _sources(w, op, (op.src,), reads)
    src_shape = w.val(op.src).shape
    channels = op.channels()
    mode = op.mode()
    picked = list(range(channels)) if mode == DeinterleaveMode.ALL_CHANNELS else [
        0 if mode == DeinterleaveMode.CHANNEL_0 else 1]
    outs = [_destination(w, value, writes) for value in op.dst]
    if not src_shape or src_shape[-1] % channels or any(
            view.shape != (*src_shape[:-1], src_shape[-1] // channels) for view, _ in outs):
        raise SimulationError(op, f"source {list(src_shape)} split into {channels} channels does not give the "
                                  f"destinations' shapes {[list(view.shape) for view, _ in outs]}")

    def compute():
        values = np.asarray(read())
        return [values[..., channel::channels] for channel in picked]

    def end(parts) -> None:
        for (view, et), part in zip(outs, parts):
            view[...] = encode(part, et)

    return compute, end, False


VECTOR_SEMANTICS: dict[type, Callable] = {
    VPadOp: _pad,
    VInterleaveOp: _interleave,
    VDeinterleaveOp: _deinterleave,
    VConcatOp: _concat,
    VTransposeOp: _permute,
    VFlipOp: _permute,
    **{t: _elementwise for t in (*_FUNCTIONS, VCmpOp, VShlOp, VShrOp)},
    VCumsumOp: _cumulative,
    VCumprodOp: _cumulative,
}
