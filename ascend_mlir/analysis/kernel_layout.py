"""The kernel's layout, answered once: which functions of a module are kernels, whether a
kernel is cube, vector or MIX, which function runs on which core (one MIX function on
both, or a split `<name>_mix_aic` / `<name>_mix_aiv` pair), how many vector cores of an
AI Core run its vector side, and its launch grid.

The passes (split-mix-kernel, ascend-verify-sync), the CCE printer, the simulator and
the CCE emulation harness ask this module instead of deciding it each on its own.

Rules:
* a split pair is two functions `<name>_mix_aic` and `<name>_mix_aiv` of one module; it
  is one MIX kernel named `<name>` whose cube side is the first and vector side the
  second;
* otherwise a kernel function is an entry (`hacc.entry`) or has a launch grid; its kind
  is its `hivm.func_core_type` (AIC / AIV / MIX) when it carries one, else the cores its
  hivm ops run on (`function_cores`): both -> MIX, the cube only -> cube, else vector;
* the vector side runs on both vector cores of the AI Core when the kernel splits work
  between them (`hivm.uses_both_vector_cores`: get_sub_block_idx or a dual fixpipe),
  else on one; a cube kernel has none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ascend_mlir import hardware
from ascend_mlir.dialects import ascend, hacc, hivm

MIX_SUFFIXES = {"CUBE": "_mix_aic", "VECTOR": "_mix_aiv"}
FUNC_CORE_TYPE = "hivm.func_core_type"
# a kernel function's kind <-> its `hivm.func_core_type` (a split half is AIC / AIV)
CORE_TYPE_OF_KIND = {"mix": hivm.FuncCoreType.MIX, "cube": hivm.FuncCoreType.AIC, "vector": hivm.FuncCoreType.AIV}
KIND_OF_SIDE = {"CUBE": "cube", "VECTOR": "vector"}


@dataclass(frozen=True, eq=False)
class KernelLayout:
    """One kernel: its name, kind, the function of each core side, vector cores and grid."""

    name: str
    kind: str  # "cube" | "vector" | "mix"
    aic: func.FuncOp | None
    aiv: func.FuncOp | None
    n_vector: int  # vector cores of one AI Core that run `aiv` (0 for a cube kernel)
    grid: int

    @property
    def signature_func(self) -> func.FuncOp:
        """The function whose arguments are the kernel's (the cube side's of a pair)."""
        f = self.aic or self.aiv
        assert f is not None
        return f

    @property
    def split(self) -> bool:
        """A `_mix_aic` / `_mix_aiv` pair (each side its own function)."""
        return self.aic is not None and self.aiv is not None and self.aic is not self.aiv

    @property
    def functions(self) -> list[func.FuncOp]:
        return [f for f in dict.fromkeys((self.aic, self.aiv)) if f is not None]

    @property
    def n_cube(self) -> int:
        return 1 if self.kind in ("cube", "mix") else 0

    @property
    def n_vector_cores(self) -> int:
        return 0 if self.kind == "cube" else self.n_vector

    @property
    def both_vector_cores(self) -> bool:
        """Its vector side runs on both vector cores of the AI Core (the cube then
        addresses each one's cross-core flags)."""
        return self.n_vector_cores == hardware.VECTOR_CORES_PER_CUBE


def vector_core_count(funcs: Iterable[Operation | None]) -> int:
    """Vector cores of one AI Core that run the vector side of a kernel made of `funcs`."""
    return hardware.VECTOR_CORES_PER_CUBE if hivm.uses_both_vector_cores(funcs) else 1


def function_cores(f: Operation, skip: tuple[type[Operation], ...] = ()) -> set[str]:
    """"CUBE" / "VECTOR": the cores the hivm ops of `f` run on (a barrier on all pipes
    and scalar work belong to neither), leaving out the ops of the `skip` types."""
    cores: set[str] = set()
    for op in f.walk():
        if isinstance(op, hivm.HivmPipeOp) and not isinstance(op, skip):
            core = op.core_type()
            if core in ("CUBE", "VECTOR"):
                cores.add(core)
    return cores


def declared_kind(f: func.FuncOp) -> str | None:
    """"cube" / "vector" / "mix" from `hivm.func_core_type`, None without one."""
    attr = f.attributes.get(FUNC_CORE_TYPE)
    if not isinstance(attr, hivm.FuncCoreTypeAttr):
        return None
    return {"AIC": "cube", "AIV": "vector", "MIX": "mix"}.get(str(attr.data.value))


def inferred_kind(f: Operation) -> str:
    """"cube" / "vector" / "mix" from the cores the ops of `f` run on, whatever it
    declares: both -> MIX, the cube only -> cube, else (no core op too) vector."""
    cores = function_cores(f)
    return "mix" if cores == {"CUBE", "VECTOR"} else "cube" if cores == {"CUBE"} else "vector"


def function_kind(f: func.FuncOp) -> str:
    """"cube" / "vector" / "mix" of one kernel function (not a part of a split pair)."""
    declared = declared_kind(f)
    return declared if declared is not None else inferred_kind(f)


def core_type_attr(kind: str) -> hivm.FuncCoreTypeAttr:
    """The `hivm.func_core_type` of a function of `kind` ("cube" / "vector" / "mix")."""
    return hivm.FuncCoreTypeAttr(CORE_TYPE_OF_KIND[kind])


def declares_mix(f: Operation) -> bool:
    """An entry that declares itself MIX (the kernel split-mix-kernel splits)."""
    return isinstance(f, func.FuncOp) and hacc.ENTRY in f.attributes and declared_kind(f) == "mix"


def sides_run(f: Operation) -> set[str]:
    """"CUBE" / "VECTOR": the sides of the AI Core the work of `f` runs on (its sync ops
    left out, they follow the work): the cores of its ops, the vector side where none
    (the rule of `inferred_kind`)."""
    return function_cores(f, skip=hivm.SYNC_OPS) or {"VECTOR"}


def scalar_core(f: func.FuncOp) -> str:
    """"CUBE" / "VECTOR": the core that runs the scalar work of `f` (and any memory op
    typed SCALAR): the cube for a cube function (declared AIC, or undeclared with cube
    ops only), else the vector core (a MIX function's scalar code runs on both; the sync
    passes take the vector side's as the default)."""
    declared = declared_kind(f)
    if declared in ("cube", "vector"):
        return "CUBE" if declared == "cube" else "VECTOR"
    return "CUBE" if function_cores(f) == {"CUBE"} else "VECTOR"


def mix_partner(name: str) -> str | None:
    """The other half's name of a split MIX half's name (`k_mix_aic` -> `k_mix_aiv` and
    back); None for any other name."""
    aic, aiv = MIX_SUFFIXES["CUBE"], MIX_SUFFIXES["VECTOR"]
    for suffix, other in ((aic, aiv), (aiv, aic)):
        if name.endswith(suffix):
            return name.removesuffix(suffix) + other
    return None


def is_kernel_function(f: func.FuncOp) -> bool:
    return hacc.ENTRY in f.attributes or ascend.grid_of(f) is not None


def defined_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.walk() if isinstance(op, func.FuncOp) and not op.is_declaration]


