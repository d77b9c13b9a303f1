"""Before/after of the simulator: two trees side by side, alternated run by run.

Each round runs `run.py` (CPU seconds of `simulate()`, best of `--repeat`) once under
each tree (`PYTHONPATH=<tree>`), in alternating order, and keeps each kernel's least CPU
time over the rounds; it also counts the Python calls of one `simulate()` per kernel and
tree (cProfile), which the machine's load does not change: on the shared 2-core machine
the CPU seconds move 15-20% run to run, the call counts not at all.

    python bench/sim_speed/side_by_side.py OLD_TREE NEW_TREE [--rounds 2] [--repeat 3] [--kernels a,b]

A tree is a checkout's root (e.g. `git archive <commit> | tar -x -C /tmp/old`).
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

_CALLS = """
import cProfile, json, pstats, sys
sys.path.insert(0, {here!r})
import run
from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.sim.routes import compile_tile_level
from ascend_mlir.sim.simulator import simulate
out = {{}}
for name in {kernels!r}:
    source, perturb = run.KERNELS[name]
    ctx = make_context()
    module = parse_module(ctx, run._source(source), source.split("@")[0].split(":")[0])
    compile_tile_level(ctx, module, None)
    simulate(module, perturb=perturb, trace=False)
    profile = cProfile.Profile()
    profile.enable()
    simulate(module, perturb=perturb, trace=False)
    profile.disable()
    out[name] = pstats.Stats(profile).total_calls
print(json.dumps(out))
"""


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def _timed(tree: Path, kernels: str, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        subprocess.run([sys.executable, str(HERE / "run.py"), "--repeat", str(repeat), "--kernels", kernels,
                        "--json", str(out)], env=_env(tree), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return json.loads(out.read_text())


def _calls(tree: Path, kernels: list[str]) -> dict[str, int]:
    # run from the tree's root: `python -c` puts the working directory first on sys.path
    done = subprocess.run([sys.executable, "-c", _CALLS.format(here=str(HERE), kernels=kernels)], env=_env(tree),
                          check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    import run

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernels", default=run.DEFAULT)
    args = ap.parse_args()
    trees = {"old": args.old, "new": args.new}
    best: dict[str, dict[str, dict]] = {"old": {}, "new": {}}
    for r in range(args.rounds):
        for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
            for name, row in _timed(trees[side], args.kernels, args.repeat).items():
                kept = best[side].get(name)
                if kept is None or row["cpu_s"] < kept["cpu_s"]:
                    best[side][name] = row
    names = args.kernels.split(",")
    calls = {side: _calls(trees[side], names) for side in trees}
    print(f"{'kernel':34s} {'instr':>6s} {'old s':>7s} {'new s':>7s} {'ratio':>6s} {'instr/s old -> new':>20s} "
          f"{'python calls old -> new':>26s}")
    for name in names:
        old, new = best["old"][name], best["new"][name]
        same = (old["cycles"], old["instructions"], old["races"]) == (new["cycles"], new["instructions"], new["races"])
        print(f"{name:34s} {new['instructions']:6d} {old['cpu_s']:7.3f} {new['cpu_s']:7.3f} "
              f"{old['cpu_s'] / new['cpu_s']:5.2f}x {old['instructions'] / old['cpu_s']:9.0f} -> "
              f"{new['instructions'] / new['cpu_s']:8.0f} {calls['old'][name]:11d} -> {calls['new'][name]:11d}"
              f"{'' if same else '  (cycles, instructions or races differ)'}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main())
