"""`ascend-compile`: the whole chain from tile-level IR to synced hivm as one pass.

Options (MLIR spelling `ascend-compile{chip=ascend910b sync=barrier-all}`):

* `chip` / `chip_file`: the target (a built-in chip name, a bishengir target such as
  `Ascend910B1`, or a chip file); otherwise the module's `hacc.target`, default ascend950.
  Either option also sets the module's `hacc.target`, so bishengir compiles for it.
* `sync`: `barrier-all` (pipe_barrier[<PIPE_ALL>] between dependent ops, always correct,
  never fast) or `solver` (ascend-insert-sync: a flag or pipe barrier per dependence that
  needs one, per-version event ids in multi-buffered loops).
* `schedule`: `program-order` (ops issue in program order) or `modulo` (Z3 modulo
  scheduling with software pipelining and multi-buffering; not implemented yet).

The defaults are the choices that work today; an option value that is not implemented
yet is a diagnostic naming it, never a silent fallback to another mode.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException, VerifyException

from ascend_mlir.analysis.hardware_checks import check_chip_limits
from ascend_mlir.chips import ChipError, resolve_chip
from ascend_mlir.transforms.stages import stage_done

SYNC_MODES = ("barrier-all", "solver")
SCHEDULES = ("modulo", "program-order")
IMPLEMENTED_SYNC = ("barrier-all", "solver")
IMPLEMENTED_SCHEDULES = ("program-order",)


def _check_choice(option: str, value: str, allowed: tuple[str, ...], implemented: tuple[str, ...]) -> None:
    if value not in allowed:
        raise PassFailedException(
            f"ascend-compile: unknown {option}={value} (expected one of: {', '.join(allowed)})"
        )
    if value not in implemented:
        raise PassFailedException(
            f"ascend-compile: {option}={value} is not yet implemented "
            f"(available: {', '.join(f'{option}={v}' for v in implemented)})"
        )


@dataclass(frozen=True)
class AscendCompilePass(ModulePass):
    """convert-tile-to-hivm, then synchronisation (barrier-all or solver) checked by
    ascend-verify-sync, with peel-mmad-init after the conversion and hoist-constants,
    split-mix-kernel (the target shaping -t npuir expects) at the end."""

    name = "ascend-compile"

    chip: str | None = None
    chip_file: str | None = None
    sync: str = "barrier-all"
    schedule: str = "program-order"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _check_choice("sync", self.sync, SYNC_MODES, IMPLEMENTED_SYNC)
        _check_choice("schedule", self.schedule, SCHEDULES, IMPLEMENTED_SCHEDULES)
        try:
            chip = resolve_chip(op, self.chip or None, self.chip_file or None, record=True)
        except ChipError as error:
            raise PassFailedException(str(error)) from None
        check_chip_limits(op, chip)  # buffers and element types the chip cannot take

        from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass
        from ascend_mlir.transforms.insert_barrier_sync import InsertBarrierSyncPass
        from ascend_mlir.transforms.peel_mmad_init import PeelMmadInitPass

        # hand the target on to the conversion when it takes one (it then reads the
        # module's hacc.target, which is set above, so both routes agree)
        convert_options = {f.name for f in fields(ConvertTileToHivmPass)}
        # (a chip file is handed on as its path: its name is not a built-in chip)
        chip_option = self.chip_file or self.chip or chip.name
        convert_kwargs = {"chip": chip_option} if "chip" in convert_options else {}
        ConvertTileToHivmPass(**convert_kwargs).apply(ctx, op)
        stage_done(ConvertTileToHivmPass.name, op)
        # before sync, so the sync passes see (and are idempotent on) the peeled loop
        PeelMmadInitPass().apply(ctx, op)
        stage_done(PeelMmadInitPass.name, op)
        try:
            op.verify()
        except VerifyException as error:
            raise PassFailedException(
                f"ascend-compile: convert-tile-to-hivm produced invalid IR: {error}"
            ) from None
        if self.sync == "solver":
            from ascend_mlir.transforms.insert_sync import InsertSyncPass

            InsertSyncPass().apply(ctx, op)
            stage_done(InsertSyncPass.name, op)
        else:
            InsertBarrierSyncPass().apply(ctx, op)
            stage_done(InsertBarrierSyncPass.name, op)
        from ascend_mlir.transforms.verify_sync import VerifySyncPass

        # an independent check of the sync just placed: a failure is an error
        VerifySyncPass().apply(ctx, op)
        _apply_target_shaping(ctx, op)


def _apply_target_shaping(ctx: Context, op: ModuleOp) -> None:
    """The target-shaped lowering that -t npuir expects (the printer only prints)."""
    from ascend_mlir.transforms.hoist_constants import HoistConstantsPass
    from ascend_mlir.transforms.split_mix_kernel import SplitMixKernelPass

    for shaping in (HoistConstantsPass(), SplitMixKernelPass()):
        shaping.apply(ctx, op)
        stage_done(shaping.name, op)
