"""`simulate(module, inputs)`: run a hivm-level module on the pipe-level simulator.

Every block of the grid (`ascend.grid`, default 1) runs on the same GM arrays, one after
the other (blocks share nothing but GM). Each block is simulated in full: timing, race
detection inside the block, flags. Accesses to GM from different blocks are never ordered,
so any overlap of one block's GM writes with another block's GM reads or writes is
reported as a race too (atomic stores excepted). `cycles` is the slowest block's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue

from ascend_mlir import hardware
from ascend_mlir.chips import in_order
from ascend_mlir.dialects import hivm
from ascend_mlir.dialects.ascend import task_of
from ascend_mlir.sim.engine import Engine, Race, TraceEvent, UninitializedRead
from ascend_mlir.sim.hivm_frontend import (
    Buffer,
    SimulationError,
    build_block,
    find_kernel,
)
from ascend_mlir.sim.numerics import elem_type, encode
from ascend_mlir.sim.op_fields import FieldCache
from ascend_mlir.sim.replay import RecordedRun, stream_signature
from ascend_mlir.sim.threads import single_threaded_blas
from ascend_mlir.sim.walk_replay import WalkRecord, block_dependence

# timing of an op when neither attributes nor the latency model give one
_FALLBACK = {"MTE1": (20, 8), "MTE2": (200, 64), "MTE3": (180, 16), "M": (80, 32), "V": (16, 16),
             "FIX": (200, 64), "S": (1, 1)}


@dataclass
class SimResult:
    cycles: int
    races: list[Race]
    deadlock: bool
    deadlock_info: list[str]
    unbalanced_flags: list[str]
    double_sets: list[str]
    pipe_busy: dict[str, int]
    pipe_busy_by_core: dict[str, dict[str, int]]
    outputs: dict[str, np.ndarray]
    trace: list[TraceEvent]
    blocks: int = 1
    instructions: int = 0
    cores: list[str] = field(default_factory=list)
    output_types: dict[str, str] = field(default_factory=dict)  # name -> element type ("bf16"...)
    # ops whose latency neither their ascend.latency, their operand types and sizes nor
    # the static bounds of their views give: costed at a per-pipe default, and named here
    # ("<op> at <file:line:col>: <why>"), so a comparison built on them is known to be one
    unknown_latency_ops: list[str] = field(default_factory=list)
    # reads of on-chip memory no op wrote: the outputs depend on what the hardware's
    # memory held before the kernel, so they never count as a reference match
    uninitialized_reads: list[UninitializedRead] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No race, no deadlock, no double set, no flag left set at kernel exit (on
        hardware a leftover flag corrupts the next kernel's sync) and no read of
        never-written on-chip memory."""
        return not (self.races or self.deadlock or self.double_sets or self.unbalanced_flags
                    or self.uninitialized_reads)

    def to_json(self) -> dict[str, Any]:
        return {
            "cycles": self.cycles,
            "races": [r.to_json() for r in self.races],
            "uninitialized_reads": [u.to_json() for u in self.uninitialized_reads],
            "deadlock": self.deadlock,
            "deadlock_info": self.deadlock_info,
            "unbalanced_flags": self.unbalanced_flags,
            "double_sets": self.double_sets,
            "pipe_busy": self.pipe_busy,
            "pipe_busy_by_core": self.pipe_busy_by_core,
            "blocks": self.blocks,
            "instructions": self.instructions,
            "cores": self.cores,
            "unknown_latency_ops": self.unknown_latency_ops,
        }


def _chip(module: ModuleOp, chip):
    from ascend_mlir.chips import Chip, resolve_chip

    if isinstance(chip, Chip):
        return chip
    return resolve_chip(module, chip)


