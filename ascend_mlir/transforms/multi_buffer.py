"""`ascend-multi-buffer`: iteration j of a loop uses version `j mod versions` of a buffer.

Interface (what this pass produces; ascend-insert-sync and the CCE route read it)
-------------------------------------------------------------------------------
Input: planned memory (ascend-plan-memory), where a multi-buffer is a pointer_cast with
one address per version, evenly spaced:

    %u = hivm.hir.pointer_cast(%c0_i64, %c2048_i64) : memref<512xf32, #hivm.address_space<ub>>

Output: the multi-address pointer_cast is gone; at the top of the body of the buffer's
loop (the innermost `scf.for` holding every use, through views) a version-indexed
single-address pointer_cast replaces it, of the same type:

    scf.for %i = %lb to %ub step %st {
      %j    = (%i - %lb) / %st                  (omitted when lb = 0, step = 1)
      %ver  = arith.remui %j, %cV : index        V = number of versions
      %v64  = arith.index_cast %ver : index to i64
      %off  = arith.muli %v64, %cSize : i64      aligned size of one version
      %addr = arith.addi %off, %cBase : i64      first version's address
      %u_v  = hivm.hir.pointer_cast(%addr) : memref<512xf32, #hivm.address_space<ub>>
      ... every use of %u in the loop now uses %u_v ...

So after ascend-plan-memory + ascend-multi-buffer (+ ascend-pipeline-loops, which clones
this arithmetic per stage with the iteration it belongs to) the IR is plain hivm: every
on-chip buffer is a pointer_cast whose address is affine in `iv mod V` (the alias
analysis of `ascend_mlir.analysis.aliasing` reads it as `Mod`). Accesses of iterations
j and j + d hit the same version exactly when `d mod V == 0`; loop-carried flags are
per version. Version counts come from the schedule and bound how far iterations may
overlap; correctness still comes only from the sync pass.

Option `hint=true` (the route where bishengir plans memory itself): instead, every
unplanned `memref.alloc` with `#ascend.buffer<versions = N>`, N > 1, gets bishengir's
multi-buffer hint right after it, `annotation.mark %buf {hivm.multi_buffer = N : i32}`,
and nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp, UnitAttr, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.analysis.latency_model import constant_int
from ascend_mlir.analysis.loop_model import buffer_loop
from ascend_mlir.diagnostics import emit_remark
from ascend_mlir.dialects import annotation, ascend, hivm

MULTI_BUFFER_HINT = "hivm.multi_buffer"


def _const(value: int, type_=None) -> arith.ConstantOp:
    t = type_ if type_ is not None else IndexType()
    op = arith.ConstantOp(IntegerAttr(value, t))
    suffix = "" if isinstance(t, IndexType) else f"_i{t.width.data}" if isinstance(t, IntegerType) else ""
    op.result.name_hint = f"c{value}{suffix}"
    return op


def _iteration_index(loop: scf.ForOp, ops: list[Operation]) -> SSAValue:
    """(iv - lb) / step, as simple as the constants allow; new ops appended to `ops`."""
    iv = loop.body.block.args[0]
    lb, step = constant_int(loop.lb), constant_int(loop.step)
    index: SSAValue = iv
    if lb != 0:
        sub = arith.SubiOp(iv, loop.lb)
        ops.append(sub)
        index = sub.result
    if step != 1:
        div = arith.DivUIOp(index, loop.step)
        ops.append(div)
        index = div.result
    return index


def _version_address(addresses: list[int], version: SSAValue, ops: list[Operation]) -> SSAValue:
    v64 = arith.IndexCastOp(version, i64)
    ops.append(v64)
    stride = addresses[1] - addresses[0]
    if all(b - a == stride for a, b in zip(addresses, addresses[1:], strict=False)):
        c_stride, c_base = _const(stride, i64), _const(addresses[0], i64)
        mul = arith.MuliOp(v64, c_stride)
        add = arith.AddiOp(mul, c_base)
        ops.extend([c_stride, c_base, mul, add])
        return add.result
    # addresses not evenly spaced (not made by ascend-plan-memory): a select chain
    result: SSAValue = (c := _const(addresses[0], i64)).result
    ops.append(c)
    for v, addr in enumerate(addresses[1:], start=1):
        cv, ca = _const(v, i64), _const(addr, i64)
        cmp = arith.CmpiOp(v64, cv, "eq")
        sel = arith.SelectOp(cmp, ca, result)
        ops.extend([cv, ca, cmp, sel])
        result = sel.result
    return result


def _index_multi_buffer(cast: hivm.PointerCastOp, rewriter: Rewriter) -> None:
    addresses = [constant_int(a) for a in cast.addrs]
    if any(a is None for a in addresses):
        emit_remark(cast, "multi-buffer with non-constant addresses left as is (version 0 is used)")
        return
    loop = buffer_loop(cast.result)
    if loop is None:
        emit_remark(cast, "multi-buffer used outside any single loop left as is (version 0 is used)")
        return
    ops: list[Operation] = []
    index = _iteration_index(loop, ops)
    versions = _const(len(addresses))
    ver = arith.RemUIOp(index, versions)
    ver.result.name_hint = "ver"
    ver.attributes[ascend.VERSION_INDEX] = UnitAttr()
    ops.extend([versions, ver])
    addr = _version_address(addresses, ver.result, ops)  # type: ignore[arg-type]
    view = hivm.PointerCastOp([addr], cast.result.type, list(cast.dynamicSizes))
    view.result.name_hint = f"{cast.result.name_hint}_v" if cast.result.name_hint else None
    ops.append(view)
    rewriter.insert_op(ops, InsertPoint.at_start(loop.body.block))
    cast.result.replace_uses_with_if(view.result, lambda use: loop.is_ancestor(use.operation))
    if not cast.result.uses:
        addr_ops = [a.owner for a in cast.addrs]
        rewriter.erase_op(cast)
        for a in addr_ops:
            if isinstance(a, Operation) and not a.results[0].uses:
                rewriter.erase_op(a)


def _add_hints(module: ModuleOp, rewriter: Rewriter) -> None:
    for op in list(module.walk()):
        if isinstance(op, memref.AllocOp) and ascend.versions_of(op) > 1:
            mark = annotation.MarkOp(op.memref, {MULTI_BUFFER_HINT: IntegerAttr(ascend.versions_of(op), i32)})
            rewriter.insert_op(mark, InsertPoint.after(op))


@dataclass(frozen=True)
class MultiBufferPass(ModulePass):
    name = "ascend-multi-buffer"

    hint: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewriter = Rewriter()
        if self.hint:
            _add_hints(op, rewriter)
            return
        for cast in [o for o in op.walk() if isinstance(o, hivm.PointerCastOp) and len(o.addrs) > 1]:
            _index_multi_buffer(cast, rewriter)
