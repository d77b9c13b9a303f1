"""`hoist-constants`: every `arith.constant` of a function at its entry, one per value.

bishengir-compile 1.2.0 canonicalizes first; when that pass itself hoists and merges
constants out of a K loop (the mmadL1 sizes), a later pass segfaults (seen on the 910B
gemm). Handing it the canonical form avoids the crash; the IR means the same.

xDSL's `licm` and `cse` do not give this form: `licm` also moves every other invariant
op (subviews, index arithmetic) one loop level at a time, and neither moves a constant
of a straight-line block to the entry. Constants keep their first-seen order, after the
entry's `hivm.hir.set_ffts_base_addr` (a MIX part's prologue), so the pass is idempotent
on split kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.dialects import hivm


def hoist_constants(func_op: func.FuncOp) -> None:
    entry = func_op.body.blocks[0]
    seen: dict[tuple[object, object], arith.ConstantOp] = {}
    hoisted: list[arith.ConstantOp] = []
    for op in list(func_op.walk()):
        if not isinstance(op, arith.ConstantOp):
            continue
        key = (op.value, op.result.type)
        kept = seen.get(key)
        if kept is None:
            seen[key] = op
            op.detach()
            hoisted.append(op)
        else:
            op.result.replace_all_uses_with(kept.result)
            Rewriter.erase_op(op)
    if hoisted:
        prologue = [op for op in entry.ops if isinstance(op, hivm.SetFftsBaseAddrOp)]
        at = InsertPoint.after(prologue[-1]) if prologue else InsertPoint.at_start(entry)
        Rewriter.insert_op(hoisted, at)


@dataclass(frozen=True)
class HoistConstantsPass(ModulePass):
    """Constants to the function entry, one per (value, type)."""

    name = "hoist-constants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func_op in op.walk():
            if isinstance(func_op, func.FuncOp) and not func_op.is_declaration:
                hoist_constants(func_op)