def _timing_fn(chip, unknown: dict[str, None]):
    """(latency, ii) of an op; what the model cannot derive is costed at a per-pipe
    default and recorded in `unknown` (an ordered set of descriptions). An op on operands
    of runtime shape is timed at the shapes it runs with; only when even those give no
    latency is it costed at the default (and recorded)."""
    cache: dict[int, tuple[int, int] | None] = {}
    reasons: dict[int, str] = {}

    def static(op: Operation) -> tuple[int, int] | None:
        key = id(op)
        if key in cache:
            return cache[key]
        task = task_of(op)
        result: tuple[int, int] | None = None
        if task is not None:
            result = (max(1, task.latency), max(1, task.ii))
        else:
            from ascend_mlir.analysis.latency_model import LatencyError, estimate
            from ascend_mlir.chips import ChipError

            try:
                lat, ii = estimate(op, chip)
                result = (max(1, int(lat)), max(1, min(int(ii), int(lat))))
            except (LatencyError, ChipError) as why:
                reasons[key] = str(why).split("\n")[0].split("error: ")[-1]
        cache[key] = result
        return result

    def fallback(op: Operation) -> tuple[int, int]:
        """The per-pipe default, said so."""
        from ascend_mlir.diagnostics import location_of

        unknown[f"{op.name} at {location_of(op) or '?'}: {reasons.get(id(op), 'no latency')}"] = None
        pipes = hivm.op_pipes(op) or ("S",)
        lat, ii = max((_FALLBACK.get(p, (1, 1)) for p in pipes), key=lambda t: t[0])
        return max(1, lat), max(1, min(ii, lat))

    def timing(op: Operation, shapes: Mapping[SSAValue, tuple[int, ...]] | None = None) -> tuple[int, int]:
        if shapes:
            return _runtime_shape_timing(op, shapes)
        result = static(op)
        return result if result is not None else fallback(op)

    def _runtime_shape_timing(op: Operation, shapes: Mapping[SSAValue, tuple[int, ...]]) -> tuple[int, int]:
        """An op on partial tiles is timed at their runtime size (the schedule planned the
        bound, `planned`; the actual never takes longer). An operand of runtime shape with
        no static bound (a view bishengir reinterprets at run time) is timed at its
        runtime shape alone."""
        from ascend_mlir.analysis.latency_model import LatencyError, estimate_at
        from ascend_mlir.chips import ChipError

        planned = static(op)
        key = (id(op), tuple(shapes.values()))
        hit = partial_cache.get(key)
        if hit is None:
            try:
                lat, ii = estimate_at(op, chip, shapes)
            except (LatencyError, ChipError):
                return planned if planned is not None else fallback(op)
            if planned is not None:
                lat, ii = min(int(lat), planned[0]), min(int(ii), planned[1])
            lat = max(1, int(lat))
            hit = partial_cache[key] = (lat, max(1, min(int(ii), lat)))
        return hit

    partial_cache: dict[tuple, tuple[int, int]] = {}
    return timing


def _feed_fn(chip):
    """Cycles of the MTE1 part of an mmadL1 on `chip` (None when the model has no answer)."""
    from ascend_mlir.analysis.latency_model import LatencyError, read_latencies
    from ascend_mlir.chips import ChipError

    cache: dict[int, int | None] = {}  # per static op: mmadL1s in loops run many times

    def feed(op: Operation) -> int | None:
        key = id(op)
        if key not in cache:
            try:
                cache[key] = max(read_latencies(op, chip).values(), default=None)
            except (LatencyError, ChipError):
                cache[key] = None
        return cache[key]

    return feed


def _fits(actual: tuple[int, ...], declared: tuple[int, ...]) -> bool:
    return len(actual) == len(declared) and all(d in (a, DYNAMIC_INDEX) for a, d in zip(actual, declared))


def _scalar_arguments(kernel, inputs) -> dict[str, Any]:
    """"arg<i>" -> value of the kernel's scalar arguments that `inputs` binds (by
    position or by name); an unbound scalar runs as 0."""
    values: dict[str, Any] = {}
    for name, arg, _ in kernel.args:
        if isinstance(arg.type, MemRefType):
            continue
        key = name if name in inputs else arg.name_hint if arg.name_hint in inputs else None
        if key is not None:
            values[name] = inputs[key]
    return values


def _default_inputs(kernel, seed: int) -> dict[str, Any]:
    from ascend_mlir.sim.reference import make_inputs

    func_op = kernel.aic or kernel.aiv
    return make_inputs(func_op, seed)


