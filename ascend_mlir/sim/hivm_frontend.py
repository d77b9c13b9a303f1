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
is the partner function's alloc of the same name and type (kernel_layout.shared_allocs).

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
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError

from ascend_mlir import hardware
from ascend_mlir.analysis.reshape_layout import collapsed_layout, expanded_layout
from ascend_mlir.diagnostics import location_of
from ascend_mlir.dialects.cce import CCE
from ascend_mlir.dialects import hivm
from ascend_mlir.dialects.hivm.control import BitcastOp, SetCtrlOp
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
from ascend_mlir.sim.numerics import ElemType, elem_type
from ascend_mlir.sim.flat_interpreter import FlatInterpreter
from ascend_mlir.sim.op_fields import FieldCache
from ascend_mlir.sim.layout import CoreSpec, Kernel, core_specs, find_kernel
from ascend_mlir.sim.memory import (
    Buffer,
    Ref,
    SimulationError,
    memref_type,
    row_major,
)
from ascend_mlir.sim.semantics import SEMANTICS, mmad_phases

# the front end's API (its parts live in memory, layout and semantics)
__all__ = [
    "Buffer", "CoreSpec", "CoreWalker", "Kernel", "Ref", "SimulationError",
    "build_block", "core_specs", "find_kernel",
]
from ascend_mlir.sim.scalar_semantics import (
    StepLimitExceeded,
    is_index_or_int,
    register_scalar_functions,
    scalar,
    scalar_attr,
    static_steps,
)

# hivm ops the scalar unit executes by itself, without a memory effect the oracle sees
# (the vector mask mode; the cross-core flag base address)
SCALAR_ONLY_OPS = (hivm.SetMaskNormOp, hivm.SetFftsBaseAddrOp)
# bounds on the work per core and block, so a huge or endless loop is a diagnostic, not a hang
MAX_SCALAR_STEPS = 1_000_000
MAX_INSTRUCTIONS = 100_000


def _check_only_used(acc: Access, ref: Ref, core: int, used: tuple[int, int]) -> None:
    """mmadL1 reads only the leading rows x cols of a plain (rank-2) operand (its real
    m/k/n): a tail tile's unloaded rest is not a read of never-written memory. NZ
    fractal operands (rank 4) are read whole."""
    mask = ref.buf.written(core)
    rows, cols = used
    if mask is None or len(ref.shape) != 2 or rows > ref.shape[0] or cols > ref.shape[1]:
        return
    region = Ref(ref.buf, ref.offset, (rows, cols), ref.strides, ref.et, base=ref.base, origin=ref.origin)
    acc.written = region.byte_view(mask)


# ------------------------------------------------------------------------------ block context


@dataclass
class BlockContext:
    block: int
    grid: int
    cores: list[CoreSpec]
    gm: dict[SSAValue, Ref]  # per function argument (shared GM)
    arena_bytes: Mapping[str, int]
    # (latency, ii) of an op; given the runtime shapes of its partial tiles, of that execution
    timing: Callable[..., tuple[int, int]]
    rng: np.random.Generator | None
    allocs: dict[tuple, Buffer] = field(default_factory=dict)
    arenas: dict[str, Buffer] = field(default_factory=dict)
    gm_accesses: list = field(default_factory=list)  # (instr, core, Ref, write, atomic)
    alloc_alias: dict = field(default_factory=dict)
    # cycles of the MTE1 part of an mmadL1 (None: not known, see CoreWalker.feed_latency)
    feed_latency: Callable[[Operation], int | None] | None = None
    scalars: dict[SSAValue, Any] = field(default_factory=dict)  # values of scalar arguments
    # the chip's event ids per pipe pair (a chip file may allow fewer than the hardware's 8)
    events_per_pipe_pair: int = hardware.EVENTS_PER_PIPE_PAIR
    # scalar reads of memory (memref.load), keyed (core, n-th load of the core): the value
    # the walk assumed, and the value the engine's run read (see simulator.simulate)
    assumed_loads: Mapping[tuple[int, int], Any] = field(default_factory=dict)
    observed_loads: dict[tuple[int, int], Any] = field(default_factory=dict)
    # the ops' named operands and attributes, read once per simulation (all blocks)
    fields: FieldCache = field(default_factory=FieldCache)

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


