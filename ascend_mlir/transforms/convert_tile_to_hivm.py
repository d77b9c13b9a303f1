"""`convert-tile-to-hivm`: tile-level kernels -> unscheduled HIVM.

Each tile op becomes the HIVM op of its hardware path, chosen by the scope pair:

  tile.copy gm->ub    hivm.hir.load                      (MTE2, vector core)
  tile.copy ub->gm    hivm.hir.store                     (MTE3, vector core)
  tile.copy gm->cbuf  hivm.hir.nd2nz {dst_continuous}    (MTE2, cube core; ND -> NZ layout)
  tile.copy cc->X     hivm.hir.fixpipe {dma_mode = nz2nd} (FIX; X = gm, cbuf, ub (950));
                      the dual copy (ub destination half as tall) adds dual_dst_mode = <ROW_SPLIT>
  tile.copy ub->ub    hivm.hir.copy                      (V)
  tile.copy ub->cbuf  hivm.hir.copy                      (MTE3, 950)
  tile.matmul         hivm.hir.mmadL1 (M, K, N as index constants; {b_transpose})
  tile.add ...        hivm.hir.vadd ... (elementwise v*), tile.cast -> vcast,
  tile.fill           hivm.hir.vbrc (scalar source), tile.broadcast -> vbrc broadcast_dims,
  tile.reduce         hivm.hir.vreduce reduce_dims
  tile.block_idx      hivm.hir.get_block_idx -> i64 + arith.index_cast
  tile.sub_block_idx  hivm.hir.get_sub_block_idx -> i64 + arith.index_cast

Kernel functions (`tile.kernel`) become device entries: `hacc.entry`,
`hacc.function_kind = #hacc.function_kind<DEVICE>`, `hivm.func_core_type` AIC / AIV / MIX
from the cores their ops run on; `tile.grid` is kept as `ascend.grid` and the loop
attribute `tile.num_stages` as `ascend.num_stages` (our own attributes after this pass
all start with `ascend.`; the npuir printer strips them). The module gets `hacc.target`:
the `chip=` option sets it, else an existing one is kept, else the default chip's.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FileLineColLoc,
    IndexType,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ascend_mlir import hardware
from ascend_mlir.analysis.hardware_checks import check_chip_limits
from ascend_mlir.analysis.kernel_layout import FUNC_CORE_TYPE, core_type_attr, inferred_kind
from ascend_mlir.analysis.size_bounds import buffer_bounded_sizes
from ascend_mlir.diagnostics import emit_remark, op_error
from ascend_mlir.dialects import ascend, hacc, hivm, tile

GRID_ATTR = ascend.GRID
NUM_STAGES_ATTR = ascend.NUM_STAGES

# tile.<kind> -> hivm.hir.v<kind>, built as Op(ins..., dest) (the vector ops' common
# constructor): a tile op over an existing hivm vector op needs no entry here
_HIVM_BY_NAME: dict[str, type[Operation]] = {t.name: t for t in (*hivm.BINARY_OPS, *hivm.UNARY_OPS)}


def _hivm_op_of(tile_op: type[tile.TileOp]) -> Callable[..., Operation]:
    return _HIVM_BY_NAME["hivm.hir.v" + tile_op.name.removeprefix("tile.")]


_BINARY: dict[type[tile.BinaryOp], Callable[..., Operation]] = {t: _hivm_op_of(t) for t in tile.ELEMENTWISE_BINARY}
_UNARY: dict[type[tile.UnaryOp], Callable[..., Operation]] = {t: _hivm_op_of(t) for t in tile.ELEMENTWISE_UNARY}

_REDUCE_KIND = {
    tile.ReduceKind.SUM: hivm.ReduceOpKind.sum,
    tile.ReduceKind.MAX: hivm.ReduceOpKind.max,
    tile.ReduceKind.MIN: hivm.ReduceOpKind.min,
}


def _replace(
    rewriter: PatternRewriter,
    op: Operation,
    new: Operation | list[Operation],
    new_results: list | None = None,
) -> None:
    """`rewriter.replace`, keeping the tile op's source location on what replaces it, so
    later passes still report the user's line (a .mlir line or a Python DSL line)."""
    for new_op in new if isinstance(new, list) else [new]:
        new_op.location = op.location
    rewriter.replace(op, new, new_results)


