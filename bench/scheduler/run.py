#!/usr/bin/env python3
"""Scheduler benchmark: our incremental search vs the anchor's bisection, side by side.

    python bench/scheduler/run.py                 # default family, ~1-2 min on 2 cores
    python bench/scheduler/run.py --json out.json # also write every row as JSON
    python bench/scheduler/run.py --sizes 8,16 --seeds 0,1 --full
    python bench/scheduler/run.py --mlir examples/gemm.mlir   # loops of a kernel file

Both modes run the same Z3 encoding (see ascend_mlir/scheduling/modulo.py);
they differ in the search: ours starts at the lower bound MII with the IMS
heuristic's II as upper bound and one incremental solver; the anchor bisects
between max(ii) and max(sum latency, sum ii) + 1 with a fresh solver per probe,
rlimit 1e6 per probe, unknown read as infeasible.  By default both stop at the
minimal II (one schedule, no secondary objectives), which is what the anchor
does; `--full` adds a column with our complete lexicographic solve (II, then
buffer bytes, then schedule length) under the default budget.

Other tools can call `run_benchmark(named_problems)` with their own list of
(name, LoopProblem), e.g. the loops of the example kernels.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import platform
import sys
import time
from typing import Any, Callable, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from problems import generated_family, hand_built  # noqa: E402

from ascend_mlir.scheduling import LoopProblem, schedule_loop  # noqa: E402


def _solve(p: LoopProblem, search: str, full: bool, heuristic: bool = True) -> tuple[Any, float]:
    t0 = time.perf_counter()
    r = schedule_loop(p, search=search, optimize_secondary=full, heuristic=heuristic)
    return r, (time.perf_counter() - t0) * 1000.0


def _cell(r: Any, ms: float) -> str:
    return f"{r.ii:>6} {r.status:>9} {ms:>8.1f} {len(r.stats['probes']):>6}"


def _entry(r: Any, ms: float) -> dict[str, Any]:
    return {"ii": r.ii, "status": r.status, "ms": round(ms, 2), "probes": len(r.stats["probes"]),
            "z3_checks": r.stats["z3_checks"]}


def run_benchmark(
    problems: Sequence[tuple[str, LoopProblem]],
    *,
    full: bool = False,
    out: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """Solve every named problem with each search; print a table; return the rows.

    Columns: ours (IMS + lower bound + incremental solver), ours with the
    solver alone (no heuristic: isolates the incremental search), the anchor.
    """
    rows: list[dict[str, Any]] = []
    cell = f"{'II':>6} {'status':>9} {'ms':>8} {'probes':>6}"
    head = (f"{'loop':<22} {'tasks':>5} {'MII':>6} {'bind':>10} | {cell} | {cell} | {cell}"
            f" | {'II/MII':>6} {'speedup':>7} {'solver':>7}")
    if full:
        head += f" | {'full ms':>8} {'len':>7} {'bytes':>8}"
    out(f"{'':<47} | {'ours (IMS + incremental z3)':^31} | {'ours, z3 only (no IMS)':^31} |"
        f" {'anchor (bisection, fresh z3)':^31} |")
    out(head)
    out("-" * len(head))
    for name, p in problems:
        ours, ours_ms = _solve(p, "incremental", False)
        solo, solo_ms = _solve(p, "incremental", False, heuristic=False)
        anchor, anchor_ms = _solve(p, "bisect", False)
        row = {
            "loop": name,
            "tasks": len(p.tasks),
            "mii": ours.mii,
            "binding": ours.binding,
            "ours": dict(_entry(ours, ours_ms), heuristic_ii=ours.stats["heuristic_ii"]),
            "solver_only": _entry(solo, solo_ms),
            "anchor": _entry(anchor, anchor_ms),
            "ii_over_mii": round(ours.ii / ours.mii, 3),
            "speedup": round(anchor_ms / ours_ms, 2),
            "speedup_solver_only": round(anchor_ms / solo_ms, 2),
            "equal_ii": ours.ii == anchor.ii == solo.ii,
        }
        line = (f"{name:<22} {len(p.tasks):>5} {ours.mii:>6} {ours.binding:>10} | {_cell(ours, ours_ms)}"
                f" | {_cell(solo, solo_ms)} | {_cell(anchor, anchor_ms)} | {ours.ii / ours.mii:>6.3f}"
                f" {row['speedup']:>6.1f}x {row['speedup_solver_only']:>6.1f}x")
        if full:
            whole, whole_ms = _solve(p, "incremental", True)
            assert whole.ii == ours.ii
            row["full"] = {"ms": round(whole_ms, 2), "status": whole.status, "length": whole.length,
                           "bytes": sum(whole.buffer_bytes.values()),
                           "bytes_optimal": whole.stats.get("bytes_optimal"),
                           "length_optimal": whole.stats.get("length_optimal")}
            mark = "" if whole.stats.get("length_optimal") else "*"
            line += f" | {whole_ms:>8.1f} {str(whole.length) + mark:>7} {row['full']['bytes']:>8}"
        out(line)
        rows.append(row)
    out("-" * len(head))
    _summary(rows, out)
    if full:
        out("  len* = schedule length not proven minimal within the default budget")
    return rows


def _geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def _summary(rows: list[dict[str, Any]], out: Callable[[str], None]) -> None:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        key = f"{r['tasks']} tasks" if r["loop"].startswith("gen") else "other"
        groups.setdefault(key, []).append(r)
    out("summary: speedup = anchor ms / ours ms (geometric mean); 'solver' = same for ours without IMS")
    for key, rs in groups.items():
        eq = sum(r["equal_ii"] for r in rs)
        lower = sum(r["ours"]["ii"] < r["anchor"]["ii"] for r in rs)
        out(f"  {key:<9} loops {len(rs):>2} | equal II {eq}/{len(rs)}, ours lower {lower}"
            f" | ms ours {sum(r['ours']['ms'] for r in rs):8.1f} solver {sum(r['solver_only']['ms'] for r in rs):8.1f}"
            f" anchor {sum(r['anchor']['ms'] for r in rs):8.1f}"
            f" | speedup {_geomean([r['speedup'] for r in rs]):5.1f}x solver {_geomean([r['speedup_solver_only'] for r in rs]):5.1f}x"
            f" | optimal ours {sum(r['ours']['status'] == 'optimal' for r in rs)}/{len(rs)}"
            f" solver {sum(r['solver_only']['status'] == 'optimal' for r in rs)}/{len(rs)}"
            f" anchor {sum(r['anchor']['status'] == 'optimal' for r in rs)}/{len(rs)}")


def _mlir_problems(paths: list[str]) -> list[tuple[str, LoopProblem]]:
    """Loops of kernel files, through the modulo-schedule pass's own problem builder."""
    from mlir_problems import loop_problems_of_file
    named = []
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        for name, p in loop_problems_of_file(path):
            named.append((name if name.startswith(stem) else f"{stem}:{name}", p))
    return named


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="8,16,32,64", help="task counts of the generated family")
    ap.add_argument("--seeds", default="0,1,2,3", help="generator seeds per size")
    ap.add_argument("--no-generated", action="store_true", help="only hand-built and --mlir loops")
    ap.add_argument("--mlir", nargs="*", default=None,
                    help="kernel files whose loops to add (default: examples/*.mlir when the pass is available)")
    ap.add_argument("--full", action="store_true", help="also time our full lexicographic solve")
    ap.add_argument("--json", metavar="OUT", help="write rows and environment as JSON")
    args = ap.parse_args(argv)
    problems = hand_built()
    mlir = args.mlir
    if mlir is None:
        examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
        mlir = sorted(glob.glob(os.path.join(examples, "*.mlir")))
    if mlir:
        problems += _mlir_problems(mlir)
    if not args.no_generated:
        sizes = tuple(int(s) for s in args.sizes.split(",") if s)
        seeds = tuple(int(s) for s in args.seeds.split(",") if s)
        problems += generated_family(sizes, seeds)
    t0 = time.perf_counter()
    rows = run_benchmark(problems, full=args.full, out=lambda s: print(s, flush=True))
    total = time.perf_counter() - t0
    print(f"total {total:.1f} s")
    if args.json:
        import z3

        with open(args.json, "w") as f:
            json.dump({"rows": rows, "total_s": round(total, 2), "python": platform.python_version(),
                       "z3": z3.get_version_string(), "cpus": os.cpu_count()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
