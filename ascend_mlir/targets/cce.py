"""`-t cce{arch=dav-3510|dav-c220}`: scheduled, synced hivm-level IR -> one CCE / Ascend C
translation unit per module.

`arch=dav-3510` (Ascend 950, the default for ascend950 modules) prints the `asc_*` C API
that TileLang's Ascend 950 backend prints (the anchor; see reference/cce-api.md);
`arch=dav-c220` (Ascend 910B) prints the classic intrinsics (`copy_gm_to_ubuf_align_b32`,
`load_cbuf_to_ca`, `mad`, `copy_matrix_cc_to_gm`, `set_flag(PIPE_MTE2, PIPE_V,
EVENT_ID0)`, ...). Without `arch`, the module's chip (`hacc.target`) decides. The output
is compiled by `bisheng` on a CANN machine and, here, by g++ against tools/cce-emu.

What the printer prints (it only prints; it never changes the IR):

* one `extern "C" __global__` function per kernel: `__cube__` / `__vector__` /
  `__mix__(1, V)` (dav-c220: `__aicore__` + `KERNEL_TASK_TYPE_DEFAULT`). A MIX kernel is
  one function with `if ASC_IS_AIC { ... }` and `if ASC_IS_AIV { ... }` (dav-c220:
  `ASCEND_IS_AIC/AIV`), whether the IR is one MIX function (each side keeps the hivm ops
  of its core, plus the scalar code they need) or a `<name>_mix_aic` / `<name>_mix_aiv`
  pair (each side is its function). V is 2 when the kernel uses a dual fixpipe or the
  sub-block index, else 1 (the simulator's rule).
* memory: one byte arena per on-chip scope (`__ubuf__ uint8_t *ub_buf = (__ubuf__
  uint8_t *)0;`), every buffer a typed pointer at its offset. `hivm.hir.pointer_cast`
  prints its planned offset (an expression when the offset depends on the loop, as
  version-indexed buffers do); a `memref.alloc` that plan-memory has not placed yet gets
  the next free offset of its scope (chip alignment), in IR order, the same on every core.
* scalar code: arith as C expressions, `scf.for` / `scf.if` as loops and ifs, subviews as
  pointer arithmetic from the memref strides.
* DMA: the call of the copy path with nBurst / burstLen / strides from the memref layouts
  (dav-3510 lengths and strides in bytes; dav-c220 GM side in bytes, UB side in 32-byte
  blocks), nd2nz with its parameter call, fixpipe with nz2nd to GM or UB (dual
  destination when the UB tile is half as tall), UB -> L1 as one strided burst copy per
  32-byte column block (that is how ND rows become NZ fractals).
* `hivm.hir.mmadL1` expanded into L1 -> L0A / L0B copies and `asc_mmad` over K steps
  that fit half of L0A / L0B, the halves used ping-pong; `init` is the zero-C flag of
  the first step. Transposed operands (`b_transpose`: B^T stored N x K, the anchor's own
  GEMM; `a_transpose`: A^T stored K x M) come to L1 with the same nd2nz as any operand,
  as the anchor loads its B^T tile (rows of the stored matrix are the NZ rows; no
  `dn2nz`, which would need the source read column-wise); the L1 -> L0 load fixes the
  orientation as the real API splits it: conventional A B is `asc_copy_l12l0a` +
  `asc_copy_l12l0b_transpose`, B^T takes the plain `asc_copy_l12l0b`, A^T
  `asc_copy_l12l0a_transpose` (dav-c220: load2d's transpose flag likewise). The expansion's own flags use **reserved event ids**: MTE1 -> M and
  M -> MTE1 events `reserved_cube_events(chip)`, the chip's last two (6 and 7 with 8 events
  per pipe pair), one per ping-pong half (M -> MTE1
  primed at the start of the cube side and drained at its end: the WAR on an L0 half;
  MTE1 -> M inside each step: the RAW). The halves alternate across K steps and across
  consecutive mmadL1 ops (`l0_half`), so one op's L1 -> L0 copies overlap the previous
  op's mmad. The sync passes never set MTE1 <-> M flags (at the hivm level mmadL1 ->
  mmadL1 needs none, and no other op runs on MTE1); the printer refuses IR whose static
  flags use a reserved id on those pairs, and the emulation fails on a double set should a
  dynamic id collide. No M
  barrier is printed between the steps: the cube accumulates into L0C in issue order (the
  "M -> M inside mmadL1 chains is ordered" rule of DESIGN.md section 7).
* vector ops, one hivm op = one call (a loop over rows for strided views), so the op <->
  statement mapping and its flags stay one to one. dav-3510 has no UB-pointer vector
  compute (asc-devkit implements the count forms `asc_add(dst, a, b, count)` for
  910B-class 2201 cores only; the anchor prints vector code as `__simd_vf__` functions):
  every op calls a `__simd_vf__` helper of register SIMD, printed once per op and element
  type before the kernels (targets/cce_vector.py: the sequences and why; a helper's body
  is shared, its call carries the op's location). Elementwise: `asc_update_mask_b32/b16`
  tail masks, `asc_loadalign`, the register op (`asc_add`, `asc_exp`, `asc_ln`,
  `asc_mul_scalar`, `asc_duplicate_scalar`, ...; reciprocal and rsqrt divide a register of
  ones), `asc_storealign`. Row reductions: `asc_reduce_max/min/sum` into lane 0 per 64-lane
  chunk, combined under a one-lane mask, the row result stored with `asc_storeunalign` +
  `_post`; row broadcasts: `asc_loadunalign` + `asc_duplicate` + `asc_storealign`. The
  conversions (vcast) still print the count form `asc_float2bfloat16(dst, src, count)`: the
  register conversions place narrowed lanes by rules not modelled yet, so that is the one
  vector spelling left that bisheng for dav-3510 would not take. dav-c220 prints the
  classic intrinsics inline: counter-mode `set_vector_mask(0, count); vadd(dst, a, b, 1,
  1, 1, 1, 8, 8, 8);`, whole-reduce `vcmax` / `vcmin` (ONLY_VALUE) / `vcadd` with repeat =
  rows in normal mask mode (wider rows folded per 256-byte repeat through a scratch row at
  the top of UB, checked to lie above every buffer), `vbrcb` + `vcopy` (source block
  stride 0) for broadcasts.
* flags exactly as in the IR: `asc_sync_notify/wait(PIPE_A, PIPE_B, (event_t)id)`,
  `asc_sync_pipe(PIPE_X)` / `asc_sync()`, cross-core `asc_sync_intra_arrive/wait` (the
  cube addresses vector core 1 with id + 16); dav-c220 `set_flag/wait_flag`,
  `pipe_barrier`, `ffts_cross_core_sync` / `wait_flag_dev`.
* every statement ends with `// file:line` of the op it comes from (the tile-level op
  when the IR was compiled in the same run; an op the passes created without a location
  takes the location of the next located op of its block, the op it was inserted for).

What it cannot print is an error at the op (`file:line:col: error: ...`), e.g. L0C -> UB
on dav-c220 (910B has no such path), rank-3 DMA, mmadL1 with a bias or unit flags.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, cast

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.utils.target import Target

from ascend_mlir import hardware
from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.chips import A5_ARCH, Chip, ChipError, resolve_chip
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import ascend, hacc, hivm
from ascend_mlir.targets import cce_vector

ARCHS = ("dav-3510", "dav-c220")
# The pipe pairs whose events the mmadL1 expansion owns (see the module docstring).
RESERVED_PIPE_PAIRS = (("MTE1", "M"), ("M", "MTE1"))


def reserved_cube_events(chip: Chip) -> tuple[int, int]:
    """The MTE1 <-> M event ids of the two L0 ping-pong halves: the chip's last two."""
    n = chip.events_per_pipe_pair
    return n - 2, n - 1

# On-chip vector and DMA accesses address UB in 32-byte blocks.
ALIGN_BYTES = 32

SCOPE_QUALIFIER = {"gm": "__gm__", "cbuf": "__cbuf__", "ca": "__ca__", "cb": "__cb__", "cc": "__cc__", "ub": "__ubuf__"}
ARENA_NAME = {"cbuf": "l1_buf", "ca": "l0a_buf", "cb": "l0b_buf", "cc": "l0c_buf", "ub": "ub_buf"}

_RESERVED_IDENTIFIERS = frozenset(
    """auto bool break case catch char class const constexpr continue default delete do double else enum
    explicit extern false float for friend goto if inline int long namespace new operator private protected
    public register return short signed sizeof static struct switch template this throw true try typedef
    typename union unsigned using virtual void volatile while half bfloat16_t event_t block_idx block_num
    mad vadd vsub vmul vdiv vmax vmin vexp vln vabs vrelu vsqrt vrsqrt vrec vcopy vadds vmuls set_flag
    wait_flag pipe_barrier asc_init main""".split()
)


# --------------------------------------------------------------------------------------
# element types, views
# --------------------------------------------------------------------------------------


def c_element_type(t: Attribute) -> str:
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float16Type):
        return "half"
    if isinstance(t, BFloat16Type):
        return "bfloat16_t"
    if isinstance(t, IndexType):
        return "int64_t"
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return "bool"
        unsigned = t.signedness.data.name == "UNSIGNED"
        return f"{'u' if unsigned else ''}int{width}_t"
    raise ValueError(f"no C type for {t}")


def _buffer_bytes(op: Operation, t: MemRefType) -> int:
    """Bytes the static memref `t` of `op` occupies in its scope (fractal padding included,
    as plan-memory sizes it); an element type without a size is `op`'s error.

    The element sizes are latency_model's (one answer for every pass and printer)."""
    try:
        return hardware.stored_bytes(hivm.scope_of(t) or "gm", t.get_shape(), element_bytes(t.get_element_type()))
    except ChipError as err:
        raise op_error(op, str(err)) from err


