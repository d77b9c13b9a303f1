"""Cube of the cce printer: the L1 -> L0A/L0B moves and L0 multiplies that
`ascend-lower-mmad-l0` put in the IR (dialects/cce.py), one call each, their K steps,
L0 halves and flags being in the IR already (the CCE route, `ascend-compile{target=cce}`
and sim/via_cce, lowers before it verifies, simulates and prints). An mmadL1 that
reaches the printer unlowered is refused (targets/cce/prepared.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import cce
from ascend_mlir.targets.cce.sync import SyncPrinter
from ascend_mlir.analysis.size_bounds import origin_buffer_shape
from ascend_mlir.targets.cce.values import View, paren, product


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


def runtime_fractals(n: int | str) -> int | str:
    """ceil(n / 16) of a static count, or its C expression."""
    return fractals(n) if isinstance(n, int) else f"({n} + {FRACTAL - 1}) / {FRACTAL}"


@dataclass(frozen=True)
class L0Geometry:
    """Fractal counts of an L1 -> L0 move: the L1 buffer's rows of the L0 operand (M for
    A, N for B) and K, and the moved part's rows and K fractals of the step."""

    outer: int
    k: int
    moved_outer: int | str
    moved_step: int | str


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

    def l0_geometry(self, op: cce.LoadL0AOp | cce.LoadL0BOp, src: View, dst: View) -> L0Geometry:
        """Fractal counts of one L1 -> L0 move: the L1 buffer's (its NZ column blocks are
        the buffer's rows high, also under a partial tile at its origin) and the moved
        part's, which are C expressions for a partial tile (the multiplied rows or columns,
        and the K of this step: what is left of K after the op's offset, at most the L0
        tile's K). A whole static tile moves the buffer's own counts."""
        home = origin_buffer_shape(op.src)
        if home is None or len(home) != 2:
            raise op_error(op, "the cce printer moves whole L1 tiles or partial tiles at the origin of their buffer")
        is_a = isinstance(op, cce.LoadL0AOp)
        rows, cols = home
        # (the L0 operand's row dimension M | N, K) of the buffer and of the view
        outer, k = (cols, rows) if op.transposed() == is_a else (rows, cols)
        step = fractals(matrix_shape(op, op.dst)[1 if is_a else 0])
        if not src.is_dynamic():
            if not src.contiguous():
                raise op_error(op, "the cce printer prints cube operands that are whole tiles only")
            return L0Geometry(fractals(outer), fractals(k), fractals(outer), step)
        v_rows, v_cols = src.shape
        v_outer, v_k = (v_cols, v_rows) if op.transposed() == is_a else (v_rows, v_cols)
        k_left = f"{paren(v_k)} - {paren(self.expr(op.k_offset))}"
        k_step = step * FRACTAL
        return L0Geometry(fractals(outer), fractals(k), runtime_fractals(v_outer),
                          runtime_fractals(f"({k_left} < {k_step} ? {k_left} : {k_step})"))

    def l0_move(self, op: cce.LoadL0AOp | cce.LoadL0BOp) -> tuple[View, View, L0Geometry, str]:
        """The L1 and L0 views, the fractal counts and the first K fractal of one L1 ->
        L0A/L0B move, once the printer's limits hold (a bf16/f16 tile into a whole L0 tile)."""
        src, dst = self.view(op.src), self.view(op.dst)
        if src.esize != 2:
            l0 = "L0A" if isinstance(op, cce.LoadL0AOp) else "L0B"
            raise op_error(op, f"the cce printer moves bf16/f16 L1 tiles to {l0} only")
        if not dst.contiguous():
            raise op_error(op, "the cce printer prints cube operands that are whole tiles only")
        return src, dst, self.l0_geometry(op, src, dst), self.k_start(op)

    def print_load_l0a(self, op: cce.LoadL0AOp) -> None:
        src, dst, g, ks = self.l0_move(op)
        mf, kf, step = g.moved_outer, g.k, g.moved_step
        if self.a5:
            # dav-3510 2D load (tile start M, start K, steps, src_stride = fractals between
            # L1 column blocks, dst_stride = fractals between L0 fractal rows); A^T takes
            # the transposing form, as the real API splits it
            call = "asc_copy_l12l0a_transpose" if op.transposed() else "asc_copy_l12l0a"
            self.line(f"{call}({dst.ptr}, {src.ptr}, 0, {ks}, {mf}, {step}, {kf if op.transposed() else g.outer}, "
                      f"{step});", op)
            return
        # dav-c220 load2d: one call per fractal row of the L0 tile (`repeat` fractals,
        # `src_stride` apart in L1, to consecutive L0 fractals), transposing each fractal
        # of A^T (stored K x M: the K fractals of one M block are consecutive)
        self.open(f"for (int32_t mi = 0; mi < {mf}; ++mi)", op)
        row = product([step, FRACTAL_ELEMENTS])
        if op.transposed():
            self.line(f"load_cbuf_to_ca({dst.ptr} + mi * {row}, {src.ptr}, mi * {kf} + {ks}, "
                      f"{step}, 1, 0, 0, true, 0);", op)
        else:
            self.line(f"load_cbuf_to_ca({dst.ptr} + mi * {row}, {src.ptr}, ({ks}) * {g.outer} + mi, "
                      f"{step}, {g.outer}, 0, 0, false, 0);", op)
        self.close()

    def print_load_l0b(self, op: cce.LoadL0BOp) -> None:
        src, dst, g, ks = self.l0_move(op)
        nf, kf, step = g.moved_outer, g.k, g.moved_step
        if self.a5:
            # plain B (K x N NZ in L1) takes the transposing form (the cube reads B as zN);
            # B^T (N x K, the anchor's own GEMM) the plain one
            call = "asc_copy_l12l0b" if op.transposed() else "asc_copy_l12l0b_transpose"
            self.line(f"{call}({dst.ptr}, {src.ptr}, 0, {ks}, {nf}, {step}, {g.outer if op.transposed() else kf}, "
                      f"{nf});", op)
            return
        self.open(f"for (int32_t ki = 0; ki < {step}; ++ki)", op)
        row = product([nf, FRACTAL_ELEMENTS])
        if op.transposed():  # B^T stored N x K: the N fractals of one K block are consecutive
            self.line(f"load_cbuf_to_cb({dst.ptr} + ki * {row}, {src.ptr}, ({ks} + ki) * {g.outer}, "
                      f"{nf}, 1, 0, 0, false, 0);", op)
        else:
            self.line(f"load_cbuf_to_cb({dst.ptr} + ki * {row}, {src.ptr}, {ks} + ki, {nf}, {kf}, "
                      "0, 0, true, 0);", op)
        self.close()

    def print_mmad_l0(self, op: cce.MmadOp) -> None:
        a, b = self.cube_views(op, op.a, op.b)
        c = self.view(op.c)
        # C may be a partial tile at the origin of its L0C buffer: the cube writes it with
        # the runtime m (the fixpipe reads it back so, DmaPrinter.l0c_rows)
        if not (c.contiguous() or (c.is_dynamic() and origin_buffer_shape(op.c) is not None)):
            raise op_error(op, "the cce printer prints cube operands that are whole tiles only")
        sizes = ", ".join(self.expr(v) for v in (op.real_m, op.real_k, op.real_n))
        call = "asc_mmad" if self.a5 else "mad"
        self.line(f"{call}({c.ptr}, {a.ptr}, {b.ptr}, {sizes}, 0, false, false, {self.expr(op.init_condition)});", op)