class CoreWalker:
    """The scalar unit of one core: walks the kernel and emits instructions."""

    def __init__(self, ctx: BlockContext, core: int):
        self.ctx = ctx
        self.core = core
        self.spec = ctx.cores[core]
        self.single_core = len(ctx.cores) == 1
        self.instrs: list[Instr] = []
        self.interpreter: FlatInterpreter | None = None
        self.current_op: Operation | None = None
        self.pending_scalar = 0
        self.loads = 0
        self.steps = 0
        self.alloc_count: dict[int, int] = {}
        # the ops timed so far and the last one's (latency, ii) before any perturbation
        # (sim.walk_replay redraws a perturbed block's latencies from them)
        self.timed = 0
        self.last_timing = (1, 1)

    # ---------------------------------------------------------------- driver
    def make_interpreter(self, listeners: tuple[Interpreter.Listener, ...] = ()) -> FlatInterpreter:
        """The core's interpreter: arith/scf/func/affine by the shared scalar semantics
        (sim/scalar_semantics.py), memref views and hivm ops by `ScalarUnitFunctions`
        (which issue the instructions)."""
        module = self.spec.func.get_toplevel_object()
        assert isinstance(module, ModuleOp)
        interpreter = FlatInterpreter(module, index_bitwidth=64, listeners=listeners, _ops=self.ctx.fields.blocks)
        register_scalar_functions(interpreter)
        interpreter.register_implementations(_scalar_unit_functions(self))
        self.interpreter = interpreter
        return interpreter

    def run(self, listeners: tuple[Interpreter.Listener, ...] = ()) -> list[Instr]:
        """Interpret the core's function (`make_interpreter`); `_ScalarSteps` counts the
        scalar work between issues and bounds the walk, `listeners` watch it after that."""
        f = self.spec.func
        interpreter = self.make_interpreter((_ScalarSteps(self), *listeners))
        self._refuse_calls(f)
        self._check_static_instructions(f)
        args = []
        for arg in f.body.block.args:
            if arg in self.ctx.gm:
                args.append(self.ctx.gm[arg])
            elif arg in self.ctx.scalars:
                args.append(scalar_attr(self.ctx.scalars[arg], arg.type, 64))
            elif is_index_or_int(arg.type):
                args.append(scalar_attr(0, arg.type, 64))
            elif isinstance(arg.type, MemRefType) and arg.uses:
                # on-chip memory has no host-side buffer to bind: the kernel allocates it
                raise SimulationError(f, f"argument %{arg.name_hint or arg.index}: a kernel argument in "
                                         f"{hivm.scope_of(arg.type)} is not simulated (only GM memrefs and "
                                         "scalars are kernel arguments; allocate on-chip buffers in the kernel)")
            else:
                args.append(0)
        try:
            interpreter.run_ssacfg_region(f.body, tuple(args), f.sym_name.data)
        except InterpretationError as err:
            op = self.current_op if self.current_op is not None else f
            text = str(err)
            if "Could not find" in text:
                text = f"the simulator does not support '{op.name}'"
            raise SimulationError(op, text) from None
        return self.instrs

    @staticmethod
    def _refuse_calls(f: func.FuncOp) -> None:
        """The simulator walks one kernel function per core: a call would run another
        function's ops with the caller's argument bindings (an internal error)."""
        call = next((op for op in f.walk() if isinstance(op, func.CallOp)), None)
        if call is not None:
            raise SimulationError(call, f"calls {call.callee}: the simulator runs one kernel function "
                                        "(inline the callee into it)")

    @staticmethod
    def _check_static_instructions(f: func.FuncOp) -> None:
        """A loop whose static trip count alone issues more than MAX_INSTRUCTIONS hivm ops
        is refused before the walk starts (the walk would stop there, minutes later)."""
        try:
            static_steps(f.body.block, MAX_INSTRUCTIONS, lambda op: isinstance(op, hivm.HivmPipeOp))
        except StepLimitExceeded as e:
            raise SimulationError(
                e.loop,
                f"step limit: this loop issues {e.trips} times {e.body} hivm ops, more than the "
                f"simulator's {MAX_INSTRUCTIONS} per core: too long to simulate",
            ) from None

    def val(self, v: SSAValue) -> Any:
        assert self.interpreter is not None
        # FlatInterpreter.get_values's lookup without its tuple: every hivm op reads its
        # operands one at a time here (about 5% of a 32-block walk replay was the tuples)
        try:
            return scalar(self.interpreter._env[id(v)])
        except KeyError:
            raise InterpretationError("a value is read before it is defined") from None

    def fields(self, op: Operation) -> Any:
        """`op`'s named operands and attributes, read from xDSL once per simulation."""
        return self.ctx.fields(op)

    def scalar(self, v: SSAValue, op: Operation) -> Any:
        x = self.val(v)
        if isinstance(x, Ref):
            raise SimulationError(op, "expected a scalar operand, got a memref")
        return x

    # ---------------------------------------------------------------- memory
    def dim(self, op: Operation) -> int:
        assert isinstance(op, memref.DimOp)
        ref = self.val(op.source)
        return ref.shape[self.scalar(op.index, op)]

    def alloc(self, op: Operation) -> Ref:
        t = memref_type(op.results[0])
        # an alloca without a memory space is the scalar unit's stack (bishengir's loop
        # counters): each core's own, as GM is not; an alloc without one is GM
        scope = hivm.scope_of(t) or ("stack" if isinstance(op, memref.AllocaOp) else "gm")
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
        return Ref(buf, 0, shape, row_major(shape), et, origin=f"{op.name} at {location_of(op) or '?'}")

    def _pointer_cast_static(self, op: hivm.PointerCastOp) -> tuple:
        """What a pointer_cast's type and attributes say (the same at every execution):
        scope, element type, declared shape, address and size operands, origin."""
        f = self.ctx.fields(op)
        t = memref_type(f.result)
        scope = hivm.scope_of(t)
        if scope not in hardware.ON_CHIP_SCOPES:
            raise SimulationError(op, f"pointer_cast into scope {scope} is not simulated")
        et = self._et(op, t)
        if not f.addrs:
            raise SimulationError(op, "pointer_cast needs an address")
        shape = tuple(t.get_shape())
        dynamic = DYNAMIC_INDEX in shape
        return (scope, et, shape, None if dynamic else row_major(shape), f.addrs[0],
                tuple(f.dynamicSizes) if dynamic else (), f"{op.name} at {location_of(op) or '?'}")

    def pointer_cast(self, op: hivm.PointerCastOp) -> Ref:
        scope, et, shape, strides, addr, sizes, origin = self.ctx.fields(op).memo(
            "pointer_cast", lambda: self._pointer_cast_static(op))
        offset = self.scalar(addr, op)
        if strides is None:  # a dynamic shape: only the sizes of its dynamic dims are read
            dyn = iter(self.scalar(v, op) for v in sizes)
            shape = tuple(next(dyn) if d == DYNAMIC_INDEX else d for d in shape)
            strides = row_major(shape)
        ref = Ref(self.ctx.arena(scope), offset, shape, strides, et, base=offset, origin=origin)
        lo, hi = ref.extent()
        if lo < 0 or hi > ref.buf.nbytes:
            raise SimulationError(
                op, f"pointer_cast [{lo}, {hi}) lies outside the {scope} capacity of {ref.buf.nbytes} bytes"
            )
        return ref

    def subview(self, op: memref.SubviewOp) -> Ref:
        static = self.ctx.fields(op)
        n_off, n_size, dyn_values, static_offsets, static_sizes, static_strides, result_shape = static.memo(
            "subview", lambda: (len(op.offsets), len(op.sizes), op.operands[1:], op.static_offsets.get_values(),
                                op.static_sizes.get_values(), op.static_strides.get_values(),
                                tuple(memref_type(op.result).get_shape())))
        src: Ref = self.val(static.source)
        dyn = [self.scalar(v, op) for v in dyn_values]

        def mixed(static, values):
            it = iter(values)
            return [next(it) if s == DYNAMIC_INDEX else s for s in static]

        offsets = mixed(static_offsets, dyn[:n_off])
        sizes = mixed(static_sizes, dyn[n_off:n_off + n_size])
        steps = mixed(static_strides, dyn[n_off + n_size:])
        if len(offsets) != len(src.shape):
            raise SimulationError(op, f"subview has {len(offsets)} offsets for a rank-{len(src.shape)} source")
        for d, (o, s, st) in enumerate(zip(offsets, sizes, steps)):
            if o < 0 or st <= 0 or (s > 0 and o + (s - 1) * st >= src.shape[d]):
                raise SimulationError(
                    op, f"subview out of bounds in dim {d}: offset {o}, size {s}, stride {st} on extent {src.shape[d]}"
                )
        offset = src.offset + sum(o * s for o, s in zip(offsets, src.strides)) * src.et.itemsize
        strides = [s * st for s, st in zip(src.strides, steps)]
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
        return Ref(src.buf, offset, tuple(shape), tuple(kept), src.et, base=src.base, origin=src.origin)

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
                   base=src.base, origin=src.origin)

    def reshape(self, op: Operation) -> Ref:
        """`memref.collapse_shape` / `memref.expand_shape` of any strided view, as MLIR
        defines them (`views.collapsed_layout` / `views.expanded_layout`): the same
        bytes, each reassociation group one dimension."""
        src: Ref = self.val(op.operands[0])
        groups = reassociation_groups(op)
        if isinstance(op, memref.CollapseShapeOp):
            if groups is None or sum(len(g) for g in groups) != len(src.shape):
                raise SimulationError(op, "collapse_shape whose reassociation does not cover the source dims")
            layout = collapsed_layout(src.shape, src.strides, groups)
            if isinstance(layout, str):  # MLIR's verifier rejects it; a runtime view may still reach here
                raise SimulationError(op, layout)
            shape, strides = layout
        else:
            shape = tuple(memref_type(op.results[0]).get_shape())
            if DYNAMIC_INDEX in shape:
                raise SimulationError(op, "reshape to a dynamic shape is not simulated")
            if groups is None or len(groups) != len(src.shape):
                raise SimulationError(op, "expand_shape whose reassociation does not match the source dims")
            expanded = expanded_layout(src.shape, src.strides, shape, groups)
            if isinstance(expanded, str):
                raise SimulationError(op, expanded)
            strides = expanded
        return Ref(src.buf, src.offset, shape, strides, src.et, base=src.base, origin=src.origin)

    def strided_metadata(self, op: Operation) -> tuple[Any, ...]:
        """`memref.extract_strided_metadata`: the allocation's base as a rank-0 view (what
        a reinterpret_cast of it is relative to), the offset in elements, sizes, strides."""
        src: Ref = self.val(op.operands[0])
        item = src.et.itemsize
        if (src.offset - src.base) % item:
            raise SimulationError(op, "a view whose offset is not a whole number of elements has no strided metadata")
        base = Ref(src.buf, src.base, (), (), src.et, base=src.base, origin=src.origin)
        return (base, (src.offset - src.base) // item, *src.shape, *src.strides)

    def bitcast(self, op: Operation) -> Ref:
        """`hivm.hir.bitcast`: the same bytes seen with another element type of the same width."""
        src: Ref = self.val(op.operands[0])
        et = self._et(op, memref_type(op.results[0]))
        if et.itemsize != src.et.itemsize:
            raise SimulationError(op, f"bitcast from {src.et.name} to {et.name} changes the element width")
        return Ref(src.buf, src.offset, src.shape, src.strides, et, base=src.base, origin=src.origin)

    def scalar_load(self, op: memref.LoadOp) -> Any:
        """`memref.load`: the scalar unit reads one element, on PIPE_S (the engine keeps
        issue waiting until it completed). The walk runs before the engine, so it goes on
        with the value of the previous run of the block (0 on the first): the simulator
        reruns a block until every load read what the walk assumed."""
        ref: Ref = self.val(op.memref)
        index = [self.scalar(v, op) for v in op.indices]
        if len(index) != len(ref.shape) or any(not 0 <= i < d for i, d in zip(index, ref.shape)):
            raise SimulationError(op, f"memref.load index {index} is outside the shape {list(ref.shape)}")
        offset = ref.offset + sum(i * st for i, st in zip(index, ref.strides)) * ref.et.itemsize
        element = Ref(ref.buf, offset, (), (), ref.et, base=ref.base, origin=ref.origin)
        key = (self.core, self.loads)
        self.loads += 1
        observed = self.ctx.observed_loads

        def read() -> None:
            observed[key] = numerics.decode(element.view(self.core), ref.et).item()

        accesses = tuple(self.accesses([(element, self.core)], False, False, op))
        ins = Instr(OP, ("S",), 1, 1, accesses=accesses, on_start=read, name="memref.load",
                    loc=str(location_of(op) or ""), static_id=id(op))
        self.emit(ins, op)
        self.note_shared(ins, [(element, self.core)], False, False)
        return self.ctx.assumed_loads.get(key, 0)

    def scalar_store(self, op: memref.StoreOp) -> None:
        """`memref.store`: the scalar unit writes one element, on PIPE_S, with the value
        the walk computed (a value made of loaded ones is the walk's assumption, which the
        reruns of `scalar_load` settle)."""
        ref: Ref = self.val(op.memref)
        index = [self.scalar(v, op) for v in op.indices]
        if len(index) != len(ref.shape) or any(not 0 <= i < d for i, d in zip(index, ref.shape)):
            raise SimulationError(op, f"memref.store index {index} is outside the shape {list(ref.shape)}")
        offset = ref.offset + sum(i * st for i, st in zip(index, ref.strides)) * ref.et.itemsize
        element = Ref(ref.buf, offset, (), (), ref.et, base=ref.base, origin=ref.origin)
        stored = numerics.encode(np.asarray(self.scalar(op.value, op)), ref.et)
        core = self.core

        def write() -> None:
            element.view(core)[...] = stored

        accesses = tuple(self.accesses([(element, core)], True, False, op))
        ins = Instr(OP, ("S",), 1, 1, accesses=accesses, on_start=write, name="memref.store",
                    loc=str(location_of(op) or ""), static_id=id(op))
        self.emit(ins, op)
        self.note_shared(ins, [(element, core)], True, False)

    def _et(self, op: Operation, t: MemRefType) -> ElemType:
        try:
            return elem_type(t.get_element_type())
        except numerics.UnsupportedType as err:
            raise SimulationError(op, str(err)) from err

    # ---------------------------------------------------------------- hivm ops
    def runs_here(self, op: hivm.HivmPipeOp) -> bool:
        if self.single_core:
            return True
        kind = self.ctx.fields(op).memo("core_type", lambda: "SCALAR" if hivm.is_barrier_all(op) else op.core_type())
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
        lat, ii = self.ctx.timing(op, self.partial_tile_shapes(op))
        self.timed += 1
        self.last_timing = (lat, ii)
        return self.perturbed(lat, ii)

    def perturbed(self, lat: int, ii: int) -> tuple[int, int]:
        """(latency, ii) scaled by the block's next random factor when the simulation
        perturbs latencies (one draw per timed op, in walk order)."""
        rng = self.ctx.rng
        if rng is not None:
            f = float(np.exp(rng.uniform(np.log(0.25), np.log(4.0))))
            lat2 = max(1, round(lat * f))
            ii = max(1, min(lat2, round(ii * f)))
            lat = lat2
        return lat, ii

    def partial_tile_shapes(self, op: Operation) -> dict[SSAValue, tuple[int, ...]]:
        """The runtime shapes of the operands of `op` whose type has a dynamic dimension
        (partial tiles): the simulator times the op at these, not at their bound."""
        dynamic = self.ctx.fields(op).memo("dynamic_operands", lambda: [
            v for v in op.operands if isinstance(v.type, MemRefType) and any(d < 0 for d in v.type.get_shape())])
        return {v: tuple(self.val(v).shape) for v in dynamic}

    def block_query(self, op: Operation) -> int:
        if isinstance(op, hivm.GetBlockIdxOp):
            return self.ctx.block
        if isinstance(op, hivm.GetBlockNumOp):
            return self.ctx.grid
        return self.spec.sub_block

    def hivm_op(self, op: hivm.HivmPipeOp) -> None:
        f = self.ctx.fields(op)
        if f.memo("scalar_only", lambda: isinstance(op, SCALAR_ONLY_OPS)) or not self.runs_here(op):
            return
        loc = f.memo("loc", lambda: str(location_of(op) or ""))
        if f.memo("is_flag", lambda: isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp)):
            self.flag_op(cast(hivm.SetFlagOp | hivm.WaitFlagOp, op), loc)
        elif isinstance(op, hivm.PipeBarrierOp):
            p = op.pipe.pipe_name
            kind, pipes = (BARRIER_ALL, ()) if op.stalls_issue else (BARRIER, (p,))
            self.emit(Instr(kind, pipes, 1, 1, name=f"pipe_barrier[{p}]", loc=loc, static_id=id(op)), op)
        elif isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
            self.block_sync_op(op, loc)
        elif isinstance(op, hivm.MmadL1Op | hivm.BatchMmadL1Op):
            self.mmad_op(op, loc)
        else:
            self.pipe_op(op, loc)

    def flag_op(self, op: hivm.SetFlagOp | hivm.WaitFlagOp, loc: str) -> None:
        if op.static_event_id is not None:
            event = op.static_event_id.data
        else:
            dyn_event = op.dynamic_event_id
            # the op verifier requires exactly one of a static or a dynamic event id
            assert dyn_event is not None
            event = self.scalar(dyn_event, op)
        self._check_event(op, event)
        src, dst = op.set_pipe.pipe_name, op.wait_pipe.pipe_name
        kind = SET if isinstance(op, hivm.SetFlagOp) else WAIT
        pipe = src if kind == SET else dst
        name = op.name.removeprefix("hivm.hir.")
        self.emit(Instr(kind, (pipe,), 1, 1, flag=(src, dst, event), name=name, loc=loc, static_id=id(op)), op)

    def _check_event(self, op: Operation, event: int) -> None:
        """Event ids exist up to the chip's events_per_pipe_pair (its chip file's count)."""
        limit = self.ctx.events_per_pipe_pair
        if not 0 <= event < limit:
            raise SimulationError(op, f"event id {event} is out of range (0..{limit - 1}: the chip has {limit} per pipe pair)")

    def block_sync_op(self, op: hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp, loc: str) -> None:
        fid = op.flag_id
        if fid is None:
            dyn_flag = op.dynamic_flag_id
            # the op verifier requires exactly one of a static or a dynamic flag id
            assert dyn_flag is not None
            fid = self.scalar(dyn_flag, op)
        if not 0 <= fid < hardware.CROSS_CORE_FLAGS:
            raise SimulationError(op, f"dynamic cross-core flag id {fid} is out of range (0..{hardware.CROSS_CORE_FLAGS - 1})")
        kind = BLOCK_SET if isinstance(op, hivm.SyncBlockSetOp) else BLOCK_WAIT
        name = op.name.removeprefix("hivm.hir.")
        self.emit(Instr(kind, op.pipes(), 1, 1, flag=(fid,), name=name, loc=loc, static_id=id(op)), op)

    def accesses(self, refs: list[tuple[Ref, int]], write: bool, atomic: bool, op: Operation) -> list[Access]:
        out = []
        for ref, core in refs:
            lo, hi = ref.extent()
            if hi > lo and (lo < 0 or hi > ref.buf.nbytes):  # an empty view touches nothing
                raise SimulationError(op, f"access [{lo}, {hi}) outside its {ref.buf.scope} buffer of {ref.buf.nbytes} bytes")
            mask = ref.buf.written(core)
            place = written_place = None
            if hi > lo and all(s >= 0 for s in ref.strides):  # what numpy says of the views, known here
                root, address = ref.buf.placement(core)
                place = (root, address + lo, address + hi)
                if mask is not None:
                    mask_root, mask_address = ref.buf.placement(core, mask=True)
                    written_place = (mask_root, mask_address + lo)
            out.append(Access(ref.buf.label(core, self.ctx.cores[core].name), ref.view(core), write,
                              atomic=atomic and write,
                              written=ref.byte_view(mask) if mask is not None else None, origin=ref.origin,
                              place=place, written_place=written_place))
        return out

    def note_shared(self, ins: Instr, refs: list[tuple[Ref, int]], write: bool, atomic: bool) -> None:
        for ref, core in refs:
            if ref.buf.shared:
                self.ctx.gm_accesses.append((ins, core, ref, write, atomic and write))

    def pipe_op(self, op: hivm.HivmPipeOp, loc: str) -> None:
        """A DMA or vector op: one instruction on its pipe(s)."""
        transpose = op.properties.get("transpose")
        if isinstance(transpose, DenseArrayBase) and tuple(transpose.get_values()):
            raise SimulationError(op, "vector ops with a transpose attribute are not simulated")
        sem = SEMANTICS.get(type(op))
        if sem is None:
            raise SimulationError(op, f"the simulator has no semantics for '{op.name}'")
        reads: list[tuple[Ref, int]] = []
        writes: list[tuple[Ref, int]] = []
        start_fn, end_fn, atomic = sem(self, op, reads, writes)
        accesses = self.accesses(reads, False, atomic, op) + self.accesses(writes, True, atomic, op)
        lat, ii = self.timing(op)
        # copies between GM and the core share the core's HBM path whatever their pipe
        # (load/store on a vector core; nd2nz/fixpipe-to-GM on the cube): one at a time
        touches_gm = any(ref.buf.scope == "gm" for ref, _ in reads + writes)
        resources = ("HBM",) if touches_gm and isinstance(op, (*hivm.DMA_OPS, hivm.LoadScaleOp)) else ()
        ins = Instr(OP, self.ctx.fields.pipes(op), lat, ii, tuple(accesses), start_fn, end_fn,
                    name=op.name.removeprefix("hivm.hir."), loc=loc, static_id=id(op), resources=resources)
        self.note_shared(ins, reads, False, atomic)
        self.note_shared(ins, writes, True, atomic)
        self.emit(ins, op)

    def mmad_op(self, op: hivm.MmadL1Op | hivm.BatchMmadL1Op, loc: str) -> None:
        """mmadL1 as the hardware runs it: MTE1 moves A and B from L1 into L0A/L0B (the
        feed, which reads L1), then the cube multiplies on M (reading and writing C once
        the feed is done). A set_flag on MTE1 after mmadL1 therefore fires once L1 has
        been read, as bishengir's mmadL1 sets its MTE1 -> MTE2 flags ("once it has read A
        and B from L1"); the L0A/L0B ping-pong between consecutive mmadL1s is the op's own
        business and not modelled as memory."""
        l1_reads: list[tuple[Ref, int]] = []
        acc_reads: list[tuple[Ref, int]] = []
        writes: list[tuple[Ref, int]] = []
        feed, compute, store = mmad_phases(self, op, l1_reads, acc_reads, writes)
        lat, ii = self.timing(op)
        feed_lat = self.feed_latency(op, lat)
        feed_accesses = self.accesses(l1_reads, False, False, op)
        f = self.ctx.fields(op)
        m, k, n = (self.scalar(v, op) for v in (f.real_m, f.real_k, f.real_n))
        a_rows, b_rows = (k, m) if f.a_transpose is not None else (m, k), (n, k) if f.b_transpose is not None else (k, n)
        for acc, (ref, core), used in zip(feed_accesses, l1_reads, (a_rows, b_rows)):
            _check_only_used(acc, ref, core, used)
        feed_ins = Instr(OP, ("MTE1",), feed_lat, feed_lat, tuple(feed_accesses),
                         feed, None, name=op.name.removeprefix("hivm.hir."), loc=loc, static_id=(id(op), "feed"))
        cube_lat = max(1, lat - feed_lat)
        acc_accesses = self.accesses(acc_reads, False, False, op)
        for acc, (ref, core) in zip(acc_accesses, acc_reads):
            _check_only_used(acc, ref, core, (m, n))
        cube_accesses = acc_accesses + self.accesses(writes, True, False, op)
        cube_ins = Instr(OP, ("M",), cube_lat, max(1, min(ii, cube_lat)), tuple(cube_accesses), None,
                         lambda fed: store(compute(fed)), name=op.name.removeprefix("hivm.hir."), loc=loc, static_id=id(op),
                         after_previous=True)
        before, after = self.macro_sync(op, loc)
        # the cube part follows its feed in the stream (after_previous); the flags the op
        # sets once it has read L1 are on MTE1, so they still wait only for the feed
        for ins in (*before, feed_ins, cube_ins, *after):
            self.emit(ins, op)

    def feed_latency(self, op: hivm.MmadL1Op | hivm.BatchMmadL1Op, latency: int) -> int:
        """Cycles of the MTE1 part of an mmadL1 whose whole takes `latency` (perturbed
        in proportion when the simulation perturbs the latency)."""
        base, _ = self.ctx.timing(op)
        feed = self.ctx.feed_latency(op) if self.ctx.feed_latency is not None else None
        if feed is None:
            feed = base // 5  # no latency model for this shape: a fifth, as in the 950 table
        return max(1, min(latency - 1, round(feed * latency / base)))

    def macro_sync(self, op: Operation, loc: str) -> tuple[list[Instr], list[Instr]]:
        """The flags a macro op handles itself. bishengir's sync solver hands mmadL1 seven
        i64 `sync_related_args` (-1: none): the event ids of the MTE2 -> MTE1 flags its L0
        loads of A and B wait for, the MTE1 -> MTE2 flags it sets once it has read A and B
        from L1, the K-loop index (`iv - lb`) and two M -> MTE1 events. The last two are
        the ping-pong of the op's own L0A/L0B buffers (bishengir's inject-sync,
        `insertMmadL1BackPipeMPipeMTE1Sync`: both events set before the K loop, waited
        after it): an even K step's L0 loads wait for the first event and its mmad sets
        it again, an odd step uses the second. The L0 buffers are the op's own, so only
        the flags are modelled: a wait on MTE1 before the op, a set on M after it."""
        sync_related_args = (self.ctx.fields(op).sync_related_args
                             if isinstance(op, hivm.MmadL1Op | hivm.BatchMmadL1Op) else None)
        if not sync_related_args:
            return [], []
        wait_a, wait_b, set_a, set_b, k_step, back0, back1 = (
            self.scalar(v, op) for v in sync_related_args
        )

        def flag(kind: str, src: str, dst: str, event: int, what: str) -> Instr:
            if not 0 <= event < self.ctx.events_per_pipe_pair:
                raise SimulationError(op, f"mmadL1 sync_related_args: event id {event} is out of range")
            pipe = src if kind == SET else dst
            return Instr(kind, (pipe,), 1, 1, flag=(src, dst, event), name=f"mmadL1 {what}",
                         loc=loc, static_id=(id(op), what))

        before = [flag(WAIT, "MTE2", "MTE1", e, f"wait_flag[MTE2, MTE1, {e}] ({ab})")
                  for e, ab in ((wait_a, "A"), (wait_b, "B")) if e >= 0]
        after = [flag(SET, "MTE1", "MTE2", e, f"set_flag[MTE1, MTE2, {e}] ({ab})")
                 for e, ab in ((set_a, "A"), (set_b, "B")) if e >= 0]
        back = back1 if k_step >= 0 and k_step % 2 == 1 else back0
        if back >= 0:
            before.append(flag(WAIT, "M", "MTE1", back, f"wait_flag[M, MTE1, {back}] (L0)"))
            after.append(flag(SET, "M", "MTE1", back, f"set_flag[M, MTE1, {back}] (L0)"))
        return before, after

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


