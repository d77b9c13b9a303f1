#!/usr/bin/env python3
"""The modulo-schedule pass at scale, measured through `ascend-opt` as a user runs it.

    python bench/scheduler/pass_scaling.py                  # 32, 64, 128 tile ops
    python bench/scheduler/pass_scaling.py --sizes 32 --keep /tmp/chains

For each size N, a kernel whose loop body is a chain of N tile ops (a GM load, N-2
vector ops over a ring of 16 UB tiles, each reading the previous one or two results,
a GM store) goes through
`ascend-opt -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule`
in a subprocess; the table gives wall seconds, peak RSS of that process, and the
loop's II / MII / status from the output IR.  Also compares the start-up of
`ascend-opt` with stock `xdsl-opt` on an empty module (best of 5 each).
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
    """A loop of n tile ops: copy in, n - 2 vector ops on a ring of UB tiles, copy out."""
    ub = f"memref<{TILE}, {UB}>"
    gm_tile = f"memref<{TILE}, strided<[64, 1], offset: ?>, {GM}>"
    lines = [
        "module {",
        f"  func.func @chain(%x: memref<32x64xf32, {GM}>, %y: memref<32x64xf32, {GM}>)"
        " attributes {tile.kernel, tile.grid = 1 : i64} {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c4 = arith.constant 4 : index",
        "    %c8 = arith.constant 8 : index",
    ]
    lines += [f"    %t{j} = memref.alloc() : {ub}" for j in range(RING)]
    lines += [
        "    scf.for %i = %c0 to %c4 step %c1 {",
        "      %row = arith.muli %i, %c8 : index",
        f"      %xs = memref.subview %x[%row, 0] [8, 64] [1, 1] : memref<32x64xf32, {GM}> to {gm_tile}",
        f"      %ys = memref.subview %y[%row, 0] [8, 64] [1, 1] : memref<32x64xf32, {GM}> to {gm_tile}",
        f"      tile.copy ins(%xs : {gm_tile}) outs(%t0 : {ub})",
    ]
    unary = ["exp", "relu", "abs", "sqrt"]
    binary = ["add", "mul", "max", "sub"]
    for k in range(1, n - 1):
        dst, a, b = f"%t{k % RING}", f"%t{(k - 1) % RING}", f"%t{max(0, k - 2) % RING}"
        if k % 3 == 0:
            op = binary[(k // 3) % len(binary)]
            lines.append(f"      tile.{op} ins({a}, {b} : {ub}, {ub}) outs({dst} : {ub})")
        else:
            op = unary[k % len(unary)]
            lines.append(f"      tile.{op} ins({a} : {ub}) outs({dst} : {ub})")
    lines += [
        f"      tile.copy ins(%t{(n - 2) % RING} : {ub}) outs(%ys : {gm_tile})",
        "    } {tile.num_stages = 2 : i64}",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _run(cmd: list[str]) -> tuple[subprocess.CompletedProcess[str], float, int]:
    """Result, wall seconds and peak RSS (MB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the max over all children so far: only a new
    # maximum is attributable to this child (sizes run in increasing order)
    return r, wall, max(peak, before) // 1024


def _loop_attrs(text: str) -> dict[str, str]:
    """II, MII and status of the (one) scheduled loop, from the line that carries them."""
    line = next((ln for ln in text.splitlines() if "mii" in ln), "")
    out = {}
    for key in ("ii", "mii", "status"):
        m = re.search(r"\b" + key + r'\s*=\s*"?(\w+)', line)
        out[key] = m.group(1) if m else "?"
    return out


def startup(repeat: int = 5) -> tuple[float, float]:
    """Best-of wall seconds of `ascend-opt` and `xdsl-opt` on an empty module."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("builtin.module {}\n")
        path = f.name
    best = {}
    for tool in ("ascend-opt", "xdsl-opt"):
        times = []
        for _ in range(repeat):
            r, wall, _ = _run([tool, path])
            if r.returncode != 0:
                raise SystemExit(f"{tool} failed: {r.stderr}")
            times.append(wall)
        best[tool] = min(times)
    os.unlink(path)
    return best["ascend-opt"], best["xdsl-opt"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="32,64,128")
    ap.add_argument("--keep", metavar="DIR", help="write the generated kernels there")
    ap.add_argument("--options", default="", help="options of ascend-modulo-schedule, e.g. 'ii-only=true'")
    args = ap.parse_args(argv)
    pipeline = PIPELINE + (f"{{{args.options}}}" if args.options else "")
    print(f"{'tile ops':>8} {'tasks':>5} {'II':>6} {'MII':>6} {'status':>9} {'wall s':>7} {'peak MB':>8}")
    for n in (int(s) for s in args.sizes.split(",") if s):
        text = chain_kernel(n)
        directory = args.keep or tempfile.mkdtemp()
        path = os.path.join(directory, f"chain{n}.mlir")
        with open(path, "w") as f:
            f.write(text)
        r, wall, peak = _run(["ascend-opt", "-p", pipeline, path])
        if r.returncode != 0:
            print(f"{n:>8} failed: {r.stderr.strip()[:300]}")
            continue
        attrs = _loop_attrs(r.stdout)
        tasks = r.stdout.count("stage") - 1  # every task carries a stage, so does the loop
        print(f"{n:>8} {tasks:>5} {attrs['ii']:>6} {attrs['mii']:>6} {attrs['status']:>9} {wall:>7.2f} {peak:>8}",
              flush=True)
        if r.stderr.strip():
            print("         " + r.stderr.strip().splitlines()[0][:160])
    ours, stock = startup()
    print(f"start-up: ascend-opt {ours:.3f} s, xdsl-opt {stock:.3f} s ({ours / stock:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