def split_pairs(module: ModuleOp) -> dict[str, tuple[func.FuncOp, func.FuncOp]]:
    """`<name>` -> (`<name>_mix_aic`, `<name>_mix_aiv`), in the module's order."""
    by_name = {f.sym_name.data: f for f in defined_functions(module)}
    aic, aiv = MIX_SUFFIXES["CUBE"], MIX_SUFFIXES["VECTOR"]
    return {name[: -len(aic)]: (f, by_name[name[: -len(aic)] + aiv])
            for name, f in by_name.items() if name.endswith(aic) and name[: -len(aic)] + aiv in by_name}


def layout_of_pair(name: str, aic: func.FuncOp, aiv: func.FuncOp) -> KernelLayout:
    return KernelLayout(name, "mix", aic, aiv, vector_core_count((aic, aiv)),
                        max(ascend.launch_grid(aic), ascend.launch_grid(aiv)))


def layout_of_function(f: func.FuncOp) -> KernelLayout:
    """The layout of `f` as a kernel of its own (not a part of a split pair)."""
    kind = function_kind(f)
    name, grid = f.sym_name.data, ascend.launch_grid(f)
    if kind == "mix":
        return KernelLayout(name, "mix", f, f, vector_core_count((f,)), grid)
    if kind == "cube":
        return KernelLayout(name, "cube", f, None, 0, grid)
    return KernelLayout(name, "vector", None, f, 1, grid)


def kernel_layouts(module: ModuleOp) -> list[KernelLayout]:
    """Every kernel of `module`: split pairs first, then each other kernel function."""
    pairs = split_pairs(module)
    paired = {f for pair in pairs.values() for f in pair}
    layouts = [layout_of_pair(name, aic, aiv) for name, (aic, aiv) in pairs.items()]
    layouts += [layout_of_function(f) for f in defined_functions(module)
                if f not in paired and is_kernel_function(f)]
    return layouts


def shared_allocs(aic: func.FuncOp, aiv: func.FuncOp) -> dict[Operation, Operation]:
    """The buffers of a split MIX pair that both cores touch (the fixpipe's ub
    destination, a ub -> cbuf copy's destination): each function allocates it, and the
    alloc of the other core's memory (ub in the aic function, cbuf/cc in the aiv one)
    maps to the partner function's alloc, which owns the buffer. split-mix-kernel keeps
    a buffer's SSA name and type, so the match is by name and type (else the first free
    alloc of that type). The simulator and plan-memory both ask this."""
    def allocs(f: func.FuncOp, scopes: frozenset[str]) -> list[Operation]:
        return [
            op for op in f.walk()
            if isinstance(op, memref.AllocOp) and hivm.scope_of(op.results[0].type) in scopes
        ]

    alias: dict[Operation, Operation] = {}
    vector, cube = hardware.CORE_SCOPES["VECTOR"], hardware.CORE_SCOPES["CUBE"]
    for mine, theirs in ((allocs(aic, vector), allocs(aiv, vector)), (allocs(aiv, cube), allocs(aic, cube))):
        free = list(theirs)
        for op in mine:
            name, t = op.results[0].name_hint, op.results[0].type
            match = next((o for o in free if o.results[0].type == t and name and o.results[0].name_hint == name), None)
            if match is None:
                match = next((o for o in free if o.results[0].type == t), None)
            if match is not None:
                alias[op] = match
                free.remove(match)
    return alias
