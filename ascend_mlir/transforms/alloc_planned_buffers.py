"""`alloc-planned-buffers`: our memory plan re-spelled as the `memref.alloc`s bishengir takes.

bishengir-compile 1.2.0 always runs its own PlanMemory (no flag turns it off) and that
pass aborts on any `hivm.hir.pointer_cast` of a local buffer, even one at a constant
offset ("PlanMemory Traverse IR Failed!", both builds). So `ascend-compile`'s output, whose
every on-chip buffer is a planned pointer_cast, cannot go through it as it is.

This pass keeps what our sync relies on, the set of distinct buffers and their
versions, and lets bishengir choose the addresses:

* a pointer_cast at a constant offset becomes one `memref.alloc` at the function entry
  (one per (offset, type): the peeled copy and the loop body share it);
* a multi-buffered one, whose offset is `base + (x mod V) * stride` (ascend-multi-buffer),
  becomes V allocs at the entry, one per version, and at the old place an
  `arith.select` chain on `x mod V` picks the version (PlanMemory follows select
  aliases), so the per-version event ids of our sync still guard distinct buffers;
* a loop whose mmadL1 reads such a versioned tile is first unrolled by V
  (unroll_versions.py): bishengir must trace each mmadL1 operand to one alloc and does
  not follow a select there;
* any other offset is a located error (nothing is guessed).

Run it after `ascend-compile` for the npuir route only (the CCE printer wants the planned
offsets): `-p 'ascend-compile,alloc-planned-buffers' -t npuir`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.analysis.views import users_through_views
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hivm
from ascend_mlir.transforms.unroll_versions import unroll_by_versions

_BINARY = {
    arith.AddiOp: lambda a, b: a + b,
    arith.MuliOp: lambda a, b: a * b,
    arith.SubiOp: lambda a, b: a - b,
}


@dataclass
class _Version:
    """The value `x mod V` an offset depends on."""

    value: SSAValue
    count: int


def _constant(value: SSAValue) -> int | None:
    """The integer `value` always has (a constant, or a version index of a constant: the
    peeled first iteration's `c0 mod V`), else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if isinstance(owner, arith.IndexCastOp):
        return _constant(owner.input)
    if isinstance(owner, arith.RemUIOp):
        lhs, rhs = _constant(owner.lhs), _constant(owner.rhs)
        if lhs is not None and rhs:
            return lhs % rhs
    return None


def _version_of(value: SSAValue) -> _Version | None:
    owner = value.owner
    if isinstance(owner, arith.RemUIOp):
        count = _constant(owner.rhs)
        if count is not None and count > 0:
            return _Version(owner.result, count)
    return None


def _evaluate(value: SSAValue, version: int | None, found: list[_Version]) -> int | None:
    """`value` as an integer when the version index is `version`; the version leaf it
    meets is appended to `found`. None: not an offset this pass understands."""
    constant = _constant(value)
    if constant is not None:
        return constant
    leaf = _version_of(value)
    if leaf is not None:
        found.append(leaf)
        return version
    owner = value.owner
    if isinstance(owner, arith.IndexCastOp):
        return _evaluate(owner.input, version, found)
    combine = _BINARY.get(type(owner)) if isinstance(owner, Operation) else None
    if combine is None or not isinstance(owner, arith.SignlessIntegerBinaryOperation):
        return None
    lhs = _evaluate(owner.lhs, version, found)
    rhs = _evaluate(owner.rhs, version, found)
    return None if lhs is None or rhs is None else combine(lhs, rhs)


def _offsets(cast: hivm.PointerCastOp) -> tuple[_Version | None, list[int]]:
    """The version index of `cast` (None when constant) and its offset per version."""
    if len(cast.addrs) != 1:
        raise op_error(cast, "is a multi-address pointer_cast: run -p ascend-multi-buffer first")
    found: list[_Version] = []
    first = _evaluate(cast.addrs[0], 0, found)
    if first is None or len({id(v.value) for v in found}) > 1:
        raise op_error(
            cast,
            "has an offset that is neither a constant nor base + (x mod V) * stride; "
            "alloc-planned-buffers cannot re-spell it for bishengir",
        )
    if not found:
        return None, [first]
    version = found[0]
    offsets = [_evaluate(cast.addrs[0], k, []) for k in range(version.count)]
    return version, [o for o in offsets if o is not None]


class _Allocs:
    """One `memref.alloc` per (offset, type) at the function entry."""

    def __init__(self, func_op: func.FuncOp):
        self.entry = func_op.body.blocks[0]
        self.made: dict[tuple[int, Attribute], memref.AllocOp] = {}
        self.last: Operation | None = None

    def get(self, offset: int, result_type: Attribute) -> SSAValue:
        key = (offset, result_type)
        alloc = self.made.get(key)
        if alloc is None:
            assert isinstance(result_type, MemRefType)
            alloc = memref.AllocOp.get(result_type.element_type, shape=result_type.get_shape(),
                                       layout=result_type.layout,
                                       memory_space=result_type.memory_space)
            # named by its scope and planned offset, alike in both halves of a split MIX
            # kernel, which plan a buffer both cores touch at one offset: the simulator and
            # plan-memory pair the halves' allocs by name and type (`shared_allocs`), and
            # unnamed, the first of a type, so flash_attention_dyn's vector half took another
            # ub tile for the cube's fixpipe destination (races and never-written reads)
            alloc.memref.name_hint = f"{hivm.scope_of(result_type) or 'buf'}{offset}"
            at = InsertPoint.after(self.last) if self.last else self._start()
            Rewriter.insert_op(alloc, at)
            self.last = alloc
            self.made[key] = alloc
        return alloc.memref

    def index(self, k: int) -> SSAValue:
        """An index constant at the entry (hoist-constants' shape: none inside loops)."""
        for op in self.entry.ops:
            if isinstance(op, arith.ConstantOp) and op.value == IntegerAttr(k, IndexType()):
                return op.result
        const = arith.ConstantOp(IntegerAttr(k, IndexType()))
        Rewriter.insert_op(const, self._start())
        return const.result

    def _start(self) -> InsertPoint:
        # after the entry's constants and FFTS prologue, so the allocs see one entry block
        leading = None
        for op in self.entry.ops:
            if not isinstance(op, (arith.ConstantOp, hivm.SetFftsBaseAddrOp)):
                break
            leading = op
        return InsertPoint.after(leading) if leading else InsertPoint.at_start(self.entry)


def _select_version(
    cast: hivm.PointerCastOp, version: _Version, buffers: list[SSAValue], allocs: _Allocs
) -> SSAValue:
    """`buffers[x mod V]` as a chain of arith.select, inserted before `cast`."""
    chosen = buffers[-1]
    ops: list[Operation] = []
    for k in range(len(buffers) - 2, -1, -1):
        is_k = arith.CmpiOp(version.value, allocs.index(k), "eq")
        select = arith.SelectOp(is_k, buffers[k], chosen)
        ops += [is_k, select]
        chosen = select.result
    Rewriter.insert_op(ops, InsertPoint.before(cast))
    return chosen


def _feeds_cube(loop: scf.ForOp) -> bool:
    """Whether a buffer versioned by `loop`'s variable is an operand of an mmadL1."""
    iv = loop.body.block.args[0]
    for cast in loop.body.block.ops:
        if not isinstance(cast, hivm.PointerCastOp) or len(cast.addrs) != 1:
            continue
        found: list[_Version] = []
        _evaluate(cast.addrs[0], 0, found)
        by_iv = any(isinstance(v.value.owner, arith.RemUIOp) and v.value.owner.lhs == iv for v in found)
        # (a partial tile of the buffer, a subview, feeds the mmadL1 just the same)
        if by_iv and any(isinstance(op, hivm.MmadL1Op) for op in users_through_views(cast.result)):
            return True
    return False


def alloc_planned_buffers(func_op: func.FuncOp) -> None:
    entry = func_op.body.blocks[0]
    for loop in [o for o in func_op.walk() if isinstance(o, scf.ForOp)]:
        if _feeds_cube(loop):
            unroll_by_versions(loop, entry)
    allocs = _Allocs(func_op)
    for cast in [o for o in func_op.walk() if isinstance(o, hivm.PointerCastOp)]:
        if cast.dynamicSizes:
            raise op_error(cast, "has dynamic sizes; alloc-planned-buffers takes static buffers only")
        version, offsets = _offsets(cast)
        buffers = [allocs.get(offset, cast.result.type) for offset in offsets]
        value = buffers[0] if version is None else _select_version(cast, version, buffers, allocs)
        cast.result.replace_all_uses_with(value)
        Rewriter.erase_op(cast)


@dataclass(frozen=True)
class AllocPlannedBuffersPass(ModulePass):
    """Planned pointer_casts -> per-version memref.allocs (the npuir route's memory)."""

    name = "alloc-planned-buffers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func_op in op.walk():
            if isinstance(func_op, func.FuncOp) and not func_op.is_declaration:
                alloc_planned_buffers(func_op)
