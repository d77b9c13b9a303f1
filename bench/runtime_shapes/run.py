"""Runtime-shape kernels against their static twins (issue 17's target): simulated
cycles of the runtime-shape kernel, compiled once, at sizes that are a multiple of its
tile (against the static kernel at the same size) and at sizes with a tail (against the
static kernel at the next multiple). Target: ratio <= 1.05.

    python bench/runtime_shapes/run.py [--json OUT] [--chip ascend950|ascend910b]

The static kernel at size n is examples/vecadd.py's `make_vecadd(n=n)` (8 blocks,
512-element tiles, 2 stages); the runtime-shape kernel is examples/vecadd_dyn.py at n.

The row kernels (softmax, rmsnorm, layernorm): the static example (256 x 256 fp32, 4
blocks of 16-row tiles) against its runtime-shape twin (examples/*_dyn.py) at m x c:
256 x 256 (the same size), and sizes with a tail in the rows, in the row or both (241 x
256, 250 x 173, 256 x 200; against the static kernel at 256 x 256, the next multiple).

The GEMM: examples/gemm_bf16.py (256 x 256 x 256, 128 x 128 tiles, K steps of 64, 2
blocks) against examples/gemm_dyn.py (the same tiles, M, N, K at run time) at 256 x 256 x
256 and with tails in M, N and K (against the static kernel at 256^3).
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
    if str(ROOT / "examples") not in sys.path:  # gemm_bf16.py imports gemm_persistent.py beside it
        sys.path.insert(0, str(ROOT / "examples"))
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


ROW_KERNELS = ("softmax", "rmsnorm", "layernorm")
ROW_SIZES = ((256, 256), (241, 256), (250, 173), (256, 200))


GEMM_SIZES = ((256, 256, 256), (250, 256, 256), (256, 200, 256), (256, 256, 230), (241, 173, 199))


def run_twins(chip: str | None) -> list[dict]:
    """The twins against the static examples (see the module doc)."""
    import ascend_mlir.frontend as T

    rows = []
    static = T.simulate(_example("gemm_bf16").gemm_bf16, chip=chip)
    binds = [{"m": m, "n": n, "k": k, "a": (m, k), "b": (k, n), "c": (m, n)} for m, n, k in GEMM_SIZES]
    reports = T.simulate_sizes(_example("gemm_dyn").gemm_dyn, binds, chip=chip)
    for (m, n, k), report in zip(GEMM_SIZES, reports, strict=True):
        rows.append({"kernel": "gemm", "m": m, "c": f"{n}x{k}", "static": "256x256x256",
                     "dynamic_cycles": report.cycles, "static_cycles": static.cycles,
                     "ratio": round(report.cycles / static.cycles, 4), "dynamic_ok": report.ok,
                     "static_ok": static.ok})
    for name in ROW_KERNELS:
        static = T.simulate(getattr(_example(name), name), chip=chip)
        dynamic = getattr(_example(f"{name}_dyn"), f"{name}_dyn")
        reports = T.simulate_sizes(dynamic, [{"m": m, "c": c} for m, c in ROW_SIZES], chip=chip)
        for (m, c), report in zip(ROW_SIZES, reports, strict=True):
            rows.append({"kernel": name, "m": m, "c": c, "static": "256x256", "dynamic_cycles": report.cycles,
                         "static_cycles": static.cycles, "ratio": round(report.cycles / static.cycles, 4),
                         "dynamic_ok": report.ok, "static_ok": static.ok})
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
    twins = run_twins(args.chip)
    print(f"\n{'kernel':>10} {'m x c':>11} {'static':>11} {'dynamic':>9} {'static':>9} {'ratio':>7}  ok")
    for r in twins:
        print(f"{r['kernel']:>10} {str(r['m']) + 'x' + str(r['c']):>11} {r['static']:>11} {r['dynamic_cycles']:>9} "
              f"{r['static_cycles']:>9} {r['ratio']:>7}  {r['dynamic_ok'] and r['static_ok']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"chip": args.chip or "ascend950", "rows": rows, "twins": twins},
                                              indent=1) + "\n")
    return 0 if all(r["dynamic_ok"] and r["static_ok"] for r in rows + twins) else 1


if __name__ == "__main__":
    sys.exit(main())
