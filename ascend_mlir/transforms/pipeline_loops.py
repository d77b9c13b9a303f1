"""`ascend-pipeline-loops`: emit every scheduled loop so that each pipe issues its ops in
the order of the modulo schedule (DESIGN.md section 7).

Interface (what this pass produces; ascend-insert-sync and the CCE route read it)
-------------------------------------------------------------------------------
Input: loops with `#ascend.loop` whose body tasks (hivm ops, nested loops and ifs) carry
`#ascend.task<..., stage = k, start = s>` (ascend-modulo-schedule), usually after
ascend-plan-memory and ascend-multi-buffer (the version-index arithmetic at the top of
the body is ordinary index arithmetic here). Output: plain hivm, no new ops or dialects:

* **One stage per pipe** (every pipe's tasks share a stage; the anchor's case): the
  same loop, its body in the order of `start`. Iterations overlap through buffer
  versions and flags only.
* **Otherwise, stage skewing**: with S stages, op i of iteration j is issued in kernel
  iteration `t = j + stage_i`, and inside a kernel iteration ops are ordered by their
  offset `start_i - stage_i * II` (ties: body order):

      prologue  t = 0 .. S-2          (straight line: ops with stage_i <= t)
      scf.for %t_iv = lb + (S-1)*step to ub step step   {#ascend.loop, ascend.pipelined}
                                      (every op; op i uses iv = %t_iv - stage_i*step)
      epilogue  t = N .. N+S-2        (straight line: ops with stage_i >= t - N + 1)

  Each op is cloned with the scalar work it depends on in the body (index arithmetic,
  subviews, pointer_casts) evaluated at its own iteration `iv = lb + j*step`, so the
  buffer version (`iv mod V`) and GM offsets are those of iteration j. A trip count N
  of at most S-1 is emitted fully unrolled (kernel iterations 0 .. N+S-2); a dynamic trip
  count gets `scf.if (ub - lb > (S-2)*step) { prologue; kernel; epilogue } else
  { the loop in start order }`.

* **Program order for a few trips**: a loop with `ascend.small_trips = {below = K, ...}`
  (a runtime trip count whose first K counts run faster in program order) becomes
  `scf.if (ub > lb + K*step) { the form above } else { the loop in body order }`, the
  copy carrying the program-order schedule of the attribute, each buffer at its version 0
  where the attribute says `one_version` (`_one_version_each`). Where K >= S - 2, the
  form above is its then branch alone (its own `if` for fewer than S - 1 trips would
  never be taken).

Program order of the result is a time order of the schedule (kernel iteration, then
offset), so every dependence points forward in program order and any correct sync pass
(ascend-insert-sync, ascend-insert-barrier-sync) makes it correct; correctness never
depends on the latency estimates. Cloned ops keep their `#ascend.task` (the simulator
reads their costs); the kernel loop keeps `#ascend.loop` and gets `ascend.pipelined`.
Loops with results (iter_args) or with body ops that cannot be re-evaluated per
iteration (allocations, sync ops) are left in program order with a remark.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ascend_mlir.analysis.accesses import trip_count
from ascend_mlir.analysis.latency_model import constant_int, op_pipes
from ascend_mlir.analysis.loop_model import loops_innermost_first
from ascend_mlir.analysis.views import VIEW_OPS
from ascend_mlir.diagnostics import emit_remark
from ascend_mlir.dialects import ascend, hivm


# ----- which body ops are tasks, which are re-evaluable scalar work ---------------------


def _is_task(op: Operation) -> bool:
    return ascend.task_of(op) is not None and (bool(op_pipes(op)) or isinstance(op, scf.ForOp | scf.IfOp))


def _is_scalar(op: Operation) -> bool:
    """Body ops that may be evaluated once per (iteration, stage): pure index work, views
    and planned buffers (a pointer_cast only names memory)."""
    if op.regions:
        return False
    if isinstance(op, (*VIEW_OPS, hivm.PointerCastOp)) or op.name.startswith("arith."):
        return True
    return is_side_effect_free(op) and not op_pipes(op)


def is_pipelinable_body_op(op: Operation) -> bool:
    """Whether a loop body may hold `op` for this pass to pipeline it: a task or scalar
    work it can re-evaluate per iteration."""
    return _is_task(op) or _is_scalar(op)


def _task_pipes(op: Operation) -> frozenset[str]:
    return frozenset(p for inner in op.walk() for p in op_pipes(inner)) or frozenset({"S"})


@dataclass
class _Body:
    loop: scf.ForOp
    tasks: list[Operation]
    stage: dict[Operation, int]
    offset: dict[Operation, int]
    ii: int

    @property
    def stages(self) -> int:
        return max(self.stage.values(), default=0) + 1

    def ordered(self, skew: bool) -> list[Operation]:
        index = {op: i for i, op in enumerate(self.tasks)}
        if skew:
            return sorted(self.tasks, key=lambda op: (self.offset[op], index[op]))
        return sorted(self.tasks, key=lambda op: (self.stage[op] * self.ii + self.offset[op], index[op]))


def _body_of(loop: scf.ForOp) -> _Body | str:
    """The loop's tasks and slots, or why it cannot be pipelined."""
    sched = ascend.loop_of(loop)
    if sched is None:
        return "it has no schedule"
    if loop.results or loop.iter_args:
        return "it has loop-carried values (iter_args)"
    tasks, stage, offset = [], {}, {}
    for op in loop.body.block.ops:
        if isinstance(op, scf.YieldOp):
            continue
        if _is_task(op):
            task = ascend.task_of(op)
            assert task is not None
            if task.stage is None or task.start is None:
                return f"{op.name} has no schedule slot"
            tasks.append(op)
            stage[op] = task.stage
            offset[op] = task.start - task.stage * sched.ii
        elif not _is_scalar(op):
            return f"{op.name} in its body cannot be re-evaluated per iteration"
    # a stretched schedule's code keeps the order of the II it was laid out at
    return _Body(loop, tasks, stage, offset, ascend.code_ii_of(loop) or sched.ii)


