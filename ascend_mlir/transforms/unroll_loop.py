"""Unrolling a scheduled loop by the factor U its schedule chose (issue 18 item 2), for
`ascend-modulo-schedule` (which chooses U, scheduling/unroll.py) before
`ascend-pipeline-loops` realises the schedule of the unrolled body.

    scf.for %i = %lb to %ub step %s { body(%i) }

becomes

    scf.for %i = %lb to %main_ub step U*%s {       ascend.unroll = U
      body_0(%i)  body_1(%i + %s) ... body_{U-1}(%i + (U-1)*%s)
    }
    scf.for %i = %main_ub to %ub step %s { body(%i) }     (the remainder, when any)

with `%main_ub = lb + floor(N / U) * U * s` (N the trip count; computed at run time when
the bounds are not constants). Copy c of the body uses its own copy of every buffer whose
versions follow the loop (`buffers`: a fresh `memref.alloc` beside the original), so the U
iterations of one pass do not wait for each other; the others (an accumulator, a buffer
used beyond the loop) stay shared and their dependences order the copies. The remainder
loop keeps the original buffers (copy 0 keeps them too when there is no remainder).
Only loops whose body is straight-line hivm work and index arithmetic with a constant
positive step are unrolled (`why_not_unrollable`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.analysis.latency_model import constant_int, op_pipes
from ascend_mlir.analysis.views import enclosing_function
from ascend_mlir.dialects import ascend, hivm
from ascend_mlir.transforms.pipeline_loops import index_constant, is_pipelinable_body_op


def why_not_unrollable(loop: scf.ForOp, u: int) -> str | None:
    """Why `loop` is not unrolled by `u` (None: it may be)."""
    if loop.results or loop.iter_args:
        return "it has loop-carried values"
    step = constant_int(loop.step)
    if step is None or step <= 0:
        return "its step is not a positive constant"
    for op in loop.body.block.ops:
        if isinstance(op, scf.YieldOp):
            continue
        if op.regions:
            return "its body holds a loop or a branch"
        if isinstance(op, hivm.MmadL1Op):
            # peel-mmad-init and the L0 lowering take a K loop of one mmadL1
            return "it is a K loop"
        if not is_pipelinable_body_op(op):
            return f"{op.name} in its body cannot be re-evaluated per iteration"
    if not any(op_pipes(op) for op in loop.body.block.ops):
        return "it has no pipe work"
    lb, ub = constant_int(loop.lb), constant_int(loop.ub)
    if lb is not None and ub is not None and -(-(ub - lb) // step) < u:
        return f"it runs fewer than {u} iterations"
    return None


def _main_bound(loop: scf.ForOp, u: int, step: int, ops: list[Operation]) -> tuple[SSAValue, bool]:
    """The unrolled loop's upper bound and whether a remainder loop follows."""
    lb, ub = constant_int(loop.lb), constant_int(loop.ub)
    if lb is not None and ub is not None:
        count = max(0, -(-(ub - lb) // step))
        if count % u == 0:
            return loop.ub, False
        return index_constant(ops, lb + count // u * u * step), True
    # N = ceil(max(ub - lb, 0) / s); main_ub = lb + (N / U) * U * s, with N / U computed
    # as (max(ub - lb, 0) + s - 1) / (s U) (floor(floor(a / s) / U) = floor(a / (s U)) for
    # a >= 0: one division fewer on the scalar unit's path to the first load)
    span = arith.SubiOp(loop.ub, loop.lb)
    positive = arith.MaxSIOp(span.result, index_constant(ops, 0))
    ops.extend([span, positive])
    trips: SSAValue = positive.result
    if step != 1:
        padded = arith.AddiOp(trips, index_constant(ops, step - 1))
        ops.append(padded)
        trips = padded.result
    groups = arith.DivUIOp(trips, index_constant(ops, u * step))
    width = arith.MuliOp(groups.result, index_constant(ops, u * step))
    main_ub = arith.AddiOp(loop.lb, width.result)
    ops.extend([groups, width, main_ub])
    main_ub.result.name_hint = "unrolled_ub"
    return main_ub.result, True


def _buffer_copies(buffers: Sequence[SSAValue], u: int, fresh_first: bool) -> list[dict[SSAValue, SSAValue]]:
    """Per copy of the body, the buffer each original buffer becomes (new allocs follow
    the original's, in copy order)."""
    copies: list[dict[SSAValue, SSAValue]] = [{} for _ in range(u)]
    for k, buf in enumerate(buffers):
        alloc = buf.owner
        if not isinstance(alloc, memref.AllocOp):
            continue
        last: Operation = alloc
        # buffer names are the loop model's keys: unnamed buffers' copies were all
        # `buf_u1` ("buffer 'buf_u1' is declared twice" for three allocs on one line)
        base = buf.name_hint or f"buf{k}"
        for c in range(0 if fresh_first else 1, u):
            clone = alloc.clone()
            clone.attributes.pop(ascend.BUFFER, None)
            Rewriter.insert_op(clone, InsertPoint.after(last))
            clone.results[0].name_hint = f"{base}_u{c}"
            copies[c][buf] = clone.results[0]
            last = clone
    return copies


def unroll_loop(loop: scf.ForOp, u: int, buffers: Sequence[SSAValue]) -> tuple[scf.ForOp, scf.ForOp | None]:
    """Unroll `loop` (which `why_not_unrollable` accepts) by `u`; returns the unrolled loop
    and the remainder loop (None when the trip count is a multiple of `u`). `loop` itself
    becomes the remainder, or is erased."""
    step = constant_int(loop.step)
    assert step is not None and step > 0 and u > 1
    before: list[Operation] = []
    main_ub, remainder = _main_bound(loop, u, step, before)
    buffer_maps = _buffer_copies(buffers, u, fresh_first=remainder)

    block = Block(arg_types=[IndexType()])
    iv = block.args[0]
    old_iv = loop.body.block.args[0]
    iv.name_hint = old_iv.name_hint
    body: list[Operation] = []
    for c in range(u):
        mapper: dict[SSAValue, SSAValue] = dict(buffer_maps[c])
        if c == 0:
            mapper[old_iv] = iv
        else:
            add = arith.AddiOp(iv, index_constant(body, c * step))
            add.result.name_hint = f"{old_iv.name_hint or 'iv'}_{c}"
            body.append(add)
            mapper[old_iv] = add.result
        for op in loop.body.block.ops:
            if not isinstance(op, scf.YieldOp):
                body.append(op.clone(value_mapper=mapper))
    body.append(scf.YieldOp())
    block.add_ops(body)
    main = scf.ForOp(loop.lb, main_ub, index_constant(before, u * step), [], Region(block))
    main.location = loop.location  # remarks and errors about the loop name its line
    for name, attr in loop.attributes.items():
        main.attributes[name] = attr
    ascend.set_unroll(main, u)
    Rewriter.insert_op([*before, main], InsertPoint.before(loop))
    if not remainder:
        Rewriter.erase_op(loop)
        return main, None
    loop.operands = [main_ub, loop.ub, loop.step, *loop.iter_args]
    return main, loop


def unrolled_copy(loop: scf.ForOp, u: int, buffers: Sequence[SSAValue]) -> tuple[scf.ForOp, scf.ForOp | None]:
    """`unroll_loop(loop, u, buffers)` on a detached copy of the function that holds
    `loop`, which stays as it is: ascend-modulo-schedule compares the unrolled code as it
    would be written with the loop's own before it unrolls (a copy of the loop alone
    beside it would share its buffers, which the loop model then takes for buffers used
    beyond the loop)."""
    function = enclosing_function(loop)
    assert function is not None
    ops = list(function.walk())
    copied = list(function.clone().walk())
    position = {id(op): i for i, op in enumerate(ops)}

    def copy_of(value: SSAValue) -> SSAValue:
        owner = value.owner
        assert isinstance(owner, Operation)
        return copied[position[id(owner)]].results[owner.results.index(value)]

    copy = copied[position[id(loop)]]
    assert isinstance(copy, scf.ForOp)
    return unroll_loop(copy, u, [copy_of(b) for b in buffers])
