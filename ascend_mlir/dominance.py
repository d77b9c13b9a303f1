"""SSA dominance: every use of a value must be dominated by its definition.

xDSL's parser resolves forward references anywhere in a region and its verifier does
not check dominance, so `%b = arith.addi %a, %a` before `%a = ...`, or a value of a
block used inside a region nested earlier in that block, were accepted and printed as
valid IR. MLIR's verifier refuses them ("operand #0 does not dominate this use"); this
is that check for our IR:

* in a block, a value is visible after the op that defines it (an op's own results are
  not visible to its operands nor inside its own regions), block arguments from the top;
* a region sees what its parent op sees (region nesting);
* in a region of several blocks, a block sees the values of the blocks that dominate it
  (dominators from the terminators' successors, first block the entry); uses in blocks
  unreachable from the entry are not checked, as in MLIR;
* graph regions (the module's body, the regions of unregistered ops) impose no order.

One walk with a set of visible values, without recursion (regions nest deeply in bad
inputs): linear in the size of the IR.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Block, Operation, Region, SSAValue


@dataclass(frozen=True)
class DominanceViolation:
    """`user`'s operand number `operand` is `value`, whose definition does not dominate it."""

    user: Operation
    operand: int
    value: SSAValue

    def where_defined(self) -> str:
        """MLIR's words for where the definition is, seen from the use."""
        owner = self.value.owner
        if isinstance(owner, Block):
            return "block argument"
        if owner.parent_block() is self.user.parent_block():
            return "op in the same block"
        defined, used = owner.parent_region(), self.user.parent_region()
        if defined is used:
            return "op in the same region"
        if defined is not None and used is not None:
            if defined.is_ancestor(used):
                return "op in a parent region"
            if used.is_ancestor(defined):
                return "op in a child region"
        return "op in a sibling region"


def _is_graph_region(op: Operation) -> bool:
    return isinstance(op, (ModuleOp, UnregisteredOp))


def _dominator_tree(region: Region) -> tuple[dict[Block, list[Block]], set[Block]]:
    """Children of each block in the dominator tree of `region`, and the blocks reachable
    from its entry (Cooper, Harvey and Kennedy's iteration over reverse postorder)."""
    entry = region.blocks[0]
    order = _postorder(entry)
    number = {block: i for i, block in enumerate(order)}
    predecessors: dict[Block, list[Block]] = {block: [] for block in order}
    for block in order:
        for successor in _successors(block):
            predecessors[successor].append(block)
    idom: dict[Block, Block] = {entry: entry}

    def intersect(a: Block, b: Block) -> Block:
        while a is not b:
            while number[a] < number[b]:
                a = idom[a]
            while number[b] < number[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for block in reversed(order[:-1]):  # reverse postorder, entry excluded
            done = [p for p in predecessors[block] if p in idom]
            new = functools.reduce(intersect, done[1:], done[0])
            if idom.get(block) is not new:
                idom[block] = new
                changed = True
    children: dict[Block, list[Block]] = {block: [] for block in order}
    for block in reversed(order[:-1]):  # the entry is last in postorder
        children[idom[block]].append(block)
    return children, set(order)


def _postorder(entry: Block) -> list[Block]:
    """The blocks reachable from `entry`, in postorder of a depth-first walk."""
    order: list[Block] = []
    seen = {entry}
    stack: list[tuple[Block, Iterator[Block]]] = [(entry, iter(_successors(entry)))]
    while stack:
        block, successors = stack[-1]
        following = next((s for s in successors if s not in seen), None)
        if following is None:
            order.append(block)
            stack.pop()
        else:
            seen.add(following)
            stack.append((following, iter(_successors(following))))
    return order


def _successors(block: Block) -> list[Block]:
    last = block.last_op
    return list(last.successors) if last is not None else []


class _Walk:
    """The visible set and the violations found; `_frames` is the explicit stack."""

    def __init__(self) -> None:
        self.visible: set[SSAValue] = set()
        self.violations: list[DominanceViolation] = []
        # the values of the blocks on the current dominator-tree path of CFG regions
        self._kept: list[list[SSAValue]] = []

    def check(self, op: Operation) -> None:
        for index, operand in enumerate(op.operands):
            if operand not in self.visible:
                self.violations.append(DominanceViolation(op, index, operand))

    def run(self, root: Operation) -> None:
        # a frame is a generator over the work of one region; it yields a nested op
        # whose regions are to be walked before it continues
        frames: list[Iterator[Operation]] = [self._op_regions(root)]
        while frames:
            nested = next(frames[-1], None)
            if nested is None:
                frames.pop()
            else:
                frames.append(self._op_regions(nested))

    def _op_regions(self, op: Operation) -> Iterator[Operation]:
        for region in op.regions:
            if not region.blocks:
                continue
            if _is_graph_region(op):
                yield from self._graph_region(region)
            elif len(region.blocks) == 1:
                yield from self._block(region.blocks[0], checked=True, keep=False)
            else:
                yield from self._cfg_region(region)

    def _block(self, block: Block, checked: bool, keep: bool) -> Iterator[Operation]:
        """Walk `block` in order; its values leave the visible set at the end unless
        `keep` (the caller removes them: dominator-tree children still see them)."""
        added: list[SSAValue] = list(block.args)
        self.visible.update(block.args)
        for op in block.ops:
            if checked:
                self.check(op)
            if op.regions:
                yield op
            self.visible.update(op.results)
            added.extend(op.results)
        if not keep:
            self.visible.difference_update(added)
        else:
            self._kept.append(added)

    def _cfg_region(self, region: Region) -> Iterator[Operation]:
        children, reachable = _dominator_tree(region)
        stack: list[tuple[Block, bool]] = [(region.blocks[0], False)]
        while stack:
            block, leaving = stack.pop()
            if leaving:
                self.visible.difference_update(self._kept.pop())
                continue
            yield from self._block(block, checked=True, keep=True)
            stack.append((block, True))
            stack.extend((child, False) for child in reversed(children[block]))
        for block in region.blocks:
            if block not in reachable:  # MLIR checks no dominance there
                yield from self._block(block, checked=False, keep=False)

    def _graph_region(self, region: Region) -> Iterator[Operation]:
        values = [v for block in region.blocks for v in (*block.args, *(r for op in block.ops for r in op.results))]
        self.visible.update(values)
        for block in region.blocks:
            for op in block.ops:
                self.check(op)
                if op.regions:
                    yield op
        self.visible.difference_update(values)


def dominance_violations(root: Operation) -> list[DominanceViolation]:
    """The uses in `root`'s regions that their definitions do not dominate, in IR order
    (the operands of `root` itself are not checked: its parent's walk does that)."""
    walk = _Walk()
    walk.run(root)
    return walk.violations