def _one_stage_per_pipe(body: _Body) -> bool:
    seen: dict[str, int] = {}
    for op in body.tasks:
        for pipe in _task_pipes(op):
            if seen.setdefault(pipe, body.stage[op]) != body.stage[op]:
                return False
    return True


# ----- index arithmetic ----------------------------------------------------------------


@dataclass
class _Emitter:
    """Appends ops to `out`; integer constants where the loop bounds are constants."""

    out: list[Operation] = field(default_factory=list)

    def const(self, value: int) -> SSAValue:
        return index_constant(self.out, value)

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        op = arith.AddiOp(a, b)
        self.out.append(op)
        return op.result

    def scaled(self, base: SSAValue, steps: int, step: SSAValue) -> SSAValue:
        """base + steps * step."""
        b, s = constant_int(base), constant_int(step)
        if b is not None and s is not None:
            return self.const(b + steps * s)
        if steps == 0:
            return base
        mul = arith.MuliOp(self.const(steps), step)
        self.out.append(mul)
        return self.add(base, mul.result)


# ----- cloning one op instance with the scalar work it needs ---------------------------


def _local_operands(op: Operation, block: Block) -> list[SSAValue]:
    """Values defined by ops of `block` that `op` (or anything nested in it) uses."""
    out = []
    for inner in op.walk():
        for v in inner.operands:
            owner = v.owner
            if isinstance(owner, Operation) and owner.parent_block() is block and owner is not op:
                out.append(v)
    return out


def _clone_with_slice(op: Operation, block: Block, mapper: dict[SSAValue, SSAValue], out: list[Operation]) -> None:
    """Clone the scalar ops `op` depends on (once per mapper), then `op` itself."""
    for v in _local_operands(op, block):
        if v in mapper:
            continue
        owner = v.owner
        assert isinstance(owner, Operation)
        _clone_with_slice(owner, block, mapper, out)
    clone = op.clone(value_mapper=mapper)
    out.append(clone)


