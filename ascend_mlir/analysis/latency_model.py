"""Latency model: (latency, ii) of every hivm op, from the chip's latency table.

`latency` is the number of cycles from issue until a consumer may use the result; `ii` is
the number of cycles until the same pipe may issue its next task. Always latency >= ii.

The shape-level functions (`copy_cost`, `cube_cost`, `mmad_cost`, `vector_cost`, `seq`,
`serial_loop`, `branches`) take plain numbers and are what the unit tests pin down;
`estimate(op, chip)` reads shapes, element types and attributes off one hivm op.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from math import prod
from typing import NamedTuple

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    DYNAMIC_INDEX,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import DiagnosticException

from ascend_mlir.chips import Chip, ChipError
from ascend_mlir.dialects import cce, hivm
# scope_of and op_pipes are hivm's (importers of this module may take them from here)
from ascend_mlir.dialects.hivm import op_pipes, scope_of


class Cost(NamedTuple):
    latency: int
    ii: int


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _align(x: int, a: int) -> int:
    return _ceil_div(x, a) * a


def _checked(cost: Cost) -> Cost:
    """Every cost costs at least a cycle and a result is never ready before the pipe
    can issue again (latency >= ii)."""
    ii = max(1, cost.ii)
    return Cost(max(cost.latency, ii), ii)


# ----------------------------------------------------------------------------- combining


def seq(*costs: Cost) -> Cost:
    """Statements in sequence on one task: (max(L1, II1 + L2), II1 + II2), folded."""
    if not costs:
        raise ValueError("seq of no costs")
    latency, ii = costs[0]
    for nxt in costs[1:]:
        latency = max(latency, ii + nxt.latency)
        ii = ii + nxt.ii
    return _checked(Cost(latency, ii))


def serial_loop(body: Cost, trip_count: int) -> Cost:
    """A loop of `trip_count` iterations whose body issues every `body.ii` cycles."""
    n = max(1, trip_count)
    return _checked(Cost(body.ii * (n - 1) + body.latency, body.ii * n))


def branches(*costs: Cost) -> Cost:
    """if/else: the larger branch (per component, so neither bound is underestimated)."""
    return _checked(Cost(max(c.latency for c in costs), max(c.ii for c in costs)))


def multi_pipe(feeder: Cost, consumer: Cost) -> Cost:
    """A task whose first part runs on one pipe and feeds a second pipe (mmadL1: MTE1
    moves, then the cube). The result is ready as in a sequence; each pipe is free
    again after its own part, so the task's ii is the max over its pipes."""
    latency = max(feeder.latency, feeder.ii + consumer.latency)
    return _checked(Cost(latency, max(feeder.ii, consumer.ii)))


# ----------------------------------------------------------------------------- formulas


def copy_path(chip: Chip, src: str, dst: str):
    path = chip.latency.copy.get((src, dst))
    if path is None:
        raise ChipError(f"chip {chip.name} has no copy path {src} -> {dst}")
    return path


def copy_cost(chip: Chip, src: str, dst: str, nbytes: int, bursts: int = 1) -> Cost:
    """A DMA of `nbytes` from scope `src` to `dst`. On paths with `per_burst` a region
    made of `bursts` non-contiguous rows costs one descriptor per row, in sequence."""
    path = copy_path(chip, src, dst)
    descriptors = bursts if path.per_burst and bursts > 1 else 1
    per = _ceil_div(nbytes, descriptors)
    transfer = _ceil_div(per, path.bandwidth)
    one = _checked(Cost(path.base + transfer, max(path.min_ii, path.issue + transfer)))
    if descriptors == 1:
        return one
    return seq(*([one] * descriptors))


