"""`ascend-estimate-latency`: annotate every hivm op with its cost, `#ascend.task<latency, ii>`.

Numbers come from the chip's latency table (see ascend_mlir/chips); `chip=` names a
built-in chip or a bishengir target, `chip-file=` a user chip file, and otherwise the
module's `hacc.target` decides (default ascend950). With `chip=`/`chip-file=` the module's
`hacc.target` is set to that chip so later passes and bishengir agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ascend_mlir.analysis.latency_model import LatencyError, estimate, op_pipes
from ascend_mlir.chips import Chip, ChipError, resolve_chip
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects.ascend import set_task, task_of


def module_chip(module: ModuleOp, chip: str | None, chip_file: str | None, *, record: bool = True) -> Chip:
    """The chip for a pass's options (recorded in the module as `resolve_chip` says, unless
    `record` is false); a bad option or hacc.target is a pass failure (located at the
    module for its hacc.target), not a traceback."""
    try:
        return resolve_chip(module, chip or None, chip_file or None, record=record)
    except ChipError as e:
        raise e.pass_failure() from None


def annotate_latencies(module: ModuleOp, chip: Chip, only_missing: bool = False) -> None:
    for op in module.walk():
        if not op_pipes(op):
            continue
        if only_missing and task_of(op) is not None:
            continue
        try:
            latency, ii = estimate(op, chip)
        except LatencyError as e:
            raise op_error(e.op, e.message) from None
        set_task(op, latency, ii)


@dataclass(frozen=True)
class EstimateLatencyPass(ModulePass):
    name = "ascend-estimate-latency"

    chip: str | None = None
    chip_file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        annotate_latencies(op, module_chip(op, self.chip, self.chip_file))