def _gm_buffers(kernel, inputs, seed) -> tuple[dict[str, Buffer], dict[str, tuple]]:
    buffers: dict[str, Buffer] = {}
    meta: dict[str, tuple] = {}
    needs = []
    for name, arg, _ in kernel.args:
        t = arg.type
        if isinstance(t, MemRefType) and hivm.scope_of(t) in ("gm", None):
            needs.append((name, arg))
    if inputs is None:
        inputs = _default_inputs(kernel, seed)
    for name, arg in needs:
        t = arg.type
        shape = tuple(t.get_shape())
        et = elem_type(t.get_element_type())
        key = name if name in inputs else arg.name_hint if arg.name_hint in inputs else None
        if key is None:
            raise SimulationError(arg.owner if isinstance(arg.owner, Operation) else arg.owner.parent_op(),
                                  f"no input for GM argument {name}")
        values = np.asarray(inputs[key])
        if _fits(values.shape, shape):
            shape = values.shape  # a dynamic dimension takes the bound input's extent
        if values.shape != shape:
            raise SimulationError(kernel.aic or kernel.aiv,
                                  f"input {key} has shape {list(values.shape)}, argument {name} is {t}")
        # storage-typed inputs (make_inputs gives them) are taken as they are: encoding
        # them is exact, and two copies of a large bf16 operand
        stored = np.ascontiguousarray(values if values.dtype == et.storage else encode(values, et))
        buffers[name] = Buffer(f"%{arg.name_hint}" if arg.name_hint else name, "gm", stored.nbytes,
                               shared=True, init=stored.view(np.uint8).reshape(-1).copy())
        meta[name] = (shape, et)
    return buffers, meta


def _unordered_gm_accesses(per_block: list[list]) -> dict[int, list[tuple[int, Any]]]:
    """(block, access) per GM buffer id; atomic accesses commute and are left out."""
    by_buf: dict[int, list[tuple[int, Any]]] = {}
    for b, accesses in enumerate(per_block):
        for acc in accesses:
            if not acc[4]:
                by_buf.setdefault(acc[2].buf.id, []).append((b, acc))
    return by_buf


def _covered(per_unit: np.ndarray, ref, unit: int = 1) -> np.ndarray:
    """The elements of `per_unit` (one per `unit` bytes of the buffer, any dtype) that
    `ref` covers; `unit` divides the view's offset and element size."""
    parts, size = ref.et.itemsize // unit, per_unit.itemsize
    if any(d == 0 for d in ref.shape):
        return np.empty(ref.shape + (parts,), dtype=per_unit.dtype)
    return np.ndarray(ref.shape + (parts,), dtype=per_unit.dtype, buffer=per_unit, offset=ref.offset // unit * size,
                      strides=tuple(st * parts * size for st in ref.strides) + (size,))


def _unit(nbytes: int, items: list[tuple[int, Any]]) -> int:
    """The largest run of bytes that every access covers whole or not at all: the gcd
    of the buffer size, the views' offsets and element sizes (4 for an f32 output)."""
    unit = nbytes
    for _, (_, _, ref, _, _) in items:
        unit = math.gcd(unit, ref.offset, ref.et.itemsize)
    return max(unit, 1)


def _clash_units(nbytes: int, items: list[tuple[int, Any]], unit: int) -> np.ndarray:
    """Per `unit` bytes: 1 where one block writes and another block reads or writes it.

    Per unit and access kind, the number of distinct blocks (saturated at 2) and the last
    of them are kept while the accesses are visited in block order, so the cost is the
    bytes accessed, not the number of blocks times the buffer: a unit clashes when two
    blocks write it, or one block writes it and another (some other than that writer:
    two readers, or one that is not the writer) reads it."""
    units = nbytes // unit
    count = {kind: np.zeros(units, dtype=np.uint8) for kind in (True, False)}
    last = {kind: np.full(units, -1, dtype=np.int32) for kind in (True, False)}
    for b, (_, _, ref, write, _) in sorted(items, key=lambda item: item[0]):
        seen = _covered(last[write], ref, unit)
        counted = _covered(count[write], ref, unit)
        first = seen != b  # a view may alias a unit: every alias reads the old count
        counted[first] = np.minimum(counted[first] + 1, 2)
        seen[...] = b
    writers, readers = count[True], count[False]
    other_reader = (readers >= 2) | ((readers == 1) & (last[False] != last[True]))
    return ((writers >= 2) | ((writers == 1) & other_reader)).astype(np.uint8)


