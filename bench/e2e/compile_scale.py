"""Compile time and memory of the whole `ascend-compile` on wide loops (issue 18 item 5):
CPU seconds and the process's peak RSS after each stage, pipe_barrier[<PIPE_ALL>] besides
the kernel's final one (the barrier fallback), and the event ids the flags use.

    python bench/e2e/compile_scale.py [--kernels chains8x8,chains16x8,chains32x8] [--chips ascend950,ascend910b] [--json OUT]
    python bench/e2e/compile_scale.py --untuned [--chips ascend950]

The defaults are the three kernels and two chips shown; `ringN` (N ops) is another kernel.
`--untuned`: the ring sizes no bench had measured until session 46 found them over the
budget (rings of 68-88 ops spent up to 20 s on one Z3 probe, and those of 8 mod 16 ops
from 104 up up to 16 s in the replay and IMS), beside their tuned neighbours; the
`budget` column is the targets read pro rata between (2 s at 64 ops, 4 at 128, 10 at 256).

Kernels: `chains.chain_kernel(N)` at 16 trips (N chains of 8 tile ops: 8 N ops per loop,
so 8 / 16 / 32 chains are the issue's 64 / 128 / 256-op loops). Each kernel and chip is
compiled in a fresh process (`--one NAME CHIP`), so the peak RSS is that compile's own
(it includes the ~90 MB of the imported modules). Targets: <= 2 / 4 / 10 s CPU and
< 300 MB at 64 / 128 / 256 ops, no PIPE_ALL besides the final one.
Run it with PYTHONPATH pointing at another checkout to measure that one (before/after).
Session 12's before/after run of every kernel: bench/e2e/compile_scale_results.json.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from chains import chain_kernel  # noqa: E402


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _kernel(name: str) -> str:
    """`chainsCxL`: C chains of L ops, 16 trips; `ringN`: bench/scheduler/pass_scaling's
    loop of N tile ops over a ring of 16 UB tiles (one dependence chain through them)."""
    if name.startswith("ring"):
        sys.path.insert(0, str(HERE.parent / "scheduler"))
        return importlib.import_module("pass_scaling").chain_kernel(int(name.removeprefix("ring")))
    chains, length = (int(x) for x in name.removeprefix("chains").split("x"))
    return chain_kernel(chains, length, trips=16)


UNTUNED = "ring56,ring64,ring72,ring88,ring96,ring104,ring232,ring248,ring256"


def budget_s(ops: int) -> float:
    """Issue 18's compile-time target at `ops` tile ops: 2 / 4 / 10 CPU s at 64 / 128 /
    256, read pro rata between (and below 64, the 64-op target)."""
    if ops <= 128:
        return max(2.0, ops / 32)
    return 4.0 + (ops - 128) * 6 / 128


def _ops(name: str) -> int:
    if name.startswith("ring"):
        return int(name.removeprefix("ring"))
    chains, length = (int(x) for x in name.removeprefix("chains").split("x"))
    return chains * length


def compile_one(name: str, chip: str) -> dict:
    """Compile `name` for `chip` in this process; CPU and peak RSS after every stage."""
    from xdsl.context import Context

    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.dialects import UPSTREAM_DIALECTS, hivm, register_dialects
    from ascend_mlir.transforms import verify_sync
    from ascend_mlir.transforms.ascend_compile import AscendCompilePass
    from ascend_mlir.transforms.stages import observe_stages

    module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), _kernel(name), name)
    stages: list[dict] = []
    last = [time.process_time()]

    def mark(stage: str, _module=None) -> None:
        now = time.process_time()
        stages.append({"stage": stage, "cpu_s": round(now - last[0], 3), "peak_rss_mb": round(_rss_mb(), 1)})
        last[0] = now

    # verify-sync reports no stage of its own: time it by wrapping its apply (unchanged)
    original = verify_sync.VerifySyncPass.apply

    def timed(self, ctx, op):
        original(self, ctx, op)
        mark("ascend-verify-sync")

    verify_sync.VerifySyncPass.apply = timed  # type: ignore[method-assign]
    rss_before = _rss_mb()
    t0 = time.process_time()
    last[0] = t0
    with observe_stages(mark):
        AscendCompilePass(chip=chip).apply(Context(), module)
    cpu = time.process_time() - t0
    ops = list(module.walk())
    barriers = [o for o in ops if isinstance(o, hivm.PipeBarrierOp) and hivm.is_barrier_all(o)]
    flags = [o for o in ops if isinstance(o, hivm.SetFlagOp | hivm.WaitFlagOp)]
    ids: dict[tuple[str, str], set[int]] = {}
    for flag in flags:
        ids.setdefault((flag.set_pipe.pipe_name, flag.wait_pipe.pipe_name), set()).add(
            -1 if flag.event_id is None else flag.event_id)  # -1: an id computed at run time
    return {"kernel": name, "chip": chip, "compile_cpu_s": round(cpu, 2), "peak_rss_mb": round(_rss_mb(), 1),
            "rss_before_mb": round(rss_before, 1), "pipe_all": len(barriers) - 1, "set_flags": sum(isinstance(f, hivm.SetFlagOp) for f in flags),
            "max_event_ids_per_pipe_pair": max(map(len, ids.values()), default=0), "stages": stages}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernels", default="chains8x8,chains16x8,chains32x8",
                   help="chainsCxL (C chains of L ops) or ringN (N ops), comma-separated (default: %(default)s)")
    p.add_argument("--chips", default="ascend950,ascend910b", help="comma-separated (default: %(default)s)")
    p.add_argument("--untuned", action="store_true", help=f"the kernels {UNTUNED} (see above)")
    p.add_argument("--json")
    p.add_argument("--one", nargs=2, metavar=("KERNEL", "CHIP"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one:
        print(json.dumps(compile_one(*args.one)))
        return 0
    rows = []
    print("| kernel | ops | chip | compile CPU s | budget | peak RSS MB | PIPE_ALL besides the final | set_flags | most event ids on one pipe pair | slowest stages (CPU s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in filter(None, (UNTUNED if args.untuned else args.kernels).split(",")):
        for chip in args.chips.split(","):
            out = subprocess.run([sys.executable, __file__, "--one", name, chip], capture_output=True, text=True,
                                 env=os.environ, check=False)
            if out.returncode:
                raise SystemExit(f"{name} on {chip} failed:\n{out.stderr[-3000:]}")
            row = json.loads(out.stdout.splitlines()[-1])
            rows.append(row)
            slow = sorted(row["stages"], key=lambda s: -s["cpu_s"])[:3]
            budget = budget_s(_ops(name))
            over = " (over)" if row["compile_cpu_s"] > budget else ""
            print(f"| {name} | {_ops(name)} | {chip} | {row['compile_cpu_s']} | {budget:.2f}{over} | {row['peak_rss_mb']} | "
                  f"{row['pipe_all']} | {row['set_flags']} | {row['max_event_ids_per_pipe_pair']} | "
                  + ", ".join(f"{s['stage']} {s['cpu_s']}" for s in slow) + " |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
