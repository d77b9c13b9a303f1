"""What the command-line tools share in reading their options (ascend-sim, ascend-tune)."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable


class ArgumentParser(argparse.ArgumentParser):
    """Bad options are bad input: `PROG: error: ...` and exit status 1 (2 means an
    internal error of ours)."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def at_least(least: float, kind: type = int) -> Callable[[str], float]:
    """An argparse type: a `kind` (int or float) number of at least `least`, a finite one
    (`--time-budget nan` went through as a float)."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not {'an integer' if kind is int else 'a number'}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is less than {least}")
        return value

    return parse
