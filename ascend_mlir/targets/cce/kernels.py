"""Kernel frame of the cce printer: the C functions of a module (one per kernel layout,
analysis.kernel_layout), which ops each core side prints, source locations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    FileLineColLoc,
    ModuleOp,
)
from xdsl.ir import Operation, SSAValue

from ascend_mlir.analysis.kernel_layout import KernelLayout, kernel_layouts
from ascend_mlir.dialects import hivm
from ascend_mlir.targets.cce.values import View


# the kernel's layout (kind, which function is which core, vector cores, grid) is
# answered by analysis.kernel_layout; the printer prints one C function per layout
Kernel = KernelLayout


def op_core(op: Operation) -> str:
    """"CUBE" / "VECTOR" / "SCALAR" / "BOTH": a barrier on all pipes, or on a pipe both
    cores have (MTE2, MTE3), is printed on each side that has work around it (it was
    taken for scalar code before and dropped, as nothing uses its results)."""
    if isinstance(op, hivm.PipeBarrierOp):
        core = op.core_type()
        return "BOTH" if op.stalls_issue or core == "SCALAR" else core
    if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
        return "CUBE" if "CUBE" in str(op.tcore_type) else "VECTOR"
    if isinstance(op, hivm.HivmPipeOp):
        return op.core_type()
    return "SCALAR"


def find_kernels(module: ModuleOp) -> list[Kernel]:
    return kernel_layouts(module)


def own_location(op: Operation) -> str | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}"
    return None


def source_location(op: Operation) -> str:
    """`file:line` of `op`; an op without one takes the next located op of its block (the
    op a pass inserted it for), else the previous one, else its parent's."""
    own = own_location(op)
    if own:
        return own
    block = op.parent_block()
    if block is not None:
        ops = list(block.ops)
        index = ops.index(op)
        for other in ops[index + 1:] + list(reversed(ops[:index])):
            if isinstance(other, scf.YieldOp | func.ReturnOp):
                continue
            found = own_location(other)
            if found:
                return found
    parent = op.parent_op()
    return source_location(parent) if parent is not None else "?"


def side_ops(f: func.FuncOp, side: str, single: bool) -> set[Operation]:
    """Ops of `f` printed on `side` ("CUBE"/"VECTOR"): its hivm ops plus every scalar op,
    loop and view they need. In a function that is one side only, everything is kept."""
    wanted: set[Operation] = set()
    work: list[Operation] = []
    for op in f.walk():
        if op is f or isinstance(op, scf.YieldOp | func.ReturnOp):
            continue
        core = op_core(op)
        if (single and core != "SCALAR") or core == side or (core == "BOTH" and region_has(op, side)):
            work.append(op)
        if isinstance(op, hivm.SetFftsBaseAddrOp):
            work.append(op)
    while work:
        op = work.pop()
        if op in wanted or op is f:
            continue
        wanted.add(op)
        parent = op.parent_op()
        if parent is not None and parent is not f:
            work.append(parent)
        operands = list(op.operands)
        for nested in op.walk():
            if nested is not op and nested in wanted:
                operands += nested.operands
        for value in operands:
            owner = value.owner
            if isinstance(owner, Operation) and owner not in wanted:
                work.append(owner)
    return wanted


def region_has(op: Operation, side: str) -> bool:
    """Whether the block around `op` holds any op of core `side` (a barrier on all pipes
    is printed on a side only where that side has work)."""
    block = op.parent_block()
    if block is None:
        return True
    return any(op_core(o) == side for sibling in block.ops for o in sibling.walk())


@dataclass
class Side:
    """Printing state of one core side of one kernel."""

    core: str  # "CUBE" | "VECTOR"
    func_op: func.FuncOp
    ops: set[Operation]
    exprs: dict[SSAValue, str] = field(default_factory=dict)
    views: dict[SSAValue, View] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
