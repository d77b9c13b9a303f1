"""Where the Python DSL's expression temporaries live, decided when a kernel is built.

Each expression (`x - m`, `T.exp(s)`, ...) was built into a fresh ub `memref.alloc`
that one op writes and later ops read (tiles.py). On the finished kernel, in program
order:

1. dead temporaries (never read) go, with the op that wrote them;
2. *coalescing*: a temporary whose only reader is `tile.copy` into a ub tile `d` of the
   same shape and type is written into `d` directly and the copy goes, when nothing
   between the write and the copy touches `d`'s buffer; then, backwards through
   elementwise ops, an operand temporary that dies at the op that now writes `d` is
   written into `d` too (`d[:] = exp(x - m)` becomes `broadcast(m) -> d; sub(x, d) -> d;
   exp(d) -> d`, what a kernel author writes by hand);
3. *sharing*: temporaries of one type whose lifetimes do not overlap share one buffer,
   and an elementwise op writes in place into an operand that dies at it (a value
   defined outside a loop and read inside stays live to the loop's end).

Only temporaries written by exactly one tile op and used by tile ops alone take part;
one used through a view or written twice (as a destination by the user) keeps its own
buffer. Sharing stays inside one loop body so that each buffer belongs to one loop for
the scheduler.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ascend_mlir.dialects import tile


@dataclass
class _Program:
    """Pre-order numbering of the kernel's ops (an op with regions spans its body)."""

    ops: list[Operation]
    order: dict[Operation, int]
    last: dict[Operation, int]

    @staticmethod
    def of(block: Block) -> _Program:
        ops = [op for top in block.ops for op in top.walk()]
        order = {op: i for i, op in enumerate(ops)}
        last = {op: order[op] for op in ops}
        for op in ops:
            if op.regions:
                last[op] = max(order[inner] for inner in op.walk())
        return _Program(ops, order, last)

    def between(self, first: Operation, second: Operation) -> list[Operation]:
        return self.ops[self.order[first] + 1:self.order[second]]


def _erase(op: Operation) -> None:
    block = op.parent_block()
    assert block is not None
    block.erase_op(op)


def _root(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, memref.SubviewOp | memref.CastOp):
        value = value.owner.source
    return value


def _touches(op: Operation, root: SSAValue) -> bool:
    return any(isinstance(v.type, MemRefType) and _root(v) is root for v in op.operands)


def _block_encloses(block: Block | None, op: Operation) -> bool:
    return block is not None and block.is_ancestor(op)


def _innermost_loop(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.ForOp):
        parent = parent.parent_op()
    return parent


@dataclass
class _Temp:
    alloc: memref.AllocOp
    writer: Operation
    readers: list[Operation]

    @property
    def value(self) -> SSAValue:
        return self.alloc.memref


def _analyse(alloc: memref.AllocOp) -> _Temp | None:
    """The temporary's single writer and its readers, or None when it does not qualify."""
    value = alloc.memref
    writers: list[Operation] = []
    readers: list[Operation] = []
    for use in value.uses:
        op = use.operation
        if not isinstance(op, tile.TileOp):
            return None
        ins, outs = tuple(op.ins), tuple(op.outs)
        if value in ins and value in outs:
            return None
        (writers if value in outs else readers).append(op)
    if len(writers) != 1:
        return None
    return _Temp(alloc, writers[0], readers)


def _erase_dead(allocs: list[memref.AllocOp]) -> None:
    changed = True
    while changed:
        changed = False
        for alloc in allocs:
            if alloc.parent is None:
                continue
            temp = _analyse(alloc)
            if temp is not None and not temp.readers:
                _erase(temp.writer)
                _erase(alloc)
                changed = True


def _dominates(value: SSAValue, op: Operation, program: _Program) -> bool:
    if isinstance(value, BlockArgument):
        return _block_encloses(value.block, op)
    owner = value.owner
    assert isinstance(owner, Operation)
    return program.order[owner] < program.order[op] and _block_encloses(owner.parent_block(), op)


def _same_tile_type(a: SSAValue, b: SSAValue) -> bool:
    ta, tb = a.type, b.type
    return (isinstance(ta, MemRefType) and isinstance(tb, MemRefType)
            and ta.get_shape() == tb.get_shape() and ta.element_type == tb.element_type
            and ta.memory_space == tb.memory_space)


