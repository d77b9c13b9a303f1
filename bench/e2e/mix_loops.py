"""Flash attention loops of shapes nothing was tuned to: a loop of both cores, written
against measured (issue 18: "build for the general case").

Each draw is `examples/flash_attention.py`'s `make_flash_attention` at a random query
block (16-80 rows), key block (16-128), buffer count (1-3), 6-20 key blocks and 1-3 query
blocks, compiled for the 950. Per draw: the oracle over the whole grid (races, deadlock,
outputs against the reference, perturbed latencies), the cycles of one block against
program order and barrier-all, and the II written on the loop against the II the cube
core runs it at (`ii_models.cube_core_period`).

    python bench/e2e/mix_loops.py [--seed 7] [--count 30] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import unseen_cube  # noqa: E402
from ii_models import cube_core_period  # noqa: E402

from ascend_mlir.dialects import ascend  # noqa: E402
from ascend_mlir.sim.simulator import simulate  # noqa: E402

CHIP = "ascend950"  # the 910B has no cc -> ub path: it refuses MIX kernels


def draw(rng: random.Random) -> unseen_cube.Draw:
    bm, bn = rng.choice((16, 32, 48, 64, 80)), rng.choice((16, 32, 48, 64, 96, 128))
    stages, trips, grid = rng.randint(1, 3), rng.randint(6, 20), rng.choice((1, 2, 3))
    return unseen_cube.flash_attention_draw(bm, bn, stages, trips, grid)


def measure(d: unseen_cube.Draw, seed: int) -> dict:
    tile_module = unseen_cube.build(d)
    ours, cpu = unseen_cube._compiled(tile_module, chip=CHIP)
    problems, _ = unseen_cube.check_oracle(d, tile_module, ours, seed)
    traced = simulate(ours.clone(), blocks=1, trace=True)
    po, _ = unseen_cube._compiled(tile_module, chip=CHIP, schedule="program-order")
    barrier, _ = unseen_cube._compiled(tile_module, chip=CHIP, schedule="program-order", sync="barrier-all")
    written = min(ascend.loop_of(loop).ii for loop in unseen_cube._innermost(ours))  # type: ignore[union-attr]
    measured = cube_core_period(traced)
    row = {"kernel": d.label(), "trips": d.k_trips, "ours": traced.cycles,
           "po": simulate(po, blocks=1, trace=False).cycles,
           "barrier": simulate(barrier, blocks=1, trace=False).cycles,
           "written": written, "measured": measured, "oracle": problems, "compile_cpu_s": round(cpu, 2)}
    row["off"] = None if measured is None else round(measured / written - 1, 4)
    row["ratio"] = round(row["ours"] / min(row["po"], row["barrier"]), 4)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--json")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = []
    print("| kernel | trips | ours | po | barrier | ratio | II written / measured | oracle |")
    print("|---|---|---|---|---|---|---|---|")
    for n in range(args.count):
        row = measure(draw(rng), args.seed * 1000 + n)
        rows.append(row)
        m = "-" if row["measured"] is None else f"{row['measured']:.0f} ({100 * row['off']:+.1f}%)"
        print(f"| {row['kernel']} | {row['trips']} | {row['ours']} | {row['po']} | {row['barrier']} | {row['ratio']:.3f} "
              f"| {row['written']} / {m} | {'; '.join(row['oracle']) or 'ok'} |", flush=True)
    slower = sum(r["ratio"] > 1 for r in rows)
    off = sum(r["off"] is not None and abs(r["off"]) > 0.05 for r in rows)
    print(f"\n{len(rows)} kernels: {slower} slower than a baseline, {off} loops off their written II by > 5%, "
          f"{sum(bool(r['oracle']) for r in rows)} with oracle findings")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