# ------------------------------------------------------------------------------ scalar unit on the interpreter


class _ScalarSteps(Interpreter.Listener):
    """Counts the scalar unit's work: one cycle per op it executes itself (everything but
    issued hivm ops, func.return and the yield closing an scf.if; the yield closing a
    loop iteration is the iteration's branch), and bounds the walk."""

    def __init__(self, walker: CoreWalker):
        self.walker = walker

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        w = self.walker
        w.current_op = op
        w.steps += 1
        if w.steps > MAX_SCALAR_STEPS:
            raise SimulationError(op, f"scalar step limit {MAX_SCALAR_STEPS} reached while walking the program")
        costs = w.ctx.fields.scalar_costs
        cost = costs.get(id(op))
        if cost is None:
            cost = costs[id(op)] = _scalar_cost(op)
        w.pending_scalar += cost


def _scalar_cost(op: Operation) -> int:
    """Cycles of the scalar unit itself for `op` (see _ScalarSteps); the op's kind alone
    decides, so it is asked once per op."""
    if isinstance(op, func.ReturnOp) or (isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.IfOp)):
        return 0
    if isinstance(op, arith.ConstantOp):
        return 0  # an immediate of the instructions that use it, not an instruction
    if isinstance(op, hivm.HivmPipeOp) and not isinstance(op, _BLOCK_QUERIES + SCALAR_ONLY_OPS):
        return 0
    return 1


