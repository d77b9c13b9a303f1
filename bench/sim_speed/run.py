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

# kernel -> (source, perturb seed). A source is an example file, "linear_bias.py:M,K,N"
# (its make() at another shape) or "gemm.mlir@G" (examples/gemm.mlir on a grid of G
# blocks of 224 columns): shapes and grids the simulator was not tuned on
KERNELS = {
    "gemm": ("gemm.mlir", None),
    "gemm_910b": ("gemm_910b.mlir", None),
    "gemm_anchor": ("gemm_anchor.mlir", None),
    "gemm_bf16": ("gemm_bf16.mlir", None),
    "gemm_relu": ("gemm_relu.mlir", None),
    "flash_attention": ("flash_attention.mlir", None),
    "linear_bias": ("linear_bias.py", None),
    "linear_bias_perturb": ("linear_bias.py", 3),
    # not in the default run (--kernels names them)
    "gemm_grid5": ("gemm.mlir@5", None),
    "gemm_grid8": ("gemm.mlir@8", None),
    "linear_bias_384x768x640": ("linear_bias.py:384,768,640", None),
    "linear_bias_1024x512x1024": ("linear_bias.py:1024,512,1024", None),
    "linear_bias_384x768x640_perturb5": ("linear_bias.py:384,768,640", 5),
    "flash_attention_perturb": ("flash_attention.mlir", 3),
}
DEFAULT = "gemm,gemm_910b,gemm_bf16,gemm_relu,gemm_anchor,flash_attention,linear_bias,linear_bias_perturb"


def _gemm_on_grid(grid: int) -> str:
    n = 224 * grid
    text = (EXAMPLES / "gemm.mlir").read_text()
    text = text.replace("tile.grid = 2", f"tile.grid = {grid}").replace("512x448", f"512x{n}")
    return text.replace("256x448", f"256x{n}").replace("[448, 1]", f"[{n}, 1]")


def _source(name: str) -> str:
    if "@" in name:
        return _gemm_on_grid(int(name.split("@")[1]))
    if name.endswith(".mlir"):
        return (EXAMPLES / name).read_text()
    file, _, shape = name.partition(":")
    spec = importlib.util.spec_from_file_location(f"example_{file[:-3]}", EXAMPLES / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if shape:
        m, k, n = (int(x) for x in shape.split(","))
        return module.make(m=m, k=k, n=n).to_mlir()
    return getattr(module, file[:-3]).to_mlir()


def main(argv: list[str] | None = None) -> int:
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.sim.routes import compile_tile_level
    from ascend_mlir.sim.simulator import simulate

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernels", default=DEFAULT)
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    rows = {}
    for name in args.kernels.split(","):
        source, perturb = KERNELS[name]
        ctx = make_context()
        module = parse_module(ctx, _source(source), source.split("@")[0].split(":")[0])
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
