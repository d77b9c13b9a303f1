"""`ascend-lower-mmad-l0`: each `hivm.hir.mmadL1` becomes its L0A/L0B ping-pong in IR,
for the CCE target (the npuir route keeps mmadL1: bishengir lowers it itself).

An mmadL1 becomes a loop over K steps; a step is the most K fractals that fit half of
L0A and of L0B (dividing K), and the steps use the two halves of L0A/L0B in turn:

    scf.for %kk = 0 to steps {
      half  = (iteration of the enclosing loop * steps + kk) mod 2
      event = the chip's first reserved event + half
      %l0a = hivm.hir.pointer_cast(half * half_bytes) : ca ;  %l0b likewise in cb
      hivm.hir.wait_flag[M, MTE1, event]      // the half's previous mmad is done
      cce.load_l0a %a[kk * ks], %l0a ;  cce.load_l0b %b[kk * ks], %l0b      (MTE1)
      hivm.hir.set_flag[MTE1, M, event] ;  hivm.hir.wait_flag[MTE1, M, event]
      cce.mmad %l0a, %l0b, %c init (init && kk == 0) sizes(m, k of the step, n)  (M)
      hivm.hir.set_flag[M, MTE1, event]       // the half is free again
    }

Both M -> MTE1 events are set once at the start of the function (both halves start
free) and waited before each return (the last mmads are done before the kernel ends).
The events are the chip's last two of the MTE1 <-> M pairs (`reserved_cube_events`):
the sync passes never set MTE1 <-> M flags (at the hivm level no op but mmadL1 runs on
MTE1), and IR that already uses those ids on those pairs is refused here. The half
alternates across the iterations of the enclosing loop too, so one mmadL1's L1 -> L0
moves overlap the previous one's multiply.

No M barrier separates the steps: the cube accumulates into L0C in issue order (the
same-pipe rule: `chips.needs_barrier(chip, "M", "M")` is False, M being ordered by the
op at the hivm level), and the pass asserts the rule it relies on.

It runs after sync insertion (the flags the sync passes placed around mmadL1 then stand
around its expansion: a wait before the first L1 read, a set on MTE1 after the last
move, a set on M after the last multiply) and before ascend-verify-sync, the simulator
and `-t cce`, which all see the same ops and flags.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    i1,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.analysis.size_bounds import origin_buffer_shape
from ascend_mlir.chips import Chip, needs_barrier
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import cce, hivm
from ascend_mlir.transforms.estimate_latency import module_chip

# The pipe pairs whose events the expansion owns.
RESERVED_PIPE_PAIRS = (("MTE1", "M"), ("M", "MTE1"))
FRACTAL = 16  # rows and columns of a cube fractal (16 x 16 elements of 16 bits)


def reserved_cube_events(chip: Chip) -> tuple[int, int]:
    """The MTE1 <-> M event ids of the two L0 ping-pong halves: the chip's last two."""
    n = chip.events_per_pipe_pair
    return n - 2, n - 1


