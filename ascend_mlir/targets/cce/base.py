"""The base of the cce printer: output lines, values and views of one core side, scalar
code (arith, loops, ifs) and memory (allocs, pointer_casts, subviews).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascend_mlir.chips import A5_ARCH, Chip, ChipError
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hivm
from ascend_mlir.targets.cce.kernels import Kernel, Side, source_location
from ascend_mlir.targets.cce.values import (
    ALIGN_BYTES,
    ARCHS,
    ARENA_NAME,
    SCOPE_QUALIFIER,
    View,
    arith_expression,
    c_element_type,
    constant_text,
    fold_integers,
    identifier,
    is_same_type_cast,
    memref_of,
    mixed,
    multiple_of,
    paren,
    product,
    row_major,
    static_strides,
    unique,
)


class PrinterBase:
    """State and output of the cce printer, scalar code and memory views; the concerns
    (DMA, cube, sync, vector) are mixins over it, put together in printer.CcePrinter."""

    # the handler of each op type, set by printer.CcePrinter
    handlers: ClassVar[dict[type[Operation], Callable[[Any, Operation], None]]] = {}
    # the ops printed with operands of runtime size, set by printer.CcePrinter
    runtime_size_ops: ClassVar[frozenset[type[Operation]]] = frozenset()

    def __init__(self, arch: str, module: ModuleOp, chip: Chip):
        if arch not in ARCHS:
            raise ValueError(f"unknown cce arch '{arch}' (expected one of {', '.join(ARCHS)})")
        self.arch = arch
        self.module = module
        self.chip = chip
        self.lines: list[str] = []
        self.indent = 0
        self.side: Side | None = None
        self.kernel: Kernel | None = None
        self.helpers: dict[str, list[str]] = {}

    @property
    def a5(self) -> bool:
        return self.arch == A5_ARCH

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

    def use_helper(self, name: str, lines: list[str]) -> str:
        self.helpers.setdefault(name, lines)
        return name

    def print_block(self, block: Block) -> None:
        assert self.side is not None
        for op in block.ops:
            if op in self.side.ops:
                self.print_op(op)

    def print_op(self, op: Operation) -> None:
        handler = self.handlers.get(type(op))
        if handler is None:
            if isinstance(op, arith.ConstantOp):
                self.side_expr(op.result, constant_text(op))
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
        if type(op) in self.runtime_size_ops or not isinstance(op, hivm.HivmPipeOp) or self.side is None:
            return
        for value in op.operands:
            view = self.side.views.get(value)
            if view is not None and view.is_dynamic():
                raise op_error(op, f"an operand of runtime size ({list(view.shape)}) is not printed for this op")

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
        name = unique(identifier(value.name_hint or "v"), self.side.names)
        self.line(f"const {ctype} {name} = {init};", op)
        self.side.exprs[value] = name
        return name

    def view(self, value: SSAValue) -> View:
        assert self.side is not None
        if value not in self.side.views:
            raise ValueError(f"memref {value} has no pointer on this side")
        return self.side.views[value]

    def declare_view(self, value: SSAValue, scope: str, element: Attribute, init: str, op: Operation,
                     shape: tuple[int | str, ...], strides: tuple[int | str, ...], aligned: bool) -> None:
        assert self.side is not None
        name = unique(identifier(value.name_hint or "buf"), self.side.names)
        q, c = SCOPE_QUALIFIER[scope], c_element_type(element)
        self.line(f"{q} {c} *{name} = {init};", op)
        self.side.views[value] = View(name, shape, strides, element, scope, aligned)

    def print_arith(self, op: Operation) -> None:
        result = op.results[0]
        ctype = c_element_type(result.type)
        operands = [self.expr(v) for v in op.operands]
        if is_same_type_cast(op, ctype):  # index <-> i64 casts are one C type: no new name
            self.side_expr(result, operands[0])
            return
        folded = fold_integers(op.name, operands)
        if folded is not None:  # e.g. `0 * 128` of a peeled first iteration
            self.side_expr(result, folded)
            return
        text = arith_expression(op, operands)
        if text is None:
            raise op_error(op, f"the cce printer does not handle '{op.name}'")
        self.declare(result, ctype, text, op)

    def print_for(self, op: scf.ForOp) -> None:
        if op.iter_args:
            raise op_error(op, "loop-carried values (iter_args) are not printed")
        iv = op.body.block.args[0]
        assert self.side is not None
        name = unique(identifier(iv.name_hint or "i"), self.side.names)
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

    def print_pointer_cast(self, op: hivm.PointerCastOp) -> None:
        t = memref_of(op.result)
        scope = hivm.scope_of(t) or "ub"
        if len(op.addrs) != 1:
            raise op_error(op, "a pointer_cast with several addresses needs its version index first")
        q, c = SCOPE_QUALIFIER[scope], c_element_type(t.get_element_type())
        self.declare_view(op.result, scope, t.get_element_type(),
                          f"({q} {c} *)({ARENA_NAME[scope]} + {self.expr(op.addrs[0])})", op,
                          tuple(t.get_shape()), static_strides(t), multiple_of(op.addrs[0], ALIGN_BYTES))

    def print_subview(self, op: memref.SubviewOp) -> None:
        source = self.view(op.source)
        offsets = mixed(op.static_offsets.get_values(), [self.expr(v) for v in op.offsets])
        sizes = mixed(op.static_sizes.get_values(), [self.expr(v) for v in op.sizes])
        steps = op.static_strides.get_values()
        if any(s == DYNAMIC_INDEX for s in steps):
            raise op_error(op, "dynamic subview strides are not printed")
        terms = []
        aligned = source.aligned
        dynamic = iter(op.offsets)
        for off, stride in zip(offsets, source.strides, strict=True):
            if isinstance(stride, str):  # a runtime GM row pitch: alignment unknown past row 0
                aligned = aligned and off in (0, "0")
                if not isinstance(off, int):
                    next(dynamic)
            elif isinstance(off, int):
                aligned = aligned and (off * stride * source.esize) % ALIGN_BYTES == 0
            else:  # the offset must be a multiple of the blocks one step leaves unaligned
                need = ALIGN_BYTES // math.gcd(ALIGN_BYTES, stride * source.esize)
                aligned = aligned and multiple_of(next(dynamic), need)
            if off in (0, "0"):
                continue
            terms.append(f"{off}" if stride == 1 else f"{paren(off)} * {paren(stride)}")
        result = memref_of(op.result)
        shape: tuple[int | str, ...] = tuple(result.get_shape())
        kept = [i for i, s in enumerate(sizes) if not (s == 1 and len(shape) < len(sizes))]
        if len(kept) != len(shape):  # rank-reducing with some unit dims kept: follow the result type
            kept = list(range(len(sizes) - len(shape), len(sizes)))
        # a runtime size (a partial tile) is its C expression
        shape = tuple(sizes[i] if d == DYNAMIC_INDEX else d for i, d in zip(kept, shape, strict=True))
        strides = tuple(product([source.strides[i], int(steps[i])]) for i in kept)
        init = f"{source.ptr} + {' + '.join(terms)}" if terms else source.ptr
        self.declare_view(op.result, source.scope, source.element, init, op, shape, strides, aligned)

    def print_view_alias(self, op: Operation) -> None:
        source = self.view(op.operands[0])
        t = memref_of(op.results[0])
        shape = tuple(t.get_shape())
        if isinstance(op, memref.CastOp | memref.MemorySpaceCastOp):
            strides = source.strides if len(shape) == len(source.shape) else row_major(shape)
        elif source.contiguous():
            strides = row_major(shape)
        else:
            raise op_error(op, "reshaping a non-contiguous view is not printed")
        assert self.side is not None
        self.side.views[op.results[0]] = View(source.ptr, shape, strides, source.element, source.scope,
                                              source.aligned)