def _static_strides(t: MemRefType) -> tuple[int, ...]:
    shape = t.get_shape()
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()
        if any(s is None for s in strides):
            raise ValueError(f"dynamic strides are not supported: {t}")
        return tuple(cast(int, s) for s in strides)
    if not isinstance(layout, NoneAttr) and layout is not None:
        raise ValueError(f"layout {layout} is not supported")
    return _row_major(shape)


def _row_major(shape: Sequence[int]) -> tuple[int, ...]:
    strides = []
    acc = 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    return tuple(reversed(strides))


@dataclass(frozen=True)
class View:
    """A memref value as C sees it: a typed pointer expression and its element strides."""

    ptr: str
    # a dimension is an int, or the C expression of a runtime size (a partial tile)
    shape: tuple[int | str, ...]
    strides: tuple[int, ...]
    element: Attribute
    scope: str
    # the pointer is a known multiple of 32 bytes into its arena (planned offsets and
    # subview offsets proven to be); False when it may not be, e.g. the rows of a 3 x 7 f32
    # tile past the first, or a subview starting mid-block
    aligned: bool = True

    @property
    def esize(self) -> int:
        return element_bytes(self.element)

    @property
    def ctype(self) -> str:
        return c_element_type(self.element)

    def numel(self) -> int | str:
        return _product(self.shape)

    def is_dynamic(self) -> bool:
        return any(isinstance(d, str) for d in self.shape)

    def rows_aligned(self) -> bool:
        """Whether every row of the view starts 32-byte aligned (its start, and its row
        stride a whole number of 32-byte blocks)."""
        if not self.aligned:
            return False
        try:
            rows, _, stride = self.rows()
        except ValueError:
            return False
        return rows == 1 or (stride * self.esize) % ALIGN_BYTES == 0

    def contiguous(self) -> bool:
        shape, strides = self.shape, self.strides
        if self.is_dynamic():
            # only a runtime outermost dimension keeps the row-major contiguity decidable
            if any(isinstance(d, str) for d in shape[1:]):
                return False
            shape, strides = shape[1:], strides[1:]
        static = [int(d) for d in shape]
        return all(s == r for s, r, d in zip(strides, _row_major(static), static, strict=True) if d != 1)

    def rows(self) -> tuple[int | str, int | str, int]:
        """(rows, cols, row stride in elements) of a view whose last dim is unit-stride."""
        shape = [d for d in self.shape] or [1]
        strides = list(self.strides) or [1]
        while len(shape) > 2:  # fold leading dims that are contiguous with the next one
            if not isinstance(shape[1], int) or strides[0] != shape[1] * strides[1]:
                raise ValueError(f"a rank-{len(self.shape)} view with non-foldable strides {self.strides}")
            shape[:2] = [_product(shape[:2])]
            strides[:2] = [strides[1]]
        if strides[-1] != 1 and shape[-1] != 1:
            raise ValueError("the innermost dimension is not contiguous")
        if len(shape) == 1:
            return 1, shape[0], strides[0] if isinstance(shape[0], str) else shape[0]
        if self.contiguous() and isinstance(shape[1], int):
            return shape[0], shape[1], shape[1]
        return shape[0], shape[1], strides[0]


def _product(dims: Sequence[int | str]) -> int | str:
    """The product of static and runtime dimensions: an int, or a C expression."""
    static = math.prod(d for d in dims if isinstance(d, int))
    dynamic = [_paren(d) for d in dims if isinstance(d, str)]
    if not dynamic:
        return static
    if static == 0:
        return 0
    return " * ".join(dynamic + ([str(static)] if static != 1 else []))


def _memref(value: SSAValue) -> MemRefType:
    t = value.type
    if not isinstance(t, MemRefType):
        raise ValueError(f"{value.type} is not a memref")
    return cast(MemRefType, t)


# --------------------------------------------------------------------------------------
# kernel structure
# --------------------------------------------------------------------------------------


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


def _op_core(op: Operation) -> str:
    """"CUBE" / "VECTOR" / "SCALAR" / "BOTH" (barriers on all pipes)."""
    if isinstance(op, hivm.PipeBarrierOp):
        return "BOTH" if op.stalls_issue else op.core_type()
    if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
        return "CUBE" if "CUBE" in str(op.tcore_type) else "VECTOR"
    if isinstance(op, hivm.HivmPipeOp):
        return op.core_type()
    return "SCALAR"


def _vector_cores(*funcs: func.FuncOp) -> int:
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
            n_vec = _vector_cores(f, g)
            kernels.append(Kernel(base, "mix", f, g, n_vec, max(ascend.launch_grid(f), ascend.launch_grid(g))))
    for name, f in by_name.items():
        if name in paired or not (hacc.ENTRY in f.attributes or ascend.grid_of(f) is not None):
            continue
        cores = {_op_core(op) for op in f.walk()}
        text = str(f.attributes.get("hivm.func_core_type", ""))
        if "MIX" in text or {"CUBE", "VECTOR"} <= cores:
            kernels.append(Kernel(name, "mix", f, f, _vector_cores(f), ascend.launch_grid(f)))
        elif "AIC" in text or "CUBE" in cores:
            kernels.append(Kernel(name, "cube", f, None, 0, ascend.launch_grid(f)))
        else:
            kernels.append(Kernel(name, "vector", None, f, 1, ascend.launch_grid(f)))
    return kernels


# --------------------------------------------------------------------------------------
# locations
# --------------------------------------------------------------------------------------


def _own_location(op: Operation) -> str | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}"
    return None


def source_location(op: Operation) -> str:
    """`file:line` of `op`; an op without one takes the next located op of its block (the
    op a pass inserted it for), else the previous one, else its parent's."""
    own = _own_location(op)
    if own:
        return own
    block = op.parent_block()
    if block is not None:
        ops = list(block.ops)
        index = ops.index(op)
        for other in ops[index + 1:] + list(reversed(ops[:index])):
            if isinstance(other, scf.YieldOp | func.ReturnOp):
                continue
            found = _own_location(other)
            if found:
                return found
    parent = op.parent_op()
    return source_location(parent) if parent is not None else "?"


# --------------------------------------------------------------------------------------
# liveness per core side: which ops a side prints
# --------------------------------------------------------------------------------------


def _side_ops(f: func.FuncOp, side: str, single: bool) -> set[Operation]:
    """Ops of `f` printed on `side` ("CUBE"/"VECTOR"): its hivm ops plus every scalar op,
    loop and view they need. In a function that is one side only, everything is kept."""
    wanted: set[Operation] = set()
    work: list[Operation] = []
    for op in f.walk():
        if op is f or isinstance(op, scf.YieldOp | func.ReturnOp):
            continue
        core = _op_core(op)
        if (single and core != "SCALAR") or core == side or (core == "BOTH" and _region_has(op, side)):
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


def _region_has(op: Operation, side: str) -> bool:
    """Whether the block around `op` holds any op of core `side` (a barrier on all pipes
    is printed on a side only where that side has work)."""
    block = op.parent_block()
    if block is None:
        return True
    return any(_op_core(o) == side for sibling in block.ops for o in sibling.walk())


