"""Vector ops of the cce printer: elementwise, broadcasts, reductions (dav-3510 through the
`__simd_vf__` helpers of simd.py, dav-c220 as classic intrinsics).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    MemRefType,
)
from xdsl.ir import Operation, SSAValue

from ascend_mlir.analysis.size_bounds import static_bound_shape
from ascend_mlir.chips import needs_barrier
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import cce, hivm
from ascend_mlir.targets.cce import simd
from ascend_mlir.targets.cce.base import PrinterBase
from ascend_mlir.targets.cce.values import (
    View,
    int_array,
    rows_of,
    runtime_rows_of,
    static_stride,
)


class VectorPrinter(PrinterBase):
    def print_elementwise(self, op: Operation) -> None:
        assert isinstance(op, hivm.HivmPipeOp)
        srcs = list(cast(Sequence[SSAValue], op.src))  # type: ignore[attr-defined]
        dsts = list(cast(Sequence[SSAValue], op.dst))  # type: ignore[attr-defined]
        if int_array(getattr(op, "transpose", None)) or int_array(getattr(op, "broadcast", None)):
            raise op_error(op, "elementwise ops with transpose/broadcast attributes are not printed")
        dst = self.view(dsts[0])
        kind = VECTOR_KIND[type(op)]
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
        name = vector_name(kind, self.a5)
        if name is None:
            raise op_error(op, f"no {self.arch} vector call for '{op.name}' on these types")
        if all(v.contiguous() for v in views):
            self.vector_statement(op, name, [v.ptr for v in views], scalars, views[0].numel(), views[0].ctype,
                                  all(v.aligned for v in views))
            return
        dims = [runtime_rows_of(op, v) for v in views]
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
            if simd.has_elementwise_helper(name):  # all but the conversions
                if ctype not in simd.REGISTER:
                    raise op_error(op, f"no dav-3510 register type for {ctype} elements")
                name = self.use_helper(*simd.elementwise_helper(name, ctype, aligned))
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
        dims = int_array(op.broadcast_dims)
        if len(dst.shape) == 2 and dims == (1,):
            self.row_broadcast(op, dst, src)
        elif len(dst.shape) == 2 and dims == (0,):
            drows, dcols, dstride = rows_of(op, dst)
            self.open(f"for (int32_t r = 0; r < {drows}; ++r)", op)
            self.vector_statement(op, vector_name("copy", self.a5) or "", [f"{dst.ptr} + r * {dstride}", src.ptr], [], dcols,
                                  dst.ctype, dst.rows_aligned() and src.aligned)
            self.close()
        else:
            raise op_error(op, f"broadcast along dims {list(dims)} of {list(dst.shape)} is not printed")

    def row_broadcast(self, op: hivm.VBrcOp, dst: View, src: View) -> None:
        sstride = src.strides[0]
        check_vector_types(op, dst, src)
        if self.a5:  # the helper takes rows and columns at run time: partial tiles too
            rows_any, cols_any, dstride = runtime_rows_of(op, dst)
            name = self.use_helper(*simd.row_broadcast_helper(dst.ctype, dst.rows_aligned()))
            self.line(f"{name}({dst.ptr}, {src.ptr}, {rows_any}, {cols_any}, {dstride}, {sstride});", op)
            return
        rows_any, cols_any, dstride_any = runtime_rows_of(op, dst)
        dstride = static_stride(op, dstride_any)
        if isinstance(rows_any, str) or isinstance(cols_any, str):
            self.c220_runtime_row_broadcast(op, dst, src, dstride)
            return
        rows, cols = rows_any, cols_any
        esize = dst.esize
        per_block = 32 // esize
        if rows % 8 or (cols * esize) % 32 or (dstride * esize) % 32 or sstride != 1 or not (dst.aligned and src.aligned):
            raise op_error(op, f"dav-c220 broadcasts whole 32-byte blocks of 8 rows at a time (rows {rows}, cols {cols}, "
                               f"row stride {dstride}, source stride {sstride})")
        row_blocks = dstride * esize // 32
        carrier = f"uint{8 * esize}_t"
        # vbrcb: element k of repeat i fills the 32-byte block (i * dstRepStride + k * dstBlkStride);
        # one call per 32-byte block of the row (dst offset b blocks): the calls write
        # disjoint blocks and read only src, so none depends on another and no barrier
        # hides inside the op (a vcopy of the first block along the row would need one)
        target = f"(__ubuf__ {carrier} *){dst.ptr}"
        if cols > per_block:
            self.open(f"for (int32_t b = 0; b < {cols // per_block}; ++b)", op)
            target = f"(__ubuf__ {carrier} *)({dst.ptr} + b * {per_block})"
        self.line(f"vbrcb({target}, (__ubuf__ {carrier} *){src.ptr}, {row_blocks}, {8 * row_blocks}, {rows // 8});",
                  op)
        if cols > per_block:
            self.close()

    def print_reduce(self, op: hivm.VReduceOp) -> None:
        kind = str(op.arith.data.value) if hasattr(op.arith.data, "value") else str(op.arith.data)
        kind = kind.lower().split(".")[-1]
        if kind not in ("sum", "max", "min") or len(op.dst) != 1:
            raise op_error(op, f"reduce <{kind}> is not printed")
        src, dst = self.view(op.src), self.view(op.dst[0])
        dims = int_array(op.reduce_dims)
        last = len(src.shape) - 1
        if dims == (last,):
            self.row_reduce(op, kind, src, dst)
        elif dims == (0,) and len(src.shape) == 2:
            self.column_reduce(op, kind, src, dst)
        else:
            raise op_error(op, f"reduce along dims {list(dims)} is not printed")

    def column_reduce(self, op: hivm.VReduceOp, kind: str, src: View, dst: View) -> None:
        """The first row copied into dst, then each further row folded into it. On
        dav-c220 (V not ordered) the folds need V barriers between them:
        ascend-lower-wide-reduce writes them as IR (one row each: the first a copy), so
        a reduction of several rows unlowered is refused there."""
        rows, cols, sstride = runtime_rows_of(op, src)
        if not isinstance(rows, int):
            raise op_error(op, "a column reduction of a runtime number of rows is not printed")
        sstride = static_stride(op, sstride)
        if rows > 1 and needs_barrier(self.chip, "V", "V"):
            raise op_error(op, f"a column reduction of {rows} rows on {self.chip.name} (V not ordered) is not "
                               "lowered to its steps and V barriers: run -p 'ascend-compile{target=cce "
                               "chip=ascend910b}' (or ascend-lower-wide-reduce) before -t cce")
        aligned = dst.aligned and src.rows_aligned()
        self.vector_statement(op, vector_name("copy", self.a5) or "", [dst.ptr, src.ptr], [], cols, dst.ctype, aligned)
        if rows == 1:
            return
        combine = {"sum": "add", "max": "max", "min": "min"}[kind]
        self.open(f"for (int32_t r = 1; r < {rows}; ++r)", op)
        self.vector_statement(op, vector_name(combine, self.a5) or "",
                              [dst.ptr, dst.ptr, f"{src.ptr} + r * {sstride}"], [], cols, dst.ctype, aligned)
        self.close()

    def row_reduce(self, op: hivm.VReduceOp, kind: str, src: View, dst: View) -> None:
        dstride = dst.strides[0] if len(dst.shape) >= 1 and dst.shape[0] != 1 else 1
        check_vector_types(op, dst, src)
        if self.a5:  # the helper takes rows and columns at run time: partial tiles too
            rows_any, cols_any, sstride = runtime_rows_of(op, src)
            name = self.use_helper(*simd.row_reduce_helper(kind, src.ctype, src.rows_aligned()))
            self.line(f"{name}({dst.ptr}, {src.ptr}, {rows_any}, {cols_any}, {sstride}, {dstride});", op)
            return
        rows_any, cols_any, sstride_any = runtime_rows_of(op, src)
        sstride, dstride = static_stride(op, sstride_any), static_stride(op, dstride)
        if isinstance(rows_any, str) or isinstance(cols_any, str):
            self.c220_runtime_row_reduce(op, kind, (src, dst), sstride, dstride)
            return
        self.c220_row_reduce(op, kind, (src, dst), (rows_any, cols_any, sstride, dstride))

    def c220_row_reduce(self, op: hivm.VReduceOp, kind: str, views: tuple[View, View],
                        sizes: tuple[int, int, int, int]) -> None:
        """One whole-reduce of at most one 256-byte repeat per row, repeat = rows (see
        simd). A wider row is several instructions through a UB scratch row with V
        barriers between them: ascend-lower-wide-reduce writes those steps as IR (one
        such reduce each), so the sync check and the simulator see them; unlowered, it
        is refused."""
        src, dst = views
        rows, cols, sstride, dstride = sizes
        esize, per_repeat = src.esize, simd.lanes(src.ctype)
        if src.ctype == "bfloat16_t" or not src.rows_aligned() or not dst.aligned or dstride != 1 or rows > 255 or (
                cols > per_repeat and cols % per_repeat):
            raise op_error(op, f"dav-c220 whole-reduce needs f32/f16 rows 32-byte aligned, one result per row and "
                               f"whole 256-byte repeats (rows {rows}, cols {cols}, row stride {sstride})")
        if cols > per_repeat:
            raise op_error(op, f"a dav-c220 row reduction of {cols} columns ({cols // per_repeat} repeats) is "
                               "not lowered to its steps, scratch row and V barriers: run "
                               "-p 'ascend-compile{target=cce chip=ascend910b}' (or ascend-lower-wide-reduce) "
                               "before -t cce")
        call, order, _ = simd.C220_REDUCE[kind]
        row_blocks = sstride * esize // 32
        hi, lo = simd.c220_lane_mask(cols)
        self.line("set_mask_norm();", op)
        self.line(f"set_vector_mask({hi}, {lo});", op)
        self.line(f"{call}({dst.ptr}, {src.ptr}, {rows}, 1, 1, {row_blocks}, {order});", op)
        self.line("set_mask_count();", op)

    def c220_runtime_row_reduce(self, op: hivm.VReduceOp, kind: str, views: tuple[View, View], sstride: int,
                                dstride: int) -> None:
        """A partial tile (runtime rows and/or columns) of at most one 256-byte repeat per
        row (a wider one is split into such repeats by ascend-lower-wide-reduce, in IR):
        one normal-mode whole-reduce, repeat = rows, its lane mask set at run time. An
        empty row (cols = 0) reads nothing: dst gets the reduction's identity, as the
        reference gives it. Nothing past the view's columns is read."""
        src, dst = views
        rows, cols, _ = runtime_rows_of(op, src)
        esize, per_repeat = src.esize, simd.lanes(src.ctype)
        bound = static_bound_shape(op.src)
        if src.ctype == "bfloat16_t" or not src.rows_aligned() or not dst.aligned or dstride != 1 or bound is None \
                or len(bound) < 2 or bound[0] > 255:
            raise op_error(op, f"dav-c220 whole-reduce of a partial tile needs f32/f16 rows 32-byte aligned, one "
                               f"result per row and at most 255 rows (rows {rows}, cols {cols}, row stride {sstride})")
        if bound[1] > per_repeat:
            raise op_error(op, f"a dav-c220 row reduction of up to {bound[1]} columns (more than one repeat) is "
                               "not lowered to its steps, scratch row and V barriers: run "
                               "-p 'ascend-compile{target=cce chip=ascend910b}' (or ascend-lower-wide-reduce) "
                               "before -t cce")
        call, order, _ = simd.C220_REDUCE[kind]
        identity = {"sum": "0.0f", "max": "-INFINITY", "min": "INFINITY"}[kind]
        hi, lo = simd.c220_runtime_lane_mask(str(cols), per_repeat)
        if isinstance(cols, str):
            self.open(f"if ({cols} == 0)", op)
            self.line(f"set_vector_mask(0, {rows});", op)
            self.line(f"vector_dup({dst.ptr}, {identity}, 1, 1, 1, 8, 8);", op)
            self.close()
            self.open("else", op)
        self.line("set_mask_norm();", op)
        self.line(f"set_vector_mask({hi}, {lo});", op)
        self.line(f"{call}({dst.ptr}, {src.ptr}, {rows}, 1, 1, {sstride * esize // 32}, {order});", op)
        self.line("set_mask_count();", op)
        if isinstance(cols, str):
            self.close()

    def c220_runtime_row_broadcast(self, op: hivm.VBrcOp, dst: View, src: View, dstride: int) -> None:
        """A partial tile, one 32-byte block per row (the first step of a broadcast that
        ascend-lower-wide-reduce lowers: cce.repeat_blocks then spreads each block along
        its row): vbrcb fills one block per source value, 8 rows a repeat. Its last repeat
        reads and writes up to 7 rows past the view's runtime rows, so both views' row
        bounds must be whole repeats (their values there are never read back)."""
        rows, cols, _ = runtime_rows_of(op, dst)
        per_block = 32 // dst.esize
        bounds = [static_bound_shape(v) for v in (op.dst, op.src)]
        if cols != per_block or dstride != per_block or src.strides[0] != 1 or not (dst.aligned and src.aligned) \
                or any(b is None or len(b) != 2 or b[0] % 8 for b in bounds):
            raise op_error(op, f"a dav-c220 broadcast of a partial tile (rows {rows}, cols {cols}, row stride "
                               f"{dstride}) is not lowered to its block fill, copies and V barriers: run "
                               "-p 'ascend-compile{target=cce chip=ascend910b}' (or ascend-lower-wide-reduce) "
                               "before -t cce")
        carrier = f"uint{8 * dst.esize}_t"
        self.line(f"vbrcb((__ubuf__ {carrier} *){dst.ptr}, (__ubuf__ {carrier} *){src.ptr}, 1, 8, "
                  f"({rows} + 7) / 8);", op)

    def print_repeat_blocks(self, op: cce.RepeatBlocksOp) -> None:
        """Per row, one vcopy of its block along the row: source block stride 0."""
        if self.a5:
            raise op_error(op, "cce.repeat_blocks is a dav-c220 step; dav-3510 broadcasts in registers")
        blocks, dst = self.view(op.blocks), self.view(op.dst)
        rows, cols, dstride = runtime_rows_of(op, dst)
        bstride = static_stride(op, runtime_rows_of(op, blocks)[2])
        if not (dst.rows_aligned() and blocks.rows_aligned()) or dst.ctype != blocks.ctype:
            raise op_error(op, "cce.repeat_blocks needs 32-byte aligned rows of one element type")
        self.open(f"for (int32_t r = 0; r < {rows}; ++r)", op)
        self.line(f"set_vector_mask(0, {cols});", op)
        self.line(f"vcopy({dst.ptr} + r * {static_stride(op, dstride)}, {blocks.ptr} + r * {bstride}, 1, 1, 0, 8, 0);",
                  op)
        self.close()