def _emit_kernel_iteration(body: _Body, order: list[Operation], iv_of_stage: Callable[[int], SSAValue | None],
                           out: list[Operation]) -> None:
    """Ops of one kernel iteration in `order`; an op whose stage has no iteration here
    (iv_of_stage returns None) is skipped."""
    block = body.loop.body.block
    iv = block.args[0]
    # one mapper per iteration (ops of the same iteration share their scalar work)
    mappers: dict[SSAValue, dict[SSAValue, SSAValue]] = {}
    for op in order:
        value = iv_of_stage(body.stage[op])
        if value is None:
            continue
        mapper = mappers.setdefault(value, {iv: value})
        _clone_with_slice(op, block, mapper, out)


# ----- the three shapes of the result ----------------------------------------------------


def _new_loop(body: _Body, lb: SSAValue, order: list[Operation], skew: bool) -> scf.ForOp:
    loop = body.loop
    new_block = Block(arg_types=[IndexType()])
    new_block.args[0].name_hint = loop.body.block.args[0].name_hint
    t_iv = new_block.args[0]
    ops: list[Operation] = []
    stage_ivs: dict[int, SSAValue] = {}

    def iv_of_stage(k: int) -> SSAValue:
        if not skew or k == 0:
            return t_iv
        if k not in stage_ivs:
            mul = arith.MuliOp(index_constant(ops, k), loop.step)
            sub = arith.SubiOp(t_iv, mul.result)
            ops.extend([mul, sub])
            stage_ivs[k] = sub.result
        return stage_ivs[k]

    _emit_kernel_iteration(body, order, iv_of_stage, ops)
    ops.append(scf.YieldOp())
    new_block.add_ops(ops)
    new = scf.ForOp(lb, loop.ub, loop.step, [], Region(new_block))
    new.location = loop.location  # remarks and errors about the loop name its line
    for name in (ascend.LOOP, ascend.NUM_STAGES, ascend.DRAINS, ascend.UNROLL, ascend.BARRIER_SYNC, ascend.ONE_PASS,
                 ascend.SOLVER_II, ascend.CODE_II):
        if name in loop.attributes:
            new.attributes[name] = loop.attributes[name]
    if skew:
        ascend.set_pipelined(new)
    return new


def index_constant(ops: list[Operation], value: int) -> SSAValue:
    """An index constant appended to `ops`, named c4 (c_4 for -4)."""
    op = arith.ConstantOp(IntegerAttr(value, IndexType()))
    op.result.name_hint = f"c{value}" if value >= 0 else f"c_{-value}"
    ops.append(op)
    return op.result


def _straight_line(body: _Body, order: list[Operation], kernel_iterations: range, first_iv: Callable[[int], int | None],
                   emit: _Emitter, base: SSAValue) -> None:
    """Kernel iterations unrolled; `first_iv(t - k)` is the iteration number relative to
    `base` of stage k in kernel iteration t, None when that iteration does not exist."""
    loop = body.loop
    for t in kernel_iterations:
        cache: dict[int, SSAValue] = {}

        def iv_of_stage(k: int, t: int = t, cache: dict[int, SSAValue] = cache) -> SSAValue | None:
            rel = first_iv(t - k)
            if rel is None:
                return None
            if rel not in cache:
                cache[rel] = emit.scaled(base, rel, loop.step)
            return cache[rel]

        _emit_kernel_iteration(body, order, iv_of_stage, emit.out)


def _skewed_static(body: _Body, order: list[Operation], n: int) -> list[Operation]:
    loop, s = body.loop, body.stages
    emit = _Emitter()
    if n <= s - 1:
        # too short for a steady state: every kernel iteration unrolled. At n = s - 1 the
        # kernel loop would run no iteration, and the sync pass fenced it all the same:
        # random kernel 980 (one trip, two stages) waited before the empty loop for the
        # prologue's last store (ran 1214 cycles, program order 1039)
        _straight_line(body, order, range(n + s - 1), lambda j: j if 0 <= j < n else None, emit, loop.lb)
        return emit.out
    _straight_line(body, order, range(s - 1), lambda j: j if j >= 0 else None, emit, loop.lb)
    kernel_lb = emit.scaled(loop.lb, s - 1, loop.step)
    emit.out.append(_new_loop(body, kernel_lb, order, skew=True))
    _straight_line(body, order, range(n, n + s - 1), lambda j: j if j < n else None, emit, loop.lb)
    return emit.out


