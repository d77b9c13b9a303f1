"""Event ids on wide loops (issue 18 item 1): simulated cycles of one block and the
pipe_barrier[<PIPE_ALL>] the sync pass placed besides the kernel's final one, per kernel
and chip, with the sync pass's CPU time.

    python bench/e2e/event_ids.py [--chains 8,16,32] [--seeds 0,1,2] [--chips ascend950,ascend910b] [--json OUT]

Kernels: `chains.chain_kernel(N)` at 16 trips (N chains of 8 tile ops: 8 N ops per loop)
and the random wide chain kernels `chains.wide_random_kernel(seed)` (9 to 40 chains,
random tiles, lengths, trips and stages; test/python/test_event_rings.py checks them).
Run it with PYTHONPATH pointing at another checkout to measure that one (before/after).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from xdsl.context import Context

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from chains import chain_kernel, wide_random_kernel  # noqa: E402

from ascend_mlir.diagnostics import parse_module  # noqa: E402
from ascend_mlir.dialects import UPSTREAM_DIALECTS, hivm, register_dialects  # noqa: E402
from ascend_mlir.sim.simulator import simulate  # noqa: E402
from ascend_mlir.transforms import insert_sync  # noqa: E402
from ascend_mlir.transforms.ascend_compile import AscendCompilePass  # noqa: E402


def _sync_cpu() -> list[float]:
    """CPU seconds of each InsertSyncPass.apply from now on (wrapped, not changed)."""
    spent: list[float] = []
    original = insert_sync.InsertSyncPass.apply

    def timed(self, ctx, op):
        t0 = time.process_time()
        try:
            return original(self, ctx, op)
        finally:
            spent.append(time.process_time() - t0)

    insert_sync.InsertSyncPass.apply = timed  # type: ignore[method-assign]
    return spent


SYNC_CPU = _sync_cpu()


def measure(name: str, text: str, chip: str) -> dict:
    module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), text, name)
    t0 = time.process_time()
    AscendCompilePass(chip=chip).apply(Context(), module)
    compile_cpu = time.process_time() - t0
    barriers = [op for op in module.walk() if isinstance(op, hivm.PipeBarrierOp) and hivm.is_barrier_all(op)]
    result = simulate(module, None, blocks=1, trace=False)
    if result.races or result.deadlock:
        raise SystemExit(f"{name} on {chip}: not race-free")
    return {"kernel": name, "chip": chip, "cycles": result.cycles, "pipe_all": len(barriers) - 1,
            "compile_cpu_s": round(compile_cpu, 2), "sync_cpu_s": round(SYNC_CPU[-1], 2)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--chains", default="8,16,32")
    p.add_argument("--seeds", default="0,1,2,3,4,5")
    p.add_argument("--chips", default="ascend950,ascend910b")
    p.add_argument("--json")
    args = p.parse_args(argv)
    kernels = [(f"chains{n}x8", chain_kernel(n, trips=16)) for n in map(int, filter(None, args.chains.split(",")))]
    kernels += [(f"wide{s}", wide_random_kernel(s)) for s in map(int, filter(None, args.seeds.split(",")))]
    rows = []
    print("| kernel | chip | cycles | PIPE_ALL besides the final | compile CPU s | sync CPU s |")
    print("|---|---|---|---|---|---|")
    for name, text in kernels:
        for chip in args.chips.split(","):
            row = measure(name, text, chip)
            rows.append(row)
            print(f"| {name} | {chip} | {row['cycles']} | {row['pipe_all']} | {row['compile_cpu_s']} | {row['sync_cpu_s']} |",
                  flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