def _clash_mask(nbytes: int, items: list[tuple[int, Any]]) -> np.ndarray:
    """Per byte: 1 where one block writes and another block reads or writes it (the
    units of `_clash_units`, each repeated over its bytes)."""
    unit = _unit(nbytes, items)
    return np.repeat(_clash_units(nbytes, items, unit), unit)


class _CrossBlockReport:
    """One race per static pair of ops on a buffer (later block pairs only count), at
    most `limit` races; gives up after `max_pairs` compared access pairs."""

    def __init__(self, limit: int, max_pairs: int) -> None:
        self.limit, self.max_pairs = limit, max_pairs
        self.races: list[Race] = []
        self.seen: dict[tuple, Race] = {}
        self.pairs = 0

    def exhausted(self) -> bool:
        return self.pairs > self.max_pairs

    def compare(self, buf, first: tuple[int, Any], second: tuple[int, Any]) -> None:
        (b1, (ins1, _, ref1, write1, _)), (b2, (ins2, _, ref2, write2, _)) = first, second
        if b1 == b2 or not (write1 or write2):
            return
        self.pairs += 1
        if self.exhausted() or not np.shares_memory(ref1.view(0), ref2.view(0)):
            return
        key = (min(ins1.static_id, ins2.static_id), max(ins1.static_id, ins2.static_id), buf.id)
        if key in self.seen:
            self.seen[key].count += 1
            return
        if len(self.races) >= self.limit:
            return
        (b1, ins1, write1), (b2, ins2, write2) = sorted(((b1, ins1, write1), (b2, ins2, write2)), key=lambda t: t[0])
        kind = f"{'write' if write1 else 'read'}-{'write' if write2 else 'read'}"
        (lo1, hi1), (lo2, hi2) = ref1.extent(), ref2.extent()
        self.seen[key] = Race(ins1.name, ins1.loc, ins2.name, ins2.loc, f"gm {buf.name}", kind,
                              f"block {b1}", f"block {b2}", block=None, span=(max(lo1, lo2), min(hi1, hi2)))
        self.races.append(self.seen[key])


def _cross_block_races(per_block: list[list], limit: int = 20, max_pairs: int = 100_000) -> list[Race]:
    """GM accesses of different blocks are never ordered: report overlapping ones (one
    report per static pair of ops, counting the block pairs; atomic stores excepted)."""
    report = _CrossBlockReport(limit, max_pairs)
    if len(per_block) < 2:
        return report.races
    for items in _unordered_gm_accesses(per_block).values():
        buf = items[0][1][2].buf
        if len({b for b, _ in items}) < 2 or not any(acc[3] for _, acc in items):
            continue  # one block, or reads only: nothing to order
        unit = _unit(buf.nbytes, items)
        clash = _clash_units(buf.nbytes, items, unit)
        if not clash.any():
            continue
        suspects = [(b, acc) for b, acc in items if _covered(clash, acc[2], unit).any()]
        for i, first in enumerate(suspects):
            for second in suspects[i + 1:]:
                report.compare(buf, first, second)
                if report.exhausted():
                    return report.races
    return report.races


# reruns of a block whose scalar loads read other values than its walk assumed
MAX_LOAD_RERUNS = 8


# engine runs kept for replay (sim.replay): a grid's blocks rarely have more kinds
RECORDED_RUNS = 8


def _engine_run(cores, trace: bool, in_order_pipes, recorded: dict | None):
    """The engine's result for a block's cores: replayed from a recorded run of a block
    with the same stream signature (its data run here, in the recorded order), else run
    (and recorded, while `recorded` has room). `recorded` None: always run."""
    if recorded is None:
        return Engine(cores, trace=trace, in_order_pipes=in_order_pipes).run()
    signature = stream_signature(cores)
    hit = recorded.get(signature)
    if hit is not None and not trace:
        return hit.replayed(cores)
    events: list[tuple[int, int, bool]] = []
    result = Engine(cores, trace=trace, in_order_pipes=in_order_pipes, record=events).run()
    if hit is None and len(recorded) < RECORDED_RUNS:
        recorded[signature] = RecordedRun.keep(result, events)
    return result


