"""What the cce printer refuses before it prints: IR the CCE route's passes have not
prepared. The printer only prints, so each missing step is a located error at the first
op it concerns, naming the pass that does it (`ascend-compile{target=cce}` does them all):

* tile-level ops: convert-tile-to-hivm (ascend-compile);
* an mmadL1 not lowered to its L1 -> L0A/L0B moves and L0 multiplies:
  ascend-lower-mmad-l0 (its K steps, L0 halves, flags and event ids are IR, seen by
  ascend-verify-sync and the simulator);
* an on-chip `memref.alloc` not placed: ascend-plan-memory (one plan per kernel, a
  split MIX pair's shared buffers at the same addresses on both cores);
* a kernel whose flags and barriers do not order every dependence: ascend-insert-sync
  (or ascend-insert-barrier-sync). Judged by ascend-verify-sync's checker under the
  same-pipe rule of the module's chip (the chip the IR was synced for); a kernel too
  large for the checker to unroll is printed unjudged, as ascend-verify-sync remarks.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ascend_mlir.analysis.kernel_layout import kernel_layouts
from ascend_mlir.chips import Chip
from ascend_mlir.diagnostics import op_error
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


def check_prepared(module: ModuleOp, chip: Chip) -> None:
    """Raise a located error unless `module` is lowered, planned and synced (see above)."""
    for check in _CHECKS:
        for op in module.walk():
            why = check(op)
            if why is not None:
                raise op_error(op, why)
    from ascend_mlir.transforms.verify_sync import verify_functions

    for kernel in kernel_layouts(module):
        try:
            verify_functions(list(kernel.functions), chip)
        except OpError as err:
            raise op_error(err.op, f"is not synced ({err.message.removeprefix('ascend-verify-sync: ')}): "
                                   f"{ROUTE} (or ascend-insert-sync) before -t cce") from None
