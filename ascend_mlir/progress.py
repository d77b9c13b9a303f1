"""The progress line of the command-line tools (issue 22): `[ascend-sim] block 12/32 of
run 2/4, elapsed 0:07` on stderr, for anything that runs longer than `DELAY_SECONDS`.

On a terminal the line is rewritten in place (at most every `TTY_INTERVAL` seconds) and
erased when the work is done, so the results print on a clean screen; into a file or a
pipe it is written only when asked (`--progress`), one line every `LOG_INTERVAL`
seconds. `--quiet` turns it off. Nothing is written before `DELAY_SECONDS`, so a quick
run prints exactly what it printed without the line, and stdout never gets it.

A step that reports no progress of its own (a g++ build, a solver) runs inside
`phase(text)`: a timer thread keeps the elapsed time moving while it runs.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY_SECONDS = 2.0
TTY_INTERVAL = 0.2
LOG_INTERVAL = 5.0

MODES = ("auto", "on", "off")


def mode_of(progress: bool, quiet: bool) -> str:
    """The mode of a tool's `--progress` / `--quiet` options (`--quiet` wins)."""
    return "off" if quiet else "on" if progress else "auto"


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or minimal stream
        return False


class Progress:
    """One tool's progress line. `mode`: "auto" (only on a terminal), "on", "off"."""

    def __init__(self, tool: str, mode: str = "auto", stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic):
        if mode not in MODES:
            raise ValueError(f"progress mode {mode!r} is not one of {', '.join(MODES)}")
        self.stream = stream if stream is not None else sys.stderr
        self.tty = _isatty(self.stream)
        self.enabled = mode == "on" or (mode == "auto" and self.tty)
        self.tool = tool
        self.clock = clock
        self.start = clock()
        self.text = ""
        self._shown_at: float | None = None
        self._width = 0  # of the line now on the terminal
        self._lock = threading.Lock()

    def update(self, text: str) -> None:
        """What the tool is doing now; shown when it is time to."""
        self.text = text
        self._show()

    def _show(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            now = self.clock()
            elapsed = now - self.start
            if elapsed < DELAY_SECONDS:
                return
            interval = TTY_INTERVAL if self.tty else LOG_INTERVAL
            if self._shown_at is not None and now - self._shown_at < interval:
                return
            self._shown_at = now
            line = f"[{self.tool}] {self.text}, elapsed {_clock(elapsed)}"
            if self.tty:
                self.stream.write("\r" + line.ljust(self._width))
                self._width = len(line)
            else:
                self.stream.write(line + "\n")
            self.stream.flush()

    @contextmanager
    def phase(self, text: str) -> Iterator[None]:
        """Run a step that reports nothing itself; the line keeps its elapsed time current."""
        self.update(text)
        if not self.enabled:
            yield
            return
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(TTY_INTERVAL if self.tty else 1.0):
                self._show()

        ticker = threading.Thread(target=tick, name="progress", daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()

    def close(self) -> None:
        """Erase the line from the terminal (a log keeps its lines)."""
        with self._lock:
            if self.enabled and self.tty and self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            self._width = 0
