"""DMA of the cce printer: GM <-> UB, GM -> L1 (nd2nz), UB -> L1, UB -> UB copies, fixpipe.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
)
from xdsl.ir import Operation

from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hivm
from ascend_mlir.targets.cce.base import PrinterBase
from ascend_mlir.analysis.size_bounds import origin_buffer_shape
from ascend_mlir.targets.cce.values import (
    ALIGN_BYTES,
    View,
    bursts,
    paren,
    product,
    rows_of,
    runtime_rows_of,
    static_shape,
    static_stride,
)


class DmaPrinter(PrinterBase):
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
        n, length, src_stride, dst_stride = bursts(op, src, dst)
        ub = dst if load else src
        ub_stride = dst_stride if load else src_stride
        assert isinstance(ub_stride, int), "UB views have static strides"
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
        ub_gap_blocks, gm_gap = self.c220_gaps(op, n, length, ub_stride, gm_stride)
        bits = f"b{8 * src.esize}"
        if load:
            self.line(f"copy_gm_to_ubuf_align_{bits}({dst.ptr}, {src.ptr}, 0, {n}, {length}, 0, 0, "
                      f"{gm_gap}, {ub_gap_blocks});", op)
        else:
            self.line(f"copy_ubuf_to_gm_align_{bits}({dst.ptr}, {src.ptr}, 0, {n}, {length}, 0, 0, "
                      f"{ub_gap_blocks}, {gm_gap});", op)

    def c220_gaps(self, op: Operation, n: int | str, length: int | str, ub_stride: int,
                  gm_stride: int | str) -> tuple[int | str, int | str]:
        """(UB gap in 32-byte blocks, GM gap in bytes) between the bursts of a dav-c220
        GM <-> UB copy. A burst of runtime length (a partial row) has runtime gaps: its rows
        stay `ub_stride` / `gm_stride` bytes apart, so the gaps are those strides less the
        burst (rounded up to whole blocks in UB); the view lies inside its UB rows, so the
        rounded burst never exceeds `ub_stride` (a multiple of 32, checked above)."""
        if n == 1:
            return 0, 0
        if isinstance(length, str):  # a partial row
            ub_gap: int | str = f"({ub_stride} - ({paren(length)} + 31) / 32 * 32) / 32"
        else:
            ub_gap = self.c220_ub_gap(op, length, ub_stride)
        if isinstance(length, str) or isinstance(gm_stride, str):  # a partial row, a runtime GM row pitch
            return ub_gap, f"{paren(gm_stride)} - {paren(length)}"
        return ub_gap, gm_stride - length

    @staticmethod
    def c220_ub_gap(op: Operation, length: int, ub_stride: int) -> int:
        ub_gap = ub_stride - -(-length // 32) * 32
        if ub_gap < 0 or ub_gap % 32:
            raise op_error(op, f"UB rows {ub_stride} bytes apart are not whole 32-byte blocks after {length}-byte bursts")
        return ub_gap // 32

    def print_nd2nz(self, op: hivm.Nd2NzOp) -> None:
        src, dst = self.view(op.src), self.view(op.dst)
        if dst.is_dynamic() or src.is_dynamic():
            rows, cols, stride = runtime_rows_of(op, src)
            home = origin_buffer_shape(op.dst)
            if dst.shape != src.shape or home is None or len(home) != 2:
                raise op_error(op, "nd2nz of a partial tile is printed into the origin of its L1 buffer only")
            # the partial tile keeps its buffer's NZ layout: column blocks the buffer's rows high
            dst_n = -(-home[0] // 16) * 16
        else:
            rows, cols, stride = rows_of(op, src)
            if not dst.contiguous() or dst.shape != src.shape:
                raise op_error(op, "nd2nz into part of an L1 buffer is not printed")
            dst_n = -(-rows // 16) * 16
        if self.a5:
            self.line(f"asc_set_gm2l1_nz_para(1, 1, (uint16_t){dst_n}, 0);", op)
            self.line(f"asc_copy_gm2l1_nd2nz({dst.ptr}, {src.ptr}, {product([stride, src.esize])}, "
                      f"(asc_load_l2_cache_mode)0, {rows}, {cols}, 0, 0);", op)
        else:
            form = "b16" if src.esize == 2 else "b32s"
            self.line(f"copy_gm_to_cbuf_multi_nd2nz_{form}({dst.ptr}, {src.ptr}, 0, 1, {rows}, {cols}, 0, {stride}, "
                      f"{dst_n}, 1, 0);", op)

    def ub_to_l1(self, op: Operation, src: View, dst: View) -> None:
        """ND rows in UB -> NZ in L1: one burst per row and 32-byte column block. A partial
        tile (runtime rows or columns) is copied into the origin of its L1 buffer in the
        buffer's NZ layout (column blocks the buffer's rows high, as nd2nz does), whole
        32-byte column blocks: the block that holds the last valid columns is copied
        whole, which stays inside both buffers (UB rows are whole blocks apart) and is
        never read past the valid columns (the cube's K or N is the runtime size)."""
        rows, cols, stride_any = runtime_rows_of(op, src)
        stride = static_stride(op, stride_any)
        c0 = 32 // src.esize
        if dst.shape != src.shape:
            raise op_error(op, "a UB -> L1 copy between different shapes is not printed")
        blocks: int | str
        if dst.is_dynamic() or src.is_dynamic():
            home = origin_buffer_shape(op.operands[1])
            if home is None or len(home) != 2:
                raise op_error(op, "a UB -> L1 copy of a partial tile is printed into the origin of its L1 buffer only")
            dst_n = -(-home[0] // 16) * 16
            blocks = cols // c0 if isinstance(cols, int) and cols % c0 == 0 else f"({paren(cols)} + {c0 - 1}) / {c0}"
        else:
            assert isinstance(rows, int) and isinstance(cols, int)
            if not dst.contiguous():
                raise op_error(op, "a UB -> L1 copy into part of an L1 buffer is not printed")
            if cols % c0:
                raise op_error(op, f"UB -> L1 needs whole 32-byte column blocks (cols {cols}, row stride "
                                   f"{stride * src.esize} B)")
            dst_n = -(-rows // 16) * 16
            blocks = cols // c0
        row_bytes = stride * src.esize
        if row_bytes % 32:
            raise op_error(op, f"UB -> L1 needs whole 32-byte column blocks (cols {cols}, row stride {row_bytes} B)")
        gap = row_bytes // 32 - 1
        call = "asc_copy_ub2l1({d}, {s}, {n}, 1, {gap}, 0);" if self.a5 else "copy_ubuf_to_cbuf({d}, {s}, 0, {n}, 1, {gap}, 0);"
        if blocks == 1:
            self.line(call.format(d=dst.ptr, s=src.ptr, n=rows, gap=gap), op)
            return
        self.open(f"for (int32_t cb = 0; cb < {blocks}; ++cb)", op)
        self.line(call.format(d=f"{dst.ptr} + cb * {dst_n * c0}", s=f"{src.ptr} + cb * {c0}", n=rows, gap=gap), op)
        self.close()

    @staticmethod
    def l0c_rows(op: hivm.FixpipeOp, src: View) -> tuple[int | str, int | str, int | str]:
        """(m, n, m rounded up to 16) of the L0C tile a fixpipe reads: a whole tile, or a
        partial one at the origin of its buffer, which the cube wrote with its runtime m
        (the NZ column blocks of L0C are that m rounded up to 16 high)."""
        if src.is_dynamic():
            home = origin_buffer_shape(op.src)
            if home is None or len(src.shape) != 2:
                raise op_error(op, "a fixpipe of a partial tile is printed from the origin of its L0C buffer only")
            m, n = src.shape
            return m, n, m if isinstance(m, int) and m % 16 == 0 else f"({paren(m)} + 15) / 16 * 16"
        if not src.contiguous():
            raise op_error(op, "a fixpipe from part of L0C is not printed")
        src_shape = static_shape(op, src)
        m, n = (src_shape + (1,))[:2] if len(src_shape) == 1 else src_shape[:2]
        return m, n, -(-m // 16) * 16

    def print_fixpipe(self, op: hivm.FixpipeOp) -> None:
        src, dst = self.view(op.src), self.view(op.dst)
        if "nz2nd" not in str(op.dma_mode):
            raise op_error(op, "only fixpipe {dma_mode = nz2nd} is printed")
        m, n, m_pad = self.l0c_rows(op, src)
        _, _, dst_stride = runtime_rows_of(op, dst)
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
