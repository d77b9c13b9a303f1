"""hivm-level front end of the simulator: per core, a scalar unit walks the kernel (func
body, scf.for/if, arith/index ops, memref views, pointer_cast, block queries) and turns
every hivm op into an engine `Instr` with exact numpy data semantics.

Cores of a block: an AIV kernel runs on one vector core, an AIC kernel on one cube core;
a MIX kernel (`hivm.func_core_type = #hivm.func_core_type<MIX>`, a function with both
cube and vector ops, or a `<name>_mix_aic` / `<name>_mix_aiv` pair) runs as one cube core
plus two vector cores when the kernel uses a dual fixpipe (cc -> ub, destination half as
tall) or `get_sub_block_idx`, else one vector core (the reference interpreter's model of
a kernel without dual copy). In a single MIX function each core executes the hivm ops of
its core type (`HivmPipeOp.core_type()`); scalar ops run on every core. In a split pair,
an alloc of the other core's memory (the fixpipe's ub destination in the aic function)
is the partner function's alloc of the same name and type (`_pair_allocs`).

Memory: every GM argument and every on-chip memory instance is a byte array. A
`memref.alloc` gets its own buffer per executing core (the same alloc executed by the
cube and a vector core is one logical buffer, so a cube fixpipe into a ub alloc lands in
the vector cores' copies); `hivm.hir.pointer_cast(%offset)` views the core's scope arena
at that byte offset, so buffers at the same scope+offset alias. Layout: on-chip buffers
keep the **logical (ND) layout** of their memref type. nd2nz / fixpipe{nz2nd} therefore
copy values without permuting them and mmadL1 reads plain matrices; this is equivalent to
the NZ fractal layout for whole-buffer accesses (same bytes, same values after the
round trip) but a byte-level overlap inside an L1/L0 buffer is judged on the ND layout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascend_mlir import hardware
from ascend_mlir.diagnostics import OpError, location_of
from ascend_mlir.dialects import hacc, hivm
from ascend_mlir.sim import numerics
from ascend_mlir.sim.engine import (
    BARRIER,
    BARRIER_ALL,
    BLOCK_SET,
    BLOCK_WAIT,
    OP,
    SET,
    WAIT,
    Access,
    Core,
    Instr,
)
from ascend_mlir.sim.numerics import ElemType, decode, elem_type, encode

ON_CHIP = hardware.ON_CHIP_SCOPES
CUBE_SCOPES = hardware.CORE_SCOPES["CUBE"]
# bounds on the work per core and block, so a huge or endless loop is a diagnostic, not a hang
MAX_SCALAR_STEPS = 1_000_000
MAX_INSTRUCTIONS = 100_000


class SimulationError(OpError):
    """The program cannot be simulated (bad bounds, unsupported op...), located at `op`."""


# ------------------------------------------------------------------------------ buffers


class Buffer:
    """A logical buffer: one byte array for GM, one per executing core on chip."""

    _next_id = 0

    def __init__(self, name: str, scope: str, nbytes: int, shared: bool, init: np.ndarray | None = None):
        Buffer._next_id += 1
        self.id = Buffer._next_id
        self.name = name
        self.scope = scope
        self.nbytes = nbytes
        self.shared = shared
        self._memories: dict[int, np.ndarray] = {}
        self._labels: dict[int, str] = {}
        if init is not None:
            self._memories[-1] = init

    def memory(self, core: int) -> np.ndarray:
        key = -1 if self.shared else core
        mem = self._memories.get(key)
        if mem is None:
            mem = self._memories[key] = np.zeros(self.nbytes, dtype=np.uint8)
        return mem

    def label(self, core: int, core_name: str) -> str:
        key = -1 if self.shared else core
        text = self._labels.get(key)
        if text is None:
            text = self._labels[key] = (
                f"{self.scope} {self.name}" if self.shared else f"{self.scope} {self.name} of {core_name}"
            )
        return text


@dataclass(frozen=True)
class Ref:
    """A memref value at run time: a strided view of a buffer (offsets in bytes)."""

    buf: Buffer
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]  # in elements
    et: ElemType
    base: int = 0  # byte offset of the underlying allocation (what reinterpret_cast is relative to)

    def view(self, core: int) -> np.ndarray:
        item = self.et.itemsize
        return np.ndarray(
            self.shape, dtype=self.et.storage, buffer=self.buf.memory(core), offset=self.offset,
            strides=tuple(s * item for s in self.strides),
        )

    def extent(self) -> tuple[int, int]:
        """[first byte, last byte + 1) touched."""
        if any(d == 0 for d in self.shape):
            return self.offset, self.offset
        hi = self.offset + sum((d - 1) * s for d, s in zip(self.shape, self.strides)) * self.et.itemsize
        return self.offset, hi + self.et.itemsize


def _memref_type(value: SSAValue) -> MemRefType:
    t = value.type
    assert isinstance(t, MemRefType)
    return t


def _row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(strides))


# ------------------------------------------------------------------------------ block context


@dataclass
class CoreSpec:
    name: str
    kind: str  # CUBE | VECTOR
    func: func.FuncOp
    sub_block: int


@dataclass
class BlockContext:
    block: int
    grid: int
    cores: list[CoreSpec]
    gm: dict[SSAValue, Ref]  # per function argument (shared GM)
    arena_bytes: Mapping[str, int]
    timing: Callable[[Operation], tuple[int, int]]
    rng: np.random.Generator | None
    allocs: dict[tuple, Buffer] = field(default_factory=dict)
    arenas: dict[str, Buffer] = field(default_factory=dict)
    gm_accesses: list = field(default_factory=list)  # (instr, core, Ref, write, atomic)
    alloc_alias: dict = field(default_factory=dict)

    def vector_cores(self) -> list[int]:
        return [i for i, c in enumerate(self.cores) if c.kind == "VECTOR"]

    def cube_cores(self) -> list[int]:
        return [i for i, c in enumerate(self.cores) if c.kind == "CUBE"]

    def arena(self, scope: str) -> Buffer:
        buf = self.arenas.get(scope)
        if buf is None:
            buf = self.arenas[scope] = Buffer("arena", scope, self.arena_bytes.get(scope, 1 << 20), shared=False)
        return buf


# ------------------------------------------------------------------------------ scalar walk


def _cmpi(pred: int, a: int, b: int, width: int) -> bool:
    if pred >= 6:  # unsigned comparisons
        mask = (1 << width) - 1
        a, b = a & mask, b & mask
    return [a == b, a != b, a < b, a <= b, a > b, a >= b, a < b, a <= b, a > b, a >= b][pred]


def _cmpf(pred: int, a: float, b: float) -> bool:
    unordered = a != a or b != b
    table = {
        0: False, 1: not unordered and a == b, 2: not unordered and a > b,
        3: not unordered and a >= b, 4: not unordered and a < b, 5: not unordered and a <= b,
        6: not unordered and a != b, 7: not unordered, 8: unordered or a == b,
        9: unordered or a > b, 10: unordered or a >= b, 11: unordered or a < b,
        12: unordered or a <= b, 13: unordered or a != b, 14: unordered, 15: True,
    }
    return table[pred]


def _width(t: Attribute) -> int:
    w = getattr(t, "width", None)
    return w.data if w is not None else 64


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_INT_BINARY: dict[type, Callable[[int, int], int]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivSIOp: _trunc_div,
    arith.DivUIOp: lambda a, b: a // b,
    arith.RemSIOp: lambda a, b: a - _trunc_div(a, b) * b,
    arith.RemUIOp: lambda a, b: a % b,
    arith.FloorDivSIOp: lambda a, b: a // b,
    arith.CeilDivSIOp: lambda a, b: -((-a) // b),
    arith.CeilDivUIOp: lambda a, b: -((-a) // b),
    arith.MaxSIOp: max,
    arith.MinSIOp: min,
    arith.MaxUIOp: max,
    arith.MinUIOp: min,
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
    arith.XOrIOp: lambda a, b: a ^ b,
    arith.ShLIOp: lambda a, b: a << b,
    arith.ShRSIOp: lambda a, b: a >> b,
    arith.ShRUIOp: lambda a, b: a >> b,
}

_FLOAT_BINARY: dict[type, Callable[[float, float], float]] = {
    arith.AddfOp: lambda a, b: a + b,
    arith.SubfOp: lambda a, b: a - b,
    arith.MulfOp: lambda a, b: a * b,
    arith.DivfOp: lambda a, b: a / b if b != 0 else float("inf") * (1 if a >= 0 else -1),
    arith.MaximumfOp: max,
    arith.MinimumfOp: min,
}

_CASTS = tuple(
    getattr(arith, name)
    for name in (
        "IndexCastOp", "IndexCastUIOp", "ExtSIOp", "ExtUIOp", "TruncIOp", "SIToFPOp", "UIToFPOp",
        "FPToSIOp", "FPToUIOp", "ExtFOp", "TruncFOp",
    )
    if hasattr(arith, name)
)


def _round_scalar(x: float, t: Attribute) -> float:
    """A float scalar rounded to its type (the scalar unit computes in that type)."""
    try:
        et = elem_type(t)
    except numerics.UnsupportedType:
        return x
    if not et.is_float or et.name == "f64":
        return x
    return float(decode(encode(np.asarray(x, dtype=np.float64), et), et)[()])


def _scalar_cast(kind: str, x: int | float, result_type: Attribute) -> int | float:
    """arith casts on scalar-unit values (Python numbers)."""
    if kind in ("FPToSIOp", "FPToUIOp"):
        return int(x)  # truncates toward zero
    if kind in ("SIToFPOp", "UIToFPOp"):
        return _round_scalar(float(x), result_type)
    if kind in ("ExtFOp", "TruncFOp"):
        return _round_scalar(x, result_type)
    if kind == "TruncIOp":
        w = _width(result_type)
        return ((x + (1 << (w - 1))) % (1 << w)) - (1 << (w - 1)) if w > 1 else x & 1
    return x  # index casts, sign/zero extension: same number


class CoreWalker:
    """The scalar unit of one core: walks the kernel and emits instructions."""

    def __init__(self, ctx: BlockContext, core: int):
        self.ctx = ctx
        self.core = core
        self.spec = ctx.cores[core]
        self.single_core = len(ctx.cores) == 1
        self.instrs: list[Instr] = []
        self.env: dict[SSAValue, Any] = {}
        self.pending_scalar = 0
        self.steps = 0
        self.alloc_count: dict[int, int] = {}

    # ---------------------------------------------------------------- driver
    def run(self) -> list[Instr]:
        f = self.spec.func
        for arg in f.body.block.args:
            if arg in self.ctx.gm:
                self.env[arg] = self.ctx.gm[arg]
            else:
                self.env[arg] = 0
        self.walk_block(f.body.block)
        return self.instrs

    def walk_block(self, block: Block) -> list[Any] | None:
        for op in block.ops:
            self.steps += 1
            if self.steps > MAX_SCALAR_STEPS:
                raise SimulationError(op, f"scalar step limit {MAX_SCALAR_STEPS} reached while walking the program")
            if isinstance(op, scf.YieldOp | func.ReturnOp):
                return [self.env[v] for v in op.operands]
            self.execute(op)
        return None

    def val(self, v: SSAValue) -> Any:
        return self.env[v]

    def scalar(self, v: SSAValue, op: Operation) -> Any:
        x = self.env[v]
        if isinstance(x, Ref):
            raise SimulationError(op, "expected a scalar operand, got a memref")
        return x

    # ---------------------------------------------------------------- ops
    def execute(self, op: Operation) -> None:
        if isinstance(op, hivm.HivmPipeOp):
            self.hivm_op(op)
            return
        self.pending_scalar += 1
        if isinstance(op, scf.ForOp):
            lb, ub, step = (self.scalar(v, op) for v in (op.lb, op.ub, op.step))
            if step <= 0:
                raise SimulationError(op, f"scf.for step must be positive, got {step}")
            carried = [self.val(v) for v in op.iter_args]
            body = op.body.block
            i = lb
            while i < ub:
                self.env[body.args[0]] = i
                for a, v in zip(body.args[1:], carried):
                    self.env[a] = v
                carried = self.walk_block(body) or []
                self.pending_scalar += 1
                i += step
            for r, v in zip(op.results, carried):
                self.env[r] = v
            return
        if isinstance(op, scf.IfOp):
            cond = self.scalar(op.cond, op)
            region = op.true_region if cond else op.false_region
            results = []
            if region.blocks:
                results = self.walk_block(region.block) or []
            for r, v in zip(op.results, results):
                self.env[r] = v
            return
        if isinstance(op, arith.ConstantOp):
            value = op.value
            if isinstance(value, IntegerAttr):
                self.env[op.result] = value.value.data
            elif isinstance(value, FloatAttr):
                self.env[op.result] = _round_scalar(float(value.value.data), op.result.type)
            elif isinstance(value, BoolAttr):
                self.env[op.result] = int(value.value.data) if hasattr(value, "value") else 1
            else:
                raise SimulationError(op, f"unsupported constant {value}")
            return
        t = type(op)
        if t in _INT_BINARY:
            a, b = self.scalar(op.operands[0], op), self.scalar(op.operands[1], op)
            if t in (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp, arith.FloorDivSIOp,
                     arith.CeilDivSIOp, arith.CeilDivUIOp) and b == 0:
                raise SimulationError(op, "integer division by zero")
            r = _INT_BINARY[t](a, b)
            w = _width(op.results[0].type)
            if w < 64 and w != 1:
                r = ((r + (1 << (w - 1))) % (1 << w)) - (1 << (w - 1))
            self.env[op.results[0]] = r
            return
        if t in _FLOAT_BINARY:
            result = _FLOAT_BINARY[t](self.scalar(op.operands[0], op), self.scalar(op.operands[1], op))
            self.env[op.results[0]] = _round_scalar(result, op.results[0].type)
            return
        if isinstance(op, arith.CmpiOp):
            self.env[op.result] = int(_cmpi(op.predicate.value.data, self.scalar(op.lhs, op),
                                            self.scalar(op.rhs, op), _width(op.lhs.type)))
            return
        if isinstance(op, arith.CmpfOp):
            self.env[op.result] = int(_cmpf(op.predicate.value.data, self.scalar(op.lhs, op), self.scalar(op.rhs, op)))
            return
        if isinstance(op, arith.SelectOp):
            self.env[op.result] = self.val(op.lhs) if self.scalar(op.cond, op) else self.val(op.rhs)
            return
        if isinstance(op, arith.NegfOp):
            self.env[op.results[0]] = -self.scalar(op.operands[0], op)
            return
        if _CASTS and isinstance(op, _CASTS):
            self.env[op.results[0]] = _scalar_cast(type(op).__name__, self.scalar(op.operands[0], op),
                                                   op.results[0].type)
            return
        if isinstance(op, memref.AllocOp | memref.AllocaOp):
            self.env[op.results[0]] = self.alloc(op)
            return
        if isinstance(op, hivm.PointerCastOp):
            self.env[op.result] = self.pointer_cast(op)
            return
        if isinstance(op, memref.SubviewOp):
            self.env[op.result] = self.subview(op)
            return
        if isinstance(op, memref.CastOp):
            self.env[op.results[0]] = self.val(op.operands[0])
            return
        if isinstance(op, memref.ReinterpretCastOp):
            self.env[op.results[0]] = self.reinterpret(op)
            return
        if isinstance(op, memref.CollapseShapeOp | memref.ExpandShapeOp):
            self.env[op.results[0]] = self.reshape(op)
            return
        if isinstance(op, memref.DeallocOp):
            return
        if isinstance(op, memref.DimOp):
            ref = self.val(op.source)
            self.env[op.result] = ref.shape[self.scalar(op.index, op)]
            return
        if op.name == "annotation.mark":
            return
        raise SimulationError(op, f"the simulator does not support '{op.name}'")

    # ---------------------------------------------------------------- memory
    def alloc(self, op: Operation) -> Ref:
        t = _memref_type(op.results[0])
        scope = hivm.scope_of(t) or "gm"
        et = self._et(op, t)
        dyn = iter(self.scalar(v, op) for v in op.operands)
        shape = tuple(next(dyn) if d == DYNAMIC_INDEX else d for d in t.get_shape())
        canonical = self.ctx.alloc_alias.get(op, op)
        n = self.alloc_count.get(id(canonical), 0)
        self.alloc_count[id(canonical)] = n + 1
        key = (id(canonical), n)
        buf = self.ctx.allocs.get(key)
        if buf is None:
            name = f"%{op.results[0].name_hint}" if op.results[0].name_hint else f"alloc@{location_of(op)}"
            nbytes = int(np.prod(shape)) * et.itemsize
            buf = self.ctx.allocs[key] = Buffer(name, scope, nbytes, shared=(scope == "gm"))
        return Ref(buf, 0, shape, _row_major(shape), et)

    def pointer_cast(self, op: hivm.PointerCastOp) -> Ref:
        t = _memref_type(op.result)
        scope = hivm.scope_of(t)
        if scope not in ON_CHIP:
            raise SimulationError(op, f"pointer_cast into scope {scope} is not simulated")
        et = self._et(op, t)
        if not op.addrs:
            raise SimulationError(op, "pointer_cast needs an address")
        offset = self.scalar(op.addrs[0], op)
        dyn = iter(self.scalar(v, op) for v in op.dynamicSizes)
        shape = tuple(next(dyn) if d == DYNAMIC_INDEX else d for d in t.get_shape())
        ref = Ref(self.ctx.arena(scope), offset, shape, _row_major(shape), et, base=offset)
        lo, hi = ref.extent()
        if lo < 0 or hi > ref.buf.nbytes:
            raise SimulationError(
                op, f"pointer_cast [{lo}, {hi}) lies outside the {scope} capacity of {ref.buf.nbytes} bytes"
            )
        return ref

    def subview(self, op: memref.SubviewOp) -> Ref:
        src: Ref = self.val(op.source)
        n_off, n_size = len(op.offsets), len(op.sizes)
        dyn = [self.scalar(v, op) for v in op.operands[1:]]

        def mixed(static, values):
            it = iter(values)
            return [next(it) if s == DYNAMIC_INDEX else s for s in static]

        offsets = mixed(op.static_offsets.get_values(), dyn[:n_off])
        sizes = mixed(op.static_sizes.get_values(), dyn[n_off:n_off + n_size])
        steps = mixed(op.static_strides.get_values(), dyn[n_off + n_size:])
        if len(offsets) != len(src.shape):
            raise SimulationError(op, f"subview has {len(offsets)} offsets for a rank-{len(src.shape)} source")
        for d, (o, s, st) in enumerate(zip(offsets, sizes, steps)):
            if o < 0 or st <= 0 or (s > 0 and o + (s - 1) * st >= src.shape[d]):
                raise SimulationError(
                    op, f"subview out of bounds in dim {d}: offset {o}, size {s}, stride {st} on extent {src.shape[d]}"
                )
        offset = src.offset + sum(o * s for o, s in zip(offsets, src.strides)) * src.et.itemsize
        strides = [s * st for s, st in zip(src.strides, steps)]
        result_shape = list(_memref_type(op.result).get_shape())
        shape, kept = list(sizes), list(strides)
        if len(result_shape) != len(sizes):  # rank-reducing: drop unit dims from the left
            shape, kept, j = [], [], 0
            for s, st in zip(sizes, strides):
                if j < len(result_shape) and result_shape[j] in (s, DYNAMIC_INDEX):
                    shape.append(s)
                    kept.append(st)
                    j += 1
                elif s != 1:
                    raise SimulationError(op, f"subview sizes {sizes} do not reduce to {result_shape}")
        return Ref(src.buf, offset, tuple(shape), tuple(kept), src.et, base=src.base)

    def reinterpret(self, op: memref.ReinterpretCastOp) -> Ref:
        src: Ref = self.val(op.source)
        dyn = [self.scalar(v, op) for v in op.operands[1:]]
        it = iter(dyn)

        def mixed(static):
            return [next(it) if s == DYNAMIC_INDEX else s for s in static]

        offsets = mixed(op.static_offsets.get_values())
        sizes = mixed(op.static_sizes.get_values())
        strides = mixed(op.static_strides.get_values())
        # the offset of a reinterpret_cast is relative to the source's allocation
        return Ref(src.buf, src.base + offsets[0] * src.et.itemsize, tuple(sizes), tuple(strides), src.et,
                   base=src.base)

    def reshape(self, op: Operation) -> Ref:
        src: Ref = self.val(op.operands[0])
        if src.strides != _row_major(src.shape):
            raise SimulationError(op, "reshaping a non-contiguous memref is not simulated")
        shape = tuple(_memref_type(op.results[0]).get_shape())
        if DYNAMIC_INDEX in shape:
            raise SimulationError(op, "reshape to a dynamic shape is not simulated")
        return Ref(src.buf, src.offset, shape, _row_major(shape), src.et, base=src.base)

    def _et(self, op: Operation, t: MemRefType) -> ElemType:
        try:
            return elem_type(t.get_element_type())
        except numerics.UnsupportedType as err:
            raise SimulationError(op, str(err)) from err

    # ---------------------------------------------------------------- hivm ops
    def runs_here(self, op: hivm.HivmPipeOp) -> bool:
        if self.single_core:
            return True
        if isinstance(op, hivm.PipeBarrierOp) and op.pipe.pipe_name == "ALL":
            return True
        kind = op.core_type()
        if kind == "SCALAR":
            return True
        return kind == self.spec.kind

    def emit(self, ins: Instr, op: Operation) -> None:
        if len(self.instrs) >= MAX_INSTRUCTIONS:
            raise SimulationError(op, f"more than {MAX_INSTRUCTIONS} hivm ops issued on one core: too long to simulate")
        ins.scalar_cost = self.pending_scalar
        self.pending_scalar = 0
        self.instrs.append(ins)

    def timing(self, op: Operation) -> tuple[int, int]:
        lat, ii = self.ctx.timing(op)
        rng = self.ctx.rng
        if rng is not None:
            f = float(np.exp(rng.uniform(np.log(0.25), np.log(4.0))))
            lat2 = max(1, round(lat * f))
            ii = max(1, min(lat2, round(ii * f)))
            lat = lat2
        return lat, ii

    def hivm_op(self, op: hivm.HivmPipeOp) -> None:
        if isinstance(op, hivm.GetBlockIdxOp):
            self.env[op.result] = self.ctx.block
            self.pending_scalar += 1
            return
        if isinstance(op, hivm.GetBlockNumOp):
            self.env[op.result] = self.ctx.grid
            self.pending_scalar += 1
            return
        if isinstance(op, hivm.GetSubBlockIdxOp):
            self.env[op.result] = self.spec.sub_block
            self.pending_scalar += 1
            return
        if isinstance(op, hivm.SetFftsBaseAddrOp):
            # where the cross-core flags live: one scalar register write; the simulator
            # keeps its flags itself
            self.pending_scalar += 1
            return
        if not self.runs_here(op):
            return
        loc = str(location_of(op) or "")
        name = op.name.removeprefix("hivm.hir.")
        if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp):
            if op.static_event_id is not None:
                event = op.static_event_id.data
            else:
                event = self.scalar(op.dynamic_event_id, op)
                if not 0 <= event < hardware.EVENTS_PER_PIPE_PAIR:
                    raise SimulationError(
                        op, f"dynamic event id {event} is out of range (0..{hardware.EVENTS_PER_PIPE_PAIR - 1})"
                    )
            src, dst = op.set_pipe.pipe_name, op.wait_pipe.pipe_name
            kind = SET if isinstance(op, hivm.SetFlagOp) else WAIT
            pipe = src if kind == SET else dst
            self.emit(Instr(kind, (pipe,), 1, 1, flag=(src, dst, event), name=name, loc=loc, static_id=id(op)), op)
            return
        if isinstance(op, hivm.PipeBarrierOp):
            p = op.pipe.pipe_name
            if p in ("ALL", "S"):
                self.emit(Instr(BARRIER_ALL, (), 1, 1, name=f"pipe_barrier[{p}]", loc=loc, static_id=id(op)), op)
            else:
                self.emit(Instr(BARRIER, (p,), 1, 1, name=f"pipe_barrier[{p}]", loc=loc, static_id=id(op)), op)
            return
        if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
            fid = op.flag_id if op.flag_id is not None else self.scalar(op.dynamic_flag_id, op)
            if not 0 <= fid < hivm.CROSS_CORE_FLAGS:
                raise SimulationError(op, f"dynamic cross-core flag id {fid} is out of range (0..{hivm.CROSS_CORE_FLAGS - 1})")
            kind = BLOCK_SET if isinstance(op, hivm.SyncBlockSetOp) else BLOCK_WAIT
            self.emit(Instr(kind, op.pipes(), 1, 1, flag=(fid,), name=name, loc=loc, static_id=id(op)), op)
            return
        transpose = op.properties.get("transpose")
        if isinstance(transpose, DenseArrayBase) and tuple(transpose.get_values()):
            raise SimulationError(op, "vector ops with a transpose attribute are not simulated")
        sem = _SEMANTICS.get(type(op))
        if sem is None:
            raise SimulationError(op, f"the simulator has no semantics for '{op.name}'")
        reads: list[tuple[Ref, int]] = []
        writes: list[tuple[Ref, int]] = []
        start_fn, end_fn, atomic = sem(self, op, reads, writes)
        accesses = []
        for refs, write in ((reads, False), (writes, True)):
            for ref, core in refs:
                lo, hi = ref.extent()
                if lo < 0 or hi > ref.buf.nbytes:
                    raise SimulationError(op, f"access [{lo}, {hi}) outside its {ref.buf.scope} buffer of {ref.buf.nbytes} bytes")
                accesses.append(
                    Access(ref.buf.label(core, self.ctx.cores[core].name), ref.view(core), write,
                           atomic=atomic and write)
                )
        lat, ii = self.timing(op)
        # copies between GM and the core share the core's HBM path whatever their pipe
        # (load/store on a vector core; nd2nz/fixpipe-to-GM on the cube): one at a time
        touches_gm = any(ref.buf.scope == "gm" for ref, _ in reads + writes)
        resources = ("HBM",) if touches_gm and isinstance(op, hivm.DMA_OPS) else ()
        ins = Instr(OP, op.pipes(), lat, ii, tuple(accesses), start_fn, end_fn, name=name, loc=loc,
                    static_id=id(op), resources=resources)
        for refs, write in ((reads, False), (writes, True)):
            for ref, core in refs:
                if ref.buf.shared:
                    self.ctx.gm_accesses.append((ins, core, ref, write, atomic and write))
        self.emit(ins, op)

    # operand helpers used by the semantics table
    def target_cores(self, ref: Ref) -> list[int]:
        """Which core's instance of an on-chip buffer this core's op touches."""
        if ref.buf.shared or self.single_core:
            return [self.core]
        if ref.buf.scope == "ub":
            if self.spec.kind == "VECTOR":
                return [self.core]
            return self.ctx.vector_cores()
        if self.spec.kind == "CUBE":
            return [self.core]
        return self.ctx.cube_cores()


# ------------------------------------------------------------------------------ semantics
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


def _store(w: CoreWalker, v: SSAValue, writes: list) -> Callable[[np.ndarray], None]:
    ref: Ref = w.val(v)
    (core,) = w.target_cores(ref)[:1]
    writes.append((ref, core))
    view = ref.view(core)
    et = ref.et

    def store(values) -> None:
        view[...] = np.broadcast_to(encode(values, et), view.shape)

    return store


def _fit(values: np.ndarray, shape: tuple[int, ...], op: Operation, pad: float | None) -> np.ndarray:
    if values.shape == shape:
        return values
    if values.size == int(np.prod(shape)) and pad is None:
        return values.reshape(shape)
    if len(values.shape) == len(shape) and all(a <= b for a, b in zip(values.shape, shape)):
        out = np.full(shape, pad if pad is not None else 0, dtype=values.dtype)
        out[tuple(slice(0, a) for a in values.shape)] = values
        return out
    if len(values.shape) == len(shape) and all(a >= b for a, b in zip(values.shape, shape)):
        return values[tuple(slice(0, b) for b in shape)]
    raise SimulationError(op, f"shapes {list(values.shape)} and {list(shape)} do not match")


def _sem_copy_like(w: CoreWalker, op, reads, writes):
    """load / nd2nz / copy. A smaller source lands at the start of the destination (after
    `left_padding_num` elements of the last dimension); the rest of the destination gets
    the pad value (`pad_value`, or the first source element for PadFirstElem) when there is
    one or `init_out_buffer` is set, and is left untouched otherwise."""
    src = _operand(w, op.src, op, reads)
    dst_ref: Ref = w.val(op.dst)
    (core,) = w.target_cores(dst_ref)[:1]
    writes.append((dst_ref, core))
    view = dst_ref.view(core)
    et = dst_ref.et
    pv = getattr(op, "pad_value", None)
    pad = w.scalar(pv, op) if pv is not None else None
    mode = op.pad_mode.data.value if getattr(op, "pad_mode", None) is not None else "PadNull"
    init = getattr(op, "init_out_buffer", None)
    fill = pad is not None or mode == "PadFirstElem" or (init is not None and bool(init.value.data))
    lp = getattr(op, "left_padding_num", None)
    left = w.scalar(lp, op) if lp is not None else 0
    shape = dst_ref.shape

    def end(values) -> None:
        if values.shape == shape and left == 0:
            view[...] = encode(values, et)
            return
        if values.size == int(np.prod(shape)) and not fill and left == 0:
            view[...] = encode(values.reshape(shape), et)
            return
        if len(values.shape) != len(shape) or not shape:
            raise SimulationError(op, f"shapes {list(values.shape)} and {list(shape)} do not match")
        region = [slice(0, n) for n in values.shape]
        region[-1] = slice(left, left + values.shape[-1])
        if any(sl.stop > n for sl, n in zip(region, shape)):
            raise SimulationError(op, f"source {list(values.shape)} (left padding {left}) does not fit {list(shape)}")
        if fill:
            value = values.reshape(-1)[0] if mode == "PadFirstElem" and values.size else (pad if pad is not None else 0)
            view[...] = encode(np.asarray(value), et)
        view[tuple(region)] = encode(values, et)

    return src, end, False


def _sem_store(w: CoreWalker, op: hivm.StoreOp, reads, writes):
    src = _operand(w, op.src, op, reads)
    dst_ref: Ref = w.val(op.dst)
    kind = op.atomic_kind.data.value if op.atomic_kind is not None else "none"
    if kind == "none":
        store = _store(w, op.dst, writes)
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
    src = _operand(w, op.src, op, reads)
    dst_ref: Ref = w.val(op.dst)
    relu = op.pre_relu is not None and op.pre_relu.data.value == "NORMAL_RELU"
    if op.pre_relu is not None and op.pre_relu.data.value not in ("NO_RELU", "NORMAL_RELU"):
        raise SimulationError(op, f"pre_relu {op.pre_relu.data.value} is not simulated")
    targets = w.target_cores(dst_ref)
    src_ref: Ref = w.val(op.src)
    et = dst_ref.et

    def compute():
        v = src()
        return np.maximum(v, 0) if relu else v

    if len(targets) > 1 and dst_ref.buf.scope == "ub":
        rows = dst_ref.shape[0] if dst_ref.shape else 0
        dual = len(src_ref.shape) == len(dst_ref.shape) and src_ref.shape[0] == rows * len(targets)
        views = []
        for k, core in enumerate(targets):
            writes.append((dst_ref, core))
            views.append(dst_ref.view(core))

        def end(values) -> None:
            for k, view in enumerate(views):
                part = values[k * rows:(k + 1) * rows] if dual else values
                view[...] = encode(_fit(part, view.shape, op, None), et)

        return compute, end, False
    store = _store(w, op.dst, writes)
    shape = dst_ref.shape
    return (lambda: _fit(compute(), shape, op, None)), store, False


def _sem_mmad(w: CoreWalker, op: hivm.MmadL1Op, reads, writes):
    a = _operand(w, op.a, op, reads)
    b = _operand(w, op.b, op, reads)
    init = bool(w.scalar(op.init_condition, op))
    m, k, n = (w.scalar(v, op) for v in (op.real_m, op.real_k, op.real_n))
    c_ref: Ref = w.val(op.c)
    c_read = None
    if not init:
        c_read = _operand(w, op.c, op, reads)
    store = _store(w, op.c, writes)
    a_t, b_t = op.a_transpose is not None, op.b_transpose is not None
    integer = not c_ref.et.is_float
    acc_dtype = np.int64 if integer else np.float32

    def compute():
        av = a().astype(acc_dtype)
        bv = b().astype(acc_dtype)
        av = av.T if a_t else av
        bv = bv.T if b_t else bv
        if av.shape[0] < m or av.shape[1] < k or bv.shape[0] < k or bv.shape[1] < n:
            raise SimulationError(op, f"mmadL1 sizes m={m} k={k} n={n} exceed operands {list(av.shape)} x {list(bv.shape)}")
        prod = av[:m, :k] @ bv[:k, :n]
        out = c_read().astype(acc_dtype) if c_read is not None else np.zeros(c_ref.shape, dtype=acc_dtype)
        out[:m, :n] = prod if c_read is None else out[:m, :n] + prod
        return out

    return compute, store, False


def _scalar_as(x, et: ElemType):
    """A scalar operand arrives in a register of the element type."""
    return decode(encode(np.asarray(x), et), et)


_BINARY_FN = {
    hivm.VAddOp: np.add,
    hivm.VSubOp: np.subtract,
    hivm.VMulOp: np.multiply,
    hivm.VMaxOp: np.maximum,
    hivm.VMinOp: np.minimum,
}


def _int_div(a, b):
    a, b = np.asarray(a), np.asarray(b)
    safe = np.where(b == 0, 1, b)
    q = np.trunc(a.astype(np.float64) / safe).astype(np.result_type(a, b))
    return np.where(b == 0, 0, q)


def _sem_binary(w: CoreWalker, op, reads, writes):
    srcs = list(op.src)
    if len(srcs) != 2:
        raise SimulationError(op, f"expected two inputs, got {len(srcs)}")
    dst_ref: Ref = w.val(op.dst[0])
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
        fn = np.divide if et.is_float else _int_div
    else:
        fn = _BINARY_FN[type(op)]
    store = _store(w, op.dst[0], writes)
    shape = dst_ref.shape

    def compute():
        with np.errstate(all="ignore"):
            return np.broadcast_to(fn(readers[0](), readers[1]()), shape)

    return compute, store, False


_UNARY_FN = {
    hivm.VExpOp: np.exp,
    hivm.VLnOp: np.log,
    hivm.VAbsOp: np.abs,
    hivm.VReluOp: lambda x: np.maximum(x, 0),
    hivm.VSqrtOp: np.sqrt,
    hivm.VRsqrtOp: lambda x: 1 / np.sqrt(x),
    hivm.VRecOp: lambda x: 1 / x,
}


def _sem_unary(w: CoreWalker, op, reads, writes):
    src = _operand(w, op.src[0], op, reads)
    dst_ref: Ref = w.val(op.dst[0])
    store = _store(w, op.dst[0], writes)
    fn = _UNARY_FN[type(op)]
    shape = dst_ref.shape

    def compute():
        with np.errstate(all="ignore"):
            return np.broadcast_to(fn(src()), shape)

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
    unsigned_source = type_fn == "cast_unsigned" and isinstance(src_ref, Ref) and src_ref.et.storage.kind == "i"

    def compute():
        v = src()
        if unsigned_source:
            v = np.asarray(v).view(np.dtype(f"uint{src_ref.et.bits}"))
        # float64 holds every f32/f16/bf16/i32 value exactly: one rounding, to the destination
        return np.asarray(v, dtype=np.float64) if np.asarray(v).dtype.kind in "fiub" else v

    def end(values) -> None:
        view[...] = numerics.cast_with_mode(_fit(values, view.shape, op, None), et, mode)

    return compute, end, False


def _sem_brc(w: CoreWalker, op: hivm.VBrcOp, reads, writes):
    dst_ref: Ref = w.val(op.dst)
    src = _operand(w, op.src, op, reads)
    x = w.val(op.src)
    dims = list(op.broadcast_dims.get_values()) if isinstance(op.broadcast_dims, DenseArrayBase) else []
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


_REDUCE_FN = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "any": np.any, "all": np.all}


def _sem_reduce(w: CoreWalker, op: hivm.VReduceOp, reads, writes):
    src = _operand(w, op.src, op, reads)
    kind = op.arith.data.value
    fn = _REDUCE_FN.get(kind)
    if fn is None:
        raise SimulationError(op, f"vreduce <{kind}> is not simulated")
    dims = tuple(op.reduce_dims.get_values())
    dst_ref: Ref = w.val(op.dst[0])
    store = _store(w, op.dst[0], writes)
    shape = dst_ref.shape

    def compute():
        return fn(src(), axis=dims, keepdims=True).reshape(shape)

    return compute, store, False


_SEMANTICS: dict[type, Callable] = {
    hivm.LoadOp: _sem_copy_like,
    hivm.Nd2NzOp: _sem_copy_like,
    hivm.CopyOp: _sem_copy_like,
    hivm.StoreOp: _sem_store,
    hivm.FixpipeOp: _sem_fixpipe,
    hivm.MmadL1Op: _sem_mmad,
    hivm.VCastOp: _sem_cast,
    hivm.VBrcOp: _sem_brc,
    hivm.VReduceOp: _sem_reduce,
    **{t: _sem_binary for t in hivm.BINARY_OPS},
    **{t: _sem_unary for t in hivm.UNARY_OPS},
}


# ------------------------------------------------------------------------------ kernel setup


@dataclass
class Kernel:
    """What runs: the functions per core type and the GM arguments."""

    aic: func.FuncOp | None
    aiv: func.FuncOp | None
    mix: bool
    vector_cores: int
    grid: int
    args: list[tuple[str, SSAValue, SSAValue | None]]  # name, arg in first func, arg in second
    # allocs of a split MIX pair that are one buffer: an alloc of the other core's memory
    # (ub in the aic function, cbuf/cc in the aiv function) -> the partner's alloc
    alloc_alias: dict[Operation, Operation] = field(default_factory=dict)


def _funcs(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.walk() if isinstance(op, func.FuncOp) and not op.is_declaration]


def _pair_allocs(aic: func.FuncOp, aiv: func.FuncOp) -> dict[Operation, Operation]:
    """Split MIX functions name a buffer both cores touch (the fixpipe's ub destination,
    a ub -> cbuf copy's destination) by an alloc in each function. The split keeps the
    buffer's SSA name and type, so allocs of the other core's memory are matched with the
    partner function's alloc of the same name and type (else the n-th of that type)."""
    def allocs(f: func.FuncOp, scopes: frozenset[str]) -> list[Operation]:
        return [
            op for op in f.walk()
            if isinstance(op, memref.AllocOp) and hivm.scope_of(op.results[0].type) in scopes
        ]

    alias: dict[Operation, Operation] = {}
    for mine, theirs in ((allocs(aic, frozenset({"ub"})), allocs(aiv, frozenset({"ub"}))),
                         (allocs(aiv, CUBE_SCOPES), allocs(aic, CUBE_SCOPES))):
        free = list(theirs)
        for op in mine:
            name, t = op.results[0].name_hint, op.results[0].type
            match = next((o for o in free if o.results[0].type == t and name and o.results[0].name_hint == name), None)
            if match is None:
                match = next((o for o in free if o.results[0].type == t), None)
            if match is not None:
                alias[op] = match
                free.remove(match)
    return alias


def _has_cube_and_vector(f: func.FuncOp) -> tuple[bool, bool]:
    cube = vector = False
    for op in f.walk():
        if isinstance(op, hivm.HivmPipeOp) and not isinstance(op, hivm.PipeBarrierOp):
            kind = op.core_type()
            cube |= kind == "CUBE"
            vector |= kind == "VECTOR"
    return cube, vector


def _two_vector_cores(*funcs: func.FuncOp | None) -> bool:
    for f in funcs:
        if f is None:
            continue
        for op in f.walk():
            if isinstance(op, hivm.GetSubBlockIdxOp):
                return True
            if isinstance(op, hivm.FixpipeOp) and hivm.scope_of(op.dst.type) == "ub":
                s, d = _memref_type(op.src).get_shape(), _memref_type(op.dst).get_shape()
                if op.dual_dst_mode is not None and op.dual_dst_mode.data.value != "NO_DUAL":
                    return True
                if s and d and s[0] != DYNAMIC_INDEX and s[0] == 2 * d[0]:
                    return True
    return False


def _grid_of(f: func.FuncOp) -> int:
    for key in ("ascend.grid", "tile.grid"):
        g = f.attributes.get(key)
        if isinstance(g, IntegerAttr):
            return max(1, g.value.data)
    return 1


def find_kernel(module: ModuleOp, func_name: str | None = None) -> Kernel:
    funcs = _funcs(module)
    if not funcs:
        raise SimulationError(module, "the module has no function to simulate")
    by_name = {f.sym_name.data: f for f in funcs}
    for name, f in by_name.items():
        if name.endswith("_mix_aic") and name[: -len("_mix_aic")] + "_mix_aiv" in by_name:
            if func_name is not None and name[: -len("_mix_aic")] != func_name:
                continue
            g = by_name[name[: -len("_mix_aic")] + "_mix_aiv"]
            # the FFTS base address (split-mix-kernel, bishengir) is no data argument
            data_args = [
                (a, b) for a, b in zip(f.args, g.args, strict=True) if not hacc.is_ffts_base_address(f, a.index)
            ]
            args: list[tuple[str, SSAValue, SSAValue | None]] = [
                (f"arg{i}", a, b) for i, (a, b) in enumerate(data_args)
            ]
            return Kernel(f, g, True, 2 if _two_vector_cores(f, g) else 1, max(_grid_of(f), _grid_of(g)), args,
                          _pair_allocs(f, g))
    if func_name is not None:
        if func_name not in by_name:
            raise SimulationError(module, f"no function named '{func_name}'")
        f = by_name[func_name]
    else:
        entries = [f for f in funcs if "hacc.entry" in f.attributes or "ascend.grid" in f.attributes]
        if not entries and len(funcs) > 1:
            raise SimulationError(module, "cannot tell the kernel: mark it with hacc.entry")
        f = (entries or funcs)[0]
    core_type = f.attributes.get("hivm.func_core_type")
    text = str(core_type) if core_type is not None else ""
    cube, vector = _has_cube_and_vector(f)
    mix = "MIX" in text or (not text and cube and vector)
    args = [(f"arg{i}", a, None) for i, a in enumerate(f.args)]
    if mix:
        return Kernel(f, f, True, 2 if _two_vector_cores(f) else 1, _grid_of(f), args)
    if "AIC" in text or (not text and cube):
        return Kernel(f, None, False, 0, _grid_of(f), args)
    return Kernel(None, f, False, 1, _grid_of(f), args)


def core_specs(kernel: Kernel) -> list[CoreSpec]:
    specs = []
    if kernel.aic is not None:
        specs.append(CoreSpec("cube", "CUBE", kernel.aic, 0))
    if kernel.aiv is not None:
        n = kernel.vector_cores
        for k in range(n):
            specs.append(CoreSpec(f"vec{k}" if n > 1 or kernel.mix else "vec", "VECTOR", kernel.aiv, k))
    return specs


def build_block(kernel: Kernel, block: int, gm: dict[str, Buffer], arena_bytes, timing, rng) -> tuple[BlockContext, list[Core]]:
    specs = core_specs(kernel)
    gm_refs: dict[SSAValue, Ref] = {}
    for name, a, b in kernel.args:
        if name in gm:
            t = _memref_type(a)
            buf = gm[name]
            shape = tuple(t.get_shape())
            et = elem_type(t.get_element_type())
            ref = Ref(buf, 0, shape, _row_major(shape), et)
            gm_refs[a] = ref
            if b is not None:
                gm_refs[b] = ref
    ctx = BlockContext(block, kernel.grid, specs, gm_refs, arena_bytes, timing, rng,
                       alloc_alias=kernel.alloc_alias)
    cores = []
    for i, spec in enumerate(specs):
        instrs = CoreWalker(ctx, i).run()
        cores.append(Core(spec.name, spec.kind, instrs))
    return ctx, cores