@dataclass(frozen=True)
class _MmadTile:
    """Geometry of one mmadL1 expansion: sizes, fractal counts, the K fractals per step
    (the most that fit half of L0A and of L0B, dividing K), and which operand L1 holds
    transposed (A^T as K x M, B^T as N x K)."""

    m: int
    k: int
    n: int
    a_t: bool
    b_t: bool
    step: int

    @property
    def mf(self) -> int:
        return -(-self.m // 16)

    @property
    def kf(self) -> int:
        return -(-self.k // 16)

    @property
    def nf(self) -> int:
        return -(-self.n // 16)

    @property
    def steps(self) -> int:
        return self.kf // self.step

    @property
    def k_step(self) -> int:
        return min(self.k, self.step * 16)

    def k_of_step(self, kk: str) -> str:
        """K of step `kk`: whole steps, the last one only what remains of K (the cube
        does not read past the tile's K, whatever L1's zero padding would give)."""
        last = self.k - (self.steps - 1) * self.k_step
        return str(self.k_step) if last == self.k_step else f"({kk} == {self.steps - 1} ? {last} : {self.k_step})"

    @staticmethod
    def of(op: hivm.MmadL1Op, a_shape: Sequence[int], b_shape: Sequence[int], half: int) -> _MmadTile:
        """The tiling of `op` whose A and B K steps each fit `half` bytes (half of L0A/L0B)."""
        a_t, b_t = op.a_transpose is not None, op.b_transpose is not None
        m, k = (a_shape[1], a_shape[0]) if a_t else (a_shape[0], a_shape[1])
        n = b_shape[0] if b_t else b_shape[1]
        mf, kf, nf = -(-m // 16), -(-k // 16), -(-n // 16)
        step = max((d for d in range(1, kf + 1) if kf % d == 0 and mf * d * 512 <= half and d * nf * 512 <= half),
                   default=0)
        if step == 0:
            raise op_error(op, f"a {m}x{k}x{n} mmadL1 does not fit half of L0A/L0B with one K fractal")
        return _MmadTile(m, k, n, a_t, b_t, step)


# --------------------------------------------------------------------------------------
# the printer
# --------------------------------------------------------------------------------------


@dataclass
class _Side:
    """Printing state of one core side of one kernel."""

    core: str  # "CUBE" | "VECTOR"
    func_op: func.FuncOp
    ops: set[Operation]
    exprs: dict[SSAValue, str] = field(default_factory=dict)
    views: dict[SSAValue, View] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)


class CcePrinter:
    def __init__(self, arch: str, module: ModuleOp, chip: Chip):
        if arch not in ARCHS:
            raise ValueError(f"unknown cce arch '{arch}' (expected one of {', '.join(ARCHS)})")
        self.arch = arch
        self.module = module
        self.chip = chip
        self.cube_events = reserved_cube_events(chip)
        self.lines: list[str] = []
        self.indent = 0
        self.side: _Side | None = None
        self.offsets: dict[Operation, int] = {}
        self.kernel: Kernel | None = None
        self.mmad_count = 0
        self.helpers: dict[str, list[str]] = {}

    @property
    def a5(self) -> bool:
        return self.arch == A5_ARCH

    # ----- output ----------------------------------------------------------------------

    def line(self, text: str, op: Operation | None = None) -> None:
        where = source_location(op) if op is not None else "?"
        comment = f"  // {where}" if where != "?" else ""
        self.lines.append("  " * self.indent + text + comment)

    def open(self, text: str, op: Operation | None = None) -> None:
        self.line(text + " {", op)
        self.indent += 1

    def close(self) -> None:
        self.indent -= 1
        self.line("}")

    # ----- module -------------------------------------------------------------------------

    def print_module(self) -> str:
        tile_op = next((op for op in self.module.walk() if op.dialect_name() == "tile"), None)
        if tile_op is not None:
            raise op_error(tile_op, "is tile-level: run -p ascend-compile (or convert-tile-to-hivm) before -t cce")
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

    def use_helper(self, name: str, lines: list[str]) -> str:
        self.helpers.setdefault(name, lines)
        return name

    def print_kernel(self, kernel: Kernel) -> None:
        self.kernel = kernel
        f = kernel.signature_func
        self.check_reserved_events(kernel)
        arg_names = self.argument_names(f)
        params = ", ".join(self.parameter(a, n) for a, n in zip(f.args, arg_names, strict=True))
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
            names.append(_unique(_identifier(a.name_hint or f"arg{i}"), used))
        return names

    def parameter(self, arg: BlockArgument, name: str) -> str:
        t = arg.type
        if isinstance(t, MemRefType):
            scope = hivm.scope_of(t) or "gm"
            return f"{SCOPE_QUALIFIER[scope]} {c_element_type(t.get_element_type())} *{name}"
        return f"{c_element_type(t)} {name}"

    def check_reserved_events(self, kernel: Kernel) -> None:
        for fn in {kernel.aic, kernel.aiv} - {None}:
            assert fn is not None
            for op in fn.walk():
                if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and op.static_event_id is not None:
                    pair = (op.set_pipe.pipe_name, op.wait_pipe.pipe_name)
                    if pair in RESERVED_PIPE_PAIRS and op.static_event_id.data in self.cube_events:
                        raise op_error(op, f"event id {op.static_event_id.data} of {pair[0]} -> {pair[1]} is reserved "
                                           f"for the cce printer's mmadL1 expansion (ids {self.cube_events})")

    # ----- one core side ------------------------------------------------------------------

    def print_side(self, core: str, fn: func.FuncOp, single: bool) -> None:
        side = _Side(core, fn, _side_ops(fn, core, single))
        self.side = side
        kernel_fn = self.kernel.signature_func if self.kernel else fn
        for a, name in zip(fn.args, self.argument_names(kernel_fn), strict=True):
            side.names.add(name)
            side.exprs[a] = name
            if isinstance(a.type, MemRefType):
                t = _memref(a)
                side.views[a] = View(name, tuple(t.get_shape()), _static_strides(t), t.get_element_type(),
                                     hivm.scope_of(t) or "gm")
        self.offsets = self.kernel_offsets(fn)
        self.print_arenas(side)
        has_mmad = any(isinstance(op, hivm.MmadL1Op) for op in side.ops)
        if has_mmad:
            self.print_l0_setup(fn)
        if not self.a5 and core == "VECTOR" and any(
                isinstance(op, hivm.VECTOR_OPS + (hivm.CopyOp,)) for op in side.ops):
            self.line("set_mask_count();", fn)
        self.print_block(fn.body.block)
        if has_mmad:
            for event in self.cube_events:
                self.line(self.flag_call("wait", "M", "MTE1", str(event)), fn)

    def print_arenas(self, side: _Side) -> None:
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

    def kernel_offsets(self, fn: func.FuncOp) -> dict[Operation, int]:
        """Alloc offsets of `fn`; in a split MIX pair, an alloc of the other core's memory
        (the fixpipe's UB destination in the aic function, a UB -> L1 copy's L1 tile in
        the aiv function) takes the offset of the partner's alloc of the same name and
        type, which is where the other core has it."""
        offsets = self.plan_allocs(fn)
        kernel = self.kernel
        if kernel is None or kernel.aic is None or kernel.aiv is None or kernel.aic is kernel.aiv:
            return offsets
        partner = kernel.aiv if fn is kernel.aic else kernel.aic
        own_scopes = hardware.CORE_SCOPES["CUBE" if fn is kernel.aic else "VECTOR"]
        theirs = self.plan_allocs(partner)
        for op in list(offsets):
            t = op.results[0].type
            if hivm.scope_of(t) in own_scopes:
                continue
            match = next((o for o in theirs if o.results[0].type == t
                          and o.results[0].name_hint == op.results[0].name_hint), None)
            if match is None:
                raise op_error(op, "no alloc of the same name and type in the other core's function")
            offsets[op] = theirs[match]
        return offsets

    def plan_allocs(self, fn: func.FuncOp) -> dict[Operation, int]:
        """Offsets of the allocs plan-memory has not placed: next free aligned offset per scope."""
        offsets: dict[Operation, int] = {}
        top: dict[str, int] = {}
        planned = {hivm.scope_of(op.result) for op in fn.walk() if isinstance(op, hivm.PointerCastOp)}
        for op in fn.walk():
            if isinstance(op, memref.AllocOp) and hivm.scope_of(op.memref) in planned:
                raise op_error(op, f"{hivm.scope_of(op.memref)} buffers planned by pointer_cast and unplanned "
                                   "allocs in one function: run plan-memory over all of them")
            if isinstance(op, memref.AllocOp):
                t = _memref(op.memref)
                scope = hivm.scope_of(t) or "gm"
                if scope in ("ca", "cb"):
                    raise op_error(op, "L0A/L0B buffers belong to the cce printer's mmadL1 expansion")
                if scope == "gm" or any(d == DYNAMIC_INDEX for d in t.get_shape()):
                    raise op_error(op, "only static on-chip allocations can be printed")
                size = _buffer_bytes(op, t)
                align = self.chip.alignment[scope]
                start = -(-top.get(scope, 0) // align) * align
                offsets[op] = start
                top[scope] = start + size
                capacity = self.chip.capacity[scope]
                if top[scope] > capacity:
                    raise op_error(op, f"{scope} buffers need {top[scope]} bytes, the chip has {capacity}")
        return offsets

    def print_block(self, block: Block) -> None:
        assert self.side is not None
        for op in block.ops:
            if op in self.side.ops:
                self.print_op(op)

    def print_op(self, op: Operation) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is None:
            if isinstance(op, arith.ConstantOp):
                self.side_expr(op.result, _constant(op))
                return
            if op.name.startswith("arith.") and len(op.results) == 1:
                self.print_arith(op)
                return
            raise op_error(op, f"the cce printer does not handle '{op.name}'")
        self.check_runtime_sizes(op)
        try:
            handler(self, op)
        except ChipError as err:  # an element type without a size (View.esize): located at its op
            raise op_error(op, str(err)) from err

    def check_runtime_sizes(self, op: Operation) -> None:
        """Views of runtime size (partial tiles) are printed for GM <-> UB copies and the
        elementwise vector ops; any other op on one is a located error, not wrong code."""
        if type(op) in _RUNTIME_SIZE_OPS or not isinstance(op, hivm.HivmPipeOp) or self.side is None:
            return
        for value in op.operands:
            view = self.side.views.get(value)
            if view is not None and view.is_dynamic():
                raise op_error(op, f"an operand of runtime size ({list(view.shape)}) is not printed for this op")

    # ----- values ---------------------------------------------------------------------------

    def side_expr(self, value: SSAValue, text: str) -> None:
        assert self.side is not None
        self.side.exprs[value] = text

    def expr(self, value: SSAValue) -> str:
        assert self.side is not None
        if value not in self.side.exprs:
            raise ValueError(f"value {value} has no C expression on this side")
        return self.side.exprs[value]

    def declare(self, value: SSAValue, ctype: str, init: str, op: Operation) -> str:
        assert self.side is not None
        name = _unique(_identifier(value.name_hint or "v"), self.side.names)
        self.line(f"const {ctype} {name} = {init};", op)
        self.side.exprs[value] = name
        return name

    def view(self, value: SSAValue) -> View:
        assert self.side is not None
        if value not in self.side.views:
            raise ValueError(f"memref {value} has no pointer on this side")
        return self.side.views[value]

    def declare_view(self, value: SSAValue, scope: str, element: Attribute, init: str, op: Operation,
                     shape: tuple[int | str, ...], strides: tuple[int, ...], aligned: bool) -> None:
        assert self.side is not None
        name = _unique(_identifier(value.name_hint or "buf"), self.side.names)
        q, c = SCOPE_QUALIFIER[scope], c_element_type(element)
        self.line(f"{q} {c} *{name} = {init};", op)
        self.side.views[value] = View(name, shape, strides, element, scope, aligned)

    # ----- scalar code ------------------------------------------------------------------------

    def print_arith(self, op: Operation) -> None:
        result = op.results[0]
        ctype = c_element_type(result.type)
        operands = [self.expr(v) for v in op.operands]
        if _is_same_type_cast(op, ctype):  # index <-> i64 casts are one C type: no new name
            self.side_expr(result, operands[0])
            return
        folded = _fold_integers(op.name, operands)
        if folded is not None:  # e.g. `0 * 128` of a peeled first iteration
            self.side_expr(result, folded)
            return
        text = _arith_expression(op, operands)
        if text is None:
            raise op_error(op, f"the cce printer does not handle '{op.name}'")
        self.declare(result, ctype, text, op)

    def print_for(self, op: scf.ForOp) -> None:
        if op.iter_args:
            raise op_error(op, "loop-carried values (iter_args) are not printed")
        iv = op.body.block.args[0]
        assert self.side is not None
        name = _unique(_identifier(iv.name_hint or "i"), self.side.names)
        self.side.exprs[iv] = name
        lb, ub, step = self.expr(op.lb), self.expr(op.ub), self.expr(op.step)
        self.open(f"for (int64_t {name} = {lb}; {name} < {ub}; {name} += {step})", op)
        self.print_block(op.body.block)
        self.close()

    def print_if(self, op: scf.IfOp) -> None:
        if op.results:
            raise op_error(op, "scf.if with results is not printed")
        self.open(f"if ({self.expr(op.cond)})", op)
        self.print_block(op.true_region.block)
        self.close()
        if op.false_region.blocks and any(o in self.side.ops for o in op.false_region.block.ops if self.side):
            self.open("else")
            self.print_block(op.false_region.block)
            self.close()

    def print_block_query(self, op: Operation) -> None:
        if isinstance(op, hivm.GetBlockIdxOp):
            text = "block_idx"
        elif isinstance(op, hivm.GetBlockNumOp):
            text = "block_num"
        else:
            text = "asc_get_sub_block_id()" if self.a5 else "get_subblockid()"
        self.declare(op.results[0], "int64_t", f"(int64_t){text}", op)

    # ----- memory -----------------------------------------------------------------------------

    def print_alloc(self, op: memref.AllocOp) -> None:
        t = _memref(op.memref)
        scope = hivm.scope_of(t) or "gm"
        offset = self.offsets[op]
        q, c = SCOPE_QUALIFIER[scope], c_element_type(t.get_element_type())
        self.declare_view(op.memref, scope, t.get_element_type(), f"({q} {c} *)({ARENA_NAME[scope]} + {offset})",
                          op, tuple(t.get_shape()), _row_major(t.get_shape()), offset % ALIGN_BYTES == 0)

    def print_pointer_cast(self, op: hivm.PointerCastOp) -> None:
        t = _memref(op.result)
        scope = hivm.scope_of(t) or "ub"
        if len(op.addrs) != 1:
            raise op_error(op, "a pointer_cast with several addresses needs its version index first")
        q, c = SCOPE_QUALIFIER[scope], c_element_type(t.get_element_type())
        self.declare_view(op.result, scope, t.get_element_type(),
                          f"({q} {c} *)({ARENA_NAME[scope]} + {self.expr(op.addrs[0])})", op,
                          tuple(t.get_shape()), _static_strides(t), _multiple_of(op.addrs[0], ALIGN_BYTES))

    def print_subview(self, op: memref.SubviewOp) -> None:
        source = self.view(op.source)
        offsets = _mixed(op.static_offsets.get_values(), [self.expr(v) for v in op.offsets])
        sizes = _mixed(op.static_sizes.get_values(), [self.expr(v) for v in op.sizes])
        steps = op.static_strides.get_values()
        if any(s == DYNAMIC_INDEX for s in steps):
            raise op_error(op, "dynamic subview strides are not printed")
        terms = []
        aligned = source.aligned
        dynamic = iter(op.offsets)
        for off, stride in zip(offsets, source.strides, strict=True):
            step_bytes = stride * source.esize
            if isinstance(off, int):
                aligned = aligned and (off * step_bytes) % ALIGN_BYTES == 0
            else:  # the offset must be a multiple of the blocks one step leaves unaligned
                need = ALIGN_BYTES // math.gcd(ALIGN_BYTES, step_bytes)
                aligned = aligned and _multiple_of(next(dynamic), need)
            if off in (0, "0"):
                continue
            terms.append(f"{off}" if stride == 1 else f"{_paren(off)} * {stride}")
        result = _memref(op.result)
        shape: tuple[int | str, ...] = tuple(result.get_shape())
        kept = [i for i, s in enumerate(sizes) if not (s == 1 and len(shape) < len(sizes))]
        if len(kept) != len(shape):  # rank-reducing with some unit dims kept: follow the result type
            kept = list(range(len(sizes) - len(shape), len(sizes)))
        # a runtime size (a partial tile) is its C expression
        shape = tuple(sizes[i] if d == DYNAMIC_INDEX else d for i, d in zip(kept, shape, strict=True))
        strides = tuple(source.strides[i] * int(steps[i]) for i in kept)
        init = f"{source.ptr} + {' + '.join(terms)}" if terms else source.ptr
        self.declare_view(op.result, source.scope, source.element, init, op, shape, strides, aligned)

    def print_view_alias(self, op: Operation) -> None:
        source = self.view(op.operands[0])
        t = _memref(op.results[0])
        shape = tuple(t.get_shape())
        if isinstance(op, memref.CastOp | memref.MemorySpaceCastOp):
            strides = source.strides if len(shape) == len(source.shape) else _row_major(shape)
        elif source.contiguous():
            strides = _row_major(shape)
        else:
            raise op_error(op, "reshaping a non-contiguous view is not printed")
        assert self.side is not None
        self.side.views[op.results[0]] = View(source.ptr, shape, strides, source.element, source.scope,
                                              source.aligned)

    # ----- DMA ----------------------------------------------------------------------------------

    def print_load(self, op: hivm.LoadOp) -> None:
        if op.pad_mode is not None or op.pad_value is not None:
            raise op_error(op, "padded loads are not printed")
        src, dst = self.view(op.src), self.view(op.dst)
        self.gm_ub_copy(op, dst, src, load=True)

    def print_store(self, op: hivm.StoreOp) -> None:
        if op.atomic_kind is not None:
            raise op_error(op, "atomic stores are not printed")
        self.gm_ub_copy(op, self.view(op.dst), self.view(op.src), load=False)

    def gm_ub_copy(self, op: Operation, dst: View, src: View, load: bool) -> None:
        n, length, src_stride, dst_stride = _bursts(op, src, dst)
        ub = dst if load else src
        ub_stride = dst_stride if load else src_stride
        # the DMA addresses UB in 32-byte blocks: every burst starts on a block
        if not ub.aligned or (n != 1 and ub_stride % ALIGN_BYTES):
            raise op_error(op, f"a GM <-> UB copy needs each UB row on a 32-byte boundary; these rows are "
                               f"{ub_stride} bytes apart{'' if ub.aligned else ' and may start mid-block'}")
        if self.a5:
            if load:
                self.line(f"asc_copy_gm2ub_align({dst.ptr}, {src.ptr}, {n}, {length}, 0, 0, false, "
                          f"(asc_load_l2_cache_mode)0, {src_stride}, {dst_stride});", op)
            else:
                self.line(f"asc_copy_ub2gm_align({dst.ptr}, {src.ptr}, {n}, {length}, "
                          f"(asc_store_l2_cache_mode)0, {dst_stride}, {src_stride});", op)
            return
        gm_stride = src_stride if load else dst_stride
        if n == 1:
            ub_gap, gm_gap = 0, 0
        elif not isinstance(length, int) or not isinstance(n, int):
            raise op_error(op, f"a {self.arch} copy of several rows of runtime length is not printed (dav-3510 only)")
        else:
            ub_gap, gm_gap = ub_stride - -(-length // 32) * 32, gm_stride - length
        if n != 1 and (ub_gap < 0 or ub_gap % 32):
            raise op_error(op, f"UB rows {ub_stride} bytes apart are not whole 32-byte blocks after {length}-byte bursts")
        ub_gap_blocks = ub_gap // 32
        bits = f"b{8 * src.esize}"
        if load:
            self.line(f"copy_gm_to_ubuf_align_{bits}({dst.ptr}, {src.ptr}, 0, {n}, {length}, 0, 0, "
                      f"{gm_gap}, {ub_gap_blocks});", op)
        else:
            self.line(f"copy_ubuf_to_gm_align_{bits}({dst.ptr}, {src.ptr}, 0, {n}, {length}, 0, 0, "
                      f"{ub_gap_blocks}, {gm_gap});", op)

    def print_nd2nz(self, op: hivm.Nd2NzOp) -> None:
        src, dst = self.view(op.src), self.view(op.dst)
        rows, cols, stride = _rows_of(op, src)
        if not dst.contiguous() or dst.shape != src.shape:
            raise op_error(op, "nd2nz into part of an L1 buffer is not printed")
        dst_n = -(-rows // 16) * 16
        if self.a5:
            self.line(f"asc_set_gm2l1_nz_para(1, 1, (uint16_t){dst_n}, 0);", op)
            self.line(f"asc_copy_gm2l1_nd2nz({dst.ptr}, {src.ptr}, {stride * src.esize}, (asc_load_l2_cache_mode)0, "
                      f"{rows}, {cols}, 0, 0);", op)
        else:
            form = "b16" if src.esize == 2 else "b32s"
            self.line(f"copy_gm_to_cbuf_multi_nd2nz_{form}({dst.ptr}, {src.ptr}, 0, 1, {rows}, {cols}, 0, {stride}, "
                      f"{dst_n}, 1, 0);", op)

    def print_copy(self, op: hivm.CopyOp) -> None:
        src, dst = self.view(op.src), self.view(op.dst)
        if op.pad_value is not None:
            raise op_error(op, "padded copies are not printed")
        if (src.scope, dst.scope) == ("ub", "cbuf"):
            self.ub_to_l1(op, src, dst)
        elif (src.scope, dst.scope) == ("ub", "ub"):
            self.vector_call(op, "copy", [dst, src], [])
        else:
            raise op_error(op, f"a {src.scope} -> {dst.scope} copy is not printed")

    def ub_to_l1(self, op: Operation, src: View, dst: View) -> None:
        """ND rows in UB -> NZ in L1: one burst per row and 32-byte column block."""
        rows, cols, stride = _rows_of(op, src)
        if not dst.contiguous() or dst.shape != src.shape:
            raise op_error(op, "a UB -> L1 copy into part of an L1 buffer is not printed")
        c0 = 32 // src.esize
        row_bytes = stride * src.esize
        if cols % c0 or row_bytes % 32:
            raise op_error(op, f"UB -> L1 needs whole 32-byte column blocks (cols {cols}, row stride {row_bytes} B)")
        dst_n = -(-rows // 16) * 16
        gap = row_bytes // 32 - 1
        blocks = cols // c0
        call = "asc_copy_ub2l1({d}, {s}, {n}, 1, {gap}, 0);" if self.a5 else "copy_ubuf_to_cbuf({d}, {s}, 0, {n}, 1, {gap}, 0);"
        if blocks == 1:
            self.line(call.format(d=dst.ptr, s=src.ptr, n=rows, gap=gap), op)
            return
        self.open(f"for (int32_t cb = 0; cb < {blocks}; ++cb)", op)
        self.line(call.format(d=f"{dst.ptr} + cb * {dst_n * c0}", s=f"{src.ptr} + cb * {c0}", n=rows, gap=gap), op)
        self.close()

    def print_fixpipe(self, op: hivm.FixpipeOp) -> None:
        src, dst = self.view(op.src), self.view(op.dst)
        if "nz2nd" not in str(op.dma_mode):
            raise op_error(op, "only fixpipe {dma_mode = nz2nd} is printed")
        if not src.contiguous():
            raise op_error(op, "a fixpipe from part of L0C is not printed")
        src_shape = _static_shape(op, src)
        m, n = (src_shape + (1,))[:2] if len(src_shape) == 1 else src_shape[:2]
        m_pad = -(-m // 16) * 16
        rows, cols, dst_stride = _rows_of(op, dst)
        relu = 1 if op.pre_relu is not None and "NO_RELU" not in str(op.pre_relu) else 0
        quant = {4: 0, 2: 1 if isinstance(dst.element, BFloat16Type) else 2}[dst.esize]
        if dst.scope == "gm":
            if self.a5:
                self.line("asc_set_l0c_copy_nz_para(1, 0, 0);", op)
                self.line(f"asc_copy_l0c2gm({dst.ptr}, {src.ptr}, {n}, {m}, {dst_stride}, {m_pad}, "
                          f"(asc_store_l2_cache_mode)0, (asc_unit_flag_mode)0, (asc_quant_mode){quant}, "
                          f"(asc_relu_pre_mode){relu}, 0, 1, 0, 0);", op)
            else:
                self.line(f"copy_matrix_cc_to_gm({dst.ptr}, {src.ptr}, 0, {n}, {m}, {dst_stride}, {m_pad}, 0, "
                          f"{quant}, {relu}, 0, 1);", op)
            return
        if dst.scope != "ub" or not self.a5:
            raise op_error(op, f"fixpipe L0C -> {dst.scope} does not exist on {self.arch}")
        dual = op.is_dual
        assert self.kernel is not None
        targets = [0] if dual or self.kernel.n_vector == 1 else list(range(self.kernel.n_vector))
        for sub in targets:
            self.line(f"asc_copy_l0c2ub({dst.ptr}, {src.ptr}, {n}, {m}, {dst_stride}, {m_pad}, {sub}, "
                      f"(asc_dual_dst_mode){1 if dual else 0}, (asc_unit_flag_mode)0, (asc_quant_mode){quant}, "
                      f"(asc_relu_pre_mode){relu}, 0, 1, 0, 0);", op)

    # ----- cube -----------------------------------------------------------------------------

    def print_l0_setup(self, fn: func.FuncOp) -> None:
        self.line(f"{SCOPE_QUALIFIER['ca']} uint8_t *{ARENA_NAME['ca']} = ({SCOPE_QUALIFIER['ca']} uint8_t *)0;", fn)
        self.line(f"{SCOPE_QUALIFIER['cb']} uint8_t *{ARENA_NAME['cb']} = ({SCOPE_QUALIFIER['cb']} uint8_t *)0;", fn)
        # the L0 half the next K step uses; it alternates across steps and across mmadL1
        # ops, so one mmadL1's copies overlap the previous one's mmad
        self.line("int32_t l0_half = 0;", fn)
        for event in self.cube_events:  # both L0 halves start free
            self.line(self.flag_call("set", "M", "MTE1", str(event)), fn)

    def l0_half_bytes(self) -> int:
        """One ping-pong half of L0A and of L0B (the chip's capacities)."""
        return min(self.chip.capacity["ca"], self.chip.capacity["cb"]) // 2

    def print_mmad(self, op: hivm.MmadL1Op) -> None:
        if op.per_channel_bias is not None or op.unit_flag_mode is not None:
            raise op_error(op, "mmadL1 with bias or unit flags is not printed")
        a, b, c = self.view(op.a), self.view(op.b), self.view(op.c)
        if a.esize != 2 or b.esize != 2 or not (a.contiguous() and b.contiguous() and c.contiguous()):
            raise op_error(op, "the cce printer expands mmadL1 of whole bf16/f16 L1 tiles only")
        half = self.l0_half_bytes()
        tile = _MmadTile.of(op, _static_shape(op, a), _static_shape(op, b), half)
        init = self.expr(op.init_condition)
        self.mmad_count += 1
        kk, pp = f"kk{self.mmad_count}", "l0_half"
        l0a = f"(__ca__ {a.ctype} *)({ARENA_NAME['ca']} + {pp} * {half})"
        l0b = f"(__cb__ {b.ctype} *)({ARENA_NAME['cb']} + {pp} * {half})"
        event = f"{self.cube_events[0]} + {pp}"
        self.open(f"for (int32_t {kk} = 0; {kk} < {tile.steps}; ++{kk})", op)
        self.line(self.flag_call("wait", "M", "MTE1", event), op)
        if self.a5:
            self.l1_to_l0_a5(op, tile, kk, (l0a, a.ptr), (l0b, b.ptr))
        else:
            self.l1_to_l0_c220(op, tile, kk, (l0a, a.ptr), (l0b, b.ptr))
        self.line(self.flag_call("set", "MTE1", "M", event), op)
        self.line(self.flag_call("wait", "MTE1", "M", event), op)
        zero_c = f"({init}) && {kk} == 0" if tile.steps > 1 else init
        call = "asc_mmad" if self.a5 else "mad"
        self.line(f"{call}({c.ptr}, {l0a}, {l0b}, {tile.m}, {tile.k_of_step(kk)}, {tile.n}, 0, false, false, {zero_c});", op)
        self.line(self.flag_call("set", "M", "MTE1", event), op)
        self.line(f"{pp} ^= 1;", op)
        self.close()

    def l1_to_l0_a5(self, op: Operation, t: _MmadTile, kk: str, a: tuple[str, str], b: tuple[str, str]) -> None:
        """dav-3510 2D loads (tile start M|N, start K, steps, src_stride = fractals between L1
        column blocks, dst_stride = fractals between L0 fractal rows). Both operands come to
        L1 with nd2nz, as the anchor loads its B^T (one GM->L1 call family for every operand,
        rows of the stored matrix as N); the orientation is fixed by the L1 -> L0 load, as
        the real API splits it: conventional A B loads A plain and B with `_transpose`
        (K x N NZ -> the cube's zN), A^T with `asc_copy_l12l0a_transpose`, B^T plain."""
        ks = f"{kk} * {t.step}"
        a_call = "asc_copy_l12l0a_transpose" if t.a_t else "asc_copy_l12l0a"
        a_src_stride = t.kf if t.a_t else t.mf
        self.line(f"{a_call}({a[0]}, {a[1]}, 0, {ks}, {t.mf}, {t.step}, {a_src_stride}, {t.step});", op)
        b_call = "asc_copy_l12l0b" if t.b_t else "asc_copy_l12l0b_transpose"
        b_src_stride = t.nf if t.b_t else t.kf
        self.line(f"{b_call}({b[0]}, {b[1]}, 0, {ks}, {t.nf}, {t.step}, {b_src_stride}, {t.nf});", op)

    def l1_to_l0_c220(self, op: Operation, t: _MmadTile, kk: str, a: tuple[str, str], b: tuple[str, str]) -> None:
        """dav-c220 load2d: one call per fractal row of the L0 tile (`repeat` fractals,
        `src_stride` apart in L1, to consecutive L0 fractals), transposing each fractal for
        A^T and for plain B (K x N in L1), as Ascend C's LoadData2D with ifTranspose does."""
        self.open(f"for (int32_t mi = 0; mi < {t.mf}; ++mi)", op)
        if t.a_t:  # A^T stored K x M: the K fractals of one M block are consecutive
            self.line(f"load_cbuf_to_ca({a[0]} + mi * {t.step * 256}, {a[1]}, mi * {t.kf} + {kk} * {t.step}, {t.step}, "
                      "1, 0, 0, true, 0);", op)
        else:
            self.line(f"load_cbuf_to_ca({a[0]} + mi * {t.step * 256}, {a[1]}, {kk} * {t.step * t.mf} + mi, {t.step}, "
                      f"{t.mf}, 0, 0, false, 0);", op)
        self.close()
        self.open(f"for (int32_t ki = 0; ki < {t.step}; ++ki)", op)
        if t.b_t:  # B^T stored N x K: the N fractals of one K block are consecutive
            self.line(f"load_cbuf_to_cb({b[0]} + ki * {t.nf * 256}, {b[1]}, ({kk} * {t.step} + ki) * {t.nf}, {t.nf}, "
                      "1, 0, 0, false, 0);", op)
        else:
            self.line(f"load_cbuf_to_cb({b[0]} + ki * {t.nf * 256}, {b[1]}, {kk} * {t.step} + ki, {t.nf}, {t.kf}, 0, 0, "
                      "true, 0);", op)
        self.close()

    # ----- sync ---------------------------------------------------------------------------

    def flag_call(self, kind: str, set_pipe: str, wait_pipe: str, event: str) -> str:
        if self.a5:
            name = "asc_sync_notify" if kind == "set" else "asc_sync_wait"
            return f"{name}(PIPE_{set_pipe}, PIPE_{wait_pipe}, (event_t)({event}));" if not event.isdigit() else \
                f"{name}(PIPE_{set_pipe}, PIPE_{wait_pipe}, (event_t){event});"
        name = "set_flag" if kind == "set" else "wait_flag"
        ev = f"EVENT_ID{event}" if event.isdigit() else f"(event_t)({event})"
        return f"{name}(PIPE_{set_pipe}, PIPE_{wait_pipe}, {ev});"

    def print_flag(self, op: hivm.SetFlagOp | hivm.WaitFlagOp) -> None:
        if op.static_event_id is not None:
            event = str(op.static_event_id.data)
        elif op.dynamic_event_id is not None:
            event = self.expr(op.dynamic_event_id)
        else:
            raise op_error(op, "a flag without an event id")
        kind = "set" if isinstance(op, hivm.SetFlagOp) else "wait"
        self.line(self.flag_call(kind, op.set_pipe.pipe_name, op.wait_pipe.pipe_name, event), op)

    def print_barrier(self, op: hivm.PipeBarrierOp) -> None:
        pipe = op.pipe.pipe_name
        if self.a5:
            self.line("asc_sync();" if op.stalls_issue else f"asc_sync_pipe(PIPE_{pipe});", op)
        else:
            self.line(f"pipe_barrier(PIPE_{pipe});", op)

    def print_sync_block(self, op: hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp) -> None:
        assert self.side is not None and self.kernel is not None
        flag = str(op.static_flag_id.value.data) if op.static_flag_id is not None else None
        if flag is None:
            dynamic = op.dynamic_flag_id
            if dynamic is None:
                raise op_error(op, "a cross-core flag without an id")
            flag = self.expr(dynamic)
        setting = isinstance(op, hivm.SyncBlockSetOp)
        pipe = (op.tpipe if setting else op.pipe).pipe_name
        if not self.a5:
            if setting:
                self.line(f"ffts_cross_core_sync(PIPE_{pipe}, 1 | (2 << 4) | (({flag}) << 8));", op)
            else:
                self.line(f"wait_flag_dev({flag});", op)
            return
        call = "asc_sync_intra_arrive" if setting else "asc_sync_intra_wait"
        ids = [flag]
        # the cube addresses the second vector core's flags past the first one's
        if self.side.core == "CUBE" and self.kernel.n_vector == hardware.VECTOR_CORES_PER_CUBE:
            second = hardware.CROSS_CORE_FLAGS
            ids.append(f"{flag} + {second}" if not flag.isdigit() else str(int(flag) + second))
        for fid in ids:
            self.line(f"{call}(PIPE_{pipe}, {fid});", op)

    def print_ffts(self, op: hivm.SetFftsBaseAddrOp) -> None:
        self.line(f"{'asc_set_ffts_base_addr' if self.a5 else 'set_ffts_base_addr'}({self.expr(op.ffts_base_addr)});", op)

    # ----- vector ---------------------------------------------------------------------------

    def print_elementwise(self, op: Operation) -> None:
        assert isinstance(op, hivm.HivmPipeOp)
        srcs = list(cast(Sequence[SSAValue], op.src))  # type: ignore[attr-defined]
        dsts = list(cast(Sequence[SSAValue], op.dst))  # type: ignore[attr-defined]
        if _array(getattr(op, "transpose", None)) or _array(getattr(op, "broadcast", None)):
            raise op_error(op, "elementwise ops with transpose/broadcast attributes are not printed")
        dst = self.view(dsts[0])
        kind = _VECTOR_KIND[type(op)]
        memrefs = [self.view(v) for v in srcs if isinstance(v.type, MemRefType)]
        scalars = [self.expr(v) for v in srcs if not isinstance(v.type, MemRefType)]
        if scalars:
            kind += "_scalar"
        if isinstance(op, hivm.VCastOp):
            kind = f"cast_{memrefs[0].ctype}_{dst.ctype}"
        self.vector_call(op, kind, [dst] + memrefs, scalars)

    def vector_call(self, op: Operation, kind: str, views: list[View], scalars: list[str]) -> None:
        shapes = {v.shape for v in views}
        if len(shapes) != 1:
            raise op_error(op, f"operands of different shapes {sorted(shapes)} are not printed")
        name = _vector_name(kind, self.a5)
        if name is None:
            raise op_error(op, f"no {self.arch} vector call for '{op.name}' on these types")
        if all(v.contiguous() for v in views):
            self.vector_statement(op, name, [v.ptr for v in views], scalars, views[0].numel(), views[0].ctype,
                                  all(v.aligned for v in views))
            return
        dims = [_runtime_rows_of(op, v) for v in views]
        rows, cols = dims[0][0], dims[0][1]
        self.open(f"for (int32_t r = 0; r < {rows}; ++r)", op)
        self.vector_statement(op, name, [f"{v.ptr} + r * {d[2]}" for v, d in zip(views, dims, strict=True)], scalars, cols,
                              views[0].ctype, all(v.rows_aligned() for v in views))
        self.close()

    def vector_statement(self, op: Operation, name: str, ptrs: list[str], scalars: list[str], count: int | str,
                         ctype: str, aligned: bool) -> None:
        """One count-form vector op; on dav-3510 a call of its `__simd_vf__` helper (its
        unaligned form when an operand may start off a 32-byte boundary); dav-c220's
        intrinsics address UB in 32-byte blocks, so there such an operand is refused."""
        if name in ("asc_duplicate", "vector_dup"):
            args = ptrs + scalars
        else:
            args = ptrs[:2] + scalars + ptrs[2:] if scalars else ptrs
        if self.a5:
            if cce_vector.has_elementwise_helper(name):  # all but the conversions
                if ctype not in cce_vector.REGISTER:
                    raise op_error(op, f"no dav-3510 register type for {ctype} elements")
                name = self.use_helper(*cce_vector.elementwise_helper(name, ctype, aligned))
            self.line(f"{name}({', '.join(args)}, {count});", op)
            return
        if not aligned:
            raise op_error(op, "dav-c220 vector ops need every operand (and each row of one) to start 32-byte "
                               "aligned; this one may not: use rows of whole 32-byte blocks")
        self.line(f"set_vector_mask(0, {count});", op)
        # repeat 1 (counter mode: the mask holds the count), unit block strides, 8-block repeat strides
        strides = "1, 1, 1, 1, 8, 8, 8" if len(ptrs) == 3 else "1, 1, 1, 8, 8"
        self.line(f"{name}({', '.join(args)}, {strides});", op)

    def print_brc(self, op: hivm.VBrcOp) -> None:
        dst = self.view(op.dst)
        if not isinstance(op.src.type, MemRefType):
            self.vector_call(op, "duplicate", [dst], [self.expr(op.src)])
            return
        src = self.view(op.src)
        dims = _array(op.broadcast_dims)
        if len(dst.shape) == 2 and dims == (1,):
            self.row_broadcast(op, dst, src)
        elif len(dst.shape) == 2 and dims == (0,):
            drows, dcols, dstride = _rows_of(op, dst)
            self.open(f"for (int32_t r = 0; r < {drows}; ++r)", op)
            self.vector_statement(op, _vector_name("copy", self.a5) or "", [f"{dst.ptr} + r * {dstride}", src.ptr], [], dcols,
                                  dst.ctype, dst.rows_aligned() and src.aligned)
            self.close()
        else:
            raise op_error(op, f"broadcast along dims {list(dims)} of {list(dst.shape)} is not printed")

    def row_broadcast(self, op: hivm.VBrcOp, dst: View, src: View) -> None:
        rows, cols, dstride = _rows_of(op, dst)
        sstride = src.strides[0]
        _check_vector_types(op, dst, src)
        if self.a5:
            name = self.use_helper(*cce_vector.row_broadcast_helper(dst.ctype, dst.rows_aligned()))
            self.line(f"{name}({dst.ptr}, {src.ptr}, {rows}, {cols}, {dstride}, {sstride});", op)
            return
        esize = dst.esize
        per_block = 32 // esize
        if rows % 8 or (cols * esize) % 32 or (dstride * esize) % 32 or sstride != 1 or not (dst.aligned and src.aligned):
            raise op_error(op, f"dav-c220 broadcasts whole 32-byte blocks of 8 rows at a time (rows {rows}, cols {cols}, "
                               f"row stride {dstride}, source stride {sstride})")
        row_blocks = dstride * esize // 32
        carrier = f"uint{8 * esize}_t"
        # vbrcb: element k of repeat i fills the 32-byte block (i * dstRepStride + k * dstBlkStride)
        self.line(f"vbrcb((__ubuf__ {carrier} *){dst.ptr}, (__ubuf__ {carrier} *){src.ptr}, {row_blocks}, "
                  f"{8 * row_blocks}, {rows // 8});", op)
        if cols > per_block:  # the first block of each row along the row: source strides 0
            self.open(f"for (int32_t r = 0; r < {rows}; ++r)", op)
            self.line(f"set_vector_mask(0, {cols - per_block});", op)
            row = f"{dst.ptr} + r * {dstride}"
            self.line(f"vcopy({row} + {per_block}, {row}, 1, 1, 0, 8, 0);", op)
            self.close()

    def print_reduce(self, op: hivm.VReduceOp) -> None:
        kind = str(op.arith.data.value) if hasattr(op.arith.data, "value") else str(op.arith.data)
        kind = kind.lower().split(".")[-1]
        if kind not in ("sum", "max", "min") or len(op.dst) != 1:
            raise op_error(op, f"reduce <{kind}> is not printed")
        src, dst = self.view(op.src), self.view(op.dst[0])
        dims = _array(op.reduce_dims)
        last = len(src.shape) - 1
        if dims == (last,):
            self.row_reduce(op, kind, src, dst)
        elif dims == (0,) and len(src.shape) == 2:
            rows, cols, sstride = _rows_of(op, src)
            combine = {"sum": "add", "max": "max", "min": "min"}[kind]
            aligned = dst.aligned and src.rows_aligned()
            self.vector_statement(op, _vector_name("copy", self.a5) or "", [dst.ptr, src.ptr], [], cols, dst.ctype, aligned)
            self.open(f"for (int32_t r = 1; r < {rows}; ++r)", op)
            self.vector_statement(op, _vector_name(combine, self.a5) or "",
                                  [dst.ptr, dst.ptr, f"{src.ptr} + r * {sstride}"], [], cols, dst.ctype, aligned)
            self.close()
        else:
            raise op_error(op, f"reduce along dims {list(dims)} is not printed")

    def row_reduce(self, op: hivm.VReduceOp, kind: str, src: View, dst: View) -> None:
        rows, cols, sstride = _rows_of(op, src)
        dstride = dst.strides[0] if len(dst.shape) >= 1 and dst.shape[0] != 1 else 1
        _check_vector_types(op, dst, src)
        if self.a5:
            name = self.use_helper(*cce_vector.row_reduce_helper(kind, src.ctype, src.rows_aligned()))
            self.line(f"{name}({dst.ptr}, {src.ptr}, {rows}, {cols}, {sstride}, {dstride});", op)
            return
        self.c220_row_reduce(op, kind, (src, dst), (rows, cols, sstride, dstride))

    def c220_row_reduce(self, op: hivm.VReduceOp, kind: str, views: tuple[View, View],
                        sizes: tuple[int, int, int, int]) -> None:
        """One whole-reduce per 256-byte column chunk, repeat = rows (see cce_vector)."""
        src, dst = views
        rows, cols, sstride, dstride = sizes
        esize, per_repeat = src.esize, cce_vector.lanes(src.ctype)
        if src.ctype == "bfloat16_t" or not src.rows_aligned() or not dst.aligned or dstride != 1 or rows > 255 or (
                cols > per_repeat and cols % per_repeat):
            raise op_error(op, f"dav-c220 whole-reduce needs f32/f16 rows 32-byte aligned, one result per row and "
                               f"whole 256-byte repeats (rows {rows}, cols {cols}, row stride {sstride})")
        call, order, fold = cce_vector.C220_REDUCE[kind]
        row_blocks = sstride * esize // 32
        hi, lo = cce_vector.c220_lane_mask(min(cols, per_repeat))
        self.line("set_mask_norm();", op)
        self.line(f"set_vector_mask({hi}, {lo});", op)
        self.line(f"{call}({dst.ptr}, {src.ptr}, {rows}, 1, 1, {row_blocks}, {order});", op)
        if cols > per_repeat:
            scratch = self.ub_scratch(op, rows * esize)
            tmp = f"(__ubuf__ {src.ctype} *)({ARENA_NAME['ub']} + {scratch})"
            self.open(f"for (int32_t j = 1; j < {cols // per_repeat}; ++j)", op)
            self.line(f"{call}({tmp}, {src.ptr} + j * {per_repeat}, {rows}, 1, 1, {row_blocks}, {order});", op)
            self.line("set_mask_count();", op)
            self.line(f"set_vector_mask(0, {rows});", op)
            self.line(f"{fold}({dst.ptr}, {dst.ptr}, {tmp}, 1, 1, 1, 1, 8, 8, 8);", op)
            self.line("set_mask_norm();", op)
            self.line(f"set_vector_mask({hi}, {lo});", op)
            self.close()
        self.line("set_mask_count();", op)

    def ub_scratch(self, op: Operation, size: int) -> int:
        """Offset of `size` bytes at the top of UB, above every UB buffer of this side (their
        planned addresses bounded over the loops around them)."""
        assert self.side is not None
        capacity = self.chip.capacity["ub"]
        start = (capacity - size) // 32 * 32
        top = _ub_high_water(self.side.func_op, self.offsets)
        if top is None or top > start:
            raise op_error(op, f"no room for the {size}-byte dav-c220 reduction scratch at the top of UB "
                               f"(the buffers reach {top if top is not None else 'an unbounded address'})")
        return start


# --------------------------------------------------------------------------------------
# tables and helpers
# --------------------------------------------------------------------------------------


_VECTOR_KIND: dict[type[Operation], str] = {
    hivm.VAddOp: "add", hivm.VSubOp: "sub", hivm.VMulOp: "mul", hivm.VDivOp: "div", hivm.VMaxOp: "max",
    hivm.VMinOp: "min", hivm.VExpOp: "exp", hivm.VLnOp: "ln", hivm.VAbsOp: "abs", hivm.VReluOp: "relu",
    hivm.VSqrtOp: "sqrt", hivm.VRsqrtOp: "rsqrt", hivm.VRecOp: "rec", hivm.VCastOp: "cast",
}

_A5_VECTOR = {
    "add": "asc_add", "sub": "asc_sub", "mul": "asc_mul", "div": "asc_div", "max": "asc_max", "min": "asc_min",
    "exp": "asc_exp", "ln": "asc_log", "abs": "asc_abs", "relu": "asc_relu", "sqrt": "asc_sqrt",
    "rsqrt": "asc_rsqrt", "rec": "asc_reciprocal", "copy": "asc_copy", "duplicate": "asc_duplicate",
    "add_scalar": "asc_add_scalar", "sub_scalar": "asc_sub_scalar", "mul_scalar": "asc_mul_scalar",
    "div_scalar": "asc_div_scalar", "max_scalar": "asc_max_scalar", "min_scalar": "asc_min_scalar",
    "cast_float_bfloat16_t": "asc_float2bfloat16", "cast_float_half": "asc_float2half",
    "cast_bfloat16_t_float": "asc_bfloat162float", "cast_half_float": "asc_half2float",
}
_C220_VECTOR = {
    "add": "vadd", "sub": "vsub", "mul": "vmul", "div": "vdiv", "max": "vmax", "min": "vmin", "exp": "vexp",
    "ln": "vln", "abs": "vabs", "relu": "vrelu", "sqrt": "vsqrt", "rsqrt": "vrsqrt", "rec": "vrec", "copy": "vcopy",
    "duplicate": "vector_dup", "add_scalar": "vadds", "sub_scalar": "vsubs", "mul_scalar": "vmuls",
    "div_scalar": "vdivs", "max_scalar": "vmaxs", "min_scalar": "vmins",
    "cast_float_bfloat16_t": "vconv_f322bf16r", "cast_float_half": "vconv_f322f16r",
    "cast_bfloat16_t_float": "vconv_bf162f32", "cast_half_float": "vconv_f162f32",
}


def _check_vector_types(op: Operation, dst: View, src: View) -> None:
    if dst.ctype != src.ctype or dst.ctype not in cce_vector.REGISTER:
        raise op_error(op, f"a {src.ctype} -> {dst.ctype} reduction or broadcast is not printed")


def _ub_high_water(fn: func.FuncOp, offsets: dict[Operation, int]) -> int | None:
    """The end of the highest UB buffer of `fn` (None if an address has no static bound)."""
    top = 0
    for op in fn.walk():
        if isinstance(op, memref.AllocOp | hivm.PointerCastOp) and hivm.scope_of(op.results[0]) == "ub":
            t = _memref(op.results[0])
            size = _buffer_bytes(op, t)
            if isinstance(op, memref.AllocOp):
                base = offsets.get(op)
            else:
                base = _upper_bound(op.addrs[0]) if len(op.addrs) == 1 else None
            if base is None:
                return None
            top = max(top, base + size)
    return top


def _upper_bound(value: SSAValue, depth: int = 0) -> int | None:
    """A static upper bound of a non-negative index/integer expression: constants, + * and
    remainders of them, casts, and loop induction variables (bounded by their loop)."""
    if depth > 32:
        return None
    owner = value.owner
    if isinstance(owner, Block):
        loop = owner.parent_op()
        if isinstance(loop, scf.ForOp) and value is owner.args[0]:
            ub = _upper_bound(loop.ub, depth + 1)
            return None if ub is None else ub - 1
        return None
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if owner.name in ("arith.remui", "arith.remsi"):  # below the divisor, whatever the dividend
        divisor = _upper_bound(owner.operands[1], depth + 1)
        return None if divisor is None or divisor <= 0 else divisor - 1
    bounds = [_upper_bound(v, depth + 1) for v in owner.operands]
    if any(b is None for b in bounds) or any(cast(int, b) < 0 for b in bounds):
        return None
    b = cast(list[int], bounds)
    if owner.name in ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi"):
        return b[0]
    if owner.name == "arith.addi":
        return b[0] + b[1]
    if owner.name == "arith.muli":
        return b[0] * b[1]
    if owner.name in ("arith.divui", "arith.divsi"):
        return b[0]
    if isinstance(owner, arith.SelectOp):
        return max(b[1], b[2])
    return None


def _multiple_of(value: SSAValue, m: int, depth: int = 0) -> bool:
    """Whether the index/integer `value` is statically a multiple of `m`: constants, sums
    and selects of multiples, products with a multiple, casts."""
    if m <= 1:
        return True
    owner = value.owner
    if depth > 32 or isinstance(owner, Block):
        return False
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data % m == 0
    operands = list(owner.operands)
    if owner.name in ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi"):
        return _multiple_of(operands[0], m, depth + 1)
    if owner.name in ("arith.addi", "arith.subi"):
        return all(_multiple_of(v, m, depth + 1) for v in operands)
    if owner.name == "arith.muli":
        return any(_multiple_of(v, m, depth + 1) for v in operands)
    if isinstance(owner, arith.SelectOp):
        return _multiple_of(operands[1], m, depth + 1) and _multiple_of(operands[2], m, depth + 1)
    return False


def _vector_name(kind: str, a5: bool) -> str | None:
    return (_A5_VECTOR if a5 else _C220_VECTOR).get(kind)


def _array(attr: object) -> tuple[int, ...]:
    if attr is None:
        return ()
    values = getattr(attr, "get_values", None)
    return tuple(int(v) for v in values()) if values is not None else ()


def _runtime_rows_of(op: Operation, view: View) -> tuple[int | str, int | str, int]:
    """(rows, cols, row stride) with runtime rows/cols as C expressions."""
    try:
        return view.rows()
    except ValueError as err:
        raise op_error(op, f"cannot print this access: {err}") from err


def _rows_of(op: Operation, view: View) -> tuple[int, int, int]:
    rows, cols, stride = _runtime_rows_of(op, view)
    if not isinstance(rows, int) or not isinstance(cols, int):
        raise op_error(op, "an operand of runtime size is not printed for this op")
    return rows, cols, stride


def _static_shape(op: Operation, view: View) -> tuple[int, ...]:
    if view.is_dynamic():
        raise op_error(op, "an operand of runtime size is not printed for this op")
    return tuple(int(d) for d in view.shape)


def _bursts(op: Operation, src: View, dst: View) -> tuple[int | str, int | str, int, int]:
    """(nBurst, burst bytes, src stride bytes, dst stride bytes) of a 2D copy (counts
    of runtime sizes as C expressions; the strides are static)."""
    if src.shape != dst.shape:
        raise op_error(op, f"copy between shapes {list(src.shape)} and {list(dst.shape)} is not printed")
    if src.contiguous() and dst.contiguous():
        length = _product([src.numel(), src.esize])
        if isinstance(length, str):  # one burst of runtime length; the strides do not matter
            return 1, length, 0, 0
        return 1, length, length, length
    s_rows, cols, s_stride = _runtime_rows_of(op, src)
    _, _, d_stride = _runtime_rows_of(op, dst)
    return s_rows, _product([cols, src.esize]), s_stride * src.esize, d_stride * dst.esize


def _mixed(static: Sequence[int], dynamic: Sequence[str]) -> list[int | str]:
    values: list[int | str] = []
    it = iter(dynamic)
    for s in static:
        values.append(next(it) if s == DYNAMIC_INDEX else int(s))
    return values


def _paren(value: int | str) -> str:
    text = str(value)
    return text if re.fullmatch(r"[A-Za-z_0-9]+", text) else f"({text})"


def _identifier(hint: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", hint)
    if not name or name[0].isdigit():
        name = "v" + name
    return name


def _unique(name: str, used: set[str]) -> str:
    candidate = name
    suffix = 1
    while candidate in used or candidate in _RESERVED_IDENTIFIERS or candidate.startswith("asc_"):
        suffix += 1
        candidate = f"{name}_{suffix}"
    used.add(candidate)
    return candidate


def _float_literal(value: float) -> str:
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "-INFINITY"
    text = repr(float(value))
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def _constant(op: arith.ConstantOp) -> str:
    value = op.value
    if isinstance(value, FloatAttr):
        return _float_literal(value.value.data)
    if isinstance(value, IntegerAttr):
        if isinstance(value.type, IntegerType) and value.type.width.data == 1:
            return "true" if value.value.data else "false"
        v = value.value.data
        return f"({v})" if v < 0 else str(v)
    raise op_error(op, f"constant {value} is not printed")


_BINARY_C = {
    "arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.divsi": "/", "arith.remsi": "%",
    "arith.andi": "&", "arith.ori": "|", "arith.xori": "^", "arith.shli": "<<", "arith.shrsi": ">>",
    "arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/",
}
_UNSIGNED_C = {"arith.divui": "/", "arith.remui": "%", "arith.shrui": ">>"}
_CMPI = ["==", "!=", "<", "<=", ">", ">=", "<", "<=", ">", ">="]


def _is_same_type_cast(op: Operation, ctype: str) -> bool:
    return (op.name in ("arith.index_cast", "arith.index_castui") and len(op.operands) == 1
            and c_element_type(op.operands[0].type) == ctype)


def _fold_integers(name: str, x: list[str]) -> str | None:
    """+, - and * of two integer literals, / and % of non-negative ones (a version index of
    a peeled iteration), as C would compute them (64-bit)."""
    ops = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
           "arith.divui": lambda a, b: a // b, "arith.remui": lambda a, b: a % b,
           "arith.divsi": lambda a, b: a // b, "arith.remsi": lambda a, b: a % b}
    if name not in ops or len(x) != 2:
        return None
    values = [re.fullmatch(r"\(?(-?\d+)\)?", v) for v in x]
    if not all(values):
        return None
    a, b = (int(cast(re.Match, v).group(1)) for v in values)
    if name.startswith(("arith.div", "arith.rem")) and (a < 0 or b <= 0):
        return None
    result = ops[name](a, b)
    return f"({result})" if result < 0 else str(result)


def _arith_expression(op: Operation, x: list[str]) -> str | None:
    name = op.name
    if name in _BINARY_C:
        return f"{_paren(x[0])} {_BINARY_C[name]} {_paren(x[1])}"
    if name in _UNSIGNED_C:
        ctype = c_element_type(op.results[0].type)
        return f"({ctype})((uint64_t){_paren(x[0])} {_UNSIGNED_C[name]} (uint64_t){_paren(x[1])})"
    if isinstance(op, arith.CmpiOp):
        predicate = op.predicate.value.data
        if predicate >= 6:
            return f"(uint64_t){_paren(x[0])} {_CMPI[predicate]} (uint64_t){_paren(x[1])}"
        return f"{_paren(x[0])} {_CMPI[predicate]} {_paren(x[1])}"
    if isinstance(op, arith.SelectOp):
        return f"{_paren(x[0])} ? {_paren(x[1])} : {_paren(x[2])}"
    extremes: dict[str, Callable[[list[str]], str]] = {
        "arith.maxsi": lambda v: f"({v[0]} > {v[1]} ? {v[0]} : {v[1]})",
        "arith.minsi": lambda v: f"({v[0]} < {v[1]} ? {v[0]} : {v[1]})",
        "arith.ceildivsi": lambda v: f"(({v[0]}) + ({v[1]}) - 1) / ({v[1]})",
        "arith.floordivsi": lambda v: f"(({v[0]}) / ({v[1]}) - ((({v[0]}) % ({v[1]}) != 0) && "
                                      f"((({v[0]}) < 0) != (({v[1]}) < 0))))",
    }
    if name in extremes:
        return extremes[name](x)
    if name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci",
                "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.extf", "arith.truncf"):
        return f"({c_element_type(op.results[0].type)}){_paren(x[0])}"
    return None


_HANDLERS: dict[type[Operation], Callable[[CcePrinter, Operation], None]] = {
    scf.ForOp: lambda p, op: p.print_for(cast(scf.ForOp, op)),
    scf.IfOp: lambda p, op: p.print_if(cast(scf.IfOp, op)),
    memref.AllocOp: lambda p, op: p.print_alloc(cast(memref.AllocOp, op)),
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
    hivm.MmadL1Op: lambda p, op: p.print_mmad(cast(hivm.MmadL1Op, op)),
    hivm.SetFlagOp: lambda p, op: p.print_flag(cast(hivm.SetFlagOp, op)),
    hivm.WaitFlagOp: lambda p, op: p.print_flag(cast(hivm.WaitFlagOp, op)),
    hivm.PipeBarrierOp: lambda p, op: p.print_barrier(cast(hivm.PipeBarrierOp, op)),
    hivm.SyncBlockSetOp: lambda p, op: p.print_sync_block(cast(hivm.SyncBlockSetOp, op)),
    hivm.SyncBlockWaitOp: lambda p, op: p.print_sync_block(cast(hivm.SyncBlockWaitOp, op)),
    hivm.SetFftsBaseAddrOp: lambda p, op: p.print_ffts(cast(hivm.SetFftsBaseAddrOp, op)),
    hivm.VBrcOp: lambda p, op: p.print_brc(cast(hivm.VBrcOp, op)),
    hivm.VReduceOp: lambda p, op: p.print_reduce(cast(hivm.VReduceOp, op)),
    **{t: CcePrinter.print_elementwise for t in _VECTOR_KIND},
}


# ops printed with operands of runtime size (counts as C expressions)
_RUNTIME_SIZE_OPS = frozenset({hivm.LoadOp, hivm.StoreOp, hivm.CopyOp, *_VECTOR_KIND})


def default_arch(module: ModuleOp) -> str:
    return resolve_chip(module).arch


def print_cce(module: ModuleOp, arch: str | None = None, chip_file: str | None = None) -> str:
    """The CCE translation unit of `module` (hivm level) for `arch` (default: its chip's);
    `chip_file` names the chip when the module's `hacc.target` does not (a chip file that
    extends a known chip keeps that chip's target name)."""
    chip = resolve_chip(module, None, chip_file)
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