def _cores_of_block(kernel, b, gm, arena_bytes, timing, rng, feed, shapes, scalars, events_per_pipe_pair,
                    assumed, fields, walks: WalkRecord | None):
    """Block `b`'s context and cores: replayed from the first block's walk when `walks`
    holds it (sim/walk_replay.py), else walked (and recorded, when `walks` is empty).
    A replay that fails walks the block in full, from the same latency draws: the walk
    reports what is wrong at its op."""
    if walks is not None and walks.ready:
        draws = rng.bit_generator.state if rng is not None else None
        try:
            return walks.replayed(b)
        except Exception:  # the full walk below says what is wrong, or finds nothing wrong
            if rng is not None:
                rng.bit_generator.state = draws
            walks = None
    ctx, cores = build_block(kernel, b, gm, arena_bytes, timing, rng, feed, shapes=shapes, scalars=scalars,
                             events_per_pipe_pair=events_per_pipe_pair, assumed_loads=assumed, fields=fields,
                             listeners=walks.listeners if walks is not None else None)
    if walks is not None:
        walks.keep(ctx)
    return ctx, cores


def _run_block(kernel, b, gm, arena_bytes, timing, rng, feed, shapes, scalars, trace, events_per_pipe_pair,
               in_order_pipes, may_load: bool = True, fields: FieldCache | None = None,
               recorded: dict | None = None, walks: WalkRecord | None = None):
    """(context, cores, engine result) of block `b`. The scalar unit's walk runs before
    the engine, so a value it reads from memory (memref.load: a reduction's result read
    back by bishengir's code) is known only after the run: the block reruns, from the
    same GM contents and the same latency draws, with the values the last run read, until
    every load read what the walk assumed (a race-free kernel needs one rerun per load
    that feeds the next; the loads themselves are ordered by the S pipe's issue rule).
    A module without scalar loads (`may_load` False) never reruns: GM is not copied.
    `recorded` holds engine runs to replay (`_engine_run`), `walks` the first block's
    walk (`_cores_of_block`; None: every block is walked)."""
    snapshot = {name: buf.memory(0).copy() for name, buf in gm.items()} if may_load else {}
    draws = rng.bit_generator.state if rng is not None else None
    assumed: dict = {}
    for _ in range(MAX_LOAD_RERUNS):
        if rng is not None:
            rng.bit_generator.state = draws
        ctx, cores = _cores_of_block(kernel, b, gm, arena_bytes, timing, rng, feed, shapes, scalars,
                                     events_per_pipe_pair, assumed, fields, walks)
        result = _engine_run(cores, trace, in_order_pipes, recorded)
        if ctx.observed_loads == assumed or not ctx.observed_loads:
            return ctx, cores, result
        assumed = dict(ctx.observed_loads)
        for name, buf in gm.items():
            buf.memory(0)[:] = snapshot[name]
    raise SimulationError(kernel.aic or kernel.aiv,
                          f"the values the scalar unit reads from memory did not settle in {MAX_LOAD_RERUNS} runs "
                          "(they depend on a race, or on the loop they control)")


