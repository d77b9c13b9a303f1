#!/usr/bin/env python3
"""The modulo-schedule pass at scale, measured through `ascend-opt` as a user runs it.

    python bench/scheduler/pass_scaling.py                  # 32, 64, 128 tile ops
    python bench/scheduler/pass_scaling.py --sizes 32 --keep /tmp/chains

For each size N, a kernel whose loop body is a chain of N tile ops over a ring of 16
UB tiles (every fourth op a GM load, every fourth a GM store, the others vector ops
on the latest results) goes through
`ascend-opt -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule`
in a subprocess; the table gives its CPU and wall seconds (the machine is shared:
CPU seconds are what the tool itself costs), peak RSS, and the loop's II / MII /
status from the output IR.  Also compares the start-up of `ascend-opt` with stock
`xdsl-opt` on an empty module (CPU seconds, best of 5 each).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

PIPELINE = "convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule"
RING = 16
UB = "#hivm.address_space<ub>"
GM = "#hivm.address_space<gm>"
TILE = "8x64xf32"


def chain_kernel(n: int) -> str:
    """A loop of n tile ops over a ring of UB tiles: every fourth op loads a new GM
    tile (MTE2), every fourth stores one (MTE3, sharing the HBM port with the loads),
    the others are vector ops on the one or two latest results."""
    ub = f"memref<{TILE}, {UB}>"
    cols = 64 * n
    gm = f"memref<32x{cols}xf32, {GM}>"
    gm_tile = f"memref<{TILE}, strided<[{cols}, 1], offset: ?>, {GM}>"
    lines = [
        "module {",
        f"  func.func @chain(%x: {gm}, %y: {gm}) attributes {{tile.kernel, tile.grid = 1 : i64}} {{",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c4 = arith.constant 4 : index",
        "    %c8 = arith.constant 8 : index",
    ]
    lines += [f"    %t{j} = memref.alloc() : {ub}" for j in range(RING)]
    lines += [
        "    scf.for %i = %c0 to %c4 step %c1 {",
        "      %row = arith.muli %i, %c8 : index",
    ]
    unary = ["exp", "relu", "abs", "sqrt"]
    binary = ["add", "mul", "max", "sub"]
    last = [0, 0]  # ring slots of the two latest results
    for k in range(n):
        dst = f"%t{k % RING}"
        a, b = f"%t{last[0]}", f"%t{last[1]}"
        if k % 4 == 0 or k == n - 1:
            view = f"%{'x' if k % 4 == 0 else 'y'}{k}"
            base = "%x" if k % 4 == 0 else "%y"
            lines.append(f"      {view} = memref.subview {base}[%row, {64 * k}] [8, 64] [1, 1] : {gm} to {gm_tile}")
            if k % 4 == 0:
                lines.append(f"      tile.copy ins({view} : {gm_tile}) outs({dst} : {ub})")
            else:
                lines.append(f"      tile.copy ins({a} : {ub}) outs({view} : {gm_tile})")
                continue
        elif k % 4 == 3:
            view = f"%y{k}"
            lines.append(f"      {view} = memref.subview %y[%row, {64 * k}] [8, 64] [1, 1] : {gm} to {gm_tile}")
            lines.append(f"      tile.copy ins({a} : {ub}) outs({view} : {gm_tile})")
            continue
        elif k % 4 == 2:
            lines.append(f"      tile.{binary[(k // 4) % 4]} ins({a}, {b} : {ub}, {ub}) outs({dst} : {ub})")
        else:
            lines.append(f"      tile.{unary[(k // 4) % 4]} ins({a} : {ub}) outs({dst} : {ub})")
        last = [k % RING, last[0]]
    lines += [
        "    } {tile.num_stages = 2 : i64}",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _run(cmd: list[str]) -> tuple[subprocess.CompletedProcess[str], float, float, int]:
    """Result, wall seconds, CPU seconds and peak RSS (MB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    # ru_maxrss of children is the max over all children so far: sizes run in
    # increasing order, so the last (largest) kernel's peak is the one reported
    return r, wall, cpu, after.ru_maxrss // 1024


def _loop_attrs(text: str) -> dict[str, str]:
    """II, MII and status of the (one) scheduled loop, from the line that carries them."""
    line = next((ln for ln in text.splitlines() if "mii" in ln), "")
    out = {}
    for key in ("ii", "mii", "status"):
        m = re.search(r"\b" + key + r'\s*=\s*"?(\w+)', line)
        out[key] = m.group(1) if m else "?"
    return out


def startup(repeat: int = 5) -> tuple[float, float]:
    """Best-of CPU seconds of `ascend-opt` and `xdsl-opt` on an empty module."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("builtin.module {}\n")
        path = f.name
    best = {}
    for tool in ("ascend-opt", "xdsl-opt"):
        times = []
        for _ in range(repeat):
            r, _, cpu, _ = _run([tool, path])
            if r.returncode != 0:
                raise SystemExit(f"{tool} failed: {r.stderr}")
            times.append(cpu)
        best[tool] = min(times)
    os.unlink(path)
    return best["ascend-opt"], best["xdsl-opt"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--sizes", default="32,64,128")
    ap.add_argument("--keep", metavar="DIR", help="write the generated kernels there")
    ap.add_argument("--options", default="", help="options of ascend-modulo-schedule, e.g. 'ii-only=true'")
    args = ap.parse_args(argv)
    pipeline = PIPELINE + (f"{{{args.options}}}" if args.options else "")
    print(f"{'tile ops':>8} {'tasks':>5} {'II':>6} {'MII':>6} {'status':>9} {'cpu s':>7} {'wall s':>7} {'peak MB':>8}")
    for n in (int(s) for s in args.sizes.split(",") if s):
        text = chain_kernel(n)
        directory = args.keep or tempfile.mkdtemp()
        path = os.path.join(directory, f"chain{n}.mlir")
        with open(path, "w") as f:
            f.write(text)
        r, wall, cpu, peak = _run(["ascend-opt", "-p", pipeline, path])
        if r.returncode != 0:
            print(f"{n:>8} failed: {r.stderr.strip()[:300]}")
            continue
        attrs = _loop_attrs(r.stdout)
        tasks = r.stdout.count("stage") - 1  # every task carries a stage, so does the loop
        print(f"{n:>8} {tasks:>5} {attrs['ii']:>6} {attrs['mii']:>6} {attrs['status']:>9} {cpu:>7.2f} {wall:>7.2f} {peak:>8}",
              flush=True)
        if r.stderr.strip():
            print("         " + r.stderr.strip().splitlines()[0][:160])
    ours, stock = startup()
    print(f"start-up (CPU s, best of 5): ascend-opt {ours:.3f}, xdsl-opt {stock:.3f} ({ours / stock:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
