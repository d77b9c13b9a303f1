"""Pipe-level simulator with a happens-before race detector (DESIGN.md section 8).

* `engine`: IR-free event-driven core (pipes, in-order queues, flags, barriers, vector clocks);
* `hivm_frontend`: the scalar unit of each core (xDSL's Interpreter) issues hivm ops as
  engine instructions, with numpy data semantics (`memory`, `layout`, `semantics`);
* `simulator.simulate(module, inputs, ...) -> SimResult`: all blocks, GM in and out;
* `reference`: the tile-level numpy reference interpreter (the expected outputs).

`simulate` and `SimResult` are imported lazily so that importing the package (e.g. for
the reference interpreter) does not load the simulator.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers only: at run time they load on first use
    from ascend_mlir.sim.simulator import SimResult, simulate

__all__ = ["simulate", "SimResult"]


def __getattr__(name: str) -> Any:
    if name in ("simulate", "SimResult"):
        from ascend_mlir.sim import simulator

        return getattr(simulator, name)
    raise AttributeError(f"module 'ascend_mlir.sim' has no attribute {name!r}")
