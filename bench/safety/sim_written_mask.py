"""Cost of the simulator's written masks (reads of never-written on-chip memory, issue 23):
instructions simulated per CPU second on compiled examples, with the masks and without
them (Buffer.written answering None, as for GM: no mask is made, checked or set).

    python bench/safety/sim_written_mask.py [--examples gemm,softmax] [--repeat 3] [--json OUT]

CPU seconds (time.process_time) of `simulate` alone, best of --repeat runs; the machine
is shared, so wall time would measure the load."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _compiled(name: str):
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.sim.routes import compile_tile_level

    ctx = make_context()
    path = ROOT / "examples" / f"{name}.mlir"
    module = parse_module(ctx, path.read_text(), str(path))
    compile_tile_level(ctx, module, None)
    return module


def _best(module, repeat: int) -> tuple[float, int, bool]:
    from ascend_mlir.sim.simulator import simulate

    best, instructions, clean = float("inf"), 0, True
    for _ in range(repeat):
        start = time.process_time()
        result = simulate(module.clone(), None, trace=False)
        best = min(best, time.process_time() - start)
        instructions, clean = result.instructions, not result.uninitialized_reads
    return best, instructions, clean


def measure(names: list[str], repeat: int) -> list[dict]:
    from ascend_mlir.sim import memory

    rows = []
    for name in names:
        module = _compiled(name)
        with_masks, n, clean = _best(module, repeat)
        original = memory.Buffer.written
        memory.Buffer.written = lambda self, core: None  # type: ignore[method-assign]
        try:
            without, _, _ = _best(module, repeat)
        finally:
            memory.Buffer.written = original  # type: ignore[method-assign]
        rows.append({"example": name, "instructions": n, "no_uninitialized_reads": clean,
                     "instr_per_s_without_masks": round(n / without), "instr_per_s_with_masks": round(n / with_masks),
                     "slowdown": round(with_masks / without, 3)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description="cost of the simulator's written masks")
    parser.add_argument("--examples", default="gemm,softmax")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = measure(args.examples.split(","), args.repeat)
    for r in rows:
        print(f"{r['example']:<16} {r['instructions']:>7} instr  without masks {r['instr_per_s_without_masks']:>8}/s  "
              f"with masks {r['instr_per_s_with_masks']:>8}/s  x{r['slowdown']}  clean={r['no_uninitialized_reads']}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
