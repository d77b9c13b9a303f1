"""`split-mix-kernel`: a MIX kernel becomes the `_mix_aic` / `_mix_aiv` pair bishengir expects.

A kernel that uses both the cube and the vector core (`hivm.func_core_type<MIX>`) runs
as two functions, one per core. Each part keeps the ops of its core, the ops of neither
core (scalar code, MTE2 loads, pipe barriers, and the `sync_block_set/wait` of its core)
and loses the other core's ops; what only those ops used is removed. Each part is marked
`hivm.func_core_type<AIC|AIV>`, `hivm.part_of_mix`, `mix_mode = "mix"` and takes the
FFTS base address (where cross-core flags live) as first argument,
`%ffts_base_addr: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}`, set on entry
with `hivm.hir.set_ffts_base_addr`, as bishengir's own MIX kernels do; the module
becomes `hivm.module_core_type<MIX>`.

Entry functions without `hivm.func_core_type` get it from the cores their ops use.

The pass only partitions: the cross-core flags must be there already (sync insertion
places them: `ascend-insert-barrier-sync`, or `ascend-compile`). A MIX kernel whose cube
and vector ops share a buffer without any `sync_block_set/wait` is a diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, UnitAttr, i64
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from ascend_mlir.analysis.kernel_layout import (
    FUNC_CORE_TYPE,
    KIND_OF_SIDE,
    MIX_SUFFIXES,
    core_type_attr,
    declares_mix,
    function_kind,
)
from ascend_mlir.analysis.views import VIEW_OPS, view_root
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hacc, hivm

MODULE_CORE_TYPE = "hivm.module_core_type"
PART_OF_MIX = "hivm.part_of_mix"

def op_core(op: Operation) -> str | None:
    """"CUBE" or "VECTOR" for a hivm op that runs on one core; None otherwise."""
    if isinstance(op, hivm.HivmPipeOp):
        core = op.core_type()
        return core if core in ("CUBE", "VECTOR") else None
    return None


def is_mix_entry(op: Operation) -> bool:
    return declares_mix(op)


# --------------------------------------------------------------------------------------
# core types
# --------------------------------------------------------------------------------------


def ensure_core_types(module: ModuleOp) -> None:
    """Entries without `hivm.func_core_type` get it from the cores their ops use
    (analysis.kernel_layout's kind of the function)."""
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp) and hacc.ENTRY in op.attributes and FUNC_CORE_TYPE not in op.attributes:
            op.attributes[FUNC_CORE_TYPE] = core_type_attr(function_kind(op))
            if hacc.FUNCTION_KIND not in op.attributes:
                op.attributes[hacc.FUNCTION_KIND] = hacc.FunctionKindAttr(hacc.FunctionKind.DEVICE)


# --------------------------------------------------------------------------------------
# the synchronisation check
# --------------------------------------------------------------------------------------


def _first_cross_core_dependence(func_op: func.FuncOp) -> tuple[Operation, Operation] | None:
    """A cube op and a vector op that touch one buffer (one of them writing), if any."""
    accesses = []
    for op in func_op.walk():
        core = op_core(op)
        if core is None or isinstance(op, hivm.SYNC_OPS):
            continue
        assert isinstance(op, hivm.HivmPipeOp)
        reads = frozenset(view_root(v) for v in op.memref_reads())
        writes = frozenset(view_root(v) for v in op.memref_writes())
        accesses.append((op, core, reads, writes))
    for i, (x, x_core, x_reads, x_writes) in enumerate(accesses):
        for y, y_core, y_reads, y_writes in accesses[i + 1 :]:
            if x_core != y_core and (x_writes & (y_reads | y_writes) or x_reads & y_writes):
                return x, y
    return None


def check_synchronised(func_op: func.FuncOp) -> None:
    if any(isinstance(o, (hivm.SyncBlockSetOp, hivm.SyncBlockWaitOp)) for o in func_op.walk()):
        return
    dependence = _first_cross_core_dependence(func_op)
    if dependence is not None:
        producer, consumer = dependence
        raise op_error(
            consumer,
            f"depends on '{producer.name}' of the other core but the MIX kernel has no "
            "cross-core flags: run sync insertion first (-p ascend-insert-barrier-sync, "
            "or -p ascend-compile, which also splits)",
        )


# --------------------------------------------------------------------------------------
# the two parts
# --------------------------------------------------------------------------------------