def _may_write_into(writer: Operation, dest: SSAValue, until: Operation, program: _Program) -> bool:
    """Whether `writer` may write `dest` instead of its temporary, `until` being the op
    that reads the temporary: `dest` is defined before, nothing in between touches its
    buffer, and the writer reads it only elementwise at the same place."""
    root = _root(dest)
    if writer.parent_block() is not until.parent_block() or not _dominates(dest, writer, program):
        return False
    if any(_touches(op, root) for op in program.between(writer, until)):
        return False
    reads = [v for v in writer.operands if isinstance(v.type, MemRefType) and _root(v) is root]
    return not reads or (isinstance(writer, tile.ElementwiseOp) and all(v is dest for v in reads))


def _retarget(temp: _Temp, dest: SSAValue) -> None:
    temp.alloc.memref.replace_all_uses_with(dest)
    _erase(temp.alloc)


def _coalesce(allocs: list[memref.AllocOp], program: _Program) -> None:
    for alloc in allocs:
        if alloc.parent is None:
            continue
        temp = _analyse(alloc)
        if temp is None or len(temp.readers) != 1 or not isinstance(temp.readers[0], tile.CopyOp):
            continue
        copy = temp.readers[0]
        dest = copy.dest
        if copy.source is not temp.value or not _same_tile_type(temp.value, dest):
            continue
        if not _may_write_into(temp.writer, dest, copy, program):
            continue
        writer = temp.writer
        _erase(copy)
        _retarget(temp, dest)
        _coalesce_operands(writer, dest, program)


def _coalesce_operands(op: Operation, dest: SSAValue, program: _Program) -> None:
    """Backwards from `op` (which now writes `dest`): an operand temporary that dies at
    an elementwise `op` is computed in `dest` too."""
    root = _root(dest)
    while isinstance(op, tile.ElementwiseOp):
        inputs = [v for v in op.ins if isinstance(v.type, MemRefType)]
        for value in inputs:
            owner = value.owner
            temp = _analyse(owner) if isinstance(owner, memref.AllocOp) else None
            if temp is None or temp.readers != [op] or not _same_tile_type(value, dest):
                continue
            if any(_root(other) is root for other in inputs if other is not value):
                continue
            if not _may_write_into(temp.writer, dest, op, program):
                continue
            _retarget(temp, dest)
            op = temp.writer
            break
        else:
            return


@dataclass
class _Buffer:
    value: SSAValue
    end: int
    extended: bool  # the end is a loop's end (the value is read in a later iteration)


def _lifetime(temp: _Temp, program: _Program) -> tuple[int, bool]:
    end, extended = program.order[temp.writer], False
    for reader in temp.readers:
        at, ext = program.order[reader], False
        loop = reader.parent_op()
        while loop is not None:
            if isinstance(loop, scf.ForOp) and not loop.is_ancestor(temp.writer):  # the writer, a tile op, is never the loop
                at, ext = max(at, program.last[loop]), True
            loop = loop.parent_op()
        if at > end or (at == end and ext):
            end, extended = at, ext
    return end, extended


def _share(allocs: list[memref.AllocOp], program: _Program) -> None:
    temps = [t for t in (_analyse(a) for a in allocs if a.parent is not None) if t is not None]
    temps.sort(key=lambda t: program.order[t.writer])
    pools: dict[tuple, list[_Buffer]] = {}
    for temp in temps:
        start = program.order[temp.writer]
        end, extended = _lifetime(temp, program)
        pool = pools.setdefault((temp.value.type, _innermost_loop(temp.writer)), [])
        in_place = isinstance(temp.writer, tile.ElementwiseOp)
        operands = list(temp.writer.operands)
        free = [b for b in pool if b.end < start or (
            b.end == start and not b.extended and in_place and b.value in operands)]
        if not free:
            pool.append(_Buffer(temp.value, end, extended))
            continue
        free.sort(key=lambda b: (b.end != start, operands.index(b.value) if b.value in operands else 0,
                                 program.order[b.value.owner]))  # type: ignore[index]
        chosen = free[0]
        _retarget(temp, chosen.value)
        chosen.end, chosen.extended = end, extended


def plan_temporaries(allocs: list[memref.AllocOp]) -> None:
    """Plan the temporaries of one finished kernel (see the module doc)."""
    allocs = [a for a in allocs if a.parent is not None]
    if not allocs:
        return
    entry = allocs[0].parent_block()
    assert entry is not None
    _erase_dead(allocs)
    _coalesce(allocs, _Program.of(entry))
    _share(allocs, _Program.of(entry))
