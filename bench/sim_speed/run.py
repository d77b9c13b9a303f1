"""CPU seconds of `simulate()` alone on the cube examples (issue 22 item 3).

The module is compiled once (not timed); then `simulate` runs `--repeat` times and the
best CPU time (time.process_time: the machine is shared, wall time is noise) is kept,
with the simulated cycles and instruction count so a run shows it simulated the same
thing. `--trace` simulates with the trace kept (what `ascend-sim` does by default).

    python bench/sim_speed/run.py [--repeat 3] [--kernels gemm,gemm_anchor] [--json OUT]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# kernel -> (source file, perturb seed)
KERNELS = {
    "gemm": ("gemm.mlir", None),
    "gemm_910b": ("gemm_910b.mlir", None),
    "gemm_anchor": ("gemm_anchor.mlir", None),
    "flash_attention": ("flash_attention.mlir", None),
    "linear_bias": ("linear_bias.py", None),
    "linear_bias_perturb": ("linear_bias.py", 3),
}


def _source(name: str) -> str:
    if name.endswith(".mlir"):
        return (EXAMPLES / name).read_text()
    spec = importlib.util.spec_from_file_location(f"example_{name[:-3]}", EXAMPLES / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name[:-3]).to_mlir()


def main(argv: list[str] | None = None) -> int:
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.sim.routes import compile_tile_level
    from ascend_mlir.sim.simulator import simulate

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    rows = {}
    for name in args.kernels.split(","):
        source, perturb = KERNELS[name]
        ctx = make_context()
        module = parse_module(ctx, _source(source), source)
        compile_tile_level(ctx, module, None)
        best = float("inf")
        result = None
        for _ in range(args.repeat):
            start = time.process_time()
            result = simulate(module, perturb=perturb, trace=args.trace)
            best = min(best, time.process_time() - start)
        assert result is not None
        rows[name] = {"cpu_s": round(best, 4), "blocks": result.blocks, "instructions": result.instructions,
                      "cycles": result.cycles, "races": len(result.races)}
        print(f"{name:22s} {best:8.3f} s  blocks {result.blocks:3d}  instructions {result.instructions:6d}  "
              f"({result.instructions / best:9.0f}/s)  cycles {result.cycles}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