@single_threaded_blas
def simulate(
    module: ModuleOp,
    inputs: dict[str, np.ndarray] | None = None,
    *,
    chip=None,
    seed: int = 0,
    perturb: int | None = None,
    trace: bool = True,
    func_name: str | None = None,
    blocks: int | None = None,
    on_block: Callable[[int, int], None] | None = None,
    replay: bool = True,
) -> SimResult:
    """Simulate `module` (hivm level). `inputs` maps "arg<i>" (or argument names) to arrays
    in the reference storage convention, and scalar arguments to numbers (None:
    `reference.make_inputs(seed)`, sim.binding's defaults); a GM argument with dynamic
    dimensions takes its input's shape. `perturb`
    is a seed: every dynamic op's latency and ii are scaled by a random factor in
    [0.25, 4]. `blocks` limits how many blocks run (default: the whole grid); `on_block(b, n)`
    is called before block b of n runs (a tool's progress line). `replay` lets a block
    whose instruction streams are those of an earlier block (sim.replay's signature) reuse
    that block's engine run (its own data still computed); False runs the engine for
    every block and walks every block's scalar code (sim.walk_replay replays the first
    block's walk otherwise; the results are the same; tests compare the two)."""
    chip_obj = _chip(module, chip)
    kernel = find_kernel(module, func_name)
    if inputs is None:
        inputs = _default_inputs(kernel, seed)
    gm, meta = _gm_buffers(kernel, inputs, seed)
    scalars = _scalar_arguments(kernel, inputs)
    arena_bytes = dict(chip_obj.capacity)
    unknown_latency: dict[str, None] = {}
    timing = _timing_fn(chip_obj, unknown_latency)
    in_order_pipes = frozenset(p for p in hardware.PIPES if in_order(chip_obj, p))
    feed = _feed_fn(chip_obj)
    rng = np.random.default_rng(perturb) if perturb is not None else None
    may_load = any(isinstance(op, memref.LoadOp) for op in module.walk())
    fields = FieldCache()
    # perturbed latencies are drawn per op and block: no two blocks' streams are alike
    recorded: dict | None = {} if replay and rng is None else None
    # a module with scalar loads reruns blocks on what they read: its walks are not replayed
    dependence = block_dependence(f for f in (kernel.aic, kernel.aiv) if f is not None) if replay and not may_load else None
    walks = WalkRecord(dependence, perturbed=rng is not None) if dependence is not None else None
    n_blocks = kernel.grid if blocks is None else max(1, min(blocks, kernel.grid))
    races: list[Race] = []
    race_index: dict[tuple, Race] = {}
    uninitialized: dict[tuple, UninitializedRead] = {}
    deadlock = False
    deadlock_info: list[str] = []
    unbalanced: list[str] = []
    double_sets: list[str] = []
    cycles = 0
    busy_by_core: dict[str, dict[str, int]] = {}
    events: list[TraceEvent] = []
    gm_accesses = []
    n_instr = 0
    core_names: list[str] = []
    for b in range(n_blocks):
        if on_block is not None:
            on_block(b, n_blocks)
        ctx, cores, result = _run_block(kernel, b, gm, arena_bytes, timing, rng, feed,
                                        {name: m[0] for name, m in meta.items()}, scalars, trace and b == 0,
                                        chip_obj.events_per_pipe_pair, in_order_pipes, may_load, fields,
                                        recorded, walks)
        core_names = [c.name for c in cores]
        n_instr += sum(len(c.instrs) for c in cores)
        prefix = f"block {b}: " if n_blocks > 1 else ""
        for r in result.races:
            # the same static pair racing in several blocks is one report (first block)
            key = (r.first, r.first_loc, r.second, r.second_loc, r.memory, r.kind, r.first_core, r.second_core)
            if key in race_index:
                race_index[key].count += r.count
            else:
                r.block = b
                race_index[key] = r
                races.append(r)
        for u in result.uninitialized_reads:  # one report per static op and memory (first block)
            key = (u.op, u.loc, u.core, u.memory)
            if key in uninitialized:
                uninitialized[key].count += u.count
            else:
                u.block = b
                uninitialized[key] = u
        if result.deadlock:
            deadlock = True
            deadlock_info.extend(prefix + line for line in result.deadlock_info)
        unbalanced.extend(prefix + line for line in result.unbalanced_flags)
        double_sets.extend(prefix + line for line in result.double_sets)
        cycles = max(cycles, result.cycles)
        if b == 0:
            busy_by_core = result.pipe_busy
            events = result.trace
        gm_accesses.append(ctx.gm_accesses)
    races.extend(_cross_block_races(gm_accesses))
    pipe_busy = {
        p: max(core.get(p, 0) for core in busy_by_core.values())
        for p in hardware.PIPES
        if any(p in core for core in busy_by_core.values())
    }
    outputs = {}
    for name, buf in gm.items():
        shape, et = meta[name]
        stored = buf.memory(0).view(et.storage).reshape(shape)
        outputs[name] = np.array(stored, copy=True)
    return SimResult(
        cycles=cycles, races=races, deadlock=deadlock, deadlock_info=deadlock_info,
        unbalanced_flags=unbalanced, double_sets=double_sets, pipe_busy=pipe_busy,
        pipe_busy_by_core=busy_by_core, outputs=outputs, trace=events, blocks=n_blocks,
        instructions=n_instr, cores=core_names,
        output_types={name: meta[name][1].name for name in gm},
        unknown_latency_ops=list(unknown_latency),
        uninitialized_reads=list(uninitialized.values()),
    )


