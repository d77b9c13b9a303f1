"""The simulator against the issue's own first tree, on this machine at this load.

Issue 22's first measurements (gemm_anchor 309 instructions per CPU s, 13.9 s) were taken
under a load average of 16-21 with OpenBLAS free to start a thread per core; later
sessions compared against d8f14a4 (session 6's start), not the issue's start. This runs
both trees one after the other on the same kernels: `run.py`'s kernels, their tile-level
text written once by this tree, each compiled by its own tree's ascend-compile (the
issue's tree makes slightly other modules: the instruction counts differ), then the CPU
seconds of `simulate(trace=False)`, the least of `--repeat`. The old tree runs twice: as
the issue ran it (BLAS threads left to OpenBLAS) and with one BLAS thread (what the
simulator now sets itself), since CPU time summed over spinning BLAS threads is most of
what the issue measured on the 32-block kernels.

    git archive 2676c72 | tar -x -C /tmp/issue_start
    python bench/sim_speed/issue_start.py /tmp/issue_start [--repeat 3] [--kernels a,b]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run  # noqa: E402  (this directory's bench, beside this file)

# run in the old tree: its own _load/_compile (the ascend-sim CLI's helpers at 2676c72) and
# simulate; prints one JSON row per file
_OLD = """
import json, sys, time
from ascend_mlir.tools.ascend_sim import _compile, _load
from ascend_mlir.sim.simulator import simulate
import ascend_mlir
assert ascend_mlir.__file__.startswith(sys.argv[3]), ascend_mlir.__file__
repeat, jobs = int(sys.argv[1]), json.loads(sys.argv[2])
for name, path, perturb in jobs:
    tool, module, diagnostics = _load(path)
    assert not diagnostics, diagnostics
    _compile(tool, module, None)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        result = simulate(module, perturb=perturb, trace=False)
        best = min(best, time.process_time() - start)
    print(json.dumps({"name": name, "cpu_s": best, "instructions": result.instructions,
                      "cycles": result.cycles, "races": len(result.races)}), flush=True)
"""


def _old_rows(tree: Path, jobs: list, repeat: int, one_thread: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if one_thread:
        env["OPENBLAS_NUM_THREADS"] = "1"
    else:
        env.pop("OPENBLAS_NUM_THREADS", None)
    # run from the old tree: `-c` puts the working directory first on sys.path
    out = subprocess.run([sys.executable, "-c", _OLD, str(repeat), json.dumps(jobs), str(tree.resolve())], env=env, check=True,
                         capture_output=True, text=True, cwd=tree).stdout
    return {row["name"]: row for row in map(json.loads, out.splitlines())}


def _new_rows(kernels: str, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        subprocess.run([sys.executable, str(HERE / "run.py"), "--repeat", str(repeat), "--kernels", kernels,
                        "--json", str(out)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return json.loads(out.read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("old_tree", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernels", default=run.DEFAULT)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    names = args.kernels.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for name in names:
            source, perturb = run.KERNELS[name]
            path = Path(tmp) / f"{name}.mlir"
            path.write_text(run._source(source))
            jobs.append((name, str(path), perturb))
        threaded = _old_rows(args.old_tree, jobs, args.repeat, one_thread=False)
        single = _old_rows(args.old_tree, jobs, args.repeat, one_thread=True)
    new = _new_rows(args.kernels, args.repeat)
    print(f"{'kernel':22s} {'instr old/new':>13s} {'old, BLAS threads':>18s} {'old, 1 thread':>14s} "
          f"{'now':>8s} {'ratio':>6s} {'ratio 1t':>8s} {'instr/CPU s old -> now':>24s}")
    rows = {}
    for name in names:
        t, s, n = threaded[name], single[name], new[name]
        rows[name] = {"old_threaded": t, "old_one_thread": s, "now": n}
        print(f"{name:22s} {t['instructions']:6d}/{n['instructions']:<6d} {t['cpu_s']:16.3f} s {s['cpu_s']:12.3f} s "
              f"{n['cpu_s']:6.3f} s {t['cpu_s'] / n['cpu_s']:5.1f}x {s['cpu_s'] / n['cpu_s']:7.1f}x "
              f"{t['instructions'] / t['cpu_s']:10.0f} -> {n['instructions'] / n['cpu_s']:.0f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
