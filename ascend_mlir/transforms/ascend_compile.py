"""`ascend-compile`: the whole chain from tile-level IR to synced hivm as one pass.

Options (MLIR spelling `ascend-compile{chip=ascend910b sync=barrier-all}`):

* `chip` / `chip_file`: the target (a built-in chip name, a bishengir target such as
  `Ascend910B1`, or a chip file); otherwise the module's `hacc.target`, default ascend950.
  Either option also sets the module's `hacc.target`, so bishengir compiles for it.
* `schedule`:
  - `modulo` (default): ascend-estimate-latency, ascend-modulo-schedule (Z3: per loop
    II, stages, buffer versions), ascend-plan-memory (all versions), ascend-multi-buffer
    (`iv mod versions`), ascend-pipeline-loops (the schedule's per-pipe order);
  - `program-order`: ops issue in program order, one version per buffer, memory left
    unplanned (`memref.alloc`) for whoever comes next: bishengir-compile plans it itself
    (its PlanMemory aborts on pre-planned pointer_casts, "PlanMemory Traverse IR Failed");
    with `target=cce`, ascend-plan-memory plans it (the CCE printer prints planned IR).
* `sync`: `solver` (default; ascend-insert-sync: a flag or pipe barrier per dependence
  that needs one, per-version event ids in multi-buffered loops) or `barrier-all`
  (ascend-insert-barrier-sync: a barrier between dependent ops, always correct, never
  fast); either is checked by ascend-verify-sync, the independent checker.
* `num_stages`: overrides every loop's bound on buffer versions (1 = no multi-buffering).
* `unroll`: the largest unroll factor (1, 2 or 4) ascend-modulo-schedule may give a loop
  (default 4; 1 = never unroll).
* `target`: `npuir` (default; mmadL1 stays, bishengir lowers it) or `cce`:
  ascend-lower-mmad-l0 then expands each mmadL1 into its L1 -> L0A/L0B moves, L0
  multiplies and ping-pong flags, and (910B) ascend-lower-wide-reduce each row
  reduction wider than one 256-byte repeat into its steps, UB scratch and V barriers,
  after sync insertion and before ascend-verify-sync, so the checker, the simulator and
  `-t cce` see the same flags and barriers; memory is planned whatever
  the schedule (already-synced input: one buffer per alloc, no reuse). `-t cce` prints
  only IR this has prepared (lowered, planned, synced) and refuses any other.

peel-mmad-init runs after scheduling, memory planning and multi-buffering (so a K loop's
L1 tiles are used only inside it and may get versions; the peeled step computes its own
version from the loop variable) and before pipeline-loops and sync; hoist-constants and
split-mix-kernel (the target shaping -t npuir expects) at the end.
Every stage is its own pass (see DESIGN.md section 2); this pass only chains them. A
mode whose pass is not available is refused by name, never replaced silently.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException, VerifyException

from ascend_mlir.analysis.hardware_checks import check_chip_limits
from ascend_mlir.diagnostics import emit_remark, op_error
from ascend_mlir.op_errors import OpError
from ascend_mlir.transforms.estimate_latency import module_chip
from ascend_mlir.transforms.stages import stage_done

SYNC_MODES = ("barrier-all", "solver")
SCHEDULES = ("modulo", "program-order")
TARGETS = ("npuir", "cce")
# the passes each sync mode runs, in order (looked up in the pass registry)
SYNC_PASSES = {
    "barrier-all": ("ascend-insert-barrier-sync",),
    "solver": ("ascend-insert-sync",),
}
SYNC_OP_NAMES = frozenset(f"hivm.hir.{n}" for n in (
    "set_flag", "wait_flag", "pipe_barrier", "sync_block_set", "sync_block_wait"))


def _check_choice(option: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise PassFailedException(
            f"ascend-compile: unknown {option}={value} (expected one of: {', '.join(allowed)})"
        )


def _registered_pass(name: str, mode: str) -> type[ModulePass]:
    from ascend_mlir.transforms import get_all_passes

    factory = get_all_passes().get(name)
    if factory is None:
        available = [m for m, names in SYNC_PASSES.items() if all(n in get_all_passes() for n in names)]
        raise PassFailedException(
            f"ascend-compile: {mode} is not yet implemented ({name} is not available; "
            f"available: {', '.join(f'sync={m}' for m in available)})"
        )
    return factory()


_SCALAR_MEMORY_OPS = ("memref.load", "memref.store")


def _has_address_space(t) -> bool:  # noqa: ANN001 - any type
    from xdsl.dialects.builtin import MemRefType, NoneAttr

    return isinstance(t, MemRefType) and not isinstance(t.memory_space, NoneAttr)


def refuse_scalar_only_kernels(module: ModuleOp) -> None:
    """A function that accesses memory only with scalar memref.load/store, has no tile or
    hivm op and no memref in an NPU address space is not a kernel this compiler takes
    (it would pass through unchanged, or fail in the simulator): refused at its first
    scalar access, saying what the compiler takes."""
    from xdsl.dialects import func

    for function in module.walk():
        if not isinstance(function, func.FuncOp) or not function.body.blocks:
            continue
        ops = list(function.walk())
        if any(o.name.startswith(("tile.", "hivm.")) for o in ops):
            continue
        values = [a for a in function.args] + [r for o in ops for r in o.results]
        if any(_has_address_space(v.type) for v in values):
            continue
        first = next((o for o in ops if o.name in _SCALAR_MEMORY_OPS), None)
        if first is not None:
            raise op_error(first, f"@{function.sym_name.data} has no tile op and no memref in an NPU address "
                                  "space: ascend-compile takes tile-level kernels (tile.copy, tile.add, "
                                  "tile.matmul, ... on memrefs in #hivm.address_space<gm/ub/cbuf/cc>; "
                                  "docs/tutorial.md) or hivm-level ones, not scalar memref.load/store loops")


def refuse_on_chip_kernel_arguments(module: ModuleOp) -> None:
    """A tile-level kernel's memref arguments are what the host launches it with: GM
    tensors. One in an on-chip space (ub, cbuf, ...) was compiled, then failed in the
    simulator's reference with an unlocated "no input for argument arg0": refused at the
    kernel, naming the argument."""
    from xdsl.dialects import func

    from ascend_mlir.dialects.hivm import scope_of
    from ascend_mlir.dialects.tile import is_kernel

    for function in module.walk():
        if not isinstance(function, func.FuncOp) or not function.body.blocks or not is_kernel(function):
            continue
        for arg in function.args:
            scope = scope_of(arg.type)
            if scope is not None and scope != "gm":
                name = f"%{arg.name_hint}" if arg.name_hint else f"#{arg.index}"
                raise op_error(function, f"kernel argument {name} is in {scope}: a kernel's memref arguments are "
                                         "GM tensors (#hivm.address_space<gm>); on-chip buffers are allocated in "
                                         "the kernel (memref.alloc)")


# dialects whose memory accesses the scheduler and the sync passes see (HivmPipeOp
# reads/writes after convert-tile-to-hivm)
_SCHEDULED_DIALECTS = ("tile.", "hivm.")


def refuse_unscheduled_memory_ops(module: ModuleOp) -> None:
    """An op that reads or writes memory but is neither a tile nor a hivm op
    (`memref.copy`, `memref.store`, `memref.load` in a kernel), or a call (what the
    callee touches), is invisible to the scheduler and to ascend-insert-sync: no flag would order it against the DMA and vector
    pipes, and the printed kernel would race (the simulator refuses it only at run time).
    Refused at the op before anything is compiled; already-synced input keeps its
    hand-placed flags and is not checked here."""
    from xdsl.traits import MemoryEffectKind, get_effects

    for op in module.walk():
        if op.name == "func.call":
            callee = op.properties.get("callee") or op.attributes.get("callee")
            raise op_error(op, f"calls {callee}: ascend-compile schedules and syncs each function "
                               "on its own and does not see what a call reads or writes; inline the "
                               "callee into the kernel")
        if op.regions or op.name.startswith(_SCHEDULED_DIALECTS):
            continue
        effects = get_effects(op) or ()
        if any(e.kind in (MemoryEffectKind.READ, MemoryEffectKind.WRITE) for e in effects):
            raise op_error(op, "accesses memory outside the ops ascend-compile schedules and syncs "
                               "(tile.* and hivm.hir.* ops): no flag would order it against the "
                               "pipes; write it as a tile op (tile.copy, tile.fill, ...)")


def default_sync() -> str:
    """`solver` once ascend-insert-sync is registered, `barrier-all` until then."""
    from ascend_mlir.transforms import get_all_passes

    return "solver" if all(n in get_all_passes() for n in SYNC_PASSES["solver"]) else "barrier-all"


@dataclass(frozen=True)
class AscendCompilePass(ModulePass):
    """convert-tile-to-hivm, the schedule to code, then synchronisation."""

    name = "ascend-compile"

    chip: str | None = None
    chip_file: str | None = None
    sync: str | None = None
    schedule: str = "modulo"
    num_stages: int | None = None
    target: str = "npuir"
    unroll: int = 4

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from ascend_mlir.compile_cache import active, compile_through

        if active() is None:  # the test suite's cache (one compile of an input per run) is off
            self._compile(ctx, op)
            return
        try:
            chip_file = Path(self.chip_file).read_bytes().hex() if self.chip_file else ""
        except OSError:  # not readable: the compile says so, located, and is not cached
            self._compile(ctx, op)
            return
        compile_through(op, f"{self!r} {chip_file}", lambda: self._compile(ctx, op))

    def _compile(self, ctx: Context, op: ModuleOp) -> None:
        sync = self.sync or default_sync()
        _check_choice("sync", sync, SYNC_MODES)
        _check_choice("schedule", self.schedule, SCHEDULES)
        _check_choice("target", self.target, TARGETS)
        if self.num_stages is not None and self.num_stages < 1:
            # 0 is no count of versions: refused here, whichever schedule runs, not read as the default
            raise PassFailedException("ascend-compile: num-stages must be >= 1")
        sync_passes = [_registered_pass(name, f"sync={sync}") for name in SYNC_PASSES[sync]]
        chip = module_chip(op, self.chip, self.chip_file)
        check_chip_limits(op, chip)  # buffers and element types the chip cannot take
        refuse_scalar_only_kernels(op)
        refuse_on_chip_kernel_arguments(op)
        if not any(o.name in SYNC_OP_NAMES for o in op.walk()):
            refuse_unscheduled_memory_ops(op)

        from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass
        from ascend_mlir.transforms.estimate_latency import EstimateLatencyPass
        from ascend_mlir.transforms.modulo_schedule import ModuloSchedulePass
        from ascend_mlir.transforms.multi_buffer import MultiBufferPass
        from ascend_mlir.transforms.peel_mmad_init import PeelMmadInitPass
        from ascend_mlir.transforms.pipeline_loops import PipelineLoopsPass
        from ascend_mlir.transforms.plan_memory import PlanMemoryPass

        # (a chip file is handed on as its path: its name is not a built-in chip)
        ConvertTileToHivmPass(chip=self.chip_file or self.chip or chip.name).apply(ctx, op)
        stage_done(ConvertTileToHivmPass.name, op)
        self._verify(op, "convert-tile-to-hivm")
        # synced hivm (e.g. this pass's own output) is neither scheduled nor synced again
        # (ascend-compile is idempotent); said so, since hand-placed sync is then trusted
        synced = any(o.name in SYNC_OP_NAMES for o in op.walk())
        if synced:
            emit_remark(op, "ascend-compile: the input is already synced: schedule and sync passes skipped, "
                            "its sync checked by ascend-verify-sync")
        # every stage that takes the chip gets the options, not the module's hacc.target:
        # a chip file's target names a built-in chip, whose latencies, capacity and event
        # ids the schedule would otherwise be made for (a chip of 4 ids per pipe pair was
        # scheduled for 8, and insert-sync then gathered sets the schedule did not plan)
        chip_options = self._chip_options()
        chip_name, chip_file = chip_options.get("chip"), chip_options.get("chip_file")
        if not synced:
            # a K loop of one trip is its peeled step alone (below): the scheduler sees it
            # as the straight line it becomes, not as one task of the loop around it, timed
            # at the K loop's length with one version per L1 tile (unseen_cube seed 353,
            # a tile loop written at 316 ran 370 a tile; with its loads, mmad and fixpipe
            # as tasks it runs at its II, 332, 10% faster). So is a K loop of two trips in
            # a tile loop, its second step with L1 tiles of its own (unseen_cube seed 380
            # on the 910B: 4004 -> 3291 cycles; its one-trip loop after the peeled step was
            # a pipelined loop of its own, and seed 813's ran 1% slower than program order),
            # and one at the top level of a function, whose second step's loads then run
            # under the first step's mmadL1 (gemm_910b draws with K = 2 TK: 4-10% faster)
            PeelMmadInitPass(straight_line=True, l1_capacity=chip.capacity.get("cbuf") or 0).apply(ctx, op)
            EstimateLatencyPass(chip=chip_name, chip_file=chip_file).apply(ctx, op)
            stage_done(EstimateLatencyPass.name, op)
        if self.schedule == "modulo" and not synced:
            ModuloSchedulePass(num_stages=self.num_stages, unroll=self.unroll,
                               chip=chip_name, chip_file=chip_file).apply(ctx, op)
            stage_done(ModuloSchedulePass.name, op)
            PlanMemoryPass(chip=chip_name, chip_file=chip_file).apply(ctx, op)
            stage_done(PlanMemoryPass.name, op)
            MultiBufferPass().apply(ctx, op)
            stage_done(MultiBufferPass.name, op)
        elif self.target == "cce":
            # the CCE printer prints planned memory only: program-order plans here (one
            # version per buffer, before sync, which then sees any reuse); synced input
            # gets a buffer of its own per alloc (its flags cannot know of a reuse)
            PlanMemoryPass(reuse=not synced, chip=chip_name, chip_file=chip_file).apply(ctx, op)
            stage_done(PlanMemoryPass.name, op)
        # The first K iteration is peeled after memory planning and multi-buffering: the
        # scheduler sees the whole K loop (its L1 tiles are used only inside it, so they
        # may get versions), and the peeled copy computes its own version index from the
        # loop variable (version 0). Before sync, which then sees the peeled loop. (A K
        # loop of one trip was peeled before the scheduler: it has no K loop to pipeline.)
        PeelMmadInitPass().apply(ctx, op)
        stage_done(PeelMmadInitPass.name, op)
        if self.schedule == "modulo" and not synced:
            PipelineLoopsPass().apply(ctx, op)
            stage_done(PipelineLoopsPass.name, op)
        self._verify(op, f"schedule={self.schedule}")
        if not synced:
            self._sync(ctx, op, sync_passes, chip_options)
        if self.target == "cce":
            from ascend_mlir.transforms.lower_mmad_l0 import LowerMmadL0Pass
            from ascend_mlir.transforms.lower_wide_reduce import LowerWideReducePass

            for lowering in (LowerMmadL0Pass(**self._chip_options()), LowerWideReducePass(**self._chip_options())):
                lowering.apply(ctx, op)
                stage_done(lowering.name, op)
        if not synced:
            self._guard_and_verify(ctx, op)
        else:
            # the input's own flags get the same check as this pass's: a wait no set raises
            # or an unordered dependence in hand-written sync is an error here, not a
            # deadlock or race on the hardware (a set_flag's id changed in compiled
            # gemm_relu went through with a remark that sync was skipped)
            from ascend_mlir.transforms.verify_sync import VerifySyncPass

            VerifySyncPass(**self._chip_options()).apply(ctx, op)
        _apply_target_shaping(ctx, op)

    def _guard_and_verify(self, ctx: Context, op: ModuleOp) -> None:
        """Guard the loops that may run 0 times with their sync (ascend-guard-zero-trip-loops),
        then an independent check of the sync just placed: a failure is an error, but for a
        guard, which is taken back (its skipped sync ordered something else too)."""
        from ascend_mlir.transforms.cse_index_math import CseIndexMathPass
        from ascend_mlir.transforms.fold_index_constants import FoldIndexConstantsPass
        from ascend_mlir.transforms.guard_zero_trip import guard_module
        from ascend_mlir.transforms.sink_index_math import SinkIndexMathPass
        from ascend_mlir.transforms.verify_sync import VerifySyncPass

        # the peeled and prologue copies' version and id arithmetic of constants: constants
        FoldIndexConstantsPass().apply(ctx, op)
        # each version and id expression the passes wrote per buffer and flag, computed once
        CseIndexMathPass().apply(ctx, op)
        # pure index math of runtime loops off the scalar unit's path to their first pipe op
        SinkIndexMathPass().apply(ctx, op)
        unguarded = op.clone() if guard_module(op, dry_run=True) else None
        if unguarded is not None:
            guard_module(op)
            stage_done("ascend-guard-zero-trip-loops", op)
        try:
            VerifySyncPass(**self._chip_options()).apply(ctx, op)
        except OpError:
            if unguarded is None:
                raise
            _replace_body(op, unguarded)
            emit_remark(op, "ascend-compile: a loop that may run 0 times is left unguarded (verify-sync refused the guard)")
            VerifySyncPass(**self._chip_options()).apply(ctx, op)

    def _chip_options(self) -> dict[str, str]:
        """The chip options for the stages that take them (a chip file is handed on as its
        path: its name is not a built-in chip)."""
        return {"chip_file": self.chip_file} if self.chip_file else {"chip": self.chip} if self.chip else {}

    @staticmethod
    def _sync(ctx: Context, op: ModuleOp, sync_passes: list[type[ModulePass]], chip_options: dict[str, str]) -> None:
        from ascend_mlir.transforms.insert_barrier_sync import InsertBarrierSyncPass
        from ascend_mlir.transforms.insert_sync import CrossCoreFlagsExhausted

        backup = op.clone()  # the solver may fail half-way through placing flags
        try:
            for sync_pass in sync_passes:
                takes_chip = {f.name for f in fields(sync_pass)} >= set(chip_options)
                sync_pass(**(chip_options if takes_chip else {})).apply(ctx, op)
                stage_done(sync_pass.name, op)
        except CrossCoreFlagsExhausted as error:
            # the documented fallback: this kernel is synced by barriers instead, and said so
            emit_remark(error.op, f"{error}; ascend-compile falls back to sync=barrier-all for this kernel")
            _replace_body(op, backup)
            InsertBarrierSyncPass(chip=chip_options.get("chip"), chip_file=chip_options.get("chip_file")).apply(ctx, op)
            stage_done(InsertBarrierSyncPass.name, op)

    @staticmethod
    def _verify(op: ModuleOp, after: str) -> None:
        try:
            op.verify()
        except VerifyException as error:
            raise PassFailedException(f"ascend-compile: {after} produced invalid IR: {error}") from None


def _apply_target_shaping(ctx: Context, op: ModuleOp) -> None:
    """The target-shaped lowering that -t npuir expects (the printer only prints)."""
    from ascend_mlir.transforms.hoist_constants import HoistConstantsPass
    from ascend_mlir.transforms.split_mix_kernel import SplitMixKernelPass

    for shaping in (HoistConstantsPass(), SplitMixKernelPass()):
        shaping.apply(ctx, op)
        stage_done(shaping.name, op)


def _replace_body(op: ModuleOp, backup: ModuleOp) -> None:
    """Put the ops of `backup` (a clone of `op` taken earlier) back into `op`."""
    block = op.body.block
    for old in reversed(list(block.ops)):
        old.detach()
        old.erase(safe_erase=False)
    for saved in list(backup.body.block.ops):
        saved.detach()
        block.add_op(saved)
