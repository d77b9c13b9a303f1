"""What every hivm op knows beyond its syntax: scopes of its memrefs, the pipes it issues to,
the core it runs on, which memrefs it reads and writes; and the shared verifier helpers."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
)
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException

from ascend_mlir import hardware
from ascend_mlir.dialects.hivm.attrs import (
    AddressSpace,
    AddressSpaceAttr,
)


def scope_of(t: Attribute | SSAValue) -> str | None:
    """"gm"/"cbuf"/"ca"/"cb"/"cc"/"ub" for a memref in a hivm address space, else None."""
    if isinstance(t, SSAValue):
        t = t.type
    if isinstance(t, MemRefType):
        space = cast(MemRefType[Attribute], t).memory_space
        if isinstance(space, AddressSpaceAttr) and space.data != AddressSpace.ZERO:
            return space.data.value
    return None


def is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType)


def is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def is_shaped(value: SSAValue) -> bool:
    """A memref, or a ranked tensor of the tensor form (destination-passing style)."""
    return isinstance(value.type, MemRefType | TensorType)


# an operand of a hivm op that takes buffers or, in the tensor form, tensors
MEMREF_OR_TENSOR = base(MemRefType) | base(TensorType)


class DestinationStyleResults(OpTrait):
    """The tensor form (bishengir's DPS ops): one result per tensor `outs` operand, of
    its type, in order; an op whose outs are memrefs has none."""

    def verify(self, op: Operation) -> None:
        # bishengir's words (MLIR's DestinationStyleOpInterface verifier)
        outs = [value for value in cast(HivmPipeOp, op).outs if isinstance(value.type, TensorType)]
        if len(op.results) != len(outs):
            raise VerifyException(
                f"expected the number of tensor results ({len(op.results)}) to be equal to the number of "
                f"output tensors ({len(outs)})"
            )
        for result, out in zip(op.results, outs):
            if result.type != out.type:
                number = next(i for i, operand in enumerate(op.operands) if operand is out)
                raise VerifyException(
                    f"expected type of operand #{number} ('{out.type}') to match type of corresponding result "
                    f"('{result.type}')"
                )


def memref_values(values: Sequence[SSAValue]) -> tuple[SSAValue, ...]:
    return tuple(v for v in values if is_memref(v))


def scope_text(value: SSAValue) -> str:
    if not is_memref(value):
        return f"a non-memref value of type {value.type}"
    return scope_of(value) or "no hivm address space"


def shape_of(value: SSAValue) -> tuple[int, ...] | None:
    t = value.type
    if isinstance(t, ShapedType):
        return tuple(t.get_shape())
    return None


def element_type_of(value: SSAValue) -> Attribute:
    t = value.type
    if isinstance(t, MemRefType | TensorType):
        return cast(MemRefType[Attribute], t).element_type
    return t


def constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def i64_array(values: Sequence[int] | DenseArrayBase) -> DenseArrayBase:
    if isinstance(values, DenseArrayBase):
        return values
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def array_values(attr: DenseArrayBase | None) -> tuple[int, ...]:
    if attr is None:
        return ()
    return tuple(int(v) for v in cast(DenseArrayBase[IntegerType], attr).get_values())


# ---------------------------------------------------------------------------
# The pipe interface
# ---------------------------------------------------------------------------

core_of_pipes = hardware.core_of_pipes


class HivmPipeOp(IRDLOperation, ABC):
    """Every hivm compute, DMA and sync op: which pipes it occupies, on which core,
    and which memref operands it reads and writes."""

    @abstractmethod
    def pipes(self) -> tuple[str, ...]:
        """Pipe names from MTE1 MTE2 MTE3 M V FIX S (pipe_barrier[PIPE_ALL]: all of them)."""

    def core_type(self) -> str:
        """"CUBE", "VECTOR" or "SCALAR"."""
        return core_of_pipes(self.pipes())

    def memref_reads(self) -> tuple[SSAValue, ...]:
        return memref_values(self.ins)

    def memref_writes(self) -> tuple[SSAValue, ...]:
        return memref_values(self.outs)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return ()

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return ()


class SrcToDstOp(HivmPipeOp, ABC):
    """An op that reads its one operand `src` and writes its one operand `dst`. Each op
    defines both itself, where bishengir puts them (the definition order is the operand
    order, and an operand a base class defines comes after the subclass's own)."""

    if TYPE_CHECKING:
        src: SSAValue
        dst: SSAValue

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.src,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dst,)


def op_pipes(op: Operation) -> tuple[str, ...]:
    """The pipes of a hivm op; () for any other op."""
    if isinstance(op, HivmPipeOp):
        return op.pipes()
    return ()


def target_name(op: Operation) -> str | None:
    """The `hacc.target` chip name of the closest enclosing module that carries one."""
    from ascend_mlir.dialects.hacc import TARGET, TargetAttr

    current: Operation | None = op
    while current is not None:
        if isinstance(current, ModuleOp):
            target = current.attributes.get(TARGET)
            if isinstance(target, TargetAttr):
                return target.data
        current = current.parent_op()
    return None


def scope_unassigned(value: SSAValue | Attribute) -> bool:
    """A memref without a memory space (or `#hivm.address_space<zero>`): bishengir's
    infer-hivm-mem-scope has not assigned it yet. Verifiers accept it, so IR from before
    that inference flows in; every scope that *is* written must be legal. A tensor of
    the tensor form has no scope yet either."""
    t = value.type if isinstance(value, SSAValue) else value
    if isinstance(t, TensorType):  # the tensor form: bufferization assigns the memory later
        return True
    if not isinstance(t, MemRefType):
        return False
    space = cast(MemRefType[Attribute], t).memory_space
    return isinstance(space, NoneAttr) or space == AddressSpaceAttr(AddressSpace.ZERO)


def verify_scope(op: Operation, value: SSAValue, role: str, allowed: Sequence[str], rule: str) -> None:
    scope = scope_of(value)
    if scope not in allowed and not scope_unassigned(value):
        raise VerifyException(
            f"{role} must be in {' or '.join(allowed)}, got {scope_text(value)} ({rule})"
        )


def verify_same_element_type(op: Operation, a: SSAValue, b: SSAValue, what: str) -> None:
    ta, tb = element_type_of(a), element_type_of(b)
    if ta != tb:
        raise VerifyException(f"{what} element types differ ({ta} vs {tb})")


def verify_same_shape(op: Operation, a: SSAValue, b: SSAValue, what: str) -> None:
    sa, sb = shape_of(a), shape_of(b)
    if sa is None or sb is None:
        return
    if len(sa) != len(sb) or any(x != y and DYNAMIC_INDEX not in (x, y) for x, y in zip(sa, sb)):
        raise VerifyException(
            f"{what} shapes differ ({'x'.join(map(str, sa))} vs {'x'.join(map(str, sb))})"
        )