_BLOCK_QUERIES = (hivm.GetBlockIdxOp, hivm.GetBlockNumOp, hivm.GetSubBlockIdxOp)


class _ScalarUnitBase(InterpreterFunctions):
    def __init__(self, walker: CoreWalker):
        self.walker = walker


def _scalar_unit_functions(walker: CoreWalker) -> InterpreterFunctions:
    """The interpreter functions of one core's scalar unit: memref views evaluate to
    `Ref`s, hivm ops issue instructions (`CoreWalker.hivm_op`)."""
    return _SCALAR_UNIT_FUNCTIONS(walker)


def reassociation_groups(op: Operation) -> list[list[int]] | None:
    """The reassociation of a collapse_shape / expand_shape: source (or result) dims per group."""
    attr = getattr(op, "reassociation", None)
    if not isinstance(attr, ArrayAttr):
        return None
    groups: list[list[int]] = []
    for group in attr.data:
        if not isinstance(group, ArrayAttr) or not all(isinstance(v, IntegerAttr) for v in group.data):
            return None
        groups.append([cast(IntegerAttr, v).value.data for v in group.data])
    return groups


def _view_impl(method: str):
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        return (getattr(self.walker, method)(op),)

    return run


def _cast_impl(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    return (args[0],)


def _no_effect_impl(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    return ()


def _strided_metadata_impl(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    base, *numbers = self.walker.strided_metadata(op)
    return (base, *(scalar_attr(n, r.type, interpreter.index_bitwidth) for n, r in zip(numbers, op.results[1:])))


def _dim_impl(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    return (scalar_attr(self.walker.dim(op), op.results[0].type, interpreter.index_bitwidth),)


def _store_impl(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    assert isinstance(op, memref.StoreOp)
    self.walker.scalar_store(op)
    return ()


def _load_impl(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    assert isinstance(op, memref.LoadOp)
    value = self.walker.scalar_load(op)
    return (scalar_attr(value, op.res.type, interpreter.index_bitwidth),)


def _hivm_impl(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    if self.walker.ctx.fields(op).memo("block_query", lambda: isinstance(op, _BLOCK_QUERIES)):
        return (scalar_attr(self.walker.block_query(op), op.results[0].type, interpreter.index_bitwidth),)
    self.walker.hivm_op(op)
    return tuple(0 for _ in op.results)


def _build_scalar_unit_functions() -> type[_ScalarUnitBase]:
    from ascend_mlir.dialects.annotation import Annotation

    namespace: dict[str, Any] = {
        "run_alloc": impl(memref.AllocOp)(_view_impl("alloc")),
        "run_alloca": impl(memref.AllocaOp)(_view_impl("alloc")),
        "run_pointer_cast": impl(hivm.PointerCastOp)(_view_impl("pointer_cast")),
        "run_bitcast": impl(BitcastOp)(_view_impl("bitcast")),
        "run_subview": impl(memref.SubviewOp)(_view_impl("subview")),
        "run_cast": impl(memref.CastOp)(_cast_impl),
        "run_reinterpret_cast": impl(memref.ReinterpretCastOp)(_view_impl("reinterpret")),
        "run_collapse_shape": impl(memref.CollapseShapeOp)(_view_impl("reshape")),
        "run_expand_shape": impl(memref.ExpandShapeOp)(_view_impl("reshape")),
        "run_dealloc": impl(memref.DeallocOp)(_no_effect_impl),
        "run_dim": impl(memref.DimOp)(_dim_impl),
        "run_extract_strided_metadata": impl(memref.ExtractStridedMetaDataOp)(_strided_metadata_impl),
        "run_load": impl(memref.LoadOp)(_load_impl),
        "run_store": impl(memref.StoreOp)(_store_impl),
    }
    for op_type in Annotation.operations:
        namespace[f"run_{op_type.__name__}"] = impl(op_type)(_no_effect_impl)
    # bishengir-compile-a5 brackets a 950 vector kernel with control-register writes
    # (`set_ctrl false at ctrl[60]`, `true at ctrl[48]` at entry, `true at ctrl[60]` before
    # the return): scalar-unit writes with no memory effect and no mode the simulator's
    # numerics model, so they run as no-ops (sim/README says so)
    namespace["run_SetCtrlOp"] = impl(SetCtrlOp)(_no_effect_impl)
    for op_type in (*hivm.HIVM.operations, *CCE.operations):  # CCE: the lowered mmadL1 (dialects/cce.py)
        if issubclass(op_type, hivm.HivmPipeOp):
            namespace[f"run_{op_type.__name__}"] = impl(op_type)(_hivm_impl)
    return register_impls(type("ScalarUnitFunctions", (_ScalarUnitBase,), namespace))


_SCALAR_UNIT_FUNCTIONS = _build_scalar_unit_functions()


def build_block(kernel: Kernel, block: int, gm: dict[str, Buffer], arena_bytes, timing, rng,
                feed_latency: Callable[[Operation], int | None] | None = None,
                shapes: Mapping[str, tuple[int, ...]] | None = None,
                scalars: Mapping[str, Any] | None = None,
                events_per_pipe_pair: int = hardware.EVENTS_PER_PIPE_PAIR,
                assumed_loads: Mapping[tuple[int, int], Any] | None = None,
                fields: FieldCache | None = None,
                listeners: Callable[[CoreWalker], tuple[Interpreter.Listener, ...]] | None = None,
                ) -> tuple[BlockContext, list[Core]]:
    """The cores of one block with their instructions. `shapes` gives the runtime shape
    of GM arguments with dynamic dimensions, `scalars` the values of scalar arguments
    ("arg<i>"; an argument left out runs as 0), `assumed_loads` the values scalar loads
    read in the previous run of the block (BlockContext.observed_loads), `fields` the
    simulation's cache of op fields (shared by its blocks; a fresh one when not given),
    `listeners` what watches each core's walk (sim/walk_replay.py records it)."""
    specs = core_specs(kernel)
    gm_refs: dict[SSAValue, Ref] = {}
    scalar_values: dict[SSAValue, Any] = {}
    for name, a, b in kernel.args:
        if scalars is not None and name in scalars:
            scalar_values[a] = scalars[name]
            if b is not None:
                scalar_values[b] = scalars[name]
        if name in gm:
            t = memref_type(a)
            buf = gm[name]
            shape = tuple(shapes[name]) if shapes is not None and name in shapes else tuple(t.get_shape())
            et = elem_type(t.get_element_type())
            ref = Ref(buf, 0, shape, row_major(shape), et)
            gm_refs[a] = ref
            if b is not None:
                gm_refs[b] = ref
    ctx = BlockContext(block, kernel.grid, specs, gm_refs, arena_bytes, timing, rng,
                       alloc_alias=kernel.alloc_alias, feed_latency=feed_latency, scalars=scalar_values,
                       events_per_pipe_pair=events_per_pipe_pair,
                       assumed_loads=dict(assumed_loads or {}), fields=fields or FieldCache())
    cores = []
    for i, spec in enumerate(specs):
        walker = CoreWalker(ctx, i)
        instrs = walker.run(listeners(walker) if listeners is not None else ())
        cores.append(Core(spec.name, spec.kind, instrs))
    return ctx, cores
