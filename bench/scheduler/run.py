#!/usr/bin/env python3
"""Scheduler benchmark: ours against the real anchor (TileLang 0.1.15's Z3 loop scheduler).

    python bench/scheduler/run.py                 # default problem set, three-way table
    python bench/scheduler/run.py --json out.json # also write every row as JSON
    python bench/scheduler/run.py --sizes 8,16 --seeds 0,1 --no-anchor
    python bench/scheduler/run.py --mlir examples/gemm.mlir   # loops of a kernel file

Columns: ours (time to a proven II, and the complete solve with fewest buffer bytes
and shortest length), the anchor as shipped (`enable_offset=False`: all tasks of a
pipe inside one II window) and with `enable_offset=True`.  The anchor is installed
by `anchor.py` into a cache directory (pip download of the wheel + a small venv)
and runs in a subprocess; without network it is skipped with a message.

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

from ascend_mlir.scheduling import LoopProblem, compute_mii, schedule_loop  # noqa: E402


def _timed(p: LoopProblem, **kw: Any) -> tuple[Any, float, float]:
    """Result, wall seconds, CPU seconds of this process (z3 runs in-process)."""
    t0, c0 = time.perf_counter(), time.process_time()
    r = schedule_loop(p, **kw)
    return r, time.perf_counter() - t0, time.process_time() - c0


def _ours(p: LoopProblem) -> dict[str, Any]:
    """Time to a proven II (no secondary objectives) and the complete solve."""
    r, wall, cpu = _timed(p, optimize_secondary=False)
    whole, whole_wall, whole_cpu = _timed(p)
    assert whole.ii == r.ii, "the secondary objectives must not change the II"
    return {"ii": r.ii, "status": r.status, "s": round(cpu, 4), "wall_s": round(wall, 4),
            "total_s": round(whole_cpu, 4), "total_wall_s": round(whole_wall, 4),
            "probes": len(r.stats["probes"]), "refuted": len(r.stats.get("refuted", [])),
            "bytes": sum(whole.buffer_bytes.values()), "length": whole.length,
            "bytes_optimal": whole.stats.get("bytes_optimal"),
            "length_optimal": whole.stats.get("length_optimal"),
            "secondary_s": round(whole.stats.get("secondary_ms", 0.0) / 1000, 4)}


def _anchor_entry(a: Any) -> dict[str, Any]:
    return {"ii": a.ii, "status": a.status, "s": round(a.cpu, 4), "wall_s": round(a.seconds, 4),
            "probes": a.probes, "message": a.message}


def _fmt(e: dict[str, Any] | None, total: bool = False) -> str:
    if e is None:
        return f"{'-':>6} {'-':>9} {'-':>7}" + (f" {'-':>7}" if total else "")
    line = f"{e['ii']:>6} {e['status']:>9} {e['s']:>7.3f}"
    if total:
        line += f" {e['total_s']:>7.3f}"
    return line


def run_benchmark(
    problems: Sequence[tuple[str, LoopProblem]],
    *,
    anchor: Any = None,
    bisect: bool = False,
    out: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """Solve every named problem with ours and (when `anchor` is an `anchor.Anchor`)
    the real anchor in both modes; print a table; return the rows.

    Seconds are CPU seconds of the solving process (ours in this process, the
    anchor in its worker): the machine is shared, CPU time is what the solver
    itself costs.  Wall seconds are in the rows (JSON) as well.
    """
    rows: list[dict[str, Any]] = []
    cell = f"{'II':>6} {'status':>9} {'s':>7}"
    head = (f"{'loop':<24} {'tasks':>5} {'MII':>6} | {cell} {'total':>7} | {cell} | {cell} | {'speedup':>8}")
    out(f"{'':<37} | {'ours (II proven / with bytes+len)':^32} | {'anchor default':^24} |"
        f" {'anchor enable_offset':^24} |")
    out(head)
    out("-" * len(head))
    for name, p in problems:
        mii = compute_mii(p).mii
        ours = _ours(p)
        default = offset = None
        if anchor is not None:
            default = _anchor_entry(anchor.solve(p, False, mii))
            offset = _anchor_entry(anchor.solve(p, True, mii))
        row: dict[str, Any] = {"loop": name, "tasks": len(p.tasks), "mii": mii, "ours": ours,
                               "anchor_default": default, "anchor_offset": offset}
        speed = ""
        if default is not None and default["s"] > 0:
            row["speedup"] = round(default["s"] / max(ours["s"], 1e-4), 2)
            speed = f"{row['speedup']:>7.1f}x"
        out(f"{name:<24} {len(p.tasks):>5} {mii:>6} | {_fmt(ours, True)} | {_fmt(default)} | {_fmt(offset)} | {speed:>8}")
        if bisect:
            b, _, b_cpu = _timed(p, search="bisect", optimize_secondary=False)
            row["bisect"] = {"ii": b.ii, "status": b.status, "s": round(b_cpu, 4)}
            row["bisect_ratio"] = round(b_cpu / max(ours["s"], 1e-4), 2)
            out(f"{'':<24} {'':>5} {'':>6}   search=bisect (the anchor's strategy, in-process): "
                f"{_fmt(row['bisect'])} | {row['bisect_ratio']:.1f}x ours' CPU s")
        rows.append(row)
    out("-" * len(head))
    _summary(rows, out)
    return rows


def _geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def _summary(rows: list[dict[str, Any]], out: Callable[[str], None]) -> None:
    out("speedup = anchor default CPU s / ours CPU s to a proven II (geometric means below)")
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        key = (f"{r['tasks']} tasks" if r["loop"].startswith("gen")
               else "wide" if r["loop"].startswith(("tight", "chains")) else "other")
        groups.setdefault(key, []).append(r)
    groups["all"] = rows
    for key, rs in groups.items():
        line = (f"  {key:<9} loops {len(rs):>2} | optimal ours {sum(r['ours']['status'] == 'optimal' for r in rs)}"
                f"/{len(rs)} | ours max {max(r['ours']['s'] for r in rs):6.3f} s"
                f" (total max {max(r['ours']['total_s'] for r in rs):6.3f} s)")
        with_anchor = [r for r in rs if r["anchor_default"] is not None and r["anchor_default"]["status"] != "n/a"]
        if with_anchor:
            above = sum(r["ours"]["ii"] > min(r["anchor_default"]["ii"], r["anchor_offset"]["ii"])
                        for r in with_anchor)
            below = sum(r["ours"]["ii"] < r["anchor_default"]["ii"] for r in with_anchor)
            below_off = sum(r["ours"]["ii"] < r["anchor_offset"]["ii"] for r in with_anchor)
            line += (f" | II above anchor {above}, below default {below}, below offset {below_off}"
                     f" | speedup {_geomean([r['speedup'] for r in with_anchor if 'speedup' in r]):6.1f}x"
                     f" (vs offset {_geomean([r['anchor_offset']['s'] / max(r['ours']['s'], 1e-4) for r in with_anchor]):6.1f}x)")
        out(line)


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
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--sizes", default="8,16,32,64", help="task counts of the generated family")
    ap.add_argument("--seeds", default="0,1,2,3", help="generator seeds per size")
    ap.add_argument("--no-generated", action="store_true", help="only hand-built and --mlir loops")
    ap.add_argument("--mlir", nargs="*", default=None,
                    help="kernel files whose loops to add (default: examples/*.mlir and kernels/*.mlir)")
    ap.add_argument("--no-wide", action="store_true",
                    help="leave out the wide loops of issue 18 (chains.wide_family: tight 64-task loops, 4/8/16 chains)")
    ap.add_argument("--no-anchor", action="store_true", help="ours only (no TileLang anchor)")
    ap.add_argument("--bisect", action="store_true",
                    help="also run our search=bisect (the anchor's bisection, in-process) on every loop")
    ap.add_argument("--untuned", action="store_true",
                    help="add shapes nothing was tuned to (chains.untuned_family: 96-task mixed-pipe loops, 12/24 chains)")
    ap.add_argument("--only-wide", action="store_true", help="only the wide loops (implies --no-generated)")
    ap.add_argument("--json", metavar="OUT", help="write rows and environment as JSON")
    args = ap.parse_args(argv)
    problems = [] if args.only_wide else hand_built()
    mlir = [] if args.only_wide else args.mlir
    if mlir is None:
        here = os.path.dirname(os.path.abspath(__file__))
        mlir = sorted(glob.glob(os.path.join(here, "..", "..", "examples", "*.mlir")))
        mlir += sorted(glob.glob(os.path.join(here, "kernels", "*.mlir")))
    if mlir:
        problems += _mlir_problems(mlir)
    if not args.no_generated and not args.only_wide:
        sizes = tuple(int(s) for s in args.sizes.split(",") if s)
        seeds = tuple(int(s) for s in args.seeds.split(",") if s)
        problems += generated_family(sizes, seeds)
    if not args.no_wide:
        from chains import wide_family

        problems += wide_family()
    if args.untuned:
        from chains import untuned_family

        problems += untuned_family()
    anchor = None
    if not args.no_anchor:
        from anchor import Anchor, AnchorUnavailable

        anchor = Anchor()
        try:
            anchor.start()
            print(f"anchor: TileLang 0.1.15 z3_scheduler.py (z3 {anchor.z3_version}) from {anchor.cache}")
        except AnchorUnavailable as e:
            print(f"anchor skipped: {e}")
            anchor = None
    t0 = time.perf_counter()
    try:
        rows = run_benchmark(problems, anchor=anchor, bisect=args.bisect, out=lambda s: print(s, flush=True))
    finally:
        if anchor is not None:
            anchor.close()
    total = time.perf_counter() - t0
    print(f"total {total:.1f} s")
    if args.json:
        import z3

        with open(args.json, "w") as f:
            json.dump({"rows": rows, "total_s": round(total, 2), "python": platform.python_version(),
                       "z3": z3.get_version_string(), "anchor_z3": anchor.z3_version if anchor else None,
                       "cpus": os.cpu_count()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
