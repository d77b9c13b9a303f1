"""What the cce printer refuses before it prints: IR the CCE route's passes have not
prepared. The printer only prints, so each missing step is a located error at the first
op it concerns, naming the pass that does it (`ascend-compile{target=cce}` does them all):

* tile-level ops: convert-tile-to-hivm (ascend-compile);
* an mmadL1 not lowered to its L1 -> L0A/L0B moves and L0 multiplies:
  ascend-lower-mmad-l0 (its K steps, L0 halves, flags and event ids are IR, seen by
  ascend-verify-sync and the simulator);
* an on-chip `memref.alloc` not placed: ascend-plan-memory (one plan per kernel, a
  split MIX pair's shared buffers at the same addresses on both cores);
* a kernel that does not fit the chip printed for (copy paths, capacities, planned
  addresses, element types: hardware_checks.chip_limit_errors);
* a kernel whose flags and barriers do not order every dependence: ascend-insert-sync
  (or ascend-insert-barrier-sync). Judged by ascend-verify-sync's checker under the
  same-pipe rule of the chip printed for: IR synced for the Ascend 950 (whose vector
  pipe is ordered) and printed for dav-c220 lacks the 910B's V barriers and is refused,
  naming `ascend-compile{target=cce chip=ascend910b}`; a kernel too large for the
  checker to unroll is printed unjudged, as ascend-verify-sync remarks.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ascend_mlir.analysis.kernel_layout import kernel_layouts
from ascend_mlir.chips import Chip
from ascend_mlir.diagnostics import emit_remark, op_error
from ascend_mlir.dialects import hivm
from ascend_mlir.op_errors import OpError

ROUTE = "run -p 'ascend-compile{target=cce}'"


def _tile_level(op: Operation) -> str | None:
    if op.dialect_name() == "tile":
        return f"is tile-level: {ROUTE} (or convert-tile-to-hivm and the passes after it) before -t cce"
    return None


def _unlowered(op: Operation) -> str | None:
    if isinstance(op, hivm.MmadL1Op):
        return (f"is not lowered to its L1 -> L0A/L0B moves and L0 multiplies: {ROUTE} "
                "(or ascend-lower-mmad-l0) before -t cce")
    return None


def _unplanned(op: Operation) -> str | None:
    if not isinstance(op, memref.AllocOp):
        return None
    scope = hivm.scope_of(op.memref)
    if scope in (None, "gm"):
        return "is GM memory: a kernel's GM buffers are its arguments; the cce printer prints no GM alloc"
    return f"is not planned (an {scope} buffer without an address): {ROUTE} (or ascend-plan-memory) before -t cce"


# in the order the passes would fix them: the first step missing is the one named
_CHECKS = (_tile_level, _unlowered, _unplanned)


def check_prepared(module: ModuleOp, chip: Chip, synced_for: Chip | None = None) -> None:
    """Raise a located error unless `module` is lowered, planned and synced for `chip`,
    the chip printed for (see above). `synced_for` is the chip the IR names (its
    `hacc.target`, the chip its passes planned it for) when that is another one: the
    flags are then judged by the printed chip's same-pipe rule, and a refusal names the
    pipeline that syncs the kernel for that chip."""
    from ascend_mlir.compile_cache import check_through

    # the test suite shares one re-check of an IR among its files (off elsewhere)
    check_through(module, repr((chip, synced_for)), lambda: _check_prepared(module, chip, synced_for))


def _check_prepared(module: ModuleOp, chip: Chip, synced_for: Chip | None) -> None:
    for check in _CHECKS:
        for op in module.walk():
            why = check(op)
            if why is not None:
                raise op_error(op, why)
    from ascend_mlir.transforms.verify_sync import verify_functions

    what = "is not synced"
    fix = f"{ROUTE} (or ascend-insert-sync) before -t cce"
    if synced_for is not None and synced_for.name != chip.name:
        what = f"is not synced for {chip.name}"
        fix = (f"the IR was planned and synced for {synced_for.name} ({synced_for.arch}): compile it for the "
               f"chip printed for, run -p 'ascend-compile{{target=cce chip={chip.name}}}', "
               f"before -t 'cce{{arch={chip.arch}}}'")
        _check_limits_of(module, chip, f" ({fix})")
    else:
        _check_limits_of(module, chip, "")
    for kernel in kernel_layouts(module):
        try:
            over_budget: list[str] = []
            verified = verify_functions(list(kernel.functions), chip, why=over_budget)
        except OpError as err:
            raise op_error(err.op, f"{what} ({err.message.removeprefix('ascend-verify-sync: ')}): {fix}") from None
        if not verified:
            # said, not silent: the split halves' runs are paired only where their loops
            # and branches are the same computation over the kernel's arguments (the
            # rest combined in every way), which can exceed the budget
            emit_remark(kernel.functions[0], "-t cce: the kernel's sync is too large to re-check within "
                        "ascend-verify-sync's budget; printed as synced, not re-verified here"
                        + (f" ({over_budget[0]})" if over_budget else ""))


def _check_limits_of(module: ModuleOp, chip: Chip, fix: str) -> None:
    """The printed kernel must fit the chip printed for: its copy paths (the 910B has no
    UB -> L1), capacities and planned addresses, element types (hardware_checks). IR
    planned for another chip, or a hivm-level file naming none, may not."""
    from ascend_mlir.analysis.hardware_checks import chip_limit_errors

    errors = chip_limit_errors(module, chip)
    if errors:
        raise op_error(errors[0].op, f"{errors[0].message}{fix}")
