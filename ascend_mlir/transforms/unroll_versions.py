"""Unrolling a loop by its buffer-version count, for `alloc-planned-buffers`.

bishengir-compile 1.2.0 must trace every `mmadL1` operand back to one `memref.alloc`
(InferHIVMMemScope, "Cannot find root memref.alloc for mA"): a version picked by
`arith.select` is not followed there. A loop whose mmadL1 reads a multi-buffered tile is
therefore unrolled by the version count V: in copy j of the body the version index
`iv mod V` is the constant `(lb + j * step) mod V`, so every copy reads one buffer. The
iterations left over (trip count not a multiple of V) follow the loop as straight-line
copies. The order of all ops, flags included, is the loop's: the meaning is unchanged.

A loop whose upper bound is known only at run time (gemm_dyn's K loop) is unrolled the
same way when its lower bound and step are constants (the version of copy j is then
still `(lb + j * step) mod V`): the unrolled loop runs the whole groups of V iterations,
`lb` to `lb + (trips / V) * V * step`, and each of the at most V - 1 iterations left over
follows it as a copy guarded by `scf.if (its iv < ub)`.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.diagnostics import op_error


def _int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def version_counts(loop: scf.ForOp) -> list[int]:
    """The V of every `iv mod V` directly in `loop`'s body."""
    iv = loop.body.block.args[0]
    counts = []
    for op in loop.body.block.ops:
        if isinstance(op, arith.RemUIOp) and op.lhs == iv:
            count = _int(op.rhs)
            if count:
                counts.append(count)
    return counts


class _Constants:
    """Index constants at the function entry (the shape hoist-constants gives)."""

    def __init__(self, entry: Block):
        self.entry = entry
        self.made: dict[int, SSAValue] = {}
        for op in entry.ops:
            if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType):
                value = _int(op.result)
                if value is not None:
                    self.made.setdefault(value, op.result)

    def get(self, value: int) -> SSAValue:
        if value not in self.made:
            const = arith.ConstantOp(IntegerAttr(value, IndexType()))
            Rewriter.insert_op(const, InsertPoint.at_start(self.entry))
            self.made[value] = const.result
        return self.made[value]


def _copy_body(loop: scf.ForOp, iv_value: SSAValue, k_of_copy: int, consts: _Constants,
               at: InsertPoint) -> None:
    """One copy of the body (without its yield) at `at`, the loop variable being
    `iv_value` whose value modulo every version count is that of `k_of_copy`."""
    iv = loop.body.block.args[0]
    mapping: dict[SSAValue, SSAValue] = {iv: iv_value}
    copies: list[Operation] = []
    for op in loop.body.block.ops:
        if isinstance(op, scf.YieldOp):
            continue
        if isinstance(op, arith.RemUIOp) and op.lhs == iv and _int(op.rhs):
            mapping[op.result] = consts.get(k_of_copy % (_int(op.rhs) or 1))
            continue
        copies.append(op.clone(value_mapper=mapping))
    Rewriter.insert_op(copies, at)


def unroll_by_versions(loop: scf.ForOp, entry: Block) -> None:
    """Unroll `loop` by the lcm of its version counts (see the module doc)."""
    counts = version_counts(loop)
    if not counts:
        return
    lb, ub, step = _int(loop.lb), _int(loop.ub), _int(loop.step)
    if ub is None and lb is not None and step and step > 0 and not loop.res:
        _unroll_runtime_trips(loop, lb, step, math.lcm(*counts), _Constants(entry))
        return
    if lb is None or ub is None or not step or loop.res:
        raise op_error(loop, "has dynamic bounds or loop-carried values; "
                             "alloc-planned-buffers cannot unroll it by its buffer versions")
    versions = math.lcm(*counts)
    trips = max(0, -(-(ub - lb) // step))
    main = trips // versions * versions
    consts = _Constants(entry)
    if main:
        _unrolled_loop(loop, consts.get(lb), consts.get(lb + main * step), lb, step, versions, consts)
    for r in range(trips - main):
        k = lb + (main + r) * step
        _copy_body(loop, consts.get(k), k, consts, InsertPoint.before(loop))
    Rewriter.erase_op(loop)


def _unrolled_loop(loop: scf.ForOp, start: SSAValue, end: SSAValue, lb: int, step: int, versions: int,
                   consts: _Constants) -> None:
    """Before `loop`: `for kk = start to end step versions * step` of `versions` copies
    of its body (copy j at kk + j * step, of version (lb + j * step) mod V)."""
    body = Block(arg_types=[IndexType()])
    new_loop = scf.ForOp(start, end, consts.get(versions * step), [], body)
    new_loop.location = loop.location  # remarks and errors about the loop name its line
    kk = body.args[0]
    for j in range(versions):
        if j == 0:
            value = kk
        else:
            add = arith.AddiOp(kk, consts.get(j * step))
            body.add_op(add)
            value = add.result
        _copy_body(loop, value, lb + j * step, consts, InsertPoint.at_end(body))
    body.add_op(scf.YieldOp())
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))


def _unroll_runtime_trips(loop: scf.ForOp, lb: int, step: int, versions: int, consts: _Constants) -> None:
    """`loop` with a runtime upper bound unrolled by `versions` (see the module doc):
    whole groups in a loop to `lb + (trips / V) * V * step`, trips = ceil((ub - lb) /
    step) clamped at 0, then the V - 1 possible leftovers, each under `scf.if iv < ub`."""
    at = InsertPoint.before(loop)
    ops: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    trips = add(arith.MaxSIOp(add(arith.SubiOp(loop.ub, consts.get(lb))), consts.get(0)))
    if step != 1:
        trips = add(arith.DivUIOp(add(arith.AddiOp(trips, consts.get(step - 1))), consts.get(step)))
    groups = add(arith.DivUIOp(trips, consts.get(versions)))
    end = add(arith.AddiOp(consts.get(lb), add(arith.MuliOp(groups, consts.get(versions * step)))))
    Rewriter.insert_op(ops, at)
    _unrolled_loop(loop, consts.get(lb), end, lb, step, versions, consts)
    for r in range(versions - 1):
        leftover: list[Operation] = [] if r == 0 else [arith.AddiOp(end, consts.get(r * step))]
        iv = leftover[0].results[0] if leftover else end
        inside = arith.CmpiOp(iv, loop.ub, "slt")
        then = Block()
        guard = scf.IfOp(inside.result, [], Region(then))
        Rewriter.insert_op([*leftover, inside, guard], at)
        _copy_body(loop, iv, lb + r * step, consts, InsertPoint.at_end(then))
        then.add_op(scf.YieldOp())
    Rewriter.erase_op(loop)
