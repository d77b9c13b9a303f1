"""Checks that reject programs the hardware cannot run, before anything compiles or runs them.

Two kinds, both returning located errors (`OpError`, rendered `file:line:col: error:`):

* `structure_errors(module)`: chip-independent rules upstream MLIR or the hardware impose
  and xDSL's own verifiers do not check: `memref.subview` in bounds with non-negative
  sizes and the result layout its offsets and strides imply, `scf.for` with a positive
  constant step, no recursion (an AI Core has no call stack to speak of), static shapes
  for buffers allocated on chip. ascend-opt's verifier runs them on every module.
* `chip_limit_errors(module, chip)`: what one chip can hold and compute. On-chip buffers
  live at the same time must fit each scope's capacity (chip data, with its allocation
  granule), wherever they are allocated (inside or outside loops, tile or hivm level); a
  planned `hivm.hir.pointer_cast` must lie inside its scope; element types must be ones
  the chip has (chip data `[types]`): for storage, vector arithmetic and cube inputs.
  Every pipeline's first pass and ascend-sim run them with the chip they work for.

The buffer check is the whole-function lower bound: buffer versions (multi-buffering) are
`ascend-plan-memory`'s business.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FixedBitwidthType,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.comparisons import to_signed

from ascend_mlir import hardware
from ascend_mlir.analysis.latency_model import constant_int
from ascend_mlir.analysis.value_bounds import affine_range
from ascend_mlir.analysis.views import affine_of, enumerated_values, in_branch, symbol_ranges, views_of
from ascend_mlir.op_errors import OpError, op_error
from ascend_mlir.dialects import hivm

ALLOC_OPS = (memref.AllocOp, memref.AllocaOp)
LOOP_OPS = (scf.ForOp, scf.WhileOp, scf.ParallelOp)
# The name of the chip a module that names none is checked against (`largest_builtin_chip`).
ANY_CHIP = "any built-in chip"


def _memref(t: Attribute) -> MemRefType[Attribute] | None:
    return cast(MemRefType[Attribute], t) if isinstance(t, MemRefType) else None


def type_name(t: Attribute) -> str:
    """`f32`, `i1`, `bf16`: how chip files name element types."""
    from io import StringIO

    from xdsl.printer import Printer

    stream = StringIO()
    Printer(stream=stream).print_attribute(t)
    return stream.getvalue()


def byte_size(t: MemRefType[Attribute]) -> int | None:
    """Bytes a statically shaped memref occupies in its scope, the fractal padding of the
    cube's scopes included (None for dynamic shapes or opaque elements)."""
    shape = t.get_shape()
    element = t.element_type
    if any(d == DYNAMIC_INDEX for d in shape) or not isinstance(element, FixedBitwidthType):
        return None
    if element.bitwidth % 8:
        count = 1
        for d in shape:
            count *= d
        return -(-count * element.bitwidth // 8)
    return hardware.stored_bytes(hivm.scope_of(t) or "gm", shape, element.bitwidth // 8)


def _values(attr) -> list[int]:  # noqa: ANN001 - a DenseArrayBase of i64
    return [int(v) for v in attr.get_values()]


# --------------------------------------------------------------------------------------
# structure (chip-independent)
# --------------------------------------------------------------------------------------


def _layout(t: MemRefType[Attribute]) -> tuple[list[int | None], int | None]:
    """(strides, offset) of a memref type; None for a dynamic (`?`) entry."""
    if isinstance(t.layout, NoneAttr):
        return list(t.strides_for_shape(t.get_shape())), 0
    if isinstance(t.layout, StridedLayoutAttr):
        strides = [None if s is None else int(s) for s in t.layout.get_strides()]
        offset = t.layout.get_offset()
        return strides, None if offset is None else int(offset)
    return [None] * len(t.get_shape()), None


def _static(v: int) -> int | None:
    return None if v == DYNAMIC_INDEX else v


def _subview_errors(op: memref.SubviewOp) -> Iterator[OpError]:
    source = _memref(op.source.type)
    result = _memref(op.result.type)
    if source is None or result is None:
        return
    offsets = [_static(v) for v in _values(op.static_offsets)]
    sizes = [_static(v) for v in _values(op.static_sizes)]
    strides = [_static(v) for v in _values(op.static_strides)]
    shape = source.get_shape()
    if not len(offsets) == len(sizes) == len(strides) == len(shape):
        yield op_error(op, f"expects {len(shape)} offsets, sizes and strides (the source rank), "
                           f"got {len(offsets)}, {len(sizes)} and {len(strides)}")
        return
    dynamic_offsets, dynamic_sizes = iter(op.offsets), iter(op.sizes)
    ranges: dict | None = None
    for dim, (off, size, stride, extent) in enumerate(zip(offsets, sizes, strides, shape, strict=True)):
        for what, value in (("offset", off), ("size", size), ("stride", stride)):
            if value is not None and value < 0:
                yield op_error(op, f"{what} {value} of dimension {dim} is negative")
                return
        offset: SSAValue | int = next(dynamic_offsets) if off is None else off
        length: SSAValue | int = next(dynamic_sizes) if size is None else size
        if isinstance(offset, int) and isinstance(length, int):
            found = _static_window_error(op, dim, offset, length, stride, extent)
        elif isinstance(length, int):
            assert isinstance(offset, SSAValue)
            if ranges is None:
                ranges = symbol_ranges(op) or {}
            found = _dynamic_window_error(op, dim, offset, length, stride, extent, ranges)
        else:
            found = _enumerated_window_error(op, dim, offset, length, stride, extent)
        if found is not None:
            yield found
            return
    yield from _subview_layout_errors(op, source, result, offsets, sizes, strides)


def _static_window_error(op: memref.SubviewOp, dim: int, off: int, size: int, stride: int | None,
                         extent: int) -> OpError | None:
    if stride is None or extent == DYNAMIC_INDEX or size == 0:
        return None
    last = off + (size - 1) * stride
    if last >= extent:
        return op_error(op, f"dimension {dim} reads up to index {last} (offset {off}, size {size}, stride {stride}) "
                            f"but the source has size {extent} there")
    return None


def _dynamic_window_error(
    op: memref.SubviewOp, dim: int, offset: SSAValue, size: int, stride: int | None,
    extent: int, ranges: dict,
) -> OpError | None:
    """A window whose offset moves with loop variables (or the block id) must stay inside
    its source over their whole static range: checked at compile time, not only by the
    simulator at run time."""
    if stride is None or size == 0:
        return None
    values = affine_range(affine_of(offset), ranges)
    if values is None:  # not affine in them (`b * b`): evaluated at each point
        return _enumerated_window_error(op, dim, offset, size, stride, extent)
    lo, hi = values
    if lo < 0:
        return op_error(op, f"dimension {dim} starts at index {lo} over the enclosing loops' range (the offset is negative there)")
    if extent == DYNAMIC_INDEX:
        return None
    last = hi + (size - 1) * stride
    if last >= extent and lo == hi:  # a computed constant
        return op_error(op, f"dimension {dim} reads up to index {last} (offset {hi}, size {size}, stride {stride}) "
                            f"but the source has size {extent} there")
    if last >= extent:
        return op_error(
            op,
            f"dimension {dim} reads up to index {last} over the enclosing loops' range (offset up to {hi}, "
            f"size {size}, stride {stride}) but the source has size {extent} there",
        )
    return None


def _enumerated_window_error(op: memref.SubviewOp, dim: int, offset: SSAValue | int, size: SSAValue | int,
                             stride: int | None, extent: int) -> OpError | None:
    """A window whose offset or size the block id and loop variables give other than
    affinely (`x[b * b : b * b + 128]`, whose size the DSL leaves computed), checked at
    each block and iteration (`views.enumerated_values`), where the op runs at every one
    of them (in no branch of an `if`): the simulator found these at run time only."""
    if stride is None or extent == DYNAMIC_INDEX or in_branch(op):
        return None
    values = [v for v in (offset, size) if isinstance(v, SSAValue)]
    points = enumerated_values(values)
    if points is None:
        return None
    for point, got in points:
        at = dict(zip(values, got, strict=True))
        off = offset if isinstance(offset, int) else at[offset]
        length = size if isinstance(size, int) else at[size]
        where = _at_point(point)
        if length > 0 and off < 0:
            return op_error(op, f"dimension {dim} starts at index {off}{where} (the offset is negative there)")
        last = off + (length - 1) * stride
        if length > 0 and last >= extent:
            return op_error(op, f"dimension {dim} reads up to index {last}{where} (offset {off}, size {length}, "
                                f"stride {stride}) but the source has size {extent} there")
    return None


def _at_point(point: dict[SSAValue, int]) -> str:
    """Where an enumerated window leaves its source: " at block 3", " at block 3, %i = 2"
    ("" where it reads no block id or loop variable)."""
    parts = []
    for value, at in point.items():
        owner = value.owner
        if isinstance(owner, Operation):
            parts.append(f"block {at}")
        else:
            parts.append(f"%{value.name_hint or 'iv'} = {at}")
    return " at " + ", ".join(parts) if parts else ""


def _subview_layout_errors(
    op: memref.SubviewOp,
    source: MemRefType[Attribute],
    result: MemRefType[Attribute],
    offsets: list[int | None],
    sizes: list[int | None],
    strides: list[int | None],
) -> Iterator[OpError]:
    """The result type must be the one the offsets, sizes and strides imply (rank-reduced:
    unit dimensions may be dropped), as upstream MLIR requires."""
    src_strides, src_offset = _layout(source)
    implied_offset = src_offset
    for off, st in zip(offsets, src_strides, strict=True):
        implied_offset = None if implied_offset is None or off is None or st is None else implied_offset + off * st
    implied = [
        (size, None if s is None or st is None else s * st)
        for size, s, st in zip(sizes, strides, src_strides, strict=True)
    ]
    res_shape = [_static(d) for d in result.get_shape()]
    res_strides, res_offset = _layout(result)
    kept = _match_rank_reduction(implied, res_shape)
    if kept is None:
        want = "x".join("?" if s is None else str(s) for s, _ in implied)
        yield op_error(op, f"result shape {'x'.join('?' if d is None else str(d) for d in res_shape)} "
                           f"is not the subview's sizes {want} (or those without unit dimensions)")
        return
    if result.element_type != source.element_type or result.memory_space != source.memory_space:
        yield op_error(op, "result element type and memory space must be the source's")
        return
    problems: list[str] = []
    if res_offset is not None and implied_offset is not None and res_offset != implied_offset:
        problems.append(f"offset {res_offset} (expected {implied_offset})")
    if res_offset is not None and implied_offset is None:
        problems.append(f"static offset {res_offset} where the subview's offset is dynamic")
    for dim, index in enumerate(kept):
        got, want = res_strides[dim], implied[index][1]
        if got is not None and want is not None and got != want and (res_shape[dim] or 0) > 1:
            problems.append(f"stride {got} on result dimension {dim} (expected {want})")
        if got is not None and want is None:
            problems.append(f"static stride {got} on result dimension {dim} where the subview's is dynamic")
    if problems:
        yield op_error(op, "result layout does not match the subview: " + ", ".join(problems))


def _match_rank_reduction(implied: list[tuple[int | None, int | None]], res_shape: list[int | None]) -> list[int] | None:
    """Indices of `implied` dims kept in the result (dropping only static unit dims)."""
    kept: list[int] = []
    index = 0
    for want in res_shape:
        while index < len(implied):
            size = implied[index][0]
            if size == want or size is None or want is None:
                break
            if size != 1:
                return None
            index += 1
        if index == len(implied):
            return None
        kept.append(index)
        index += 1
    if any(implied[i][0] != 1 for i in range(index, len(implied))):
        return None
    return kept


def _signed(value: int, type: Attribute) -> int:
    """`value` as the signed integer of its type's width (an index is 64 bits), as the
    simulator reads it (`scalar_semantics._wrap`): the constant `9223372036854775808 :
    index` is -2**63 to scf.for."""
    width = type.width.data if isinstance(type, IntegerType) else 64
    return to_signed(value & ((1 << width) - 1), width)


def _for_errors(op: scf.ForOp) -> Iterator[OpError]:
    step = constant_int(op.step)
    if step is not None:
        step = _signed(step, op.step.type)
    if step is not None and step <= 0:
        yield op_error(op, f"step must be positive, got {step} (the loop would never end)")


def _alloc_errors(op: Operation) -> Iterator[OpError]:
    t = _memref(op.results[0].type)
    if t is None:
        return
    scope = hivm.scope_of(t)
    if scope not in (None, "gm") and any(d == DYNAMIC_INDEX for d in t.get_shape()):
        yield op_error(op, f"a buffer in {scope} needs a static shape (on-chip memory is planned "
                           f"before the kernel runs), got {type_name(t)}")


def _recursion_errors(module: ModuleOp) -> Iterator[OpError]:
    functions = {f.sym_name.data: f for f in module.walk() if isinstance(f, func.FuncOp)}
    calls: dict[str, list[func.CallOp]] = {
        name: [c for c in f.walk() if isinstance(c, func.CallOp)] for name, f in functions.items()
    }
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str) -> OpError | None:
        state[name] = 1
        for call in calls.get(name, []):
            callee = call.callee.root_reference.data
            if state.get(callee) == 1:
                return op_error(call, f"calls '{callee}' recursively; kernels cannot recurse (no call stack on an AI Core)")
            if callee in functions and callee not in state:
                found = visit(callee)
                if found is not None:
                    return found
        state[name] = 2
        return None

    for name in sorted(functions):
        if name not in state:
            found = visit(name)
            if found is not None:
                yield found
                return


def structure_errors(module: ModuleOp) -> list[OpError]:
    """Chip-independent errors of `module`, in program order."""
    errors: list[OpError] = []
    for op in module.walk():
        if isinstance(op, memref.SubviewOp):
            errors += _subview_errors(op)
        elif isinstance(op, scf.ForOp):
            errors += _for_errors(op)
        elif isinstance(op, ALLOC_OPS):
            errors += _alloc_errors(op)
    errors += _recursion_errors(module)
    return errors


# --------------------------------------------------------------------------------------
# chip limits: capacity per scope, element types
# --------------------------------------------------------------------------------------


@dataclass
class Buffer:
    """An on-chip allocation and the part of the function (walk order) it is live in."""

    op: Operation
    scope: str
    bytes: int
    start: int
    end: int

    @property
    def label(self) -> str:
        hint = self.op.results[0].name_hint
        return f"%{hint}" if hint else self.op.name


def _live_end(value: SSAValue, alloc: Operation, order: dict[Operation, int], last: dict[Operation, int]) -> int:
    """Walk index of the last use of `value` or a view of it; a use in a loop that does not
    contain the allocation keeps the buffer live to the end of that loop."""
    end = order[alloc]
    for view in views_of(value):
        for use in view.uses:
            user = use.operation
            if user not in order:
                continue
            end = max(end, order[user])
            parent = user.parent_op()
            while parent is not None and not parent.is_ancestor(alloc):
                if isinstance(parent, LOOP_OPS):
                    end = max(end, last[parent])
                parent = parent.parent_op()
    return end


def on_chip_buffers(function: Operation, chip) -> list[Buffer]:  # noqa: ANN001 - chips.Chip
    """Every statically shaped on-chip `memref.alloc`/`alloca` of `function` with its live range."""
    ops = list(function.walk())
    order = {op: i for i, op in enumerate(ops)}
    last: dict[Operation, int] = {}
    for op in reversed(ops):
        last[op] = max([order[op]] + [last[o] for r in op.regions for b in r.blocks for o in b.ops])
    buffers: list[Buffer] = []
    for op in ops:
        if not isinstance(op, ALLOC_OPS):
            continue
        t = _memref(op.results[0].type)
        scope = hivm.scope_of(t) if t is not None else None
        size = byte_size(t) if t is not None else None
        if scope is None or scope == "gm" or size is None:
            continue
        buffers.append(Buffer(op, scope, chip.aligned_size(scope, size), order[op],
                              _live_end(op.results[0], op, order, last)))
    return buffers


def _capacity_errors(function: Operation, chip) -> Iterator[OpError]:  # noqa: ANN001
    buffers = on_chip_buffers(function, chip)
    reported: set[str] = set()
    for buffer in buffers:
        if buffer.scope in reported:
            continue
        live = [b for b in buffers if b.scope == buffer.scope and b.start <= buffer.start <= b.end]
        total = sum(b.bytes for b in live)
        capacity = chip.capacity[buffer.scope]
        if total <= capacity:
            continue
        reported.add(buffer.scope)
        if len(live) == 1:
            what = f"this {buffer.scope} buffer alone needs {total} bytes"
        else:
            parts = " + ".join(f"{b.label} {b.bytes}" for b in live)
            what = f"the {len(live)} {buffer.scope} buffers live here need {total} bytes ({parts})"
        yield op_error(buffer.op, f"{what}, but {chip.name} has {capacity} bytes of {buffer.scope}"
                                  + (" at most" if chip.name == ANY_CHIP else ""))


def _pointer_cast_errors(op: hivm.PointerCastOp, chip) -> Iterator[OpError]:  # noqa: ANN001
    t = _memref(op.results[0].type)
    scope = hivm.scope_of(t) if t is not None else None
    size = byte_size(t) if t is not None else None
    if scope is None or scope == "gm" or size is None:
        return
    capacity = chip.capacity[scope]
    ranges = None
    for addr in op.addrs:
        start = constant_int(addr)
        if start is not None and (start < 0 or start + size > capacity):
            yield op_error(op, f"places {size} bytes at {scope} offset {start}, outside the {capacity} "
                               f"bytes of {scope} on {chip.name}")
            return
        if start is None:
            # a computed address (a buffer version `i mod k`): over its loops' range
            ranges = symbol_ranges(op) if ranges is None else ranges
            values = affine_range(affine_of(addr), ranges) if ranges is not None else None
            if values is not None and (values[0] < 0 or values[1] + size > capacity):
                yield op_error(op, f"places {size} bytes at {scope} offsets {values[0]}..{values[1]} over the "
                                   f"enclosing loops' range, outside the {capacity} bytes of {scope} on {chip.name}")
                return


def legal_types(chip, use: str) -> tuple[str, ...] | None:  # noqa: ANN001
    """The element types the chip has for `use` ("storage", "vector", "cube"); None if the
    chip file does not say."""
    types = getattr(chip, "element_types", None)
    if not types:
        return None
    return tuple(types.get(use, ())) or None


def _type_error(op: Operation, chip, use: str, element: Attribute, what: str) -> OpError | None:  # noqa: ANN001
    legal = legal_types(chip, use)
    name = type_name(element)
    if legal is None or name in legal:
        return None
    lacks = "no built-in chip has" if chip.name == ANY_CHIP else f"{chip.name} lacks"
    return op_error(op, f"{what} has element type {name}, which {lacks} for {use} (legal: {', '.join(legal)})")


def _arithmetic_kind(op: Operation) -> str | None:
    """"vector" or "cube" for ops that compute on their operands' element types."""
    from ascend_mlir.dialects import tile

    if isinstance(op, (tile.CastOp, hivm.VCastOp, tile.CopyOp, tile.FillOp, tile.BroadcastOp, hivm.VBrcOp)):
        return None  # conversions and data movement: storage types only
    if isinstance(op, (tile.MatmulOp, hivm.MmadL1Op)):
        return "cube"
    if isinstance(op, (tile.ElementwiseOp, tile.ReduceOp)) or op.name in {o.name for o in hivm.VECTOR_OPS}:
        return "vector"
    return None


def _element_type_errors(op: Operation, chip) -> Iterator[OpError]:  # noqa: ANN001
    for result in op.results:
        t = _memref(result.type)
        if t is not None:
            found = _type_error(op, chip, "storage", t.element_type, "the buffer")
            if found is not None:
                yield found
                return
    kind = _arithmetic_kind(op)
    if kind is None:
        return
    operands = list(op.operands)
    if kind == "cube":
        operands = operands[:2]  # A and B; C is the accumulator (f32/i32)
    for index, value in enumerate(operands):
        t = _memref(value.type)
        element = t.element_type if t is not None else value.type
        if t is None and not isinstance(element, FixedBitwidthType):
            continue  # index operands (sizes of mmadL1)
        found = _type_error(op, chip, kind, element, f"operand #{index}")
        if found is not None:
            yield found
            return


def _function_args_errors(function: func.FuncOp, chip) -> Iterator[OpError]:  # noqa: ANN001
    for index, t in enumerate(function.function_type.inputs.data):
        m = _memref(t)
        if m is not None:
            found = _type_error(function, chip, "storage", m.element_type, f"argument #{index}")
            if found is not None:
                yield found
                return


def _copy_path_errors(op: Operation, chip) -> Iterator[OpError]:  # noqa: ANN001
    """A DMA over a path `chip` lacks (its chip file does not list it: the 910B has no
    UB -> L1 and no L0C -> UB). Judged here, with the chip known, not by the op's verifier."""
    copy_path = getattr(op, "copy_path", None)
    path = copy_path() if callable(copy_path) else None
    if not isinstance(path, hardware.CopyPath) or not path.is_dma or chip.name == ANY_CHIP:
        return  # a module naming no chip may run on any chip that has the path
    pair = (path.src, path.dst)
    if pair in hardware.REQUIRED_COPY_PATHS or pair in chip.latency.copy:
        return
    from ascend_mlir.chips import builtin_chip_names, load_chip

    having = ", ".join(n for n in builtin_chip_names() if pair in load_chip(n).latency.copy)
    target = hivm.target_name(op) or chip.hacc_targets[0]
    yield op_error(op, f"{path.op} {path.src} -> {path.dst} needs a chip with that path ({having}), "
                       f"the module targets {target} ({chip.name})")


def chip_limit_errors(module: ModuleOp, chip) -> list[OpError]:  # noqa: ANN001 - chips.Chip
    """Capacity, copy-path and element-type errors of `module` on `chip`, in program order."""
    errors: list[OpError] = []
    functions = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    for function in functions:
        errors += _function_args_errors(function, chip)
    for op in module.walk():
        errors += _copy_path_errors(op, chip)
        errors += _element_type_errors(op, chip)
        if isinstance(op, hivm.PointerCastOp):
            errors += _pointer_cast_errors(op, chip)
    for function in functions:
        errors += _capacity_errors(function, chip)
    return errors


def check_chip_limits(module: ModuleOp, chip) -> None:  # noqa: ANN001
    """Raise the first chip-limit error of `module` (what a pass calls before it starts)."""
    errors = chip_limit_errors(module, chip)
    if errors:
        raise errors[0]


def largest_builtin_chip():  # noqa: ANN201 - a chips.Chip
    """A chip with, per scope, the largest capacity of any built-in chip and the element
    types any of them has: what a module that names no chip is checked against (nothing
    some chip could run is rejected; a buffer or a type no chip has is)."""
    import dataclasses

    from ascend_mlir.chips import builtin_chip_names, load_chip

    chips = [load_chip(name) for name in builtin_chip_names()]
    capacity = {scope: max(c.capacity[scope] for c in chips) for scope in chips[0].capacity}
    alignment = {scope: min(c.alignment[scope] for c in chips) for scope in chips[0].alignment}
    uses = {use for c in chips for use in c.element_types}
    types = {
        use: tuple(dict.fromkeys(t for c in chips for t in c.element_types.get(use, ())))
        for use in sorted(uses)
        if all(use in c.element_types for c in chips)  # a chip without the list allows anything
    }
    return dataclasses.replace(
        chips[0], name=ANY_CHIP, capacity=capacity, alignment=alignment, element_types=types
    )


def require_hivm_level(module: ModuleOp, pass_name: str) -> None:
    """Raise at the first tile op: `pass_name` works on hivm IR (scheduling tile ops, which
    have no pipes, would report an empty "optimal" schedule)."""
    for op in module.walk():
        if op.name.startswith("tile."):
            raise op_error(op, f"{pass_name} works on hivm IR: run convert-tile-to-hivm first")