@dataclass
class _CopyToHivm(RewritePattern):
    """tile.copy -> the DMA op of its scope pair, if the chip has that path."""

    available_paths: frozenset[tuple[str, str]]
    chip_name: str

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.CopyOp, rewriter: PatternRewriter) -> None:
        pair = op.scopes
        # ub -> ub runs on the vector pipe, not a DMA path; every chip has it
        if pair != ("ub", "ub") and pair not in self.available_paths:
            raise op_error(
                op, f"from {pair[0]} to {pair[1]} has no hardware path on {self.chip_name}"
            )
        src, dst = op.source, op.dest
        path = hardware.COPY_PATHS.get(cast(tuple[str, str], pair))
        new: Operation
        match path.op if path is not None else None:
            case "load":
                new = hivm.LoadOp(src, dst)
            case "store":
                new = hivm.StoreOp(src, dst)
            case "nd2nz":
                new = hivm.Nd2NzOp(src, dst, dst_continuous=True)
            case "fixpipe":
                new = hivm.FixpipeOp(
                    src,
                    dst,
                    dma_mode=hivm.FixpipeDMAMode.NZ2ND,
                    dual_dst_mode=hivm.FixpipeDualDstMode.ROW_SPLIT if op.is_dual() else None,
                )
            case "copy":
                new = hivm.CopyOp(src, dst)
            case _:  # the tile verifier rejects every other pair
                raise op_error(op, f"from {pair[0]} to {pair[1]} is not a legal copy")
        _replace(rewriter, op, new)


class _ElementwiseToHivm(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tile.BinaryOp):
            _replace(rewriter, op, _BINARY[type(op)](op.lhs, op.rhs, op.dest))
        elif isinstance(op, tile.CastOp):
            _replace(rewriter, op, hivm.VCastOp(op.source, op.dest))
        elif isinstance(op, tile.UnaryOp):
            _replace(rewriter, op, _UNARY[type(op)](op.source, op.dest))
        elif isinstance(op, tile.FillOp):
            _replace(rewriter, op, hivm.VBrcOp(op.value, op.dest))
        elif isinstance(op, tile.BroadcastOp):
            _replace(
                rewriter, op, hivm.VBrcOp(op.source, op.dest, broadcast_dims=op.broadcast_dims)
            )
        elif isinstance(op, tile.ReduceOp):
            kind = _REDUCE_KIND[op.kind.data]
            _replace(rewriter, op, hivm.VReduceOp(kind, op.source, op.dest, op.reduce_dims))


class _MatmulToHivm(RewritePattern):
    """tile.matmul -> mmadL1 with the real M, K, N: index constants, or on a partial
    tile (a view of runtime size) the SSA size of that view (the last K step of a K
    not a multiple of the K tile multiplies only the K left)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.MatmulOp, rewriter: PatternRewriter) -> None:
        # right before the op, not hoisted: bishengir-compile 1.2.0 crashes on an mmadL1
        # in a loop whose init is computed and whose sizes are defined outside the loop
        constants: list[Operation] = []
        sizes: list[SSAValue] = []
        for value, hint in zip(_matmul_sizes(op), ("real_m", "real_k", "real_n"), strict=True):
            if isinstance(value, SSAValue):
                sizes.append(value)
                continue
            constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
            constant.result.name_hint = hint
            constant.location = op.location
            constants.append(constant)
            sizes.append(constant.result)
        if constants:
            rewriter.insert(constants, InsertPoint.before(op))
        mmad = hivm.MmadL1Op(
            op.a,
            op.b,
            op.init,
            sizes[0],
            sizes[1],
            sizes[2],
            op.c,
            b_transpose=op.is_transpose_b,
        )
        _replace(rewriter, op, mmad)


def _remark_buffer_bounded_sizes(module: ModuleOp) -> None:
    """Say at the view where whether a partial tile fits its buffer cannot be decided at
    compile time (its size has no static bound of its own, e.g. `n - off` without a
    `min`): the schedule plans the whole buffer and the reference checks the size when
    the kernel runs."""
    for view, dim, extent in buffer_bounded_sizes(module):
        emit_remark(view, f"partial tile size in dim {dim} has no static bound of its own: only its buffer "
                          f"({extent} elements) bounds it; a larger runtime size is an error at run time "
                          f"(bound it with arith.minsi against the tile size)")


def _dimension_size(value: SSAValue, dim: int) -> SSAValue | None:
    """The SSA size of dimension `dim` of a view of runtime size (a subview's dynamic
    size operand), None when it is not one."""
    owner = value.owner
    if not isinstance(owner, memref.SubviewOp) or len(owner.static_sizes.get_values()) != 2:
        return None
    static = owner.static_sizes.get_values()
    if static[dim] != DYNAMIC_INDEX:
        return None
    return owner.sizes[sum(1 for d in static[:dim] if d == DYNAMIC_INDEX)]


def _matmul_sizes(op: tile.MatmulOp) -> list[int | SSAValue]:
    """(M, K, N) of a matmul: a static extent, or the runtime size of the view that has
    it (M from a or c, K from a or b, N from b or c)."""
    m, k, n = op.mkn()
    b_n, b_k = (0, 1) if op.is_transpose_b else (1, 0)
    where = {"M": [(op.a, 0), (op.c, 0)], "K": [(op.a, 1), (op.b, b_k)], "N": [(op.b, b_n), (op.c, 1)]}
    sizes: list[int | SSAValue] = []
    for name, static in (("M", m), ("K", k), ("N", n)):
        if static != DYNAMIC_INDEX:
            sizes.append(static)
            continue
        found = next((s for v, d in where[name] if (s := _dimension_size(v, d)) is not None), None)
        if found is None:
            raise op_error(op, f"the runtime {name} of this matmul is no subview's size: make a, b or c a "
                               f"memref.subview of static rank 2 with that size")
        sizes.append(found)
    return sizes


# tile's index queries -> the hivm op that reads the i64 and the hint of its result
_INDEX_QUERIES: dict[type[Operation], tuple[Callable[[], Operation], str]] = {
    tile.BlockIdxOp: (hivm.GetBlockIdxOp, "block"),
    tile.SubBlockIdxOp: (hivm.GetSubBlockIdxOp, "sub_block"),
}


class _IndexQueryToHivm(RewritePattern):
    """tile.block_idx / tile.sub_block_idx -> its hivm query (i64) and an index cast."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) not in _INDEX_QUERIES:
            return
        make, default_hint = _INDEX_QUERIES[type(op)]
        query = make()
        cast = arith.IndexCastOp(query.results[0], IndexType())
        query.results[0].name_hint = (op.results[0].name_hint or default_hint) + "_i64"
        _replace(rewriter, op, [query, cast], [cast.result])


