"""The cce printer put together: the kernel frame (functions, core sides, arenas, offsets)
over the DMA, cube, sync and vector printers, the op -> handler table, the Target.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, cast

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
)
from xdsl.ir import BlockArgument, Operation
from xdsl.utils.target import Target

from ascend_mlir.chips import chip_for_arch, resolve_chip
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import cce, hivm
from ascend_mlir.targets.cce.cube import CubePrinter
from ascend_mlir.targets.cce.dma import DmaPrinter
from ascend_mlir.targets.cce.kernels import Kernel, Side, find_kernels, side_ops
from ascend_mlir.targets.cce.prepared import check_prepared
from ascend_mlir.targets.cce.values import (
    ARENA_NAME,
    SCOPE_QUALIFIER,
    View,
    c_element_type,
    identifier,
    memref_of,
    argument_strides,
    stride_parameters,
    unique,
)
from ascend_mlir.targets.cce.vector import VECTOR_KIND, VectorPrinter


class CcePrinter(DmaPrinter, CubePrinter, VectorPrinter):
    def print_copy(self, op: hivm.CopyOp) -> None:
        """ub -> cbuf is a DMA, ub -> ub a vector copy."""
        src, dst = self.view(op.src), self.view(op.dst)
        if op.pad_value is not None:
            raise op_error(op, "padded copies are not printed")
        if (src.scope, dst.scope) == ("ub", "cbuf"):
            self.ub_to_l1(op, src, dst)
        elif (src.scope, dst.scope) == ("ub", "ub"):
            self.vector_call(op, "copy", [dst, src], [])
        else:
            raise op_error(op, f"a {src.scope} -> {dst.scope} copy is not printed")

    def print_module(self) -> str:
        kernels = find_kernels(self.module)
        self.lines = []
        for kernel in kernels:
            self.lines.append("")
            self.print_kernel(kernel)
        header = [
            f"// CCE / Ascend C for {self.arch}, printed by ascend-mlir (-t cce{{arch={self.arch}}}).",
            '#include "kernel_operator.h"',
        ]
        for helper in self.helpers.values():  # the __simd_vf__ functions the kernels call
            header += [""] + helper
        return "\n".join(header + self.lines) + "\n"

    def print_kernel(self, kernel: Kernel) -> None:
        self.kernel = kernel
        f = kernel.signature_func
        arg_names = self.argument_names(f)
        params = ", ".join([self.parameter(a, n) for a, n in zip(f.args, arg_names, strict=True)]
                           + [f"int64_t {name}" for _, _, name in stride_parameters(f.args, arg_names)])
        self.open(f'extern "C" __global__ {self.kernel_attribute(kernel)} void {kernel.name}({params})', f)
        if self.a5:
            self.line("asc_init();", f)
        else:
            task = {"cube": "KERNEL_TYPE_AIC_ONLY", "vector": "KERNEL_TYPE_AIV_ONLY"}.get(
                kernel.kind, f"KERNEL_TYPE_MIX_AIC_1_{kernel.n_vector}")
            self.line(f"KERNEL_TASK_TYPE_DEFAULT({task});", f)
        if kernel.kind == "mix":
            for core, fn in (("CUBE", kernel.aic), ("VECTOR", kernel.aiv)):
                assert fn is not None
                guard = ("ASC_IS_AIC" if core == "CUBE" else "ASC_IS_AIV") if self.a5 else (
                    "ASCEND_IS_AIC" if core == "CUBE" else "ASCEND_IS_AIV")
                self.open(f"if {guard}")
                self.print_side(core, fn, single=kernel.aic is not kernel.aiv)
                self.close()
        else:
            fn = kernel.aic or kernel.aiv
            assert fn is not None
            self.print_side("CUBE" if kernel.kind == "cube" else "VECTOR", fn, single=True)
        self.close()

    def kernel_attribute(self, kernel: Kernel) -> str:
        if not self.a5:
            return "__aicore__"
        return {"cube": "__cube__", "vector": "__vector__"}.get(kernel.kind, f"__mix__(1, {kernel.n_vector})")

    def argument_names(self, f: func.FuncOp) -> list[str]:
        used: set[str] = set()
        names = []
        for i, a in enumerate(f.args):
            names.append(unique(identifier(a.name_hint or f"arg{i}"), used))
        return names

    def runtime_pitches(self, f: func.FuncOp) -> dict[int, dict[int, str]]:
        """Per argument index, the C names of its runtime row pitches (dimension -> name)."""
        pitches: dict[int, dict[int, str]] = {}
        for index, dim, name in stride_parameters(f.args, self.argument_names(f)):
            pitches.setdefault(index, {})[dim] = name
        return pitches

    def parameter(self, arg: BlockArgument, name: str) -> str:
        t = arg.type
        if isinstance(t, MemRefType):
            scope = hivm.scope_of(t) or "gm"
            return f"{SCOPE_QUALIFIER[scope]} {c_element_type(t.get_element_type())} *{name}"
        return f"{c_element_type(t)} {name}"

    def print_side(self, core: str, fn: func.FuncOp, single: bool) -> None:
        side = Side(core, fn, side_ops(fn, core, single))
        self.side = side
        kernel_fn = self.kernel.signature_func if self.kernel else fn
        pitches = self.runtime_pitches(kernel_fn)
        for i, (a, name) in enumerate(zip(fn.args, self.argument_names(kernel_fn), strict=True)):
            side.names.add(name)
            side.exprs[a] = name
            if isinstance(a.type, MemRefType):
                t = memref_of(a)
                side.views[a] = View(name, tuple(t.get_shape()), argument_strides(t, pitches.get(i, {})),
                                     t.get_element_type(), hivm.scope_of(t) or "gm")
        side.names.update(name for names in pitches.values() for name in names.values())
        self.print_arenas(side)
        if not self.a5 and core == "VECTOR" and any(
                isinstance(op, hivm.VECTOR_OPS + (hivm.CopyOp,)) for op in side.ops):
            self.line("set_mask_count();", fn)
        self.print_block(fn.body.block)

    def print_arenas(self, side: Side) -> None:
        scopes = []
        for op in side.func_op.walk():
            if op in side.ops and isinstance(op, memref.AllocOp | hivm.PointerCastOp):
                scope = hivm.scope_of(op.results[0])
                if scope and scope not in scopes and scope != "gm":
                    scopes.append(scope)
        for scope in sorted(scopes, key=list(ARENA_NAME).index):
            q = SCOPE_QUALIFIER[scope]
            self.line(f"{q} uint8_t *{ARENA_NAME[scope]} = ({q} uint8_t *)0;", side.func_op)
            side.names.add(ARENA_NAME[scope])


HANDLERS: dict[type[Operation], Callable[[CcePrinter, Operation], None]] = {
    scf.ForOp: lambda p, op: p.print_for(cast(scf.ForOp, op)),
    scf.IfOp: lambda p, op: p.print_if(cast(scf.IfOp, op)),
    memref.SubviewOp: lambda p, op: p.print_subview(cast(memref.SubviewOp, op)),
    memref.CastOp: CcePrinter.print_view_alias,
    memref.MemorySpaceCastOp: CcePrinter.print_view_alias,
    memref.CollapseShapeOp: CcePrinter.print_view_alias,
    memref.ExpandShapeOp: CcePrinter.print_view_alias,
    hivm.PointerCastOp: lambda p, op: p.print_pointer_cast(cast(hivm.PointerCastOp, op)),
    hivm.GetBlockIdxOp: CcePrinter.print_block_query,
    hivm.GetBlockNumOp: CcePrinter.print_block_query,
    hivm.GetSubBlockIdxOp: CcePrinter.print_block_query,
    hivm.LoadOp: lambda p, op: p.print_load(cast(hivm.LoadOp, op)),
    hivm.StoreOp: lambda p, op: p.print_store(cast(hivm.StoreOp, op)),
    hivm.Nd2NzOp: lambda p, op: p.print_nd2nz(cast(hivm.Nd2NzOp, op)),
    hivm.CopyOp: lambda p, op: p.print_copy(cast(hivm.CopyOp, op)),
    hivm.FixpipeOp: lambda p, op: p.print_fixpipe(cast(hivm.FixpipeOp, op)),
    cce.LoadL0AOp: lambda p, op: p.print_load_l0a(cast(cce.LoadL0AOp, op)),
    cce.LoadL0BOp: lambda p, op: p.print_load_l0b(cast(cce.LoadL0BOp, op)),
    cce.MmadOp: lambda p, op: p.print_mmad_l0(cast(cce.MmadOp, op)),
    cce.RepeatBlocksOp: lambda p, op: p.print_repeat_blocks(cast(cce.RepeatBlocksOp, op)),
    hivm.SetFlagOp: lambda p, op: p.print_flag(cast(hivm.SetFlagOp, op)),
    hivm.WaitFlagOp: lambda p, op: p.print_flag(cast(hivm.WaitFlagOp, op)),
    hivm.PipeBarrierOp: lambda p, op: p.print_barrier(cast(hivm.PipeBarrierOp, op)),
    hivm.SyncBlockSetOp: lambda p, op: p.print_sync_block(cast(hivm.SyncBlockSetOp, op)),
    hivm.SyncBlockWaitOp: lambda p, op: p.print_sync_block(cast(hivm.SyncBlockWaitOp, op)),
    hivm.SetFftsBaseAddrOp: lambda p, op: p.print_ffts(cast(hivm.SetFftsBaseAddrOp, op)),
    hivm.VBrcOp: lambda p, op: p.print_brc(cast(hivm.VBrcOp, op)),
    hivm.VReduceOp: lambda p, op: p.print_reduce(cast(hivm.VReduceOp, op)),
    **{t: CcePrinter.print_elementwise for t in VECTOR_KIND},
}


# ops printed with operands of runtime size (counts as C expressions)
RUNTIME_SIZE_OPS = frozenset({hivm.LoadOp, hivm.StoreOp, hivm.CopyOp, hivm.VReduceOp, hivm.VBrcOp, *VECTOR_KIND,
                              hivm.Nd2NzOp, hivm.FixpipeOp, cce.LoadL0AOp, cce.LoadL0BOp, cce.MmadOp,
                              cce.RepeatBlocksOp})
CcePrinter.handlers = HANDLERS
CcePrinter.runtime_size_ops = RUNTIME_SIZE_OPS


def default_arch(module: ModuleOp) -> str:
    return resolve_chip(module).arch


def print_cce(module: ModuleOp, arch: str | None = None, chip_file: str | None = None) -> str:
    """The CCE translation unit of `module` (hivm level) for `arch` (default: its chip's);
    `chip_file` names the chip when the module's `hacc.target` does not (a chip file that
    extends a known chip keeps that chip's target name)."""
    synced_for = resolve_chip(module, None, chip_file)
    chip = synced_for if arch in (None, synced_for.arch) else chip_for_arch(arch)  # the chip printed for
    # lowered, planned and synced for the chip printed for (its same-pipe rule: IR synced
    # for the 950 lacks the 910B's V barriers), or a located refusal
    check_prepared(module, chip, synced_for)
    printer = CcePrinter(arch or chip.arch, module, chip)
    try:
        return printer.print_module()
    except ValueError as err:
        raise ValueError(f"cce: {err}") from err


@dataclass(frozen=True)
class CceTarget(Target):
    """`-t cce{arch=dav-3510|dav-c220 chip-file=<path>}`."""

    name = "cce"
    arch: str | None = None
    chip_file: str | None = None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(print_cce(module, self.arch, self.chip_file))