def _skewed_dynamic(body: _Body, order: list[Operation], guarded: bool = False) -> list[Operation]:
    """scf.if (enough iterations) { prologue; kernel; epilogue } else { start order };
    `guarded`: the count is known to be enough (the then branch of `_with_small_trips`'
    scf.if, more than K >= S - 2 trips), the prologue, kernel and epilogue alone."""
    loop, s = body.loop, body.stages
    outer = _Emitter()
    span = arith.SubiOp(loop.ub, loop.lb)
    if guarded:
        outer.out.append(span)
        _skewed_parts(body, order, outer, span.result)
        return outer.out
    need = arith.MuliOp(outer.const(s - 2), loop.step)
    enough = arith.CmpiOp(span, need, "sgt")
    outer.out.extend([span, need, enough])

    then = _Emitter()
    _skewed_parts(body, order, then, span.result)
    then.out.append(scf.YieldOp())

    # the loop in start order for fewer than S - 1 trips; with two stages that is none: the
    # loop would never run an iteration, while the sync insert-sync puts around a loop would
    # (narrow seed 4137 on the 910B, U = 4: at n < 4 the main loop's six sets and six waits
    # ran before the remainder, 14 of its 518 cycles at one trip, program order 491)
    otherwise = Region() if s == 2 else Region(Block(
        [_new_loop(body, loop.lb, body.ordered(skew=False), skew=False), scf.YieldOp()]))
    outer.out.append(scf.IfOp(enough.result, [], Region(Block(then.out)), otherwise))
    return outer.out


def _skewed_parts(body: _Body, order: list[Operation], then: _Emitter, span: SSAValue) -> None:
    """The prologue, kernel loop and epilogue of a count of at least S - 1 (`span`: ub - lb),
    into `then`."""
    loop, s = body.loop, body.stages
    _straight_line(body, order, range(s - 1), lambda j: j if j >= 0 else None, then, loop.lb)
    then.out.append(_new_loop(body, then.scaled(loop.lb, s - 1, loop.step), order, skew=True))
    # last = lb + (N - 1) * step with N = ceil((ub - lb) / step); epilogue relative to it
    step_m1 = arith.SubiOp(loop.step, then.const(1))
    padded = arith.AddiOp(span, step_m1)
    trips = arith.DivSIOp(padded, loop.step)
    trips_m1 = arith.SubiOp(trips, then.const(1))
    last_off = arith.MuliOp(trips_m1, loop.step)
    last = arith.AddiOp(loop.lb, last_off)
    then.out.extend([step_m1, padded, trips, trips_m1, last_off, last])
    # kernel iteration t = N + e: stage k runs iteration N + e - k = last + (e + 1 - k)
    _straight_line(body, order, range(s - 1), lambda d: d + 1 if d + 1 <= 0 else None, then, last.result)


def _with_small_trips(body: _Body, small: ascend.SmallTrips, pipelined: list[Operation]) -> list[Operation]:
    """scf.if (more than `small.below` trips) { `pipelined` } else { the loop in program
    order, with its schedule (`ascend.small_trips`: scheduling/small_trips.py) }."""
    loop = body.loop
    outer = _Emitter()
    # trips = ceil((ub - lb) / step) > K exactly when ub > lb + K * step (step > 0)
    many = arith.CmpiOp(loop.ub, outer.scaled(loop.lb, small.below, loop.step), "sgt")
    outer.out.append(many)
    in_order = _new_loop(body, loop.lb, body.tasks, skew=False)
    ascend.set_loop(in_order, small.loop)
    for name in (ascend.DRAINS, ascend.ONE_PASS, ascend.SOLVER_II, ascend.CODE_II, ascend.BARRIER_SYNC):
        in_order.attributes.pop(name, None)
    for op, start in zip([op for op in in_order.body.block.ops if _is_task(op)], small.start, strict=True):
        ascend.set_slot(op, 0, start)
    if small.one_version:
        _one_version_each(in_order)
    otherwise = Region(Block([in_order, scf.YieldOp()]))
    outer.out.append(scf.IfOp(many.result, [], Region(Block([*pipelined, scf.YieldOp()])), otherwise))
    return outer.out