VECTOR_KIND: dict[type[Operation], str] = {
    hivm.VAddOp: "add", hivm.VSubOp: "sub", hivm.VMulOp: "mul", hivm.VDivOp: "div", hivm.VMaxOp: "max",
    hivm.VMinOp: "min", hivm.VExpOp: "exp", hivm.VLnOp: "ln", hivm.VAbsOp: "abs", hivm.VReluOp: "relu",
    hivm.VSqrtOp: "sqrt", hivm.VRsqrtOp: "rsqrt", hivm.VRecOp: "rec", hivm.VCastOp: "cast",
}


A5_VECTOR = {
    "add": "asc_add", "sub": "asc_sub", "mul": "asc_mul", "div": "asc_div", "max": "asc_max", "min": "asc_min",
    "exp": "asc_exp", "ln": "asc_log", "abs": "asc_abs", "relu": "asc_relu", "sqrt": "asc_sqrt",
    "rsqrt": "asc_rsqrt", "rec": "asc_reciprocal", "copy": "asc_copy", "duplicate": "asc_duplicate",
    "add_scalar": "asc_add_scalar", "sub_scalar": "asc_sub_scalar", "mul_scalar": "asc_mul_scalar",
    "div_scalar": "asc_div_scalar", "max_scalar": "asc_max_scalar", "min_scalar": "asc_min_scalar",
    "cast_float_bfloat16_t": "asc_float2bfloat16", "cast_float_half": "asc_float2half",
    "cast_bfloat16_t_float": "asc_bfloat162float", "cast_half_float": "asc_half2float",
}


C220_VECTOR = {
    "add": "vadd", "sub": "vsub", "mul": "vmul", "div": "vdiv", "max": "vmax", "min": "vmin", "exp": "vexp",
    "ln": "vln", "abs": "vabs", "relu": "vrelu", "sqrt": "vsqrt", "rsqrt": "vrsqrt", "rec": "vrec", "copy": "vcopy",
    "duplicate": "vector_dup", "add_scalar": "vadds", "sub_scalar": "vsubs", "mul_scalar": "vmuls",
    "div_scalar": "vdivs", "max_scalar": "vmaxs", "min_scalar": "vmins",
    "cast_float_bfloat16_t": "vconv_f322bf16r", "cast_float_half": "vconv_f322f16r",
    "cast_bfloat16_t_float": "vconv_bf162f32", "cast_half_float": "vconv_f162f32",
}


def check_vector_types(op: Operation, dst: View, src: View) -> None:
    if dst.ctype != src.ctype or dst.ctype not in simd.REGISTER:
        raise op_error(op, f"a {src.ctype} -> {dst.ctype} reduction or broadcast is not printed")


def vector_name(kind: str, a5: bool) -> str | None:
    return (A5_VECTOR if a5 else C220_VECTOR).get(kind)
