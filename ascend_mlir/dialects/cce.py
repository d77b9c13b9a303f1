"""`cce`: ascend-mlir's own hivm-level cube ops below `hivm.hir.mmadL1`, for the CCE target.

`hivm.hir.mmadL1` reads A and B from L1 and implies the L1 -> L0A / L0B moves (MTE1) and
the cube's multiply (M) over K steps. bishengir lowers that itself; our CCE printer
prints Ascend C, where those moves and multiplies are calls of their own. The pass
`ascend-lower-mmad-l0` (transforms/lower_mmad_l0.py) expands each mmadL1 into these
ops, with the L0A/L0B ping-pong's flags and event ids as ordinary `hivm.hir.set_flag` /
`wait_flag`, so that the sync checker, the simulator and the printed C see the same
flags. Only the CCE target prints them; the npuir route keeps mmadL1 (bishengir has no
such ops).

Matrices are stored row-major as the simulator holds every on-chip tile (the printer
maps them onto the NZ fractal layout the hardware uses):

* `cce.load_l0a %a[%k0], %l0a [a_transpose]`: the K step starting at column `%k0` of A
  (L1, M x K; with `a_transpose` A^T stored K x M) into L0A as M x ks (ks: the L0A
  tile's columns; columns past K are zero); A may be a partial tile (runtime M and K) at
  the origin of its L1 buffer, whose fractal layout it keeps (rows past M are zero too);
* `cce.load_l0b %b[%k0], %l0b [b_transpose]`: rows `%k0..` of B (L1, K x N; with
  `b_transpose` B^T stored N x K) into L0B as ks x N;
* `cce.mmad %a, %b, %c init %init sizes(%m, %k, %n)`: C[:m, :n] = (init ? 0 : C[:m, :n]) +
  A[:m, :k] x B[:k, :n], A in L0A, B in L0B, C in L0C (M pipe).

One vector op, for the dav-c220 broadcast of a partial tile (ascend-lower-wide-reduce):

* `cce.repeat_blocks %blocks, %dst`: each row of `%dst` (UB, rows x cols) is its row of
  `%blocks` (UB, rows x one 32-byte block) repeated along the columns:
  dst[r, c] = blocks[r, c mod B], B the block's elements (V pipe; the 910B's vcopy with
  a source block stride of 0). It reads each row's whole block.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerType, MemRefType, UnitAttr, i1
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.interface import HivmPipeOp, SrcToDstOp, constant_int, shape_of, verify_scope

CUBE_INPUT_RULE = "the cube reads A from L0A (ca) and B from L0B (cb), accumulates C in L0C (cc)"


def _rank2(value: SSAValue, role: str) -> tuple[int, int]:
    shape = shape_of(value)
    if shape is None or len(shape) != 2:
        raise VerifyException(f"{role} must be a rank-2 memref")
    return shape[0], shape[1]


class _LoadL0Op(SrcToDstOp):
    """An L1 -> L0A/L0B move of one K step (MTE1)."""

    src = operand_def(MemRefType)
    k_offset = operand_def(IndexType)
    dst = operand_def(MemRefType)

    L0_SCOPE: ClassVar[str]

    def pipes(self) -> tuple[str, ...]:
        return ("MTE1",)

    def transposed(self) -> bool:
        raise NotImplementedError

    def verify_(self) -> None:
        rule = f"{self.name} moves cbuf -> {self.L0_SCOPE}"
        verify_scope(self, self.src, "source", ("cbuf",), rule)
        verify_scope(self, self.dst, "destination", (self.L0_SCOPE,), rule)
        _rank2(self.src, "the source")
        _rank2(self.dst, "the destination")


@irdl_op_definition
class LoadL0AOp(_LoadL0Op):
    """K step `k_offset..` of A (L1, M x K; A^T K x M with a_transpose) -> L0A (M x ks)."""

    name = "cce.load_l0a"
    L0_SCOPE: ClassVar[str] = "ca"
    a_transpose = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src `[` $k_offset `]` `,` $dst (`a_transpose` $a_transpose^)? attr-dict `:` type($src) `,` type($dst)"
    )

    def __init__(self, src: SSAValue, k_offset: SSAValue, dst: SSAValue, transpose: bool = False):
        super().__init__(operands=[src, k_offset, dst], properties={"a_transpose": UnitAttr()} if transpose else {})

    def transposed(self) -> bool:
        return self.a_transpose is not None

    def verify_(self) -> None:
        super().verify_()
        rows, _ = _rank2(self.src, "the source")
        m = _rank2(self.src, "the source")[1] if self.transposed() else rows
        if m != DYNAMIC_INDEX and m != _rank2(self.dst, "the destination")[0]:
            raise VerifyException(f"L0A holds {_rank2(self.dst, 'the destination')[0]} rows, A has M = {m}")


@irdl_op_definition
class LoadL0BOp(_LoadL0Op):
    """K step `k_offset..` of B (L1, K x N; B^T N x K with b_transpose) -> L0B (ks x N)."""

    name = "cce.load_l0b"
    L0_SCOPE: ClassVar[str] = "cb"
    b_transpose = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src `[` $k_offset `]` `,` $dst (`b_transpose` $b_transpose^)? attr-dict `:` type($src) `,` type($dst)"
    )

    def __init__(self, src: SSAValue, k_offset: SSAValue, dst: SSAValue, transpose: bool = False):
        super().__init__(operands=[src, k_offset, dst], properties={"b_transpose": UnitAttr()} if transpose else {})

    def transposed(self) -> bool:
        return self.b_transpose is not None

    def verify_(self) -> None:
        super().verify_()
        rows, cols = _rank2(self.src, "the source")
        n = rows if self.transposed() else cols
        if n != DYNAMIC_INDEX and n != _rank2(self.dst, "the destination")[1]:
            raise VerifyException(f"L0B holds {_rank2(self.dst, 'the destination')[1]} columns, B has N = {n}")


@irdl_op_definition
class MmadOp(HivmPipeOp):
    """C (cc) = init ? A x B : C + A x B over m x k x n, A in L0A, B in L0B (M pipe)."""

    name = "cce.mmad"

    a = operand_def(MemRefType)
    b = operand_def(MemRefType)
    c = operand_def(MemRefType)
    init_condition = operand_def(i1)
    real_m = operand_def(IndexType)
    real_k = operand_def(IndexType)
    real_n = operand_def(IndexType)

    assembly_format = (
        "$a `,` $b `,` $c `init` $init_condition `sizes` `(` $real_m `,` $real_k `,` $real_n `)` attr-dict "
        "`:` type($a) `,` type($b) `,` type($c)"
    )

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue, init: SSAValue,
                 m: SSAValue, k: SSAValue, n: SSAValue):
        super().__init__(operands=[a, b, c, init, m, k, n])

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.a, self.b)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.c,)

    def pipes(self) -> tuple[str, ...]:
        return ("M",)

    def memref_reads(self) -> tuple[SSAValue, ...]:
        init = constant_int(self.init_condition)
        return (self.a, self.b) if init == 1 else (self.a, self.b, self.c)

    def memref_writes(self) -> tuple[SSAValue, ...]:
        return (self.c,)

    def verify_(self) -> None:
        for value, role, scope in ((self.a, "operand A", "ca"), (self.b, "operand B", "cb"), (self.c, "operand C", "cc")):
            verify_scope(self, value, role, (scope,), CUBE_INPUT_RULE)
        if self.init_condition.type != IntegerType(1):
            raise VerifyException(f"init condition must be i1, got {self.init_condition.type}")
        (m, ka), (kb, n), (cm, cn) = (_rank2(v, r) for v, r in ((self.a, "A"), (self.b, "B"), (self.c, "C")))
        for what, x, y in (("K of A and B", ka, kb), ("M of A and C", m, cm), ("N of B and C", n, cn)):
            if DYNAMIC_INDEX not in (x, y) and x != y:
                raise VerifyException(f"{what} differ ({x} vs {y})")


@irdl_op_definition
class RepeatBlocksOp(HivmPipeOp):
    """dst[r, c] = blocks[r, c mod B]: each row's 32-byte block repeated along its row (V)."""

    name = "cce.repeat_blocks"

    blocks = operand_def(MemRefType)
    dst = operand_def(MemRefType)

    assembly_format = "$blocks `,` $dst attr-dict `:` type($blocks) `,` type($dst)"

    def __init__(self, blocks: SSAValue, dst: SSAValue):
        super().__init__(operands=[blocks, dst])

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.blocks,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dst,)

    def pipes(self) -> tuple[str, ...]:
        return ("V",)

    def verify_(self) -> None:
        rule = "cce.repeat_blocks repeats UB blocks into UB"
        verify_scope(self, self.blocks, "the blocks", ("ub",), rule)
        verify_scope(self, self.dst, "the destination", ("ub",), rule)
        rows, width = _rank2(self.blocks, "the blocks")
        dst_rows, _ = _rank2(self.dst, "the destination")
        t = self.blocks.type
        assert isinstance(t, MemRefType)
        bits = getattr(t.get_element_type(), "bitwidth", None)
        if width == DYNAMIC_INDEX or bits is None or width * bits != 256:
            raise VerifyException(f"the blocks must be rows of one 32-byte block, got {width} elements per row")
        if DYNAMIC_INDEX not in (rows, dst_rows) and rows != dst_rows:
            raise VerifyException(f"the blocks have {rows} rows, the destination {dst_rows}")


CCE = Dialect("cce", [LoadL0AOp, LoadL0BOp, MmadOp, RepeatBlocksOp], [])
