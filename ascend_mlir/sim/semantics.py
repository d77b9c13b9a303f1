"""numpy semantics of the hivm ops the simulator issues, keyed by op type (`SEMANTICS`).

Each entry: (walker, op, reads, writes) -> (on_start, on_end, atomic). It appends the
(Ref, core) pairs it reads and writes; on_start reads (at op start) and computes, on_end
stores the result (at completion). The elementwise functions are the reference
interpreter's (reference_numerics.BINARY/UNARY/REDUCE, keyed by kind).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol, cast

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, IntegerType
from xdsl.ir import Operation, SSAValue

from ascend_mlir.dialects import cce, hivm
from ascend_mlir.sim import numerics
from ascend_mlir.sim.memory import Ref, SimulationError
from ascend_mlir.sim.numerics import ElemType, decode, encode, stored_again
from ascend_mlir.sim.reference_numerics import BINARY, REDUCE, UNARY, divide, elementwise_kind
from ascend_mlir.sim.vector_semantics import VECTOR_SEMANTICS



class CoreWalker(Protocol):
    """What the semantics ask of the core that issues the op (hivm_frontend.CoreWalker
    is one); a protocol, so that the front end imports the semantics and not the
    other way round."""

    core: int

    def val(self, v: SSAValue) -> Any: ...
    def scalar(self, v: SSAValue, op: Operation) -> Any: ...
    def fields(self, op: Operation) -> Any: ...
    def target_cores(self, ref: Ref) -> list[int]: ...


# Each entry: (walker, op, reads, writes) -> (on_start, on_end, atomic). It appends the
# (Ref, core) pairs it reads and writes; on_start reads (at op start) and computes, on_end
# stores the result (at completion).


def _operand(w: CoreWalker, v: SSAValue, op: Operation, reads: list) -> Callable[[], Any]:
    """A reader for an operand: memref -> decoded array at start; scalar -> number."""
    x = w.val(v)
    if isinstance(x, Ref):
        (core,) = w.target_cores(x)[:1]
        reads.append((x, core))
        view = x.view(core)
        et = x.et
        return lambda: decode(view, et)
    return lambda: x


def _stored_operand(w: CoreWalker, ref: Ref, reads: list) -> Callable[[], np.ndarray]:
    """A reader of a view's stored values (a copy at start, not decoded): for a copy
    into memory of the same element type, which stores them again as they are."""
    (core,) = w.target_cores(ref)[:1]
    reads.append((ref, core))
    view = ref.view(core)
    return lambda: np.array(view, copy=True)


def _store(w: CoreWalker, v: SSAValue, writes: list) -> Callable[[np.ndarray], None]:
    ref: Ref = w.val(v)
    (core,) = w.target_cores(ref)[:1]
    writes.append((ref, core))
    view = ref.view(core)
    et = ref.et

    def store(values) -> None:
        stored = encode(values, et)
        # broadcast_to only where the shapes differ: it refuses what assignment would
        # stretch (extra leading unit dims), and the same shape needs no view of it
        view[...] = stored if stored.shape == view.shape else np.broadcast_to(stored, view.shape)

    return store


def _fit(values: np.ndarray, shape: tuple[int, ...], op: Operation, pad: float | None) -> np.ndarray:
    if values.shape == shape:
        return values
    if values.size == math.prod(shape) and pad is None:
        return values.reshape(shape)
    if len(values.shape) == len(shape) and all(a <= b for a, b in zip(values.shape, shape)):
        out = np.full(shape, pad if pad is not None else 0, dtype=values.dtype)
        out[tuple(slice(0, a) for a in values.shape)] = values
        return out
    if len(values.shape) == len(shape) and all(a >= b for a, b in zip(values.shape, shape)):
        return values[tuple(slice(0, b) for b in shape)]
    raise SimulationError(op, f"shapes {list(values.shape)} and {list(shape)} do not match")


def _shaped(values: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """`values` broadcast to `shape` (as they are when they have it)."""
    return values if values.shape == shape else np.broadcast_to(values, shape)


def _nz_to_matrix(values: np.ndarray) -> np.ndarray:
    """bishengir's NZ fractal buffers are rank 4: [col blocks][row blocks][rows per
    block][cols per block] -> the matrix they hold."""
    c1, r1, r0, c0 = values.shape
    return values.transpose(1, 2, 0, 3).reshape(r1 * r0, c1 * c0)


def _matrix_to_nz(values: np.ndarray, shape: tuple[int, ...], op: Operation) -> np.ndarray:
    """A matrix into NZ fractals of `shape` (zero padded to whole fractals)."""
    c1, r1, r0, c0 = shape
    rows, cols = values.shape
    if rows > r1 * r0 or cols > c1 * c0:
        raise SimulationError(op, f"a {rows}x{cols} matrix does not fit NZ fractals {list(shape)}")
    full = np.zeros((r1 * r0, c1 * c0), dtype=values.dtype)
    full[:rows, :cols] = values
    return full.reshape(r1, r0, c1, c0).transpose(2, 0, 1, 3)


def _as_matrix(values: np.ndarray) -> np.ndarray:
    return _nz_to_matrix(values) if values.ndim == 4 else values


def _copied_part(dst: Ref, src_shape: tuple[int, ...], left: int) -> Ref:
    """The part of `dst` a copy without fill writes: the source's shape at the start,
    `left` elements into the last dimension (all of `dst` for an equal or reshaped
    source). The written mask and the race detector see exactly those bytes: the rest
    keeps what it held, and reading it is reading memory no op wrote."""
    same_size = math.prod(src_shape) == math.prod(dst.shape)
    if left == 0 and (src_shape == dst.shape or same_size):
        return dst
    if len(src_shape) != len(dst.shape) or not src_shape:
        return dst  # the copy itself refuses these shapes when it runs
    shape = src_shape[:-1] + (min(src_shape[-1], max(dst.shape[-1] - left, 0)),)
    offset = dst.offset + left * dst.strides[-1] * dst.et.itemsize
    return Ref(dst.buf, offset, tuple(min(a, b) for a, b in zip(shape, dst.shape)), dst.strides, dst.et,
               base=dst.base, origin=dst.origin)


def _sem_copy_like(w: CoreWalker, op, reads, writes):
    """load / nd2nz / copy. A smaller source lands at the start of the destination (after
    `left_padding_num` elements of the last dimension); the rest of the destination gets
    the pad value (`pad_value`, or the first source element for PadFirstElem) when there is
    one or `init_out_buffer` is set, and is left untouched otherwise."""
    f = w.fields(op)
    dst_ref: Ref = w.val(f.dst)
    et = dst_ref.et
    src_ref = w.val(f.src)
    if isinstance(src_ref, Ref) and src_ref.et == et:  # values go as they are stored
        src = _stored_operand(w, src_ref, reads)

        def store_as(values, et):
            return stored_again(values, et) if values.dtype == et.storage else encode(values, et)
    else:
        src = _operand(w, f.src, op, reads)
        store_as = encode
    (core,) = w.target_cores(dst_ref)[:1]
    view = dst_ref.view(core)
    pv = getattr(f, "pad_value", None)
    pad = w.scalar(pv, op) if pv is not None else None
    mode = f.pad_mode.data.value if getattr(f, "pad_mode", None) is not None else "PadNull"
    init = getattr(f, "init_out_buffer", None)
    fill = pad is not None or mode == "PadFirstElem" or (init is not None and bool(init.value.data))
    lp = getattr(f, "left_padding_num", None)
    left = w.scalar(lp, op) if lp is not None else 0
    shape = dst_ref.shape
    nz = len(shape) == 4 and isinstance(op, hivm.Nd2NzOp)
    partial = not fill and not nz and isinstance(src_ref, Ref)
    writes.append((_copied_part(dst_ref, src_ref.shape, left) if partial else dst_ref, core))
    if nz:  # bishengir's NZ fractal destination
        def end_nz(values) -> None:
            view[...] = store_as(_matrix_to_nz(np.asarray(values).reshape(values.shape[-2:]), shape, op), et)

        return src, end_nz, False

    def end(values) -> None:
        if values.shape == shape and left == 0:
            view[...] = store_as(values, et)
            return
        if values.size == math.prod(shape) and not fill and left == 0:
            view[...] = store_as(values.reshape(shape), et)
            return
        if len(values.shape) != len(shape) or not shape:
            raise SimulationError(op, f"shapes {list(values.shape)} and {list(shape)} do not match")
        region = [slice(0, n) for n in values.shape]
        region[-1] = slice(left, left + values.shape[-1])
        if any(sl.stop > n for sl, n in zip(region, shape)):
            raise SimulationError(op, f"source {list(values.shape)} (left padding {left}) does not fit {list(shape)}")
        if fill:
            value = values.reshape(-1)[0] if mode == "PadFirstElem" and values.size else (pad if pad is not None else 0)
            view[...] = store_as(np.asarray(value), et)
        view[tuple(region)] = store_as(values, et)

    return src, end, False


def _sem_load_scale(w: CoreWalker, op: hivm.LoadScaleOp, reads, writes):
    """load_scale: an MX scale tile GM -> L1 in the fractal layout the MX cube reads.
    bishengir defines it as the load + convert_layout it fuses (CombineOptimizedConvertLayout
    .cpp: SCALEA_ND -> SCALEA_zZ for A's scale [M, K], SCALEB_DN -> SCALEB_nN for B's
    [N, K]); ConvertLayoutToTranspose.cpp gives that conversion's elements for both: the
    source expanded to [Mt, f0, Kt, f1] and permuted to [Mt, Kt, f0, f1], so
    dst[i, j, r, c] = src[i * f0 + r, j * f1 + c]. A source that does not fill whole
    fractals (where convert_layout would zero-pad, a padding the fused DMA's own text does
    not state) and the transposed form (bishengir's InferHIVMDataLayout: 'transposed
    load_scale is not supported') are refused at the op."""
    f = w.fields(op)
    transposed = f.is_transposed
    if transposed is not None and bool(transposed.value.data):
        raise SimulationError(op, "a transposed load_scale is not simulated (bishengir does not support it either)")
    src_ref, dst_ref = w.val(f.src), w.val(f.dst)
    if not isinstance(src_ref, Ref) or len(src_ref.shape) != 2 or len(dst_ref.shape) != 4:
        raise SimulationError(op, "load_scale is simulated from a 2-D source into [tiles, tiles, f0, f1] fractals")
    mt, kt, f0, f1 = dst_ref.shape
    rows, cols = src_ref.shape
    if (rows, cols) != (mt * f0, kt * f1):
        raise SimulationError(op, f"load_scale source {[rows, cols]} does not fill the fractals {list(dst_ref.shape)} "
                                  "exactly (the padding of a partial fractal is not simulated)")
    src = _operand(w, f.src, op, reads)
    store = _store(w, f.dst, writes)
    return (lambda: np.asarray(src()).reshape(mt, f0, kt, f1).transpose(0, 2, 1, 3)), store, False


def _sem_store(w: CoreWalker, op: hivm.StoreOp, reads, writes):
    f = w.fields(op)
    src = _operand(w, f.src, op, reads)
    dst_ref: Ref = w.val(f.dst)
    kind = f.atomic_kind.data.value if f.atomic_kind is not None else "none"
    if kind == "none":
        store = _store(w, f.dst, writes)
        return (lambda: _fit(src(), dst_ref.shape, op, None)), store, False
    combine = {"add": np.add, "max": np.maximum, "min": np.minimum}.get(kind)
    if combine is None:
        raise SimulationError(op, f"atomic kind {kind} is not simulated")
    view = dst_ref.view(w.core)
    writes.append((dst_ref, w.core))
    et = dst_ref.et

    def atomic_end(values) -> None:  # read-modify-write at completion, as the atomic unit does
        view[...] = encode(combine(decode(view, et), values), et)

    return (lambda: _fit(src(), dst_ref.shape, op, None)), atomic_end, True


def _sem_fixpipe(w: CoreWalker, op: hivm.FixpipeOp, reads, writes):
    f = w.fields(op)
    src = _operand(w, f.src, op, reads)
    dst_ref: Ref = w.val(f.dst)
    pre_relu = f.pre_relu
    relu = pre_relu is not None and pre_relu.data.value == "NORMAL_RELU"
    if pre_relu is not None and pre_relu.data.value not in ("NO_RELU", "NORMAL_RELU"):
        raise SimulationError(op, f"pre_relu {pre_relu.data.value} is not simulated")
    targets = w.target_cores(dst_ref)
    src_ref: Ref = w.val(f.src)
    et = dst_ref.et

    def compute():
        v = _as_matrix(src())
        return np.maximum(v, 0) if relu else v

    if len(targets) > 1 and dst_ref.buf.scope == "ub":
        rows = dst_ref.shape[0] if dst_ref.shape else 0
        dual = len(src_ref.shape) == len(dst_ref.shape) and src_ref.shape[0] == rows * len(targets)
        views = []
        for core in targets:
            writes.append((dst_ref, core))
            views.append(dst_ref.view(core))

        def end(values) -> None:
            for k, view in enumerate(views):
                part = values[k * rows:(k + 1) * rows] if dual else values
                view[...] = encode(_fit(part, view.shape, op, None), et)

        return compute, end, False
    store = _store(w, f.dst, writes)
    shape = dst_ref.shape
    return (lambda: _fit(compute(), shape, op, None)), store, False


# One cube step's product is summed in float64 and rounded once to the float32 of L0C: the
# float32 sum depends on the order OpenBLAS picks per CPU (its AVX-512 kernels and its
# AVX2 ones gave different last bits of gemm's outputs, so the simulator computed other
# numbers on another machine); in float64 the 16- and 32-bit operands' products are exact
# and the sum's order reaches a float32 result only in about one value of 2**28.
PRODUCT_DTYPE = np.float64


def mmad_phases(w: CoreWalker, op: hivm.MmadL1Op | hivm.BatchMmadL1Op, l1_reads, acc_reads, writes):
    """mmadL1 in its two hardware phases (feed, compute, store): MTE1 reads A and B from
    L1 (`feed()` returns what it read), then the cube reads and writes C
    (`compute(fed)` returns the new C, `store` writes it). The L1 reads are collected in
    `l1_reads`, the accumulator read in `acc_reads`, the write in `writes`. batchMmadL1
    does the same for each index of the leading batch axis (plain rank-3 operands; NZ
    fractals of a batch are not simulated)."""
    f = w.fields(op)
    batched = isinstance(op, hivm.BatchMmadL1Op)
    if batched and any(len(w.val(v).shape) != 3 for v in (f.a, f.b, f.c)):
        raise SimulationError(op, "batchMmadL1 is simulated on plain rank-3 operands only (not NZ fractals)")
    a = _operand(w, f.a, op, l1_reads)
    b = _operand(w, f.b, op, l1_reads)
    init = bool(w.scalar(f.init_condition, op))
    m, k, n = (w.scalar(v, op) for v in (f.real_m, f.real_k, f.real_n))
    c_ref: Ref = w.val(f.c)
    c_read = None
    if not init:
        c_read = _operand(w, f.c, op, acc_reads)
    store = _store(w, f.c, writes)
    a_t, b_t = f.a_transpose is not None, f.b_transpose is not None
    integer = not c_ref.et.is_float
    acc_dtype = np.int64 if integer else np.float32
    product_dtype = np.int64 if integer else PRODUCT_DTYPE
    matrix = (lambda x: np.asarray(x)) if batched else _as_matrix

    nz_c = len(c_ref.shape) == 4
    c_shape = c_ref.shape if not nz_c else _nz_to_matrix(np.empty(c_ref.shape, np.int8)).shape

    def feed():
        # the operand readers decode into fresh arrays: what the cube multiplies is what
        # L1 held when MTE1 read it (no second copy when the dtype is already right)
        return matrix(a()).astype(product_dtype, copy=False), matrix(b()).astype(product_dtype, copy=False)

    def compute(fed):
        av, bv = fed
        av = av.swapaxes(-1, -2) if a_t else av
        bv = bv.swapaxes(-1, -2) if b_t else bv
        if av.shape[-2] < m or av.shape[-1] < k or bv.shape[-2] < k or bv.shape[-1] < n or av.shape[:-2] != bv.shape[:-2]:
            raise SimulationError(op, f"{op.name.removeprefix('hivm.hir.')} sizes m={m} k={k} n={n} exceed or do "
                                      f"not pair the operands {list(av.shape)} x {list(bv.shape)}")
        prod = (av[..., :m, :k] @ bv[..., :k, :n]).astype(acc_dtype, copy=False)
        if c_read is None and prod.shape == c_shape:  # the whole of C: the product itself
            return _matrix_to_nz(prod, c_ref.shape, op) if nz_c else prod
        # C as read is a fresh array (the readers decode into new ones): added to in place
        out = (matrix(c_read()).astype(acc_dtype, copy=False) if c_read is not None
               else np.zeros(c_shape, dtype=acc_dtype))
        if out.shape[:-2] != prod.shape[:-2]:
            raise SimulationError(op, f"C {list(out.shape)} does not hold the batch of products {list(prod.shape)}")
        if c_read is None:
            out[..., :m, :n] = prod
        else:
            region = out[..., :m, :n]
            np.add(region, prod, out=region)
        return _matrix_to_nz(out, c_ref.shape, op) if nz_c else out

    return feed, compute, store


def _sem_mmad(w: CoreWalker, op: hivm.MmadL1Op, reads, writes):
    feed, compute, store = mmad_phases(w, op, reads, reads, writes)
    return (lambda: compute(feed())), store, False


def _scalar_as(x, et: ElemType):
    """A scalar operand arrives in a register of the element type."""
    return decode(encode(np.asarray(x), et), et)


# the elementwise semantics are the reference's (reference_numerics, keyed by kind)
_BINARY_FN = {t: BINARY[elementwise_kind(t.name)] for t in hivm.BINARY_OPS if t is not hivm.VDivOp}


def _sem_binary(w: CoreWalker, op, reads, writes):
    f = w.fields(op)
    srcs = list(f.src)
    if len(srcs) != 2:
        raise SimulationError(op, f"expected two inputs, got {len(srcs)}")
    dst_ref: Ref = w.val(f.dst[0])
    et = dst_ref.et
    readers = []
    for v in srcs:
        x = w.val(v)
        if isinstance(x, Ref):
            readers.append(_operand(w, v, op, reads))
        else:
            sv = _scalar_as(x, et)
            readers.append(lambda sv=sv: sv)
    if isinstance(op, hivm.VDivOp):
        def fn(a, b):
            return divide(a, b, not et.is_float)
    else:
        fn = _BINARY_FN[type(op)]
    store = _store(w, f.dst[0], writes)
    shape = dst_ref.shape

    def compute():
        with np.errstate(all="ignore"):
            return _shaped(fn(readers[0](), readers[1]()), shape)

    return compute, store, False


_UNARY_FN = {t: UNARY[elementwise_kind(t.name)] for t in hivm.UNARY_OPS}


def _sem_unary(w: CoreWalker, op, reads, writes):
    f = w.fields(op)
    src = _operand(w, f.src[0], op, reads)
    dst_ref: Ref = w.val(f.dst[0])
    store = _store(w, f.dst[0], writes)
    fn = _UNARY_FN[type(op)]
    shape = dst_ref.shape

    def compute():
        with np.errstate(all="ignore"):
            return _shaped(fn(src()), shape)

    return compute, store, False


def _sem_cast(w: CoreWalker, op: hivm.VCastOp, reads, writes):
    src_ref = w.val(op.src[0])
    src = _operand(w, op.src[0], op, reads)
    dst_ref: Ref = w.val(op.dst[0])
    mode = op.round_mode.data.value
    if mode == "truncwithoverflow":
        mode = "trunc"
    et = dst_ref.et
    type_fn = op.cast.data.value
    (core,) = w.target_cores(dst_ref)[:1]
    writes.append((dst_ref, core))
    view = dst_ref.view(core)
    if type_fn == "bitcast":
        if not isinstance(src_ref, Ref) or src_ref.et.itemsize != et.itemsize:
            raise SimulationError(op, "a bitcast vcast needs a memref source of the same element width")
        (src_core,) = w.target_cores(src_ref)[:1]
        src_view = src_ref.view(src_core)
        reads[-1:] = [(src_ref, src_core)]

        def compute_bits():
            return np.array(src_view, copy=True).view(et.storage)

        def end_bits(bits) -> None:
            view[...] = _fit(bits, view.shape, op, None)

        return compute_bits, end_bits, False
    # bishengir-a5's `hivm.unsigned_mode` (si2si, si2ui, ui2si, ui2ui) says how the integers are read
    unsigned_mode = op.attributes.get("hivm.unsigned_mode")
    mode_name = unsigned_mode.data.value if isinstance(unsigned_mode, hivm.UnsignedModeAttr) else "si2si"
    if mode_name.endswith("2ui") and not et.is_float and et.storage.kind == "i":
        raise SimulationError(op, f"vcast with unsigned_mode {mode_name} into a signed {et.name} is not simulated")
    unsigned_source = (type_fn == "cast_unsigned" or mode_name.startswith("ui")) and isinstance(src_ref, Ref) \
        and src_ref.et.storage.kind == "i"

    def compute():
        v = src()
        if unsigned_source:
            v = np.asarray(v).view(np.dtype(f"uint{src_ref.et.bits}"))
        # float64 holds every f32/f16/bf16/i32 value exactly: one rounding, to the destination
        return np.asarray(v, dtype=np.float64) if np.asarray(v).dtype.kind in "fiub" else v

    def end(values) -> None:
        view[...] = numerics.cast_with_mode(_fit(values, view.shape, op, None), et, mode)

    return compute, end, False


def _dims(attr: DenseArrayBase) -> tuple[int, ...]:
    # dimension lists are i64 arrays; the property is declared as any DenseArrayBase, whose
    # get_values overloads only bind to an integer or a float element type
    return cast(DenseArrayBase[IntegerType], attr).get_values()


def _sem_brc(w: CoreWalker, op: hivm.VBrcOp, reads, writes):
    dst_ref: Ref = w.val(op.dst)
    src = _operand(w, op.src, op, reads)
    x = w.val(op.src)
    dims = list(_dims(op.broadcast_dims)) if isinstance(op.broadcast_dims, DenseArrayBase) else []
    store = _store(w, op.dst, writes)
    shape = dst_ref.shape
    et = dst_ref.et

    def compute():
        v = src()
        if not isinstance(x, Ref):
            return np.broadcast_to(_scalar_as(v, et), shape)
        v = np.asarray(v)
        if v.ndim < len(shape):
            full = list(shape)
            for d in dims:
                full[d] = 1
            v = v.reshape(full)
        return np.broadcast_to(v, shape)

    return compute, store, False


_REDUCE_FN = REDUCE


def _sem_reduce(w: CoreWalker, op: hivm.VReduceOp, reads, writes):
    src = _operand(w, op.src, op, reads)
    kind = op.arith.data.value
    fn = _REDUCE_FN.get(kind)
    if fn is None:
        raise SimulationError(op, f"vreduce <{kind}> is not simulated")
    dims = tuple(_dims(op.reduce_dims))
    dst_ref: Ref = w.val(op.dst[0])
    store = _store(w, op.dst[0], writes)
    shape = dst_ref.shape

    def compute():
        return fn(src(), axis=dims, keepdims=True).reshape(shape)

    return compute, store, False


def _sem_repeat_blocks(w: CoreWalker, op: cce.RepeatBlocksOp, reads, writes):
    """cce.repeat_blocks: each row's block repeated along the destination's row."""
    blocks = _operand(w, op.blocks, op, reads)
    dst_ref: Ref = w.val(op.dst)
    store = _store(w, op.dst, writes)
    rows, cols = dst_ref.shape

    def compute():
        v = np.asarray(blocks())
        return np.tile(v, (1, -(-cols // v.shape[1]) if v.shape[1] else 0))[:rows, :cols]

    return compute, store, False


def _sem_load_l0(w: CoreWalker, op: cce.LoadL0AOp | cce.LoadL0BOp, reads, writes):
    """cce.load_l0a / load_l0b: one K step of an L1 tile into L0A (M x ks, from A's
    columns k0..) or L0B (ks x N, from B's rows k0..); what lies past K is zero."""
    src = _operand(w, op.src, op, reads)
    dst_ref: Ref = w.val(op.dst)
    store = _store(w, op.dst, writes)
    k0 = int(w.scalar(op.k_offset, op))
    is_a, transposed = isinstance(op, cce.LoadL0AOp), op.transposed()
    rows, cols = dst_ref.shape

    def compute():
        matrix = _as_matrix(src())
        matrix = matrix.T if transposed else matrix  # A as M x K, B as K x N
        part = matrix[:, k0:k0 + cols] if is_a else matrix[k0:k0 + rows, :]
        out = np.zeros((rows, cols), dtype=part.dtype)
        out[:part.shape[0], :part.shape[1]] = part
        return out

    return compute, store, False


def _sem_mmad_l0(w: CoreWalker, op: cce.MmadOp, reads, writes):
    """cce.mmad: C[:m, :n] = (init ? 0 : C[:m, :n]) + A[:m, :k] x B[:k, :n]."""
    a = _operand(w, op.a, op, reads)
    b = _operand(w, op.b, op, reads)
    init = bool(w.scalar(op.init_condition, op))
    m, k, n = (int(w.scalar(v, op)) for v in (op.real_m, op.real_k, op.real_n))
    c_ref: Ref = w.val(op.c)
    c_read = None if init else _operand(w, op.c, op, reads)
    store = _store(w, op.c, writes)
    acc_dtype = np.float32 if c_ref.et.is_float else np.int64
    product_dtype = PRODUCT_DTYPE if c_ref.et.is_float else np.int64

    def compute():
        av, bv = a().astype(product_dtype), b().astype(product_dtype)
        if av.shape[0] < m or av.shape[1] < k or bv.shape[0] < k or bv.shape[1] < n:
            raise SimulationError(op, f"cce.mmad sizes m={m} k={k} n={n} exceed operands {list(av.shape)} x "
                                      f"{list(bv.shape)}")
        out = c_read().astype(acc_dtype) if c_read is not None else np.zeros(c_ref.shape, dtype=acc_dtype)
        prod = (av[:m, :k] @ bv[:k, :n]).astype(acc_dtype)
        out[:m, :n] = prod if c_read is None else out[:m, :n] + prod
        return out

    return compute, store, False


SEMANTICS: dict[type, Callable] = {
    **VECTOR_SEMANTICS,
    cce.LoadL0AOp: _sem_load_l0,
    cce.LoadL0BOp: _sem_load_l0,
    cce.MmadOp: _sem_mmad_l0,
    cce.RepeatBlocksOp: _sem_repeat_blocks,
    hivm.LoadOp: _sem_copy_like,
    hivm.Nd2NzOp: _sem_copy_like,
    hivm.CopyOp: _sem_copy_like,
    hivm.LoadScaleOp: _sem_load_scale,
    hivm.StoreOp: _sem_store,
    hivm.FixpipeOp: _sem_fixpipe,
    hivm.MmadL1Op: _sem_mmad,
    hivm.BatchMmadL1Op: _sem_mmad,
    hivm.VCastOp: _sem_cast,
    hivm.VBrcOp: _sem_brc,
    hivm.VReduceOp: _sem_reduce,
    **{t: _sem_binary for t in hivm.BINARY_OPS},
    **{t: _sem_unary for t in hivm.UNARY_OPS},
}
