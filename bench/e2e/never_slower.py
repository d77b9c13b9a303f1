"""Never slower than barrier-all or program order (issue 18): simulated cycles of one
block of `chains.random_kernel(seed)` compiled three ways, side by side.

    python bench/e2e/never_slower.py [--seeds 0-199] [--chip ascend950] [--json OUT]

Columns: ours = `ascend-compile`; barrier = `ascend-compile{sync=barrier-all
schedule=program-order}`; po = `ascend-compile{schedule=program-order}` (our sync, one
version per buffer); ratio = ours / min(barrier, po) (> 1: ours is slower), with the
kernel's chains, ops per chain and trip count, and ours' compile CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from xdsl.context import Context

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from chains import random_kernel  # noqa: E402

from ascend_mlir.diagnostics import parse_module  # noqa: E402
from ascend_mlir.dialects import UPSTREAM_DIALECTS, register_dialects  # noqa: E402
from ascend_mlir.sim.simulator import simulate  # noqa: E402
from ascend_mlir.transforms.ascend_compile import AscendCompilePass  # noqa: E402


def cycles(text: str, **options) -> tuple[int, float]:
    """Simulated cycles of one block and the compile's CPU seconds."""
    module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), text, "random")
    t0 = time.process_time()
    AscendCompilePass(**options).apply(Context(), module)
    cpu = time.process_time() - t0
    return simulate(module, None, blocks=1, trace=False).cycles, cpu


def knobs(seed: int) -> dict:
    """chain_kernel's arguments random_kernel(seed) draws (same draws, same order)."""
    rng = random.Random(seed)
    [rng.choice(range(8)) for _ in range(rng.randint(1, 5))]
    chains, length = rng.randint(1, 6), rng.randint(2, 10)
    rows, cols = rng.choice((1, 4, 8, 16)), rng.choice((16, 32, 64, 128))
    return {"chains": chains, "length": length, "tile": f"{rows}x{cols}", "trips": rng.randint(1, 6),
            "num_stages": rng.randint(1, 3)}


def measure(seed: int, chip: str) -> dict:
    text = random_kernel(seed)
    ours, cpu = cycles(text, chip=chip)
    barrier, _ = cycles(text, chip=chip, sync="barrier-all", schedule="program-order")
    po, _ = cycles(text, chip=chip, schedule="program-order")
    return {"seed": seed, **knobs(seed), "ours": ours, "barrier": barrier, "po": po,
            "ratio": round(ours / min(barrier, po), 4), "compile_cpu_s": round(cpu, 2)}


def _seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="never slower than barrier-all or program order")
    parser.add_argument("--seeds", default="0-19")
    parser.add_argument("--chip", default="ascend950")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    for seed in _seeds(args.seeds):
        row = measure(seed, args.chip)
        rows.append(row)
        print(json.dumps(row), flush=True)
    slower = [r for r in rows if r["ratio"] > 1]
    print(f"{len(slower)} of {len(rows)} slower than the faster baseline: "
          + ", ".join(f"{r['seed']} ({r['ratio']})" for r in slower), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
