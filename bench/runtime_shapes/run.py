"""Runtime-shape kernels against their static twins (issue 17's target): simulated
cycles of the runtime-shape kernel, compiled once, at sizes that are a multiple of its
tile (against the static kernel at the same size) and at sizes with a tail (against the
static kernel at the next multiple). Target: ratio <= 1.05.

    python bench/runtime_shapes/run.py [--json OUT] [--chip ascend950|ascend910b]

The static kernel at size n is examples/vecadd.py's `make_vecadd(n=n)` (8 blocks,
512-element tiles, 2 stages); the runtime-shape kernel is examples/vecadd_dyn.py at n.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TILE, BLOCKS = 512, 8
# multiples of the block x tile grain, and sizes with a tail (ratio against the next multiple)
SIZES = (4096, 32768, 131072, 32000, 100000, 4097)


def _example(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(chip: str | None) -> list[dict]:
    import ascend_mlir.frontend as T

    grain = TILE * BLOCKS
    dynamic = _example("vecadd_dyn").vecadd_dyn
    reports = T.simulate_sizes(dynamic, [{"n": n} for n in SIZES], chip=chip)
    make_vecadd = _example("vecadd").make_vecadd
    rows = []
    for n, report in zip(SIZES, reports, strict=True):
        padded = -(-n // grain) * grain
        static = T.simulate(make_vecadd(n=padded), chip=chip)
        rows.append({"n": n, "static_n": padded, "dynamic_cycles": report.cycles, "static_cycles": static.cycles,
                     "ratio": round(report.cycles / static.cycles, 4), "dynamic_ok": report.ok, "static_ok": static.ok})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", metavar="OUT", help="write the rows as JSON")
    parser.add_argument("--chip", default=None, help="chip (default ascend950)")
    args = parser.parse_args(argv)
    rows = run(args.chip)
    print(f"{'n':>8} {'static n':>9} {'dynamic':>9} {'static':>9} {'ratio':>7}  ok")
    for r in rows:
        print(f"{r['n']:>8} {r['static_n']:>9} {r['dynamic_cycles']:>9} {r['static_cycles']:>9} {r['ratio']:>7}  "
              f"{r['dynamic_ok'] and r['static_ok']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"chip": args.chip or "ascend950", "rows": rows}, indent=1) + "\n")
    return 0 if all(r["dynamic_ok"] and r["static_ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