@dataclass(frozen=True)
class MmadTile:
    """Geometry of one mmadL1 expansion: sizes, fractal counts, the K fractals per step
    (the most that fit half of L0A and of L0B, dividing K), which operand L1 holds
    transposed (A^T as K x M, B^T as N x K)."""

    m: int
    k: int
    n: int
    a_t: bool
    b_t: bool
    step: int

    @property
    def kf(self) -> int:
        return -(-self.k // FRACTAL)

    @property
    def steps(self) -> int:
        return self.kf // self.step

    @property
    def k_step(self) -> int:
        return min(self.k, self.step * FRACTAL)

    @property
    def last_k(self) -> int:
        """K of the last step: only what remains of K (the cube does not read past it)."""
        return self.k - (self.steps - 1) * self.k_step

    @staticmethod
    def of(op: hivm.MmadL1Op, half: int) -> MmadTile:
        """The tiling of the L1 buffers A and B start at (a partial tile's buffer: the
        K steps and L0 halves are planned for the whole buffer)."""
        a_shape, b_shape = _static_matrix(op, op.a, "A"), _static_matrix(op, op.b, "B")
        a_t, b_t = op.a_transpose is not None, op.b_transpose is not None
        m, k = (a_shape[1], a_shape[0]) if a_t else a_shape
        n = b_shape[0] if b_t else b_shape[1]
        mf, kf, nf = (-(-x // FRACTAL) for x in (m, k, n))
        fractal_bytes = FRACTAL * FRACTAL * 2
        step = max((d for d in range(1, kf + 1)
                    if kf % d == 0 and mf * d * fractal_bytes <= half and d * nf * fractal_bytes <= half), default=0)
        if step == 0:
            raise op_error(op, f"a {m}x{k}x{n} mmadL1 does not fit half of L0A/L0B with one K fractal")
        return MmadTile(m, k, n, a_t, b_t, step)


def _static_matrix(op: Operation, value: SSAValue, role: str) -> tuple[int, int]:
    """The static rank-2 shape of the L1 buffer `value` starts at (itself, or the buffer
    of a partial tile at its origin)."""
    t = value.type
    shape = origin_buffer_shape(value) if isinstance(t, MemRefType) and len(t.get_shape()) == 2 else None
    if shape is None:
        raise op_error(op, f"the mmadL1 lowering takes static rank-2 L1 tiles or partial tiles at the origin "
                           f"of one ({role} is {t})")
    return shape[0], shape[1]


def is_partial(op: hivm.MmadL1Op) -> bool:
    """Whether an operand of `op` is a partial tile (runtime sizes): its sizes are then
    the op's real_m/real_k/real_n, and the K steps run only over real_k."""
    return any(isinstance(t := v.type, MemRefType) and DYNAMIC_INDEX in t.get_shape() for v in (op.a, op.b, op.c))


class _Builder:
    """Ops inserted before one point, in order."""

    def __init__(self, point: InsertPoint):
        self.point = point

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]

    def binary(self, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(cls(a, b)).results[0]  # pyright: ignore[reportCallIssue]

    def to_i64(self, value: SSAValue) -> SSAValue:
        return self.add(arith.IndexCastOp(value, i64)).results[0]


def _check_operands(op: hivm.MmadL1Op) -> None:
    if op.per_channel_bias is not None or op.unit_flag_mode is not None or op.sync_related_args:
        raise op_error(op, "the mmadL1 lowering takes mmadL1 without bias, unit flags or sync_related_args")
    for value, role in ((op.a, "A"), (op.b, "B")):
        t = value.type
        if not isinstance(t, MemRefType) or element_bytes(t.element_type) != 2:
            raise op_error(op, f"the mmadL1 lowering takes bf16/f16 L1 tiles ({role} is {t})")


def _enclosing_iteration(op: Operation, b: _Builder) -> SSAValue | None:
    """(iv - lb) / step of the innermost scf.for around `op`, else None."""
    loop = op.parent_op()
    while loop is not None and not isinstance(loop, scf.ForOp | func.FuncOp):
        loop = loop.parent_op()
    if not isinstance(loop, scf.ForOp):
        return None
    iv = loop.body.block.args[0]
    offset = b.binary(arith.SubiOp, iv, loop.lb)
    return b.binary(arith.DivUIOp, offset, loop.step)


def _multiplied_part(b: _Builder, op: hivm.MmadL1Op) -> tuple[SSAValue, SSAValue]:
    """Views of A and B of exactly real_m x real_k and real_k x real_n (transposed as
    stored): the L1 -> L0 moves of a partial tile lay out the fractals the multiply reads
    (the cube's L0 layout follows its m, k and n), never more."""
    def part(value: SSAValue, rows: SSAValue, cols: SSAValue) -> SSAValue:
        t = value.type
        assert isinstance(t, MemRefType)
        layout = t.layout if isinstance(t.layout, StridedLayoutAttr) else StridedLayoutAttr([t.get_shape()[1], 1])
        result = MemRefType(t.element_type, [DYNAMIC_INDEX, DYNAMIC_INDEX], layout, t.memory_space)
        view = memref.SubviewOp(value, [], [rows, cols], [], [0, 0], [DYNAMIC_INDEX, DYNAMIC_INDEX], [1, 1], result)
        return b.add(view).results[0]

    m, k, n = op.real_m, op.real_k, op.real_n
    a = part(op.a, k, m) if op.a_transpose is not None else part(op.a, m, k)
    bb = part(op.b, n, k) if op.b_transpose is not None else part(op.b, k, n)
    return a, bb


def _runtime_steps(b: _Builder, real_k: SSAValue, k_step: int) -> SSAValue:
    """The K steps of a partial tile: ceil(real_k / k_step), at least one, so that an
    mmadL1 with real_k = 0 still runs its multiply: with init, C = 0 (A x B over an empty
    K, as mmadL1 defines it and the cube's k = 0 computes), never an L0C left unwritten."""
    rounded = b.binary(arith.AddiOp, real_k, b.index(k_step - 1))
    return b.binary(arith.MaxSIOp, b.binary(arith.DivUIOp, rounded, b.index(k_step)), b.index(1))


def lower_mmad(op: hivm.MmadL1Op, chip: Chip) -> None:
    """Replace `op` by its K-step loop (see the module docstring)."""
    _check_operands(op)
    half = min(chip.capacity["ca"], chip.capacity["cb"]) // 2
    tile = MmadTile.of(op, half)
    a_t = op.a.type
    b_t = op.b.type
    assert isinstance(a_t, MemRefType) and isinstance(b_t, MemRefType)
    outer = _Builder(InsertPoint.before(op))
    iteration = _enclosing_iteration(op, outer)
    first = outer.index(reserved_cube_events(chip)[0])
    partial = is_partial(op)
    lb, one = outer.index(0), outer.index(1)
    # a partial tile whose buffer's K is one step takes that one step whatever real_k is
    ub = _runtime_steps(outer, op.real_k, tile.k_step) if partial and tile.steps > 1 else outer.index(tile.steps)
    a_src, b_src = (_multiplied_part(outer, op) if partial else (op.a, op.b))
    body = Block(arg_types=[IndexType()])
    loop = outer.add(scf.ForOp(lb, ub, one, [], Region(body)))
    kk = body.args[0]
    kk.name_hint = "kk"
    b = _Builder(InsertPoint.at_end(body))
    sequence = kk if iteration is None else b.binary(
        arith.AddiOp, b.binary(arith.MuliOp, iteration, b.index(tile.steps)), kk)
    parity = b.binary(arith.RemUIOp, sequence, b.index(2))
    event = b.to_i64(b.binary(arith.AddiOp, parity, first))
    offset = b.to_i64(b.binary(arith.MuliOp, parity, b.index(half)))
    l0a_type = MemRefType(a_t.element_type, [tile.m, tile.k_step],
                          memory_space=hivm.AddressSpaceAttr(hivm.AddressSpace.CA))
    l0b_type = MemRefType(b_t.element_type, [tile.k_step, tile.n],
                          memory_space=hivm.AddressSpaceAttr(hivm.AddressSpace.CB))
    l0a = b.add(hivm.PointerCastOp([offset], l0a_type)).results[0]
    l0b = b.add(hivm.PointerCastOp([offset], l0b_type)).results[0]
    l0a.name_hint, l0b.name_hint = "l0a", "l0b"
    k0 = b.binary(arith.MuliOp, kk, b.index(tile.k_step))
    b.add(hivm.WaitFlagOp("M", "MTE1", event))
    b.add(cce.LoadL0AOp(a_src, k0, l0a, tile.a_t))
    b.add(cce.LoadL0BOp(b_src, k0, l0b, tile.b_t))
    b.add(hivm.SetFlagOp("MTE1", "M", event))
    b.add(hivm.WaitFlagOp("MTE1", "M", event))
    if partial:  # the step's K: what is left of real_k, at most a whole step
        k_size = b.binary(arith.MinSIOp, b.binary(arith.SubiOp, op.real_k, k0), b.index(tile.k_step))
    elif tile.last_k == tile.k_step:
        k_size = b.index(tile.k_step)
    else:  # the last step takes only what remains of K
        is_last = b.add(arith.CmpiOp(kk, b.index(tile.steps - 1), "eq")).results[0]
        k_size = b.add(arith.SelectOp(is_last, b.index(tile.last_k), b.index(tile.k_step))).results[0]
    init = op.init_condition
    if tile.steps > 1:
        first_step = b.add(arith.CmpiOp(kk, b.index(0), "eq")).results[0]
        init = b.add(arith.AndIOp(init, first_step)).results[0]
    assert init.type == i1
    m_size, n_size = (op.real_m, op.real_n) if partial else (b.index(tile.m), b.index(tile.n))
    b.add(cce.MmadOp(l0a, l0b, op.c, init, m_size, k_size, n_size))
    b.add(hivm.SetFlagOp("M", "MTE1", event))
    b.add(scf.YieldOp())
    for name, attr in op.attributes.items():  # the schedule's task of the mmadL1 is the loop's
        loop.attributes[name] = attr
    loop.location = op.location
    Rewriter.erase_op(op)


def _check_reserved_events(func_op: func.FuncOp, events: tuple[int, int]) -> None:
    for op in func_op.walk():
        if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and op.static_event_id is not None:
            pair = (op.set_pipe.pipe_name, op.wait_pipe.pipe_name)
            if pair in RESERVED_PIPE_PAIRS and op.static_event_id.data in events:
                raise op_error(op, f"event id {op.static_event_id.data} of {pair[0]} -> {pair[1]} is reserved "
                                   f"for the mmadL1 lowering's L0 ping-pong (ids {events})")


def _prime_and_drain(func_op: func.FuncOp, events: tuple[int, int]) -> None:
    """Both halves start free (M -> MTE1 set at the start) and the last multiplies are
    done before the kernel returns (waited before each return)."""
    entry = func_op.body.blocks[0]
    start = _Builder(InsertPoint.at_start(entry))
    for event in events:
        start.add(hivm.SetFlagOp("M", "MTE1", event))
    for ret in [o for o in func_op.walk() if isinstance(o, func.ReturnOp)]:
        end = _Builder(InsertPoint.before(ret))
        for event in events:
            end.add(hivm.WaitFlagOp("M", "MTE1", event))


def lower_function(func_op: func.FuncOp, chip: Chip) -> None:
    mmads = [o for o in func_op.walk() if isinstance(o, hivm.MmadL1Op)]
    if not mmads:
        return
    assert not needs_barrier(chip, "M", "M"), "the expansion relies on the cube's issue order"
    events = reserved_cube_events(chip)
    _check_reserved_events(func_op, events)
    for op in mmads:
        lower_mmad(op, chip)
    _prime_and_drain(func_op, events)


@dataclass(frozen=True)
class LowerMmadL0Pass(ModulePass):
    """mmadL1 -> L1 -> L0A/L0B moves, L0 multiplies and their ping-pong flags (CCE target)."""

    name = "ascend-lower-mmad-l0"

    chip: str | None = None
    chip_file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        chip = module_chip(op, self.chip, self.chip_file, record=False)
        for func_op in [o for o in op.walk() if isinstance(o, func.FuncOp) and not o.is_declaration]:
            lower_function(func_op, chip)