def _mark_kernel(func_op: func.FuncOp) -> None:
    attrs = func_op.attributes
    grid = attrs.pop(tile.GRID_ATTR, None)
    attrs.pop(tile.KERNEL_ATTR, None)
    attrs[hacc.ENTRY] = UnitAttr()
    attrs[hacc.FUNCTION_KIND] = hacc.FunctionKindAttr(hacc.FunctionKind.DEVICE)
    attrs[FUNC_CORE_TYPE] = core_type_attr(inferred_kind(func_op))
    if grid is not None:
        if not isinstance(grid, IntegerAttr) or grid.value.data < 1:
            raise op_error(func_op, f"'{tile.GRID_ATTR}' must be a positive integer, got {grid}")
        attrs[GRID_ATTR] = IntegerAttr(grid.value.data, i64)


def _rename_loop_attrs(module: ModuleOp) -> None:
    for op in module.walk():
        if isinstance(op, scf.ForOp) and tile.NUM_STAGES_ATTR in op.attributes:
            stages = op.attributes.pop(tile.NUM_STAGES_ATTR)
            if not isinstance(stages, IntegerAttr) or stages.value.data < 1:
                raise op_error(
                    op, f"'{tile.NUM_STAGES_ATTR}' must be a positive integer, got {stages}"
                )
            op.attributes[NUM_STAGES_ATTR] = stages


def _set_target(module: ModuleOp, chip_option: str | None):
    """Resolve the chip (option > module attribute > default) and record `hacc.target`."""
    from ascend_mlir.chips import ChipError, resolve_chip, set_module_target

    try:
        chip = resolve_chip(module, chip_option)
    except ChipError as err:
        raise err.pass_failure("convert-tile-to-hivm: ") from None
    if chip_option:
        # a bishengir target name given as the option is kept as spelled
        set_module_target(module, chip, chip_option if chip_option in chip.hacc_targets else None)
    elif hacc.TARGET not in module.attributes:
        set_module_target(module, chip)
    return chip


def _keep_locations() -> PatternRewriterListener:
    """A listener giving every op a pattern inserts the location of the tile op it
    replaces, so printers (cce: `// file:line` per statement) and diagnostics can still
    name the user's line."""
    inserted: list[Operation] = []

    def on_insert(new: Operation) -> None:
        inserted.append(new)

    def on_replace(old: Operation, new_results) -> None:
        for new in inserted:
            if not isinstance(new.location, FileLineColLoc):
                new.location = old.location
        inserted.clear()

    return PatternRewriterListener(
        operation_insertion_handler=[on_insert], operation_replacement_handler=[on_replace]
    )


@dataclass(frozen=True)
class ConvertTileToHivmPass(ModulePass):
    """Lower tile ops to HIVM ops, mark kernels as device entries, record the target."""

    name = "convert-tile-to-hivm"

    chip: str | None = None
    """Chip name (ascend950, ascend910b), bishengir target name or chip file."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        chip = _set_target(op, self.chip)
        # the first pass of every pipeline: what the chip cannot hold or compute stops here
        check_chip_limits(op, chip)
        _remark_buffer_bounded_sizes(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    _CopyToHivm(frozenset(chip.latency.copy), chip.name),
                    _ElementwiseToHivm(),
                    _MatmulToHivm(),
                    _IndexQueryToHivm(),
                ],
                # a lowering keeps the user's code; removing dead ops is canonicalize's job
                dce_enabled=False,
            ),
            apply_recursively=False,
            listener=_keep_locations(),
        ).rewrite_module(op)
        leftover = next((o for o in op.walk() if o.dialect_name() == "tile"), None)
        if leftover is not None:
            raise op_error(leftover, "has no lowering to hivm")
        for func_op in op.walk():
            if isinstance(func_op, func.FuncOp) and tile.is_kernel(func_op):
                _mark_kernel(func_op)
            elif isinstance(func_op, func.FuncOp):
                func_op.attributes.pop(tile.KERNEL_ATTR, None)  # `= false`: no device entry
        _rename_loop_attrs(op)
