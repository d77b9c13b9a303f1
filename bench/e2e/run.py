"""End-to-end benchmark: simulated cycles of one block per kernel, side by side.

    python bench/e2e/run.py [--json OUT] [--examples vecadd,gemm,...]

Columns (DESIGN.md section 7, issue 8 item 9):
  ours      ascend-compile (modulo schedule, memory plan, multi-buffer, pipelined loops,
            solver sync)
  barrier   ascend-compile{schedule=program-order sync=barrier-all}
  po+sync   ascend-compile{schedule=program-order sync=solver}: our sync, one version per buffer
  bisheng   bishengir's own sync (sim/bishengir.py `simulate_bishengir_sync`): our lowering in
            program order with our memory plan (one version per buffer, peel-mmad-init, a
            MIX kernel's cross-core hand-offs) printed as npuir, then `bishengir-opt
            -hivm-inject-sync` and `-hivm-graph-sync-solver` (bishengir-compile's default),
            each parsed back and simulated; the faster race-free one. bishengir's output is
            judged by our oracle: if every variant races, the fastest is shown with
            "racy: N" (N distinct races) and the run goes on; only *our* variants must be
            race-free
  bound     max(busiest pipe: sum of ii per pipe, critical path: the straight-line
            makespan of the modulo schedule with every loop at its MII)
plus, per innermost loop, the scheduled II and the steady-state II measured in the
simulator (median distance between consecutive issues of the loop's op with the
largest ii that is unique by name in the body).
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.utils.exceptions import DiagnosticException, ParseError

from ascend_mlir.analysis.accesses import primary_pipe, trip_count
from ascend_mlir.analysis.latency_model import op_pipes
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import UPSTREAM_DIALECTS, ascend, register_dialects
from ascend_mlir.sim import bishengir
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.transforms.ascend_compile import AscendCompilePass
from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass
from ascend_mlir.transforms.estimate_latency import EstimateLatencyPass
from ascend_mlir.transforms.modulo_schedule import ModuloSchedulePass

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # chains.py beside this file
EXAMPLES = ("vecadd", "softmax", "rmsnorm", "layernorm", "gemm", "gemm_910b", "gemm_bf16", "gemm_fp16",
            "gemm_relu", "gemm_anchor", "flash_attention")


def _parse(text: str, name: str):
    """A fresh module of `text`: a copy of its one parse in this process (a copy costs a
    twentieth of a parse; the test files that use this parse some kernels several times)."""
    return _parsed_once(text, name).clone()


@functools.lru_cache(maxsize=16)
def _parsed_once(text: str, name: str):
    # bishengir's output may use affine.apply for index arithmetic
    return parse_module(register_dialects(Context(), (*UPSTREAM_DIALECTS, "affine")), text, name)


def _cycles(module) -> tuple[int, object]:
    """Cycles of one of *our* variants: a race or deadlock there is a bug of ours, fatal."""
    result = simulate(module, None, blocks=1)
    if result.races or result.deadlock:
        raise SystemExit(f"bench: a variant is not race-free: {json.dumps(result.to_json(), default=str)[:400]}")
    return result.cycles, result


def _compiled(text: str, name: str, **options):
    module = _parse(text, name)
    AscendCompilePass(**options).apply(Context(), module)
    return module


def _bisheng_runs(text: str, name: str) -> list[dict]:
    """bishengir's own sync passes on our planned, unsynced lowering, each simulated. A
    race or deadlock in bishengir's output is reported (in the row), not fatal; a pass
    that does not go through is reported on stderr and left out."""
    tile = bishengir.parse_hivm(text, name)
    runs = []
    for sync_pass in bishengir.SYNC_PASSES:
        try:
            result = bishengir.simulate_bishengir_sync(tile, sync_pass, name=name)
        except bishengir.BishengirError as e:
            print(f"{name}: {e}", file=sys.stderr)
            continue
        # bishengir's output that we cannot parse or simulate (the errors ascend-sim reports
        # as bad input) is reported, not fatal; anything else is a bug of ours and stops
        except (DiagnosticException, ParseError, ValueError, NotImplementedError) as e:
            print(f"{name}: bishengir's -{sync_pass} output does not simulate: {str(e)[:300]}", file=sys.stderr)
            continue
        runs.append({"pass": sync_pass, "cycles": result.cycles, "races": len(result.races),
                     "race_ops": sorted({f"{r.first} -> {r.second}" for r in result.races}),
                     "deadlock": bool(result.deadlock)})
    return runs


def best_bisheng(runs: list[dict]) -> dict | None:
    """Column (d): the fastest race-free bishengir variant; if every one is racy (or
    deadlocks), the fastest of those, which the table marks."""
    clean = [r for r in runs if not r["races"] and not r["deadlock"]]
    return min(clean or runs, key=lambda r: r["cycles"], default=None)


def _executions(op) -> int:
    n = 1
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            n *= trip_count(parent) or 1
        parent = parent.parent_op()
    return n


def _bound(text: str, name: str, flag_drains: bool = False) -> tuple[int, dict]:
    """max(busiest pipe, critical path at MII) from the modulo schedule of the kernel.

    With flag_drains=False (bound (e) of issue 8) pipes are busy only for their ops' ii;
    with True each innermost loop's iterations also hold the cycles a pipe idles while a
    set_flag waits for its last producer to complete (LoopModel.flag_drains): the bound
    of any code that publishes one flag per iteration, as ours and the anchor's do.
    The critical path (the straight-line makespan with every loop at its MII) is a lower
    bound only for one level of loops on one core; for nested loops and MIX kernels the
    bound is the busiest pipe alone."""
    module = _parse(text, name)
    ctx = Context()
    for p in (ConvertTileToHivmPass(), EstimateLatencyPass(), ModuloSchedulePass(flag_drains=flag_drains)):
        p.apply(ctx, module)
    busy = _busy(module)
    path = _critical_path(module) if _single_level_one_core(module) else 0
    return max(max(busy.values(), default=0), path), {"busy": busy, "critical_path": path}


def _busy(module) -> dict[str, int]:
    """Per pipe, the ii of every op times its executions, plus each innermost loop's
    reserved flag drains (res_mii above the ops' ii) times its iterations."""
    busy: dict[str, int] = {}
    for op in module.walk():
        task = ascend.task_of(op)
        if task is not None and op_pipes(op):
            pipe = primary_pipe(op_pipes(op))
            busy[pipe] = busy.get(pipe, 0) + task.ii * _executions(op)
        sched = ascend.loop_of(op)
        if isinstance(op, scf.ForOp) and sched is not None and not _has_inner_loop(op):
            ops_ii: dict[str, int] = {}
            for inner in op.body.block.ops:
                inner_task = ascend.task_of(inner)
                if inner_task is not None and op_pipes(inner):
                    pipe = primary_pipe(op_pipes(inner))
                    ops_ii[pipe] = ops_ii.get(pipe, 0) + inner_task.ii
            runs = (trip_count(op) or 1) * _executions(op)
            for pipe, reserved in sched.res_mii.items():
                busy[pipe] = busy.get(pipe, 0) + max(0, reserved - ops_ii.get(pipe, 0)) * runs
    return busy


def _has_inner_loop(loop) -> bool:
    return any(isinstance(o, scf.ForOp) for o in loop.body.walk())


def _single_level_one_core(module) -> bool:
    cores = {hivm_core(o) for o in module.walk() if op_pipes(o)} - {"SCALAR"}
    nested = any(isinstance(o, scf.ForOp) and _has_inner_loop(o) for o in module.walk())
    return len(cores) <= 1 and not nested


def hivm_core(op) -> str:
    from ascend_mlir.dialects import hivm

    return op.core_type() if isinstance(op, hivm.HivmPipeOp) else "SCALAR"


def _critical_path(module) -> int:
    path = 0
    for f in (o for o in module.walk() if isinstance(o, func.FuncOp)):
        block = f.body.blocks.first
        assert block is not None
        slack = 0
        for op in block.ops:
            task = ascend.task_of(op)
            if task is None or task.start is None:
                continue
            sched = ascend.loop_of(op)
            if isinstance(op, scf.ForOp) and sched is not None:
                slack += (sched.ii - sched.mii) * max(0, (trip_count(op) or 1) - 1)
            path = max(path, task.start + task.latency)
        path -= slack
    return path


def _steady_ii(module, result) -> list[dict]:
    """Scheduled vs measured II of every innermost scheduled loop of the compiled module."""
    out = []
    for loop in (o for o in module.walk() if isinstance(o, scf.ForOp)):
        sched = ascend.loop_of(loop)
        if sched is None or any(isinstance(o, scf.ForOp) for o in loop.body.walk()):
            continue
        tasks = [o for o in loop.body.block.ops if ascend.task_of(o) is not None and op_pipes(o)]
        names = [o.name.removeprefix("hivm.hir.") for o in tasks]
        # a loop the schedule unrolled U times holds U copies of each op: its II is the
        # distance between one copy's issues, U issues of the op apart
        unroll = ascend.unroll_of(loop)
        unique = [o for o, n in zip(tasks, names, strict=True) if names.count(n) == unroll]
        if not unique:
            continue
        probe = max(unique, key=lambda o: ascend.task_of(o).ii)  # type: ignore[union-attr]
        short = probe.name.removeprefix("hivm.hir.")
        pipe = primary_pipe(op_pipes(probe))  # mmadL1: its cube part on M, not its MTE1 feed
        starts = sorted(e.start for e in result.trace if e.name == short and e.pipe == pipe)
        gaps = [b - a for a, b in zip(starts, starts[unroll:], strict=False)]
        inner = gaps[unroll:-unroll] or gaps
        measured = statistics.median(inner) if inner else None
        out.append({"op": short, "scheduled_ii": sched.ii, "measured_ii": measured, "unroll": unroll})
    return out


def run_example(name: str) -> dict:
    path = ROOT / "examples" / f"{name}.mlir"
    text = path.read_text()
    ours_module = _compiled(text, str(path))
    ours, ours_result = _cycles(ours_module)
    barrier = _cycles(_compiled(text, str(path), schedule="program-order", sync="barrier-all"))[0]
    po_sync = _cycles(_compiled(text, str(path), schedule="program-order", sync="solver"))[0]
    runs = _bisheng_runs(text, str(path))
    best = best_bisheng(runs)
    bound, parts = _bound(text, str(path))
    bound_drains, _ = _bound(text, str(path), flag_drains=True)
    return {
        "kernel": name, "ours": ours, "barrier": barrier, "po_sync": po_sync,
        "bisheng": best["cycles"] if best else None, "bisheng_pass": best["pass"] if best else None,
        "bisheng_races": best["races"] if best else 0, "bisheng_runs": runs,
        "bound": bound, "bound_parts": parts, "bound_with_flag_drains": bound_drains,
        "loops": _steady_ii(ours_module, ours_result),
    }


def _ratio(a: int | None, b: int | None) -> str:
    return f"{a / b:.2f}x" if a and b else "-"


def _bisheng_cell(row: dict) -> str:
    """(d)'s cycles, which bishengir pass gave them, and a marker when its output races."""
    if row["bisheng"] is None:
        return "-"
    short = {"hivm-inject-sync": "inject", "hivm-graph-sync-solver": "gss"}.get(row["bisheng_pass"], row["bisheng_pass"])
    racy = f", racy: {row['bisheng_races']}" if row["bisheng_races"] else ""
    return f"{row['bisheng']} ({short}{racy})"


def table(rows: list[dict]) -> str:
    head = ("| kernel | ours | barrier-all | po + our sync | bishengir sync | bound | bound + flag drains | "
            "barrier/ours | po+sync/ours | bisheng/ours | ours/bound | ours/(bound + drains) | II sched -> measured |")
    lines = [head, "|" + "---|" * 13]
    for r in rows:
        ii = ", ".join(f"{x['op']} {x['scheduled_ii']} -> {x['measured_ii']}" for x in r["loops"]) or "-"
        lines.append(
            f"| {r['kernel']} | {r['ours']} | {r['barrier']} | {r['po_sync']} | {_bisheng_cell(r)} | "
            f"{r['bound']} | {r['bound_with_flag_drains']} | {_ratio(r['barrier'], r['ours'])} | "
            f"{_ratio(r['po_sync'], r['ours'])} | {_ratio(r['bisheng'], r['ours'])} | "
            f"{_ratio(r['ours'], r['bound'])} | {_ratio(r['ours'], r['bound_with_flag_drains'])} | {ii} |"
        )
    return "\n".join(lines)


def _loop_ii(module) -> int | None:
    loops = [ascend.loop_of(o) for o in module.walk() if isinstance(o, scf.ForOp)]
    return next((sched.ii for sched in loops if sched is not None), None)


def run_chains(chains: int, trips: int = 16) -> dict:
    """A generated wide kernel (`chains.chain_kernel`: `chains` independent chains of 8
    tile ops): ours vs barrier-all vs program order, and the loop's scheduled II against
    the measured one, (cycles at `trips` - cycles at `trips // 2`) / (trips - trips // 2):
    what one more iteration costs in the steady state."""
    from chains import chain_kernel

    name = f"chains{chains}x8"
    text = chain_kernel(chains, trips=trips)
    ours_module = _compiled(text, name)
    ours = _cycles(ours_module)[0]
    half = _cycles(_compiled(chain_kernel(chains, trips=trips // 2), name))[0]
    barrier = _cycles(_compiled(text, name, schedule="program-order", sync="barrier-all"))[0]
    po_sync = _cycles(_compiled(text, name, schedule="program-order", sync="solver"))[0]
    return {
        "kernel": name, "ops": 8 * chains, "ours": ours, "barrier": barrier, "po_sync": po_sync,
        "scheduled_ii": _loop_ii(ours_module), "measured_ii": (ours - half) / (trips - trips // 2),
        "barrier_falls_back": str(ours_module).count("PIPE_ALL") - 1,
    }


def chain_table(rows: list[dict]) -> str:
    lines = ["| kernel | tile ops | ours | barrier-all | po + our sync | barrier/ours | po+sync/ours | "
             "II sched -> measured | PIPE_ALL besides the final one |", "|" + "---|" * 9]
    for r in rows:
        lines.append(
            f"| {r['kernel']} | {r['ops']} | {r['ours']} | {r['barrier']} | {r['po_sync']} | "
            f"{_ratio(r['barrier'], r['ours'])} | {_ratio(r['po_sync'], r['ours'])} | "
            f"{r['scheduled_ii']} -> {r['measured_ii']:.0f} | {r['barrier_falls_back']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", help="write the rows as JSON here")
    p.add_argument("--examples", default=",".join(EXAMPLES))
    p.add_argument("--chains", default="1,4,8,16,32",
                   help="generated kernels: loops of N independent chains of 8 tile ops ('' for none)")
    args = p.parse_args(argv)
    rows = []
    for name in (n for n in args.examples.split(",") if n):
        rows.append(run_example(name))
        print(f"{name}: done", file=sys.stderr)
    chain_rows = []
    for n in (int(c) for c in args.chains.split(",") if c):
        chain_rows.append(run_chains(n))
        print(f"chains {n}: done", file=sys.stderr)
    if rows:
        print(table(rows))
    if chain_rows:
        print(chain_table(chain_rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows + chain_rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
