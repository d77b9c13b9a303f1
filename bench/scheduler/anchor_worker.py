"""Runs inside the anchor's venv (z3-solver < 4.15.5, apache-tvm-ffi 0.1.12): loads
TileLang's `z3_scheduler.py` by path and answers one JSON request per stdin line with
one JSON line on stdout.  Standard library + z3 only: nothing of ascend_mlir here.

    python anchor_worker.py /path/to/z3_scheduler.py
    request:  {"args": {...keyword arguments of z3_schedule_loop_python...}}
    answer:   {"start": [...], "versions": [...], "ii": N, "seconds": S, "cpu": C,
               "checks": ["sat", "unsat", "unknown", ...]}   or {"error": "..."}
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
import time


def load(path: str):
    spec = importlib.util.spec_from_file_location("anchor_z3_scheduler", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    module = load(sys.argv[1])
    import z3

    checks: list[str] = []
    plain_check = z3.Solver.check

    # observe (not change) every feasibility probe: the anchor reads unknown as
    # infeasible, so the bench needs the raw answers to say whether II is proven
    def observed_check(self, *assumptions):
        result = plain_check(self, *assumptions)
        checks.append(str(result))
        return result

    z3.Solver.check = observed_check  # type: ignore[method-assign]
    print(json.dumps({"ready": z3.get_version_string()}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        checks.clear()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                t0, c0 = time.perf_counter(), time.process_time()
                start, versions, ii = module.z3_schedule_loop_python(**request["args"])
                seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
            answer = {"start": list(start), "versions": list(versions), "ii": int(ii),
                      "seconds": seconds, "cpu": cpu, "checks": list(checks)}
        # the anchor is foreign code (TileLang's scheduler): whatever it raises is sent to
        # the benchmark as this problem's answer, and the worker keeps serving the next one
        except Exception as e:  # noqa: BLE001
            answer = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
