"""The dependences `ascend-insert-sync` synchronises (its module doc, items 1-2): every
pair of memory accesses of one core that may touch the same bytes, one of them a write,
in program order within one pass over their common block and around the back edge of
each common `scf.for` at the smallest distance at which the footprints overlap, as the
block plans' requirements (`_Req`). `_Planner.collect` gathers them; the pass then
plans, allocates and emits the flags and barriers for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation

from ascend_mlir.analysis.aliasing import Footprint, conflict_candidates, may_alias, min_carried_distance
from ascend_mlir.analysis.kernel_layout import scalar_core
from ascend_mlir.analysis.views import fixed_symbols, footprint_of, loop_bounds, widen_out_of, widened_out_of
from ascend_mlir.chips import Chip, needs_barrier
from ascend_mlir.dialects import hivm
from ascend_mlir.transforms.sync_blocks import _Plan, _Req
from ascend_mlir.transforms.sync_events import core_of, cores_running, op_core, pipe_of, qualified

# the most passes a carried flag is kept over (its ids: one per pass)
MAX_VERSIONS = 4


# ----------------------------------------------------------------------------- accesses


@dataclass(eq=False)
class _Leaf:
    """One memory-touching hivm op: (footprint, pipe, is_write) per memref operand and its
    ancestors from the function body's item down to itself."""

    op: Operation
    accesses: list[tuple[Footprint, str, bool]]
    path: list[Operation]
    # the accesses without repeats (vadd ins(%a, %a) reads %a once), each with its
    # footprint's number among the function's distinct footprints (`_Planner.collect`'s
    # memo keys: equal footprints give equal answers)
    distinct: list[tuple[Footprint, str, bool, int]] = field(default_factory=list)


def _leaf(op: Operation, body: Block, default_core: str) -> _Leaf | None:
    if not isinstance(op, hivm.HivmPipeOp) or isinstance(op, hivm.SYNC_OPS):
        return None
    reads = [v for v in op.memref_reads() if isinstance(v.type, MemRefType)]
    writes = [v for v in op.memref_writes() if isinstance(v.type, MemRefType)]
    if not reads and not writes:
        return None
    core = op_core(op, default_core)
    pipes = [qualified(core, p) for p in op.pipes()]
    accesses = [(footprint_of(v), pipes[-1] if v in writes else pipes[0], False) for v in reads]
    accesses += [(footprint_of(v), pipes[-1], True) for v in writes]
    path: list[Operation] = [op]
    while path[0].parent_block() is not body:
        parent = path[0].parent_op()
        assert parent is not None
        path.insert(0, parent)
    return _Leaf(op, accesses, path)


# ----------------------------------------------------------------------------- requirements


