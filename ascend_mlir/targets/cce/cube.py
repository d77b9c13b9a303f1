"""Cube of the cce printer: the L1 -> L0A/L0B moves and L0 multiplies that
`ascend-lower-mmad-l0` put in the IR (dialects/cce.py), one call each, their K steps,
L0 halves and flags being in the IR already (the CCE route, `ascend-compile{target=cce}`
and sim/via_cce, lowers before it verifies, simulates and prints). An mmadL1 that
reaches the printer unlowered is refused (targets/cce/prepared.py).
"""

from __future__ import annotations


from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import cce
from ascend_mlir.targets.cce.sync import SyncPrinter
from ascend_mlir.targets.cce.values import View


FRACTAL = 16  # rows / columns of a cube fractal
FRACTAL_ELEMENTS = FRACTAL * FRACTAL


def fractals(n: int) -> int:
    return -(-n // FRACTAL)


def matrix_shape(op: Operation, value: SSAValue) -> tuple[int, int]:
    t = value.type
    if not isinstance(t, MemRefType) or len(t.get_shape()) != 2 or any(d < 0 for d in t.get_shape()):
        raise op_error(op, f"the cce printer prints cube operands of static rank-2 shape, not {t}")
    rows, cols = t.get_shape()
    return rows, cols


class CubePrinter(SyncPrinter):
    def cube_views(self, op: Operation, *values) -> list[View]:  # noqa: ANN002 - SSA values
        views = [self.view(v) for v in values]
        if not all(v.contiguous() for v in views):
            raise op_error(op, "the cce printer prints cube operands that are whole tiles only")
        return views

    def k_start(self, op: cce.LoadL0AOp | cce.LoadL0BOp) -> str:
        """The step's first K fractal (the op's K offset is a whole number of fractals)."""
        k0 = self.expr(op.k_offset)
        return str(int(k0) // FRACTAL) if k0.isdigit() else f"({k0}) / {FRACTAL}"

    def print_load_l0a(self, op: cce.LoadL0AOp) -> None:
        src, dst = self.cube_views(op, op.src, op.dst)
        if src.esize != 2:
            raise op_error(op, "the cce printer moves bf16/f16 L1 tiles to L0A only")
        rows, cols = matrix_shape(op, op.src)
        m, k = (cols, rows) if op.transposed() else (rows, cols)
        mf, kf, step = fractals(m), fractals(k), fractals(matrix_shape(op, op.dst)[1])
        ks = self.k_start(op)
        if self.a5:
            # dav-3510 2D load (tile start M, start K, steps, src_stride = fractals between
            # L1 column blocks, dst_stride = fractals between L0 fractal rows); A^T takes
            # the transposing form, as the real API splits it
            call = "asc_copy_l12l0a_transpose" if op.transposed() else "asc_copy_l12l0a"
            self.line(f"{call}({dst.ptr}, {src.ptr}, 0, {ks}, {mf}, {step}, {kf if op.transposed() else mf}, "
                      f"{step});", op)
            return
        # dav-c220 load2d: one call per fractal row of the L0 tile (`repeat` fractals,
        # `src_stride` apart in L1, to consecutive L0 fractals), transposing each fractal
        # of A^T (stored K x M: the K fractals of one M block are consecutive)
        self.open(f"for (int32_t mi = 0; mi < {mf}; ++mi)", op)
        if op.transposed():
            self.line(f"load_cbuf_to_ca({dst.ptr} + mi * {step * FRACTAL_ELEMENTS}, {src.ptr}, mi * {kf} + {ks}, "
                      f"{step}, 1, 0, 0, true, 0);", op)
        else:
            self.line(f"load_cbuf_to_ca({dst.ptr} + mi * {step * FRACTAL_ELEMENTS}, {src.ptr}, ({ks}) * {mf} + mi, "
                      f"{step}, {mf}, 0, 0, false, 0);", op)
        self.close()

    def print_load_l0b(self, op: cce.LoadL0BOp) -> None:
        src, dst = self.cube_views(op, op.src, op.dst)
        if src.esize != 2:
            raise op_error(op, "the cce printer moves bf16/f16 L1 tiles to L0B only")
        rows, cols = matrix_shape(op, op.src)
        k, n = (cols, rows) if op.transposed() else (rows, cols)
        kf, nf, step = fractals(k), fractals(n), fractals(matrix_shape(op, op.dst)[0])
        ks = self.k_start(op)
        if self.a5:
            # plain B (K x N NZ in L1) takes the transposing form (the cube reads B as zN);
            # B^T (N x K, the anchor's own GEMM) the plain one
            call = "asc_copy_l12l0b" if op.transposed() else "asc_copy_l12l0b_transpose"
            self.line(f"{call}({dst.ptr}, {src.ptr}, 0, {ks}, {nf}, {step}, {nf if op.transposed() else kf}, "
                      f"{nf});", op)
            return
        self.open(f"for (int32_t ki = 0; ki < {step}; ++ki)", op)
        if op.transposed():  # B^T stored N x K: the N fractals of one K block are consecutive
            self.line(f"load_cbuf_to_cb({dst.ptr} + ki * {nf * FRACTAL_ELEMENTS}, {src.ptr}, ({ks} + ki) * {nf}, "
                      f"{nf}, 1, 0, 0, false, 0);", op)
        else:
            self.line(f"load_cbuf_to_cb({dst.ptr} + ki * {nf * FRACTAL_ELEMENTS}, {src.ptr}, {ks} + ki, {nf}, {kf}, "
                      "0, 0, true, 0);", op)
        self.close()

    def print_mmad_l0(self, op: cce.MmadOp) -> None:
        a, b, c = self.cube_views(op, op.a, op.b, op.c)
        sizes = ", ".join(self.expr(v) for v in (op.real_m, op.real_k, op.real_n))
        call = "asc_mmad" if self.a5 else "mad"
        self.line(f"{call}({c.ptr}, {a.ptr}, {b.ptr}, {sizes}, 0, false, false, {self.expr(op.init_condition)});", op)
