"""Parse speed of large files (issue 23): a generated file of many small kernels (never
in git), parsed by `ascend-opt` and by xDSL's own `xdsl-opt`, and where our time goes.

    python bench/safety/parse_speed.py [--mb 20] [--json OUT] [--keep FILE] [--no-phases]

Two files of the same size: `hivm` (small hivm kernels: allocs, load, vadd, store,
set/wait flags: what ascend-opt reads) and `core` (the same kernels in func/arith/memref
only, which stock xdsl-opt parses too). Rows: each tool as a subprocess printing to
/dev/null (wall and CPU seconds and maximum resident memory of the child, KB/s), then in process the phases of
ascend-opt: xDSL's Parser alone, our LocatedParser (locations on every op), the
verifier (verify_module: every op, then the hardware checks), and the printer."""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HIVM_KERNEL = """\
  func.func @k{i}(%x: memref<256xf32, #hivm.address_space<gm>>, %y: memref<256xf32, #hivm.address_space<gm>>,
                 %z: memref<256xf32, #hivm.address_space<gm>>) attributes {{hacc.entry}} {{
    %a = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    %b = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    %c = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%a : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%y : memref<256xf32, #hivm.address_space<gm>>) outs(%b : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vadd ins(%a, %b : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%c : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%c : memref<256xf32, #hivm.address_space<ub>>) outs(%z : memref<256xf32, #hivm.address_space<gm>>)
    return
  }}
"""

CORE_KERNEL = """\
  func.func @k{i}(%x: memref<256xf32>, %y: memref<256xf32>, %z: memref<256xf32>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 256 : index
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    %c = memref.alloc() : memref<256xf32>
    "memref.copy"(%x, %a) : (memref<256xf32>, memref<256xf32>) -> ()
    "memref.copy"(%y, %b) : (memref<256xf32>, memref<256xf32>) -> ()
    %v = memref.load %a[%c0] : memref<256xf32>
    %w = memref.load %b[%c0] : memref<256xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %c[%c0] : memref<256xf32>
    "memref.copy"(%c, %z) : (memref<256xf32>, memref<256xf32>) -> ()
    return
  }}
"""


def generate(kernel: str, nbytes: int) -> str:
    parts, size, i = ["builtin.module {\n"], 0, 0
    while size < nbytes:
        text = kernel.format(i=i)
        parts.append(text)
        size += len(text)
        i += 1
    parts.append("}\n")
    return "".join(parts)


def _child(cmd: list[str]) -> tuple[float, float, int, float]:
    """(wall s, CPU s of the child, exit status, max RSS of the child in MB) of a
    command writing to /dev/null (os.wait4: this child's own usage, not the maximum
    over every child so far)."""
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        child = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, child.returncode, usage.ru_maxrss / 1024


def _in_process(text: str, name: str) -> dict[str, float]:
    """CPU seconds of ascend-opt's phases on `text`."""
    from xdsl.parser import Parser
    from xdsl.printer import Printer

    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module, verify_module

    ctx = make_context()
    phases: dict[str, float] = {}
    start = time.process_time()
    Parser(ctx, text, name).parse_module()
    phases["xdsl_parser"] = time.process_time() - start
    start = time.process_time()
    module = parse_module(ctx, text, name)
    phases["located_parser"] = time.process_time() - start
    start = time.process_time()
    problems = verify_module(module)
    phases["verify_module"] = time.process_time() - start
    assert not problems, problems[0].render()
    start = time.process_time()
    Printer(stream=io.StringIO()).print_op(module)
    phases["print"] = time.process_time() - start
    return phases


def measure(mb: float, keep: str | None, phases: bool = True) -> list[dict]:
    rows = []
    ascend_opt = [sys.executable, "-m", "ascend_mlir.tools.ascend_opt"]
    xdsl_opt = shutil.which("xdsl-opt")
    with tempfile.TemporaryDirectory() as tmp:
        for kind, kernel in (("hivm", HIVM_KERNEL), ("core", CORE_KERNEL)):
            text = generate(kernel, int(mb * 1e6))
            path = Path(keep.replace(".mlir", f".{kind}.mlir")) if keep else Path(tmp) / f"{kind}.mlir"
            path.write_text(text)
            kb = len(text) / 1000
            tools = [("ascend-opt", [*ascend_opt, str(path)])]
            if kind == "core" and xdsl_opt is not None:
                tools.append(("xdsl-opt", [xdsl_opt, str(path)]))
            for tool, cmd in tools:
                wall, cpu, status, rss = _child(cmd)
                rows.append({"file": kind, "kb": round(kb), "tool": tool, "status": status, "wall_s": round(wall, 2),
                             "cpu_s": round(cpu, 2), "kb_per_cpu_s": round(kb / cpu) if cpu else None,
                             "max_rss_mb": round(rss)})
            if not phases:
                continue
            times = _in_process(text, str(path))
            rows.append({"file": kind, "kb": round(kb), "tool": "ascend-opt phases (in process, CPU s)",
                         **{k: round(v, 2) for k, v in times.items()}})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description="parse speed of large files: ascend-opt vs xdsl-opt")
    parser.add_argument("--mb", type=float, default=20.0, help="size of each generated file in MB (default 20)")
    parser.add_argument("--json")
    parser.add_argument("--no-phases", action="store_true",
                        help="only the two tools as processes (the in-process phases parse each file three more times)")
    parser.add_argument("--keep", help="write the generated files next to this path (FILE.hivm.mlir, FILE.core.mlir)")
    args = parser.parse_args()
    rows = measure(args.mb, args.keep, phases=not args.no_phases)
    for row in rows:
        print(json.dumps(row))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
