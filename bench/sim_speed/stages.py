"""Where one `ascend-sim` run's CPU goes, stage by stage, in one process.

Runs the CLI's `run()` on FILE (any ascend-sim options after it) with its stages
wrapped in CPU-time counters (time.process_time, so the machine's load matters less than
for wall time): imports up to the CLI, loading (parse + verify), the reference
interpreter, ascend-compile, the plain simulation, each perturbed simulation, and the
rest (the output comparison and the report). Wrapping is by attribute on the CLI's and
the libraries' modules, so the stages are the CLI's own calls, not a re-implementation.

    python bench/sim_speed/stages.py FILE [ascend-sim options...]
"""

from __future__ import annotations

import contextlib
import io
import sys
import time

_start = time.process_time()


def main(argv: list[str]) -> int:
    from ascend_mlir.sim import reference, simulator
    from ascend_mlir.tools import ascend_sim

    # what the CLI imports up front and the two modules wrapped below (the CLI imports
    # the rest inside its stages, which count it)
    stages: dict[str, float] = {"imports": time.process_time() - _start}

    def timed(owner, name: str, stage: str) -> None:
        inner = getattr(owner, name)

        def wrapper(*args, **kwargs):
            t0 = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                stages[stage] = stages.get(stage, 0.0) + time.process_time() - t0

        setattr(owner, name, wrapper)

    timed(ascend_sim, "_load", "load (parse, verify)")
    timed(reference, "run_reference", "reference interpreter")
    timed(ascend_sim, "_compile", "ascend-compile")
    inner_simulate = simulator.simulate

    def simulate(*args, **kwargs):
        stage = "simulate, perturbed" if kwargs.get("perturb") else "simulate"
        t0 = time.process_time()
        try:
            return inner_simulate(*args, **kwargs)
        finally:
            stages[stage] = stages.get(stage, 0.0) + time.process_time() - t0

    simulator.simulate = simulate
    t0 = time.process_time()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = ascend_sim.run(argv)
    total = time.process_time() - t0
    stages["rest (arguments, compare, report)"] = total - sum(v for k, v in stages.items() if k != "imports")
    whole = time.process_time() - _start
    print(out.getvalue().strip().splitlines()[-1])
    for stage, cpu in stages.items():
        print(f"{stage:36s} {cpu:6.3f} s  {100 * cpu / whole:5.1f}%")
    print(f"{'whole process (after interpreter start)':36s} {whole:6.3f} s")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
