"""The tools' progress line (issue 22 item 2): nothing before DELAY_SECONDS, rewritten in
place on a terminal and erased at the end, one line every LOG_INTERVAL seconds into a
log when asked, never with --quiet; ascend-sim reports simulated blocks and perturbed
runs, and its stdout stays exactly what it is without the line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ascend_mlir import progress
from ascend_mlir.progress import Progress, mode_of
from ascend_mlir.tools import ascend_sim

ROOT = Path(__file__).resolve().parents[2]
GEMM = str(ROOT / "examples" / "gemm.mlir")


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_nothing_is_shown_before_the_delay_then_a_log_line_every_interval():
    clock, log = _Clock(), io.StringIO()
    line = Progress("tool", mode="on", stream=log, clock=clock)
    line.update("step 1/3")
    assert log.getvalue() == ""
    clock.now += progress.DELAY_SECONDS
    line.update("step 2/3")
    clock.now += progress.LOG_INTERVAL / 2
    line.update("step 3/3")  # too soon after the last line
    clock.now += progress.LOG_INTERVAL
    line.update("step 3/3, finishing")
    line.close()
    assert log.getvalue().splitlines() == ["[tool] step 2/3, elapsed 0:02", "[tool] step 3/3, finishing, elapsed 0:09"]


def test_terminal_line_is_rewritten_in_place_and_erased():
    clock, term = _Clock(), _Terminal()
    line = Progress("tool", stream=term, clock=clock)  # auto: a terminal shows it
    clock.now += 3
    line.update("block 1/32")
    clock.now += 1
    line.update("block 2/32")
    line.close()
    text = term.getvalue()
    assert text.startswith("\r[tool] block 1/32, elapsed 0:03\r[tool] block 2/32, elapsed 0:04")
    assert text.endswith("\r" + " " * len("[tool] block 2/32, elapsed 0:04") + "\r")
    assert "\n" not in text


@pytest.mark.parametrize(("stream", "mode"), [(io.StringIO(), "auto"), (_Terminal(), "off")])
def test_off_when_not_a_terminal_unless_asked_and_with_quiet(stream, mode):
    clock = _Clock()
    line = Progress("tool", mode=mode, stream=stream, clock=clock)
    clock.now += 60
    line.update("block 1/2")
    line.close()
    assert stream.getvalue() == ""


def test_quiet_wins_over_progress():
    assert mode_of(progress=True, quiet=True) == "off"
    assert mode_of(progress=True, quiet=False) == "on"
    assert mode_of(progress=False, quiet=False) == "auto"


def test_phase_keeps_the_elapsed_time_moving(monkeypatch):
    monkeypatch.setattr(progress, "DELAY_SECONDS", 0.0)
    monkeypatch.setattr(progress, "TTY_INTERVAL", 0.01)
    import time

    term = _Terminal()
    line = Progress("tool", stream=term)
    with line.phase("building"):
        deadline = time.monotonic() + 5
        while term.getvalue().count("[tool] building") < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    line.close()
    assert term.getvalue().count("[tool] building") >= 2


def test_ascend_sim_reports_blocks_and_perturbed_runs(monkeypatch, capsys):
    monkeypatch.setattr(progress, "DELAY_SECONDS", 0.0)
    monkeypatch.setattr(progress, "LOG_INTERVAL", 0.0)
    assert ascend_sim.main([GEMM, "--perturb", "1", "--progress"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert "[ascend-sim] simulating block 2/2, elapsed" in "\n".join(lines)
    assert any(x.startswith("[ascend-sim] simulating block 1/2 (perturbed run 1/1)") for x in lines), lines
    assert any(x.startswith("[ascend-sim] compiling (ascend-compile)") for x in lines), lines
    assert "[ascend-sim]" not in captured.out
    assert ascend_sim.main([GEMM, "--perturb", "1", "--progress", "--quiet"]) == 0
    quiet = capsys.readouterr()
    assert "[ascend-sim]" not in quiet.err and quiet.out == captured.out
    assert ascend_sim.main([GEMM, "--perturb", "1"]) == 0  # stderr is not a terminal here
    assert "[ascend-sim]" not in capsys.readouterr().err