def cube_dtype(element_type: Attribute, hf32: bool = False) -> tuple[str, int]:
    """The cube throughput class and element width (bits) of a matmul input type."""
    if isinstance(element_type, Float16Type):
        return "fp16", 16
    if isinstance(element_type, BFloat16Type):
        return "bf16", 16
    if isinstance(element_type, Float32Type):
        return ("hf32" if hf32 else "fp32"), 32
    if isinstance(element_type, IntegerType) and element_type.width.data == 8:
        return "int8", 8
    name = str(element_type)
    if name.startswith("f8"):
        return "fp8", 8
    raise ChipError(f"the cube does not multiply {element_type}")


def cube_cost(chip: Chip, m: int, n: int, k: int, dtype: str, element_bits: int) -> Cost:
    """The cube pass itself (pipe M), operands already in L0A/L0B."""
    table = chip.latency
    if dtype not in table.cube_throughput:
        raise ChipError(f"chip {chip.name} has no cube throughput for {dtype}")
    k_align = max(1, 256 // element_bits)
    ops = 2 * _align(m, 16) * _align(n, 16) * _align(k, k_align)
    ii = _ceil_div(ops, table.cube_throughput[dtype])
    if dtype in ("fp32", "hf32"):
        base = table.cube_base_fp32
    elif dtype.startswith("mx"):
        base = table.cube_base_mx
    else:
        base = table.cube_base
    return _checked(Cost(base + ii, ii))


def mmad_cost(chip: Chip, m: int, n: int, k: int, dtype: str, element_bits: int) -> Cost:
    """mmadL1: MTE1 moves A (m x k) L1 -> L0A and B (k x n) L1 -> L0B, then the cube."""
    return multi_pipe(
        mmad_feed_cost(chip, m, n, k, element_bits), cube_cost(chip, m, n, k, dtype, element_bits)
    )


def batch_mmad_cost(chip: Chip, batch: int, m: int, n: int, k: int, dtype: str, element_bits: int) -> Cost:
    """batchMmadL1: one mmadL1 of m/k/n per index of the batch axis, in a loop.
    bishengir runs it so: its hivm-tile-batchmm-into-loop pass (TileBatchMMIntoLoop.cpp)
    rewrites a batchMmadL1 and its fixpipe into an scf.for over the batch of mmadL1s, so
    the batches issue one mmadL1's ii apart and the last result is ready one mmadL1's
    latency after the last issue."""
    return serial_loop(mmad_cost(chip, m, n, k, dtype, element_bits), batch)


def batch_mmad_feed_latency(chip: Chip, batch: int, m: int, n: int, k: int, dtype: str, element_bits: int) -> int:
    """Cycles until a batchMmadL1's MTE1 has read the last batch's A and B from L1:
    the last mmadL1 of the loop issues (batch - 1) mmadL1 iis in, then its feed runs."""
    one = mmad_cost(chip, m, n, k, dtype, element_bits)
    return (max(1, batch) - 1) * one.ii + mmad_feed_cost(chip, m, n, k, element_bits).latency


def vector_class(chip: Chip, op_name: str) -> str:
    cls = chip.latency.vector_op_class.get(op_name)
    if cls is None:
        raise ChipError(
            f"chip {chip.name} has no vector class for '{op_name}'"
            " (add it to latency.vector.op_class)"
        )
    return cls


def vector_cost(chip: Chip, op_name: str, elements: int, bytes_read: int) -> Cost:
    """A vector op: bound by element throughput of its class or by the read bandwidth."""
    table = chip.latency
    throughput = table.vector_throughput[vector_class(chip, op_name)]
    cycles = max(_ceil_div(elements, throughput), _ceil_div(bytes_read, table.vector_bandwidth))
    return _checked(Cost(cycles, cycles))


def scalar_cost(chip: Chip) -> Cost:
    return _checked(Cost(chip.latency.scalar, chip.latency.scalar))


# ----------------------------------------------------------------------------- IR side


class LatencyError(DiagnosticException):
    """An op whose latency cannot be estimated; `message` does not repeat the op name."""

    def __init__(self, op: Operation, message: str):
        super().__init__(f"{op.name}: {message}")
        self.op = op
        self.message = message


def element_bytes(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return max(1, t.width.data // 8)
    if isinstance(t, IndexType):
        return 8
    if isinstance(t, Float16Type | BFloat16Type):
        return 2
    if isinstance(t, Float32Type):
        return 4
    if isinstance(t, Float64Type):
        return 8
    if isinstance(t, AnyFloat):
        return max(1, t.bitwidth // 8)
    raise ChipError(f"unknown element type size: {t}")


# the runtime shapes of partial tiles while `estimate_at` costs one execution of an op
_RUNTIME_SHAPES: ContextVar[Mapping[SSAValue, tuple[int, ...]] | None] = ContextVar("runtime_shapes", default=None)


def estimate_at(op: Operation, chip: Chip, shapes: Mapping[SSAValue, tuple[int, ...]]) -> tuple[int, int]:
    """(latency, ii) of one execution of `op` whose dynamic operands (partial tiles) have
    the runtime `shapes`: what the simulator times (the schedule plans for the bound)."""
    token = _RUNTIME_SHAPES.set(shapes)
    try:
        return estimate(op, chip)
    finally:
        _RUNTIME_SHAPES.reset(token)


def static_shape(value: SSAValue, op: Operation) -> tuple[int, ...]:
    """The operand's shape; a dynamic one (a partial tile) by its static bound
    (analysis.size_bounds): the schedule plans for the full tile. Under `estimate_at`,
    a dynamic one by its runtime shape (at least one element: an empty tile still issues)."""
    from ascend_mlir.analysis.size_bounds import static_bound_shape

    t = value.type
    assert isinstance(t, MemRefType)
    shape = t.get_shape()
    runtime = _RUNTIME_SHAPES.get()
    if runtime is not None and value in runtime:
        return tuple(max(1, d) for d in runtime[value])
    if any(d < 0 for d in shape):
        bound = static_bound_shape(value)
        if bound is None:
            raise LatencyError(op, f"cannot estimate the latency of an operand with a dynamic shape ({t}): "
                                   "its size has no static bound")
        return bound
    return tuple(shape)


def memref_bytes(value: SSAValue, op: Operation) -> int:
    t = value.type
    assert isinstance(t, MemRefType)
    return prod(static_shape(value, op)) * element_bytes(t.element_type)


def contiguous_bursts(t: MemRefType) -> int:
    """How many contiguous runs a memref's elements form in memory (1 for the identity
    layout). A dynamic stride is taken as non-contiguous (the conservative guess)."""
    shape = [d for d in t.get_shape()]
    layout = t.layout
    if isinstance(layout, NoneAttr) or not isinstance(layout, StridedLayoutAttr):
        return 1
    strides = layout.get_strides()
    run = 1
    for dim in range(len(shape) - 1, -1, -1):
        size, stride = shape[dim], strides[dim]
        if size == 1:
            continue
        if stride is not None and stride == run:
            run *= size
            continue
        return max(1, prod(max(1, d) for d in shape[: dim + 1]))
    return 1


def _ins(op: Operation) -> Sequence[SSAValue]:
    ins = getattr(op, "ins", None)
    return tuple(ins) if ins is not None else tuple(op.operands)


def _outs(op: Operation) -> Sequence[SSAValue]:
    outs = getattr(op, "outs", None)
    return tuple(outs) if outs is not None else ()


def _memrefs(values: Iterable[SSAValue]) -> list[SSAValue]:
    return [v for v in values if isinstance(v.type, MemRefType)]


def constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        attr = owner.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value") or owner.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    if isinstance(value, IntAttr):
        return value.data
    return None


def _one_in_one_out(op: Operation) -> tuple[SSAValue, SSAValue]:
    ins, outs = _memrefs(_ins(op)), _memrefs(_outs(op))
    if len(ins) != 1 or len(outs) != 1:
        raise LatencyError(op, "expected one memref source and one memref destination")
    return ins[0], outs[0]


def _copy_like(op: Operation, chip: Chip) -> Cost:
    src, dst = _one_in_one_out(op)
    src_scope, dst_scope = scope_of(src.type), scope_of(dst.type)
    if src_scope is None or dst_scope is None:
        raise LatencyError(op, "operands must be memrefs in hivm address spaces")
    nbytes = memref_bytes(src, op)
    if src_scope == "ub" and dst_scope == "ub":
        return vector_cost(chip, "copy", prod(static_shape(src, op)), nbytes)
    # The GM side decides how many bursts a strided slice needs.
    gm_side = src if src_scope == "gm" else dst if dst_scope == "gm" else src
    assert isinstance(gm_side.type, MemRefType)
    bursts = contiguous_bursts(gm_side.type)
    try:
        return copy_cost(chip, src_scope, dst_scope, nbytes, bursts)
    except ChipError as e:
        raise LatencyError(op, str(e)) from None


def _batch_of(op: Operation) -> int:
    """The batch (leading axis) of a batchMmadL1's A, B and C: the verifier has checked
    they are rank 3 with one batch; A's extent (its bound when dynamic) counts."""
    a = _ins(op)[0] if _ins(op) else None
    if a is None or not isinstance(a.type, MemRefType) or len(a.type.get_shape()) != 3:
        raise LatencyError(op, "expected a rank-3 memref A (batch, rows, columns)")
    return static_shape(a, op)[0]


def _mmad_shape(op: Operation) -> tuple[int, int, int, str, int]:
    """(m, n, k, cube dtype, element bits) of an mmadL1 (of one batch of a batchMmadL1)."""
    ins = _ins(op)
    outs = _memrefs(_outs(op))
    if len(ins) < 2 or not outs:
        raise LatencyError(op, "expected ins(a, b, init, m, k, n) and outs(c)")
    a, b = ins[0], ins[1]
    if not isinstance(a.type, MemRefType) or not isinstance(b.type, MemRefType):
        raise LatencyError(op, "a and b must be memrefs")
    attrs = {**op.attributes, **op.properties}
    dtype, bits = cube_dtype(a.type.element_type, hf32="enable_HF32" in attrs)
    # The op's own m/k/n operands (constants) are the work it does, whatever the tiles'
    # types say (bishengir's mmadL1 works on memref<?x?x?x?xbf16> fractal views).
    explicit = [constant_int(ins[i]) for i in (3, 4, 5)] if len(ins) >= 6 else []
    if len(explicit) == 3 and all(explicit):
        m, k, n = (int(x) for x in explicit)  # pyright: ignore[reportArgumentType]
        return m, n, k, dtype, bits
    a_shape, b_shape = static_shape(a, op), static_shape(b, op)
    if op.name == "hivm.hir.batchMmadL1":  # one batch's matrices
        a_shape, b_shape = a_shape[1:], b_shape[1:]
    # NZ fractals [c1, r1, r0, c0] (bishengir's cbuf tiles) hold an (r1 r0) x (c1 c0) matrix
    a_shape, b_shape = (((s[1] * s[2], s[0] * s[3]) if len(s) == 4 else s) for s in (a_shape, b_shape))
    if len(a_shape) != 2 or len(b_shape) != 2:
        raise LatencyError(op, "a and b must be 2-D")
    m, k = (a_shape[1], a_shape[0]) if "a_transpose" in attrs else a_shape
    kb, n = (b_shape[1], b_shape[0]) if "b_transpose" in attrs else b_shape
    k = max(k, kb)
    # the explicit operands that are constants describe the real extent inside the tiles
    if explicit:
        m, k, n = (e if e else d for e, d in zip(explicit, (m, k, n), strict=True))
    return m, n, k, dtype, bits


def _mmad(op: Operation, chip: Chip) -> Cost:
    return mmad_cost(chip, *_mmad_shape(op))


def _batch_mmad(op: Operation, chip: Chip) -> Cost:
    return batch_mmad_cost(chip, _batch_of(op), *_mmad_shape(op))


def _mmad_l0(op: cce.MmadOp, chip: Chip) -> Cost:
    """cce.mmad: the cube pass over its m/k/n operands (constants), else its L0 tiles."""
    a_type = op.a.type
    assert isinstance(a_type, MemRefType)
    dtype, bits = cube_dtype(a_type.element_type)
    (m, k), (_, n) = static_shape(op.a, op), static_shape(op.b, op)
    explicit = [constant_int(v) for v in (op.real_m, op.real_k, op.real_n)]
    m, k, n = (e if e else d for e, d in zip(explicit, (m, k, n), strict=True))
    return cube_cost(chip, m, n, k, dtype, bits)


def mmad_feed_cost(chip: Chip, m: int, n: int, k: int, element_bits: int) -> Cost:
    """The MTE1 part of mmadL1: L1 -> L0A then L1 -> L0B."""
    elem_bytes = element_bits // 8
    return seq(
        copy_cost(chip, "cbuf", "ca", m * k * elem_bytes),
        copy_cost(chip, "cbuf", "cb", k * n * elem_bytes),
    )


def read_latencies(op: Operation, chip: Chip) -> dict[SSAValue, int]:
    """Operands a task has finished reading before its result is ready: mmadL1 is done
    with its L1 inputs once its MTE1 moves are (which is why a cube op's WAR dependence
    towards an L1 loader is an MTE1 -> MTE2 flag)."""
    if op.name not in ("hivm.hir.mmadL1", "hivm.hir.batchMmadL1"):
        return {}
    try:
        m, n, k, dtype, bits = _mmad_shape(op)
        if op.name == "hivm.hir.batchMmadL1":
            feed = batch_mmad_feed_latency(chip, _batch_of(op), m, n, k, dtype, bits)
        else:
            feed = mmad_feed_cost(chip, m, n, k, bits).latency
    except ChipError as e:
        raise LatencyError(op, str(e)) from None
    ins = _ins(op)
    return {ins[0]: feed, ins[1]: feed}


def _vector(op: Operation, chip: Chip, short: str) -> Cost:
    ins = _memrefs(_ins(op))
    outs = _memrefs(_outs(op))
    if not outs:
        raise LatencyError(op, "expected a memref destination")
    elements = max(prod(static_shape(v, op)) for v in [*ins, *outs])
    bytes_read = sum(memref_bytes(v, op) for v in ins)
    try:
        return vector_cost(chip, short, elements, bytes_read)
    except ChipError as e:
        raise LatencyError(op, str(e)) from None


def estimate(op: Operation, chip: Chip) -> tuple[int, int]:
    """(latency, ii) of one hivm op on `chip`; raises LatencyError naming the op."""
    try:
        cost = _estimate(op, chip)
    except ChipError as e:
        raise LatencyError(op, str(e)) from None
    return cost.latency, cost.ii


# The 910B's whole-reduce (vcmax / vcmin / vcadd) reduces one 256-byte repeat of a row.
C220_REDUCE_REPEAT_BYTES = 256
_C220_FOLD = {"sum": "vadd", "max": "vmax", "min": "vmin"}


def c220_reduce_steps(op: Operation, chip: Chip) -> Cost | None:
    """A dav-c220 row reduction wider than one repeat runs as the steps that
    ascend-lower-wide-reduce writes (the CCE route lowers it in IR after scheduling;
    bishengir lowers it itself): a whole-reduce per repeat of the rows, and per repeat
    after the first a fold into dst and two V barriers (the 910B does not order V), one
    after another on V. Their sum is the op's cost, so the schedule plans for the steps.
    None for any other op or chip."""
    if chip.arch != "dav-c220" or not isinstance(op, hivm.VReduceOp) or len(op.dst) != 1:
        return None
    kind = str(getattr(op.arith.data, "value", op.arith.data)).lower().split(".")[-1]
    dims = tuple(int(d) for d in op.reduce_dims.get_values())  # type: ignore[union-attr]
    t = op.src.type
    if kind not in _C220_FOLD or dims != (1,) or not isinstance(t, MemRefType) or len(t.get_shape()) != 2:
        return None
    rows, cols = static_shape(op.src, op)
    esize = element_bytes(t.get_element_type())
    per_repeat = C220_REDUCE_REPEAT_BYTES // esize
    repeats = -(-cols // per_repeat)
    if repeats <= 1:
        return None
    step = vector_cost(chip, "vreduce", rows * per_repeat, rows * per_repeat * esize)
    fold = vector_cost(chip, _C220_FOLD[kind], rows, 2 * rows * esize)
    barrier = scalar_cost(chip)
    total = repeats * step.latency + (repeats - 1) * (fold.latency + 2 * barrier.latency)
    return _checked(Cost(total, total))


def c220_column_reduce_steps(op: Operation, chip: Chip) -> Cost | None:
    """A dav-c220 column reduction (reduce_dims = [0]) of R > 1 static rows into one row
    runs as the steps ascend-lower-wide-reduce writes: the first row's one-row column
    reduction, then per further row a V barrier and an elementwise fold into dst, one
    after another on V. Their sum is the op's cost. None for any other op or chip."""
    if chip.arch != "dav-c220" or not isinstance(op, hivm.VReduceOp) or len(op.dst) != 1:
        return None
    kind = str(getattr(op.arith.data, "value", op.arith.data)).lower().split(".")[-1]
    dims = tuple(int(d) for d in op.reduce_dims.get_values())  # type: ignore[union-attr]
    t, d = op.src.type, op.dst[0].type
    if kind not in _C220_FOLD or dims != (0,) or not isinstance(t, MemRefType) or len(t.get_shape()) != 2:
        return None
    if not isinstance(d, MemRefType) or len(d.get_shape()) != 2 or d.get_shape()[0] != 1:
        return None
    rows = t.get_shape()[0]
    if rows == DYNAMIC_INDEX or rows <= 1:
        return None
    cols = static_shape(op.src, op)[1]
    esize = element_bytes(t.get_element_type())
    first = vector_cost(chip, "vreduce", cols, cols * esize)
    fold = vector_cost(chip, _C220_FOLD[kind], cols, 2 * cols * esize)
    total = first.latency + (rows - 1) * (scalar_cost(chip).latency + fold.latency)
    return _checked(Cost(total, total))


def _estimate(op: Operation, chip: Chip) -> Cost:
    name = op.name
    short = name.removeprefix("hivm.hir.")
    if isinstance(op, (*hivm.DMA_OPS, hivm.LoadScaleOp)):  # the ops of hardware.COPY_PATHS (load_scale: GM -> L1)
        cost = _copy_like(op, chip)
    elif short == "mmadL1":
        cost = _mmad(op, chip)
    elif short == "batchMmadL1":
        cost = _batch_mmad(op, chip)
    elif isinstance(op, cce.LoadL0AOp | cce.LoadL0BOp):  # one K step of an mmadL1's MTE1 feed
        cost = copy_cost(chip, "cbuf", hivm.scope_of(op.dst) or "", memref_bytes(op.dst, op))
    elif isinstance(op, cce.MmadOp):
        cost = _mmad_l0(op, chip)
    elif isinstance(op, cce.RepeatBlocksOp):  # a vcopy: one V pass over the destination
        cost = _vector(op, chip, "vbrc")
    elif isinstance(op, hivm.VBrcOp) and op.fills_l1():  # MTE2 writes the L1 tile, as a GM -> L1 copy would
        cost = copy_cost(chip, "gm", "cbuf", memref_bytes(op.dst, op))
    elif (steps := c220_reduce_steps(op, chip) or c220_column_reduce_steps(op, chip)) is not None:
        cost = steps
    elif short.startswith("v") and short in chip.latency.vector_op_class:
        cost = _vector(op, chip, short)
    elif op_pipes(op):
        # flags, barriers, block queries: one scalar issue
        cost = scalar_cost(chip)
    else:
        raise LatencyError(op, "no latency model for this op")
    return cost