def _one_version_each(loop: scf.ForOp) -> None:
    """Every buffer of `loop` (the program-order copy of the first counts) at its version 0:
    its version indices (ascend-multi-buffer's `iv mod V`, marked `ascend.version_index`)
    become 0. One pass at a time overlaps nothing across passes, and with V versions each
    carried flag of a count known at run time spans V passes, more event ids than a pair
    may have: unseen seed 1754 on skewed.toml (12 chains) ran one trip of the copy with the
    pipelined loop's two versions in 1408 cycles, at one version 1130."""
    for op in list(loop.body.block.ops):
        if not isinstance(op, arith.RemUIOp) or ascend.VERSION_INDEX not in op.attributes:
            continue
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        zero.result.name_hint = "c0"
        loop.body.block.insert_op_before(zero, op)
        op.result.replace_all_uses_with(zero.result)
        loop.body.block.erase_op(op)


def _follows_unrolled_loop(loop: scf.ForOp) -> bool:
    """Whether the last loop before `loop` in its block (or in the guard before it) is an
    unrolled one: `loop` is its remainder."""
    op = loop.prev_op
    while op is not None and not isinstance(op, scf.ForOp | scf.IfOp):
        op = op.prev_op
    return op is not None and any(isinstance(o, scf.ForOp) and ascend.unroll_of(o) > 1 for o in op.walk())


def pipeline_loop(loop: scf.ForOp, rewriter: Rewriter) -> None:
    body = _body_of(loop)
    if isinstance(body, str):
        if ascend.loop_of(loop) is not None:
            emit_remark(loop, f"loop left in program order: {body}")
        return
    # a schedule written as its one-pass code's timing (ascend.one_pass) is that code
    skew = body.stages > 1 and not _one_stage_per_pipe(body) and not ascend.is_one_pass(loop)
    order = body.ordered(skew)
    n = trip_count(loop)  # None: known at run time only, as ascend-modulo-schedule saw it
    small = ascend.small_trips_of(loop)
    if not skew and n == 1 and small is None and _follows_unrolled_loop(loop):
        # an unrolled loop's remainder of one trip: its ops as straight-line code (as a skewed
        # loop of fewer trips than stages is), which insert-sync lets overlap the main loop's
        # last pass where it fenced a loop of one trip after all its waits and a
        # pipe_barrier[<PIPE_ALL>] (narrow seed 8 on the 910B, 9 trips, U = 2: 1857 -> 1674)
        one = _Emitter()
        _straight_line(body, order, range(1), lambda _j: 0, one, loop.lb)
        new_ops: list[Operation] = one.out
    elif not skew:
        new_ops = [_new_loop(body, loop.lb, order, skew=False)]
    else:
        # more than K >= S - 2 trips (the small-trips guard) is enough for the prologue and epilogue
        guarded = small is not None and small.below >= body.stages - 2
        new_ops = _skewed_static(body, order, n) if n is not None else _skewed_dynamic(body, order, guarded)
    if small is not None and n is None:
        new_ops = _with_small_trips(body, small, new_ops)
    rewriter.insert_op(new_ops, InsertPoint.before(loop))
    rewriter.erase_op(loop)


@dataclass(frozen=True)
class PipelineLoopsPass(ModulePass):
    name = "ascend-pipeline-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewriter = Rewriter()
        # innermost loops only: an outer loop's task is a whole inner loop, which keeps
        # its program order inside (its own pipelining is done first)
        for _, loop in loops_innermost_first(op):
            if ascend.is_pipelined(loop) or any(isinstance(o, scf.ForOp) for o in loop.body.walk()):
                continue
            pipeline_loop(loop, rewriter)
        for inner in op.walk():  # read above (`_one_version_each`), of no use after
            inner.attributes.pop(ascend.VERSION_INDEX, None)
