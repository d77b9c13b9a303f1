"""The real anchor: TileLang 0.1.15's Z3 loop scheduler, run as shipped.

`Anchor.setup()` fetches the wheel with `pip download --no-deps tilelang==0.1.15`,
extracts `tilelang/ascend/transform/z3_scheduler.py` (the package `__init__` imports
torch, so the file is loaded by path) and creates a small venv with the anchor's pins
(z3-solver < 4.15.5, apache-tvm-ffi 0.1.12).  Nothing of TileLang is copied into this
repository: everything lives in a cache directory (`$ASCEND_MLIR_ANCHOR_DIR`, default
`~/.cache/ascend-mlir/tilelang-0.1.15`).  Our package uses a newer z3 in the main
environment, so the anchor runs in a subprocess of the venv's python
(`anchor_worker.py`), which times each call itself.

`anchor_args(problem, enable_offset)` translates a `LoopProblem` into the keyword
arguments of `z3_schedule_loop_python`: pipes as bits (MTE1=1, MTE2=2, MTE3=4,
Cube=8, Vector=16, Fixpipe=32, Scalar=64), `(src, dst, distance, latency)` with
`-(b+1)` for "the version count of buffer b", resource pairs = same-pipe pairs plus
the problem's conflicts, memory groups `[capacity, buffer indices...]` per scope.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from typing import Any

from ascend_mlir.scheduling import LoopProblem, check_schedule

TILELANG = "tilelang==0.1.15"
ANCHOR_FILE = "tilelang/ascend/transform/z3_scheduler.py"
PINS = ("z3-solver<4.15.5", "apache-tvm-ffi==0.1.12")
PIPE_BITS = {"MTE1": 1, "MTE2": 2, "MTE3": 4, "M": 8, "V": 16, "FIX": 32, "S": 64}
WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "anchor_worker.py")


class AnchorUnavailable(Exception):
    """The anchor cannot be installed here (no network, no wheel, ...)."""


def anchor_args(p: LoopProblem, enable_offset: bool) -> dict[str, Any]:
    """Keyword arguments of the anchor's `z3_schedule_loop_python` for one problem."""
    bufidx = {b.name: j for j, b in enumerate(p.buffers)}
    data_deps = []
    for d in p.deps:
        if d.buffer is None:
            data_deps.append([d.src, d.dst, d.distance, d.latency])
        elif d.distance == 0:
            data_deps.append([d.src, d.dst, -(bufidx[d.buffer] + 1), d.latency])
        else:
            raise ValueError("the anchor cannot express 'versions + constant' distances")
    if any(b.max_versions is not None for b in p.buffers):
        raise ValueError("the anchor has no per-buffer version limit")
    groups: dict[str, list[int]] = {}
    for j, b in enumerate(p.buffers):
        if b.scope in p.capacity:
            groups.setdefault(b.scope, []).append(j)
    flags = []
    for t in p.tasks:
        bits = 0
        for pipe in t.pipes:
            bits |= PIPE_BITS[pipe]
        flags.append(bits)
    return {
        "num_stages": p.num_stages,
        "latencies": [t.latency for t in p.tasks],
        "iis": [t.ii for t in p.tasks],
        "resource_flags": flags,
        "data_deps": data_deps,
        "resource_deps": [list(pr) for pr in p.resource_pairs()],
        "owner_exclusion_deps": [],
        "pipe_order_deps": [],
        "buffer_sizes": [b.size for b in p.buffers],
        "memory_groups": [[p.capacity[s]] + js for s, js in sorted(groups.items())],
        "enable_offset": enable_offset,
    }


@dataclass
class AnchorResult:
    ii: int
    status: str        # optimal / feasible / fallback / invalid / error / n/a
    seconds: float
    cpu: float
    probes: int
    message: str


def _classify(p: LoopProblem, answer: dict[str, Any], mii: int) -> AnchorResult:
    """Status of one anchor answer, judged by our checker.

    The anchor bisects II with one fresh solver per probe and reads `unknown` as
    infeasible; feasibility is monotone in II in both of its modes, so its II is
    proven minimal (for its own model) exactly when no probe returned unknown.
    It signals the sequential fallback only by returning no model: we detect it
    by II = sum of latencies with no sat probe.
    """
    if "error" in answer:
        return AnchorResult(0, "error", 0.0, 0.0, 0, answer["error"])
    ii, start = answer["ii"], answer["start"]
    checks = answer["checks"]
    versions = {b.name: max(1, v) for b, v in zip(p.buffers, answer["versions"], strict=False)}
    errors = check_schedule(p, ii, start, versions)
    if "sat" not in checks:
        status = "fallback"
    elif errors:
        status = "invalid"
    elif "unknown" in checks and ii != mii:
        status = "feasible"
    else:
        status = "optimal"
    message = "; ".join(errors[:2])
    return AnchorResult(ii, status, answer["seconds"], answer["cpu"], len(checks), message)


class Anchor:
    """A running anchor worker; `solve(problem, enable_offset)` -> AnchorResult."""

    def __init__(self, cache: str | None = None):
        self.cache = cache or os.environ.get("ASCEND_MLIR_ANCHOR_DIR") or os.path.join(
            os.path.expanduser("~"), ".cache", "ascend-mlir", "tilelang-0.1.15")
        self.python = os.path.join(self.cache, "venv", "bin", "python")
        self.source = os.path.join(self.cache, "z3_scheduler.py")
        self.proc: subprocess.Popen[str] | None = None
        self.z3_version = ""

    # ----- installation ------------------------------------------------------------
    def _run(self, cmd: list[str], what: str) -> None:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            tail = (r.stderr or r.stdout).strip().splitlines()[-3:]
            raise AnchorUnavailable(f"{what} failed: {' | '.join(tail)}")

    def setup(self) -> None:
        os.makedirs(self.cache, exist_ok=True)
        if not os.path.exists(self.source):
            wheels = os.path.join(self.cache, "wheel")
            self._run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", TILELANG,
                       "-d", wheels], f"pip download {TILELANG}")
            names = [f for f in os.listdir(wheels) if f.endswith(".whl")]
            if not names:
                raise AnchorUnavailable(f"pip download {TILELANG} produced no wheel")
            with zipfile.ZipFile(os.path.join(wheels, names[0])) as z:
                try:
                    data = z.read(ANCHOR_FILE)
                except KeyError:
                    raise AnchorUnavailable(f"{names[0]} has no {ANCHOR_FILE}") from None
            with open(self.source + ".tmp", "wb") as f:
                f.write(data)
            os.replace(self.source + ".tmp", self.source)
        if not os.path.exists(self.python):
            venv = os.path.dirname(os.path.dirname(self.python))
            self._run([sys.executable, "-m", "venv", venv], "python -m venv")
            self._run([self.python, "-m", "pip", "install", "-q", *PINS], f"pip install {' '.join(PINS)}")

    def start(self) -> None:
        self.setup()
        self.proc = subprocess.Popen([self.python, WORKER, self.source], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        ready = self._read()
        self.z3_version = ready.get("ready", "?")

    def _read(self) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise AnchorUnavailable("the anchor worker exited")
        return json.loads(line)

    def solve(self, p: LoopProblem, enable_offset: bool, mii: int) -> AnchorResult:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            args = anchor_args(p, enable_offset)
        except ValueError as e:
            return AnchorResult(0, "n/a", 0.0, 0.0, 0, str(e))
        self.proc.stdin.write(json.dumps({"args": args}) + "\n")
        self.proc.stdin.flush()
        return _classify(p, self._read(), mii)

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None
