"""The ops `ascend-insert-sync` reads and writes, one at a time: pipe names qualified by
core (a MIX kernel's model keeps the cores apart), the model events of the sync ops
already in a block, the dynamic event id of a flag that cycles through versions, a
cross-core flag's ops, and which blocks' flags found no event id (on the pass's planned
flags: (plan, flag) pairs), and which cores run a function and what its blocks are called."""

from __future__ import annotations

from typing import Any

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from ascend_mlir.analysis.kernel_layout import function_cores
from ascend_mlir.analysis.loop_model import loop_name
from ascend_mlir.analysis.views import affine_of, loop_bounds
from ascend_mlir.dialects import hivm


def qualified(core: str, pipe: str) -> str:
    """A pipe of one core ("VECTOR:V"): the model keeps the cores of a MIX kernel apart."""
    return f"{core}:{pipe}"


def core_of(q: str) -> str:
    return q.split(":")[0]


def pipe_of(q: str) -> str:
    return q.split(":")[1]


def op_core(op: Operation, default_core: str) -> str:
    core = op.core_type() if isinstance(op, hivm.HivmPipeOp) else "SCALAR"
    return default_core if core == "SCALAR" else core


def existing_event(op: Operation, loop: Operation | None, cores: tuple[str, ...]):
    """The model event(s) of a sync op already in the block (None for other ops)."""
    if isinstance(op, hivm.PipeBarrierOp):
        name = op.pipe.pipe_name
        if op.stalls_issue:
            return lambda copy: [("barrier", f"ALL:{c}:") for c in cores]
        return lambda copy: [("barrier", qualified(c, name)) for c in cores]
    if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
        kind = "set" if isinstance(op, hivm.SyncBlockSetOp) else "wait"
        setter = op.core_type() if kind == "set" else other_core(op.core_type())
        pipes = (qualified(setter, op.tpipe.pipe_name), qualified(other_core(setter), op.pipe.pipe_name))
        block_key = ("block", op.flag_id if op.flag_id is not None else id(op))
        return lambda copy: [(kind, *pipes, block_key)]
    if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp):
        kind = "set" if isinstance(op, hivm.SetFlagOp) else "wait"
        core = op_core(op, cores[0])
        pipes = (qualified(core, op.set_pipe.pipe_name), qualified(core, op.wait_pipe.pipe_name))
        if op.event_id is not None:
            static = op.event_id
            return lambda copy: [(kind, *pipes, ("input", static))]
        dynamic = affine_of(op.dynamic_event_id) if op.dynamic_event_id is not None else None

        def key(copy: int):
            value = event_in_copy(dynamic, loop, copy) if dynamic is not None else None
            return ("input", value) if value is not None else ("input", id(op), copy)

        return lambda copy: [(kind, *pipes, key(copy))]
    return None


def other_core(core: str) -> str:
    return "VECTOR" if core == "CUBE" else "CUBE"


def event_in_copy(event, loop: Operation | None, copy: int) -> int | None:
    """The value of a dynamic event id in pass `copy` over the loop body (None if not
    computable: then it matches nothing, which is conservative)."""
    if not isinstance(loop, scf.ForOp):
        return event.const if event.is_constant else None
    lb, _, step = loop_bounds(loop)
    if step is None:
        return None
    if lb is not None:
        return evaluate(event, loop.body.block.args[0], lb + copy * step)
    # a runtime start (a remainder loop after an unrolled one): the id of a version flag
    # counts passes, (iv - lb) / step, in which the start cancels
    start = affine_of(loop.lb) + copy * step
    value = event.bind({loop.body.block.args[0]: start})
    return value.const if value.is_constant else None


def first_pass_event(op: hivm.SetFlagOp | hivm.WaitFlagOp, loop: Operation | None) -> int | None:
    """The event id a flag op of `loop`'s body uses in the loop's first pass: its static
    id, or its dynamic id (a version or ring id, `version_event`) at the loop's start
    (None when that is not a known constant)."""
    if op.event_id is not None:
        return op.event_id
    if op.dynamic_event_id is None:
        return None
    return event_in_copy(affine_of(op.dynamic_event_id), loop, 0)


