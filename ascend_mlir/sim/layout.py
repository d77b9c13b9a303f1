"""Which cores run what: the kernel (analysis.kernel_layout answers its kind, functions
per core, vector cores and grid), its GM arguments, the buffers a split pair shares, one
core spec per simulated core. See hivm_frontend's docstring for the core model."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from ascend_mlir.analysis.kernel_layout import (
    defined_functions,
    is_kernel_function,
    layout_of_function,
    layout_of_pair,
    mix_partner,
    shared_allocs,
    split_pairs,
)
from ascend_mlir.dialects import hacc
from ascend_mlir.sim.memory import SimulationError


@dataclass
class CoreSpec:
    name: str
    kind: str  # CUBE | VECTOR
    func: func.FuncOp
    sub_block: int



@dataclass
class Kernel:
    """What runs: the functions per core type and the GM arguments."""

    aic: func.FuncOp | None
    aiv: func.FuncOp | None
    mix: bool
    vector_cores: int
    grid: int
    args: list[tuple[str, SSAValue, SSAValue | None]]  # name, arg in first func, arg in second
    # allocs of a split MIX pair that are one buffer: an alloc of the other core's memory
    # (ub in the aic function, cbuf/cc in the aiv function) -> the partner's alloc
    alloc_alias: dict[Operation, Operation] = field(default_factory=dict)


def _refuse_lone_mix_half(f: func.FuncOp, by_name: dict[str, func.FuncOp]) -> None:
    """One half of a MIX kernel without the other (bishengir-compile-a5's dump of triton's
    matmul, cut short by its abort, holds only `_mix_aiv`): the halves synchronise with each
    other through cross-core flags and share the workspace, so neither can be judged alone."""
    name = f.sym_name.data
    partner = mix_partner(name)
    if partner is not None and partner not in by_name:
        raise SimulationError(
            f, f"@{name} is one half of a MIX kernel whose other half (@{partner}) "
            "is not in this module: the halves synchronise with each other, one cannot be simulated alone")


def find_kernel(module: ModuleOp, func_name: str | None = None) -> Kernel:
    """The kernel to simulate: the split pair or kernel function named `func_name`, else
    the module's first kernel (a module of one function: that function). Its kind, cores
    and grid are analysis.kernel_layout's."""
    funcs = defined_functions(module)
    if not funcs:
        raise SimulationError(module, "the module has no function to simulate")
    pairs = split_pairs(module)
    for name, (f, g) in pairs.items():
        if func_name is not None and name != func_name:
            continue
        # the FFTS base address (split-mix-kernel, bishengir) is no data argument
        data_args = [
            (a, b) for a, b in zip(f.args, g.args, strict=True) if not hacc.is_ffts_base_address(f, a.index)
        ]
        args: list[tuple[str, SSAValue, SSAValue | None]] = [
            (f"arg{i}", a, b) for i, (a, b) in enumerate(data_args)
        ]
        layout = layout_of_pair(name, f, g)
        return Kernel(f, g, True, layout.n_vector, layout.grid, args, shared_allocs(f, g))
    by_name = {f.sym_name.data: f for f in funcs}
    if func_name is not None:
        if func_name not in by_name:
            raise SimulationError(module, f"no function named '{func_name}' (this module's functions: "
                                          + ", ".join(f"@{name}" for name in sorted(by_name)) + ")")
        f = by_name[func_name]
        entries = [g for g in funcs if is_kernel_function(g)]
        if entries and f not in entries:
            raise SimulationError(
                f, f"'{func_name}' is not a kernel (no hacc.entry): this module's kernels are "
                + ", ".join(f"@{e.sym_name.data}" for e in entries))
    else:
        entries = [f for f in funcs if is_kernel_function(f)]
        if not entries and len(funcs) > 1:
            raise SimulationError(module, "cannot tell the kernel: mark it with hacc.entry")
        f = (entries or funcs)[0]
    _refuse_lone_mix_half(f, by_name)
    layout = layout_of_function(f)
    # named as the reference and `--bind` name them: the FFTS base address is not data
    data = [a for a in f.args if not hacc.is_ffts_base_address(f, a.index)]
    args = [(f"arg{i}", a, None) for i, a in enumerate(data)]
    return Kernel(layout.aic, layout.aiv, layout.kind == "mix", layout.n_vector, layout.grid, args)


def core_specs(kernel: Kernel) -> list[CoreSpec]:
    specs = []
    if kernel.aic is not None:
        specs.append(CoreSpec("cube", "CUBE", kernel.aic, 0))
    if kernel.aiv is not None:
        n = kernel.vector_cores
        for k in range(n):
            specs.append(CoreSpec(f"vec{k}" if n > 1 or kernel.mix else "vec", "VECTOR", kernel.aiv, k))
    return specs
