"""Solver II, II written and measured II of every scheduled loop (issue 18 item 1).

The solver proves an II for its model of a loop (its drain reservations: one per
publishing pipe); where the code of that schedule replays at another II
(scheduling/realize.py), ascend-modulo-schedule writes the replayed timing instead and
keeps the solver's II as `ascend.solver_ii`. This prints, per loop and chip, the
solver's II, the II written and the II the simulator runs, measured as
test_scheduled_ii does: on the examples the median distance between issues of the
loop's op of largest ii (bench/e2e/run.py `_steady_ii`), on a generated chain kernel
what one more iteration costs ((cycles at 16 trips - cycles at 8) / 8).

    python bench/e2e/ii_models.py [--chips ascend950,ascend910b] [--examples vecadd,...]
        [--chains 1x8,4x8,6x4:8x64,...] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as e2e  # noqa: E402
from chains import chain_kernel  # noqa: E402
from xdsl.dialects import scf  # noqa: E402

from ascend_mlir.analysis.accesses import primary_pipe  # noqa: E402
from ascend_mlir.dialects import ascend  # noqa: E402
from ascend_mlir.analysis.latency_model import op_pipes  # noqa: E402

from norms import norm_kernel  # noqa: E402

NORMS = ("softmax", "layernorm", "rmsnorm")

EXAMPLES = ("vecadd", "gemm_910b", "gemm_relu", "gemm", "gemm_bf16", "softmax", "layernorm", "rmsnorm",
            "flash_attention")
# chains x length[:rows x cols]: the shapes test_scheduled_ii measures
CHAINS = ("1x8", "3x8", "4x8", "5x8", "6x4:8x64", "8x8", "12x8", "16x8", "20x6:4x64")


def _innermost(module) -> list[scf.ForOp]:
    return [o for o in module.walk() if isinstance(o, scf.ForOp) and ascend.loop_of(o) is not None
            and not any(isinstance(i, scf.ForOp) for i in o.body.walk())]


def _forms(loop: scf.ForOp) -> dict:
    sched = ascend.loop_of(loop)
    assert sched is not None
    solver = ascend.solver_ii_of(loop)
    return {"written": sched.ii, "solver": sched.ii if solver is None else solver, "status": sched.status,
            "unroll": ascend.unroll_of(loop), "one_pass": ascend.is_one_pass(loop)}


def _probe_ii(loop: scf.ForOp, result) -> float | None:
    """run.py `_steady_ii`'s measure of one loop: the median distance between issues of
    its op of largest ii that is unique in the body (U issues apart when unrolled)."""
    tasks = [o for o in loop.body.block.ops if ascend.task_of(o) is not None and op_pipes(o)]
    names = [o.name.removeprefix("hivm.hir.") for o in tasks]
    unroll = ascend.unroll_of(loop)
    unique = [o for o, n in zip(tasks, names, strict=True) if names.count(n) == unroll]
    if not unique:
        return None
    probe = max(unique, key=lambda o: ascend.task_of(o).ii)  # type: ignore[union-attr]
    short, pipe = probe.name.removeprefix("hivm.hir."), primary_pipe(op_pipes(probe))
    starts = sorted(e.start for e in result.trace if e.name == short and e.pipe == pipe)
    gaps = [b - a for a, b in zip(starts, starts[unroll:], strict=False)]
    inner = gaps[unroll:-unroll] or gaps
    return statistics.median(inner) if inner else None


def cube_core_period(result) -> float | None:
    """What one pass of a MIX loop (the cube's and the vector's part of one loop after
    split-mix-kernel, each written at the same II) takes as simulated, on the cube core:
    per op of the cube core that issues at least 6 times, the median distance between its
    issues over the second half of them; the median of those. `_probe_ii` needs an op
    unique in its loop, which flash attention's cube part (two loads, two mmadL1s, two
    fixpipes) does not have. None with no such op."""
    issues: dict[tuple, list[int]] = {}
    for e in result.trace:
        if e.core == "cube" and "flag" not in e.name and "sync_block" not in e.name and "barrier" not in e.name:
            issues.setdefault((e.loc, e.name, e.pipe), []).append(e.start)
    periods = []
    for starts in issues.values():
        if len(starts) >= 6:
            starts.sort()
            gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
            periods.append(statistics.median(gaps[len(gaps) // 2:]))
    return statistics.median(periods) if periods else None


def example_rows(name: str, chip: str) -> list[dict]:
    path = e2e.ROOT / "examples" / f"{name}.mlir"
    module = e2e._compiled(path.read_text(), str(path), chip=chip)
    cycles, result = e2e._cycles(module)
    rows = []
    for loop in _innermost(module):
        rows.append({"kernel": name, "chip": chip, "cycles": cycles, **_forms(loop),
                     "measured": _probe_ii(loop, result)})
    if name in NORMS:
        # a 4-trip loop gives the probe no steady state (test_scheduled_ii._norm_iis, norms.py):
        # what one more tile costs, (cycles at 8 tiles - at 4) / 4
        eight = e2e._compiled(norm_kernel(name, 8), name, chip=chip)
        four = e2e._compiled(norm_kernel(name, 4), name, chip=chip)
        rows[0]["measured"] = (e2e._cycles(eight)[0] - e2e._cycles(four)[0]) / 4
        rows[0]["kernel"] = f"{name} (8 vs 4 tiles)"
    return rows


def chain_row(shape: str, chip: str) -> dict:
    spec, _, tile = shape.partition(":")
    chains, length = (int(x) for x in spec.split("x"))
    rows, cols = (int(x) for x in (tile or "8x32").split("x"))  # chain_kernel's default tile
    name = f"chains{shape}"
    full_module = e2e._compiled(chain_kernel(chains, length, trips=16, rows=rows, cols=cols), name, chip=chip)
    full = e2e._cycles(full_module)[0]
    half = e2e._cycles(e2e._compiled(chain_kernel(chains, length, trips=8, rows=rows, cols=cols), name, chip=chip))[0]
    loop = _innermost(full_module)[0]
    return {"kernel": name, "chip": chip, "cycles": full, **_forms(loop), "measured": (full - half) / 8}


def _line(r: dict) -> str:
    m = r["measured"]
    off = f"{100 * (m - r['written']) / r['written']:+.1f}%" if m is not None else "-"
    form = ("one-pass" if r["one_pass"] else r["status"]) + (f", U={r['unroll']}" if r["unroll"] > 1 else "")
    return (f"| {r['kernel']} | {r['chip'].removeprefix('ascend')} | {r['solver']} | {r['written']} | "
            f"{m if m is not None else '-'} | {off} | {form} | {r['cycles']} | {r['cpu_s']:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description="solver II, II written and measured II of every scheduled loop")
    ap.add_argument("--chips", default="ascend950,ascend910b")
    ap.add_argument("--examples", default=",".join(EXAMPLES))
    ap.add_argument("--chains", default=",".join(CHAINS))
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    print("| loop | chip | solver II | written II | measured | measured vs written | form | cycles | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    jobs = [(example_rows, n) for n in filter(None, args.examples.split(","))]
    jobs += [(lambda s, c: [chain_row(s, c)], s) for s in filter(None, args.chains.split(","))]
    for make, what in jobs:
        for chip in args.chips.split(","):
            t0 = time.process_time()
            try:
                got = make(what, chip)
            except (Exception, SystemExit) as e:  # a kernel the chip cannot hold: say so, go on
                print(f"| {what} | {chip} | error: {str(e)[:100]} |", flush=True)
                continue
            for r in got:
                r["cpu_s"] = time.process_time() - t0
                rows.append(r)
                print(_line(r), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