# ------------------------------------------------------------------------------ trace output


def _pipe_rank(lane: str) -> int:
    """Where a trace lane ("V", "MTE1+M") sorts: by its first pipe in hardware.PIPES order."""
    first = lane.split("+")[0]
    return hardware.PIPES.index(first) if first in hardware.PIPES else len(hardware.PIPES)


def chrome_trace(events: list[TraceEvent]) -> str:
    """Chrome / Perfetto trace JSON: one process per core, one thread per pipe (named by
    metadata events). The format's time unit is the microsecond and has no "cycles":
    one cycle is written as 1 us, the process names and `otherData` say so, and every
    event carries its start and length in cycles (no wall-clock time is claimed)."""
    cores = sorted({e.core for e in events}, key=lambda c: (c != "cube", c))
    pid = {c: i for i, c in enumerate(cores)}
    lanes = sorted({e.pipe for e in events}, key=lambda p: (_pipe_rank(p), p))
    tid = {p: i for i, p in enumerate(lanes)}
    out: list[dict] = []
    for c in cores:
        out.append({"name": "process_name", "ph": "M", "pid": pid[c],
                    "args": {"name": f"{c} (time axis: cycles, shown as us)"}})
        for p in sorted({e.pipe for e in events if e.core == c}, key=lambda p: tid[p]):
            out.append({"name": "thread_name", "ph": "M", "pid": pid[c], "tid": tid[p], "args": {"name": p}})
    for e in events:
        out.append({
            "name": e.name, "cat": e.pipe, "ph": "X", "ts": e.start, "dur": max(e.end - e.start, 0),
            "pid": pid[e.core], "tid": tid[e.pipe],
            "args": {"loc": e.loc, "start_cycle": e.start, "cycles": max(e.end - e.start, 0)},
        })
    other = {"time_unit": "cycle", "note": "1 us of trace time is 1 simulated cycle"}
    return json.dumps({"traceEvents": out, "otherData": other}, indent=None)


_COLORS = {"MTE1": "#8dd3c7", "MTE2": "#80b1d3", "MTE3": "#fdb462", "M": "#fb8072", "V": "#b3de69",
           "FIX": "#bebada", "S": "#d9d9d9", "ISSUE": "#969696"}


def svg_timeline(events: list[TraceEvent], cycles: int) -> str:
    """A Gantt chart: one row per (core, pipe), one box per op (hover for name and loc)."""
    from html import escape

    rows = sorted({(e.core, e.pipe) for e in events},
                  key=lambda r: (r[0] != "cube", r[0], _pipe_rank(r[1])))
    row_index = {r: i for i, r in enumerate(rows)}
    left, row_h, width = 130, 22, 1400
    scale = width / max(cycles, 1)
    height = 30 + row_h * len(rows) + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" height="{height}" '
        f'font-family="monospace" font-size="11">',
        f'<text x="4" y="14">pipe timeline, {cycles} cycles</text>',
    ]
    for (core, pipe), i in row_index.items():
        y = 24 + i * row_h
        parts.append(f'<text x="4" y="{y + 15}">{escape(core)} {escape(pipe)}</text>')
        parts.append(f'<line x1="{left}" y1="{y + row_h}" x2="{left + width}" y2="{y + row_h}" stroke="#eee"/>')
    for e in events:
        y = 24 + row_index[(e.core, e.pipe)] * row_h
        x = left + e.start * scale
        w = max((e.end - e.start) * scale, 0.5)
        color = _COLORS.get(e.pipe.split("+")[-1], "#cccccc")
        parts.append(
            f'<rect x="{x:.2f}" y="{y + 2}" width="{w:.2f}" height="{row_h - 4}" fill="{color}" stroke="#555" '
            f'stroke-width="0.3"><title>{escape(e.name)} [{e.start}, {e.end}) {escape(e.loc)}</title></rect>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
