"""Kernel frame of the cce printer: which C functions a module prints (cube, vector, MIX
and which IR function is which core), which ops each core side prints, source locations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    FileLineColLoc,
    ModuleOp,
)
from xdsl.ir import Operation, SSAValue

from ascend_mlir import hardware
from ascend_mlir.dialects import ascend, hacc, hivm
from ascend_mlir.targets.cce.values import View


@dataclass
class Kernel:
    """One C function: its name, the IR functions of its sides and its launch shape."""

    name: str
    kind: str  # "cube" | "vector" | "mix"
    aic: func.FuncOp | None
    aiv: func.FuncOp | None
    n_vector: int
    grid: int

    @property
    def signature_func(self) -> func.FuncOp:
        f = self.aic or self.aiv
        assert f is not None
        return f

    @property
    def n_cube(self) -> int:
        return 1 if self.kind in ("cube", "mix") else 0

    @property
    def n_vector_cores(self) -> int:
        return 0 if self.kind == "cube" else self.n_vector


def op_core(op: Operation) -> str:
    """"CUBE" / "VECTOR" / "SCALAR" / "BOTH" (barriers on all pipes)."""
    if isinstance(op, hivm.PipeBarrierOp):
        return "BOTH" if op.stalls_issue else op.core_type()
    if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
        return "CUBE" if "CUBE" in str(op.tcore_type) else "VECTOR"
    if isinstance(op, hivm.HivmPipeOp):
        return op.core_type()
    return "SCALAR"


def vector_cores(*funcs: func.FuncOp) -> int:
    return hardware.VECTOR_CORES_PER_CUBE if hivm.uses_both_vector_cores(funcs) else 1


def find_kernels(module: ModuleOp) -> list[Kernel]:
    funcs = [op for op in module.walk() if isinstance(op, func.FuncOp) and not op.is_declaration]
    by_name = {f.sym_name.data: f for f in funcs}
    kernels: list[Kernel] = []
    paired: set[str] = set()
    for name, f in by_name.items():
        if name.endswith("_mix_aic") and name[: -len("_mix_aic")] + "_mix_aiv" in by_name:
            base = name[: -len("_mix_aic")]
            g = by_name[base + "_mix_aiv"]
            paired |= {name, base + "_mix_aiv"}
            n_vec = vector_cores(f, g)
            kernels.append(Kernel(base, "mix", f, g, n_vec, max(ascend.launch_grid(f), ascend.launch_grid(g))))
    for name, f in by_name.items():
        if name in paired or not (hacc.ENTRY in f.attributes or ascend.grid_of(f) is not None):
            continue
        cores = {op_core(op) for op in f.walk()}
        text = str(f.attributes.get("hivm.func_core_type", ""))
        if "MIX" in text or {"CUBE", "VECTOR"} <= cores:
            kernels.append(Kernel(name, "mix", f, f, vector_cores(f), ascend.launch_grid(f)))
        elif "AIC" in text or "CUBE" in cores:
            kernels.append(Kernel(name, "cube", f, None, 0, ascend.launch_grid(f)))
        else:
            kernels.append(Kernel(name, "vector", None, f, 1, ascend.launch_grid(f)))
    return kernels


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
