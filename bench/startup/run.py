"""Start-up of `ascend-opt` against stock `xdsl-opt` on a tiny file (issue 22 item 2).

Both tools parse and print the same one-function module; the figure is the CPU time
(user + system) of the child process, the least of N runs, because wall time on a shared
2-core machine measures the neighbours. `python bench/startup/run.py [N]` prints both and
their ratio and writes bench/startup/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TINY = """\
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}
"""


def cpu_seconds(argv: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description="ascend-opt start-up against xdsl-opt on a tiny file "
                                     "(least CPU seconds of N interleaved runs; writes results.json)")
    parser.add_argument("runs", nargs="?", type=int, default=9, help="runs of each tool (default 9)")
    runs = parser.parse_args().runs
    if runs < 1:
        parser.error("runs must be at least 1")
    tools = {name: shutil.which(name) for name in ("ascend-opt", "xdsl-opt")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        print(f"not on PATH: {', '.join(missing)}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        tiny = Path(tmp) / "tiny.mlir"
        tiny.write_text(TINY)
        times = {}
        for _ in range(runs):  # interleaved, so both see the same load
            for name, path in tools.items():
                spent = cpu_seconds([str(path), str(tiny)])
                times[name] = min(times.get(name, spent), spent)
    ratio = times["ascend-opt"] / times["xdsl-opt"]
    for name, spent in times.items():
        print(f"{name}: {spent:.3f} s CPU (least of {runs})")
    print(f"ratio ascend-opt / xdsl-opt: {ratio:.2f}")
    result = {"runs": runs, "cpu_seconds": {k: round(v, 3) for k, v in times.items()},
              "ratio": round(ratio, 2), "cores": os.cpu_count()}
    Path(__file__).with_name("results.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
