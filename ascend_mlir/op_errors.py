"""The exception a pass (or an analysis) raises for a user-visible error at an op.

Its own module, below `diagnostics` (which renders it, `file:line:col: error: ...`), so
that analyses which raise it (analysis/hardware_checks) and `diagnostics`, which runs
those analyses when it verifies a module, do not import each other.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException


class OpError(PassFailedException):
    """A pass failure attributed to an operation (so it can be located)."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


def op_error(op: Operation, message: str) -> OpError:
    """The exception a pass raises for a user-visible error at `op`."""
    return OpError(op, message)