def _remove_dead_code(part: func.FuncOp) -> None:
    """What only the dropped ops used goes: xDSL's dce, by the ops' effect traits (views,
    arith, block-index queries, loops left empty), plus unused `memref.alloc`s.

    xDSL 0.75's `memref.alloc` declares its allocation effect without naming the result
    (`value=None`), so its dce cannot see that the allocation is the op's own and keeps an
    unused one (MLIR's would drop it); left in, the cube part would keep vector buffers and
    the vector part an L0C accumulator. (Also no trait in 0.75: `arith.extsi` and
    `arith.remui`, so an unused one of those stays; harmless, and no example leaves one.)
    A planned buffer (`hivm.hir.pointer_cast`, which declares no effects either) goes the
    same way: the simulator and the hardware's scalar unit spend a cycle on each, and the
    cube part of a MIX kernel would otherwise build the vector part's buffers before its
    first load.
    """
    region_dce(part.body)
    unused = [op for op in part.walk() if isinstance(op, (memref.AllocOp, hivm.PointerCastOp)) and not op.results[0].uses]
    for op in unused:
        Rewriter.erase_op(op)
    if unused:
        region_dce(part.body)  # their dynamic sizes


def _issues_nothing(op: Operation) -> bool:
    """Pure index/view arithmetic: nothing a barrier would have to wait for."""
    return isinstance(op, (*VIEW_OPS, memref.AllocOp, scf.YieldOp)) or op.dialect_name() == "arith"


def _only_barriers(op: Operation) -> bool:
    """A region op whose body issues no pipe work, only barriers and index arithmetic."""
    return not op.results and all(
        hivm.is_barrier_all(inner) or _issues_nothing(inner)
        for region in op.regions
        for inner in region.walk()
    )


def _drop_idle_barriers(block: Block, idle: bool) -> None:
    """Erase pipe_barrier[PIPE_ALL]s with nothing issued since the previous one.

    After one core's ops are removed from a MIX kernel, the other core's barriers are
    left behind around nothing (a K loop of bare barriers in the vector part). A barrier
    with no op issued since the last barrier waits for nothing, and so does a loop made
    only of such barriers; `idle` says whether that holds at the start of `block`.
    """
    for op in list(block.ops):
        if hivm.is_barrier_all(op):
            if idle:
                Rewriter.erase_op(op)
            idle = True
        elif _issues_nothing(op):
            continue
        elif idle and isinstance(op, (scf.ForOp, scf.IfOp)) and _only_barriers(op):
            Rewriter.erase_op(op)
        else:
            for region in op.regions:
                for inner in region.blocks:
                    _drop_idle_barriers(inner, False)
            idle = False


def _add_ffts_base_address(part: func.FuncOp) -> None:
    """First argument `%ffts_base_addr: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}`
    and `hivm.hir.set_ffts_base_addr` on entry, as bishengir's own MIX kernels have."""
    entry = part.body.blocks[0]
    old_attrs = list(part.arg_attrs.data) if part.arg_attrs is not None else [
        DictionaryAttr({}) for _ in entry.args
    ]
    ffts = entry.insert_arg(i64, 0)
    ffts.name_hint = "ffts_base_addr"
    part.arg_attrs = ArrayAttr([DictionaryAttr({hacc.ARG_TYPE: hacc.FFTS_BASE_ADDRESS}), *old_attrs])
    part.update_function_type()
    Rewriter.insert_op(hivm.SetFftsBaseAddrOp(ffts), InsertPoint.at_start(entry))


def core_part(func_op: func.FuncOp, keep: str) -> func.FuncOp:
    """The `_mix_aic` (keep="CUBE") or `_mix_aiv` (keep="VECTOR") part of a MIX kernel."""
    part = func_op.clone()
    drop = "VECTOR" if keep == "CUBE" else "CUBE"
    for op in reversed(list(part.walk())):
        if op_core(op) == drop:
            Rewriter.erase_op(op)
    _drop_idle_barriers(part.body.blocks[0], True)
    _remove_dead_code(part)
    part.sym_name = StringAttr(func_op.sym_name.data + MIX_SUFFIXES[keep])
    part.attributes[FUNC_CORE_TYPE] = core_type_attr(KIND_OF_SIDE[keep])
    part.attributes[PART_OF_MIX] = UnitAttr()
    part.attributes["mix_mode"] = StringAttr("mix")
    _add_ffts_base_address(part)
    return part


@dataclass(frozen=True)
class SplitMixKernelPass(ModulePass):
    """MIX kernels -> `<name>_mix_aic` + `<name>_mix_aiv` (synced already); core types."""

    name = "split-mix-kernel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ensure_core_types(op)
        mix = [f for f in op.body.block.ops if is_mix_entry(f)]
        for func_op in mix:
            assert isinstance(func_op, func.FuncOp)
            check_synchronised(func_op)
            aic, aiv = core_part(func_op, "CUBE"), core_part(func_op, "VECTOR")
            Rewriter.insert_op([aic, aiv], InsertPoint.before(func_op))
            Rewriter.erase_op(func_op)
        if mix:
            op.attributes[MODULE_CORE_TYPE] = hivm.ModuleCoreTypeAttr(hivm.ModuleCoreType.MIX)