def evaluate(expr, sym, value: int) -> int | None:
    from ascend_mlir.analysis.aliasing import FloorDiv, Mod

    total = expr.const
    for k, c in expr.terms:
        if k is sym:
            total += c * value
        elif isinstance(k, Mod | FloorDiv):
            inner = evaluate(k.expr, sym, value)
            if inner is None:
                return None
            total += c * (inner % k.modulus if isinstance(k, Mod) else inner // k.modulus)
        else:
            return None
    return total


def constant(builder: Builder, value: int, t=None) -> SSAValue:
    return builder.insert(arith.ConstantOp(IntegerAttr(value, t or IndexType()))).result


def version_event(loop: scf.ForOp, period: int, first: int, shift: int = 0) -> SSAValue:
    """`first + ((iv - lb) / step + shift) mod period` as an i64, at the top of the loop
    body (shift = period - d: the version of the pass d before)."""
    block = loop.body.block
    first_op = block.first_op
    assert first_op is not None
    builder = Builder(InsertPoint.before(first_op))
    index = loop.body.block.args[0]
    lb, _, step = loop_bounds(loop)
    if lb != 0:
        index = builder.insert(arith.SubiOp(index, loop.lb)).result
    if step != 1:
        index = builder.insert(arith.DivUIOp(index, loop.step)).result
    if shift:
        index = builder.insert(arith.AddiOp(index, constant(builder, shift))).result
    version = builder.insert(arith.RemUIOp(index, constant(builder, period))).result
    event = builder.insert(arith.IndexCastOp(version, i64)).result
    if first:
        event = builder.insert(arith.AddiOp(event, constant(builder, first, i64))).result
    return event


def emit_block_flag(f: Any, src_op: Operation, dst_op: Operation, loop: Operation | None) -> None:
    """sync_block_set on the producer's core, sync_block_wait on the consumer's; a
    loop-carried one is primed with `distance` sets (the flags count) and drained."""
    assert f.first_id is not None
    set_core, wait_core = core_of(f.set_pipe), core_of(f.wait_pipe)
    set_pipe, wait_pipe = pipe_of(f.set_pipe), pipe_of(f.wait_pipe)

    def block_set() -> Operation:
        return hivm.SyncBlockSetOp(set_core, set_pipe, wait_pipe, f.first_id or 0)

    def block_wait() -> Operation:
        return hivm.SyncBlockWaitOp(wait_core, set_pipe, wait_pipe, f.first_id or 0)

    Builder(InsertPoint.after(src_op)).insert(block_set())
    Builder(InsertPoint.before(dst_op)).insert(block_wait())
    if f.distance and isinstance(loop, scf.ForOp):
        for _ in range(f.distance):
            Builder(InsertPoint.before(loop)).insert(block_set())
            Builder(InsertPoint.after(loop)).insert(block_wait())


def short_pairs(flags: list[tuple[Any, Any]]) -> dict[Block, list[tuple[str, str]]]:
    """The blocks with flags that found no event id, and their pipe pairs (in order)."""
    short: dict[Block, list[tuple[str, str]]] = {}
    for plan, f in flags:
        pairs = short.setdefault(plan.block, []) if f.first_id is None and not f.cross_core else []
        if f.first_id is None and not f.cross_core and (f.set_pipe, f.wait_pipe) not in pairs:
            pairs.append((f.set_pipe, f.wait_pipe))
    return short


def needed_ids(flags: list[tuple[Any, Any]]) -> dict[tuple, int]:
    """What each short pair of a block would need (its remark says so)."""
    held: dict[tuple, set[int]] = {}
    missing: dict[tuple, int] = {}
    for plan, f in flags:
        key = (plan.block, f.set_pipe, f.wait_pipe)
        if f.cross_core:
            continue
        if f.first_id is None:
            missing[key] = missing.get(key, 0) + f.period
        else:
            held.setdefault(key, set()).update(range(f.first_id, f.first_id + f.period))
    return {key: len(held.get(key, ())) + n for key, n in missing.items()}


def id_ranges(ids: set[int]) -> str:
    """Event ids as runs: {0, 1, 2, 5} -> "0-2, 5"."""
    runs: list[list[int]] = []
    for v in sorted(ids):
        if runs and runs[-1][1] == v - 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in runs)


def block_depth(block: Block) -> int:
    """How many ops enclose `block`."""
    depth, op = 0, block.parent_op()
    while op is not None:
        depth, op = depth + 1, op.parent_op()
    return depth


def block_name(block: Block) -> str:
    """`loop <function>.<iv>` for a loop body, `function <name>` for a function body."""
    op = block.parent_op()
    while op is not None and not isinstance(op, scf.ForOp | func.FuncOp):
        op = op.parent_op()
    if isinstance(op, scf.ForOp):
        return f"loop {loop_name(op, 0)}"
    return f"function {op.sym_name.data}" if isinstance(op, func.FuncOp) else "block"


def cores_running(func_op: func.FuncOp, first: str) -> tuple[str, ...]:
    """The cores running the function, the default (SCALAR ops') core `first`."""
    others = sorted(function_cores(func_op) - {first})
    return (first, *others)