class _Planner:
    def __init__(self, func_op: func.FuncOp, chip: Chip):
        self.func_op = func_op
        self.chip = chip  # whose same-pipe rule (chips.needs_barrier) applies
        self.body = func_op.body.block
        self.default_core = scalar_core(func_op)
        self.cores = cores_running(func_op, self.default_core)
        self.leaves = [lf for op in func_op.walk() if (lf := _leaf(op, self.body, self.default_core)) is not None]
        self.plans: dict[Block, _Plan] = {}
        # each op's position in its block, each loop's bounds: asked once per pair otherwise
        self.position: dict[Operation, int] = {}
        for op in func_op.walk():
            for region in op.regions:
                for block in region.blocks:
                    self.position.update((item, i) for i, item in enumerate(block.ops))
        self.bounds: dict[Operation, tuple] = {}
        # A chain of ops ping-ponging between two tiles makes every pair of its ops a
        # dependence candidate, and where same-pipe pairs need a barrier (V on the 910B)
        # all of them are examined: the same few footprints, compared again and again.
        # The alias answers are memoized by the footprints' numbers and the loops they
        # are widened over (pure functions of those, so the dependences are unchanged).
        # A repeated access of one op adds the same dependences again: each is asked once.
        numbers: dict[Footprint, int] = {}
        for lf in self.leaves:
            seen: set[tuple[int, str, bool]] = set()
            for fp, pipe, write in lf.accesses:
                key = (numbers.setdefault(fp, len(numbers)), pipe, write)
                if key not in seen:
                    seen.add(key)
                    lf.distinct.append((fp, pipe, write, key[0]))
        self.forward_alias: dict[tuple, bool] = {}
        self.carried_distance: dict[tuple, int | None] = {}
        self.second_pass_only: dict[tuple, bool] = {}  # into a loop: no conflict in its first pass
        self.barrier_on: dict[str, bool] = {}  # pipe -> whether same-pipe pairs need a barrier

    def plan_of(self, block: Block) -> _Plan:
        if block not in self.plans:
            self.plans[block] = _Plan(block, list(block.ops), cores=self.cores)
        return self.plans[block]

    def collect(self) -> None:
        """Every dependence between two leaves, over the pairs whose accesses may touch
        the same bytes at all (`aliasing.conflict_candidates`), in the order of the full double loop."""
        candidates = conflict_candidates([lf.accesses for lf in self.leaves])
        for i, a in enumerate(self.leaves):
            for j in sorted(candidates[i]):
                self._pair(a, self.leaves[j])

    def _pair(self, a: _Leaf, b: _Leaf) -> None:
        k = 0
        while k < min(len(a.path), len(b.path)) and a.path[k] is b.path[k]:
            k += 1
        both_mmad = isinstance(a.op, hivm.MmadL1Op) and isinstance(b.op, hivm.MmadL1Op)
        forward = self._forward_items(a, b, k)
        loops = [j for j in range(k) if isinstance(a.path[j], scf.ForOp)]
        for fa, pa, wa, ka in a.distinct:
            for fb, pb, wb, kb in b.distinct:
                if not (wa or wb):
                    continue
                if pa == pb:
                    if pa not in self.barrier_on:
                        self.barrier_on[pa] = needs_barrier(self.chip, pipe_of(pa), pipe_of(pa))
                    if both_mmad or not self.barrier_on[pa]:
                        continue
                if forward:
                    self._forward(a, b, k, fa, fb, pa, pb, (ka, kb))
                for j in loops:
                    self._carried(a, b, j, fa, fb, pa, pb, (ka, kb))

    def _forward_items(self, a: _Leaf, b: _Leaf, k: int) -> bool:
        """Whether `a` and `b` have items in one block at depth `k` (below their common
        ancestors), `a`'s before `b`'s: where a dependence within one pass lives."""
        if k >= len(a.path) or k >= len(b.path):
            return False
        item_a, item_b = a.path[k], b.path[k]
        block = item_a.parent_block()
        return block is not None and block is item_b.parent_block() and self.position[item_a] < self.position[item_b]

    def _forward(self, a: _Leaf, b: _Leaf, k: int, fa, fb, pa: str, pb: str, keys: tuple[int, int]) -> None:
        """The dependence within one pass (`_forward_items` holds), if the footprints meet."""
        item_a, item_b = a.path[k], b.path[k]
        block = item_a.parent_block()
        assert block is not None
        memo = (*keys, tuple(a.path[k:-1]), tuple(b.path[k:-1]))
        alias = self.forward_alias.get(memo)
        if alias is None:
            alias = self.forward_alias[memo] = may_alias(widened_out_of(fa, a.path[k:-1]), widened_out_of(fb, b.path[k:-1]))
        if alias:
            plan = self.plan_of(block)
            req = _Req(self.position[item_a], self.position[item_b], pa, pb, 0)
            plan.reqs.add(req)
            if isinstance(item_b, scf.ForOp) and k + 1 < len(b.path):
                inner = self.position[b.path[k + 1]]
                later = self.second_pass_only.get(memo)
                if later is None:
                    first = self._first_pass(fb, b.path[k + 1 : -1], item_b)
                    later = first is not None and not may_alias(widened_out_of(fa, a.path[k:-1]), first)
                    self.second_pass_only[memo] = later
                if later:
                    inner = len(item_b.body.block.ops)  # no conflict before the loop's second pass
                plan.inner[req] = min(plan.inner.get(req, inner), inner)

    def _first_pass(self, fp: Footprint, inside: list[Operation], loop: scf.ForOp) -> Footprint | None:
        """The footprint of an access in the first pass over `loop`'s body (its nested
        loops `inside` widened), None when the loop's start is not a known constant."""
        if loop not in self.bounds:
            self.bounds[loop] = loop_bounds(loop)
        lb = self.bounds[loop][0]
        if lb is None:
            return None
        iv = loop.body.block.args[0]
        return fixed_symbols(widened_out_of(fp, inside), loop, iv).bind({iv: lb})

    def _carried(self, a: _Leaf, b: _Leaf, j: int, fa, fb, pa: str, pb: str, keys: tuple[int, int]) -> None:
        loop = a.path[j]
        assert isinstance(loop, scf.ForOp)
        if loop not in self.bounds:
            self.bounds[loop] = loop_bounds(loop)
        _, trips, step = self.bounds[loop]
        memo = (*keys, loop, tuple(a.path[j + 1 : -1]), tuple(b.path[j + 1 : -1]))
        if memo in self.carried_distance:
            distance = self.carried_distance[memo]
        else:
            iv = loop.body.block.args[0]
            fa, fb = widened_out_of(fa, a.path[j + 1 : -1]), widened_out_of(fb, b.path[j + 1 : -1])
            fa, fb = fixed_symbols(fa, loop, iv), fixed_symbols(fb, loop, iv)
            if step is None:
                fa, fb = widen_out_of(fa, loop), widen_out_of(fb, loop)
                distance = 1 if may_alias(fa, fb) else None
            else:
                distance = min_carried_distance(fa, fb, iv, step, trips)
            self.carried_distance[memo] = distance
        if distance is None:
            return
        item_a, item_b = a.path[j + 1], b.path[j + 1]
        plan = self.plan_of(loop.body.block)
        src, dst = self.position[item_a], self.position[item_b]
        if src >= dst:
            distance = min(distance, MAX_VERSIONS)
        elif pa == pb or core_of(pa) != core_of(pb) or trips is None:
            # ordered within the pass (which orders it for every later one): a
            # barrier or a counting cross-core flag needs no ring; a ring's drains
            # need the trip count (_ring_versions)
            distance = 0
        else:
            # the producer's set comes before the consumer's wait in every pass: one
            # event id more than the distance, at most 4 (verify-sync's long runs keep
            # the trip count mod 12), a smaller distance orders more
            distance = min(distance, MAX_VERSIONS - 1)
        plan.reqs.add(_Req(src, dst, pa, pb, distance))


