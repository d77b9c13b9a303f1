"""Cube of the cce printer: the L1 -> L0A/L0B moves and L0 multiplies that
`ascend-lower-mmad-l0` put in the IR (dialects/cce.py), one call each, their K steps,
L0 halves and flags being in the IR already (the CCE route, sim/via_cce, lowers before
it verifies, simulates and prints). An mmadL1 that reaches the printer unlowered is
still expanded here into its own L0A/L0B ping-pong loop with the reserved events (the
form `-p ascend-compile -t cce` prints; to be retired once every caller lowers first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import cce, hivm
from ascend_mlir.targets.cce.sync import SyncPrinter
from ascend_mlir.targets.cce.values import ARENA_NAME, SCOPE_QUALIFIER, View, static_shape


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


@dataclass(frozen=True)
class MmadTile:
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
    def of(op: hivm.MmadL1Op, a_shape: Sequence[int], b_shape: Sequence[int], half: int) -> MmadTile:
        """The tiling of `op` whose A and B K steps each fit `half` bytes (half of L0A/L0B)."""
        a_t, b_t = op.a_transpose is not None, op.b_transpose is not None
        m, k = (a_shape[1], a_shape[0]) if a_t else (a_shape[0], a_shape[1])
        n = b_shape[0] if b_t else b_shape[1]
        mf, kf, nf = -(-m // 16), -(-k // 16), -(-n // 16)
        step = max((d for d in range(1, kf + 1) if kf % d == 0 and mf * d * 512 <= half and d * nf * 512 <= half),
                   default=0)
        if step == 0:
            raise op_error(op, f"a {m}x{k}x{n} mmadL1 does not fit half of L0A/L0B with one K fractal")
        return MmadTile(m, k, n, a_t, b_t, step)


class CubePrinter(SyncPrinter):
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
        tile = MmadTile.of(op, static_shape(op, a), static_shape(op, b), half)
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

    def l1_to_l0_a5(self, op: Operation, t: MmadTile, kk: str, a: tuple[str, str], b: tuple[str, str]) -> None:
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

    def l1_to_l0_c220(self, op: Operation, t: MmadTile, kk: str, a: tuple[str, str], b: tuple[str, str]) -> None:
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
