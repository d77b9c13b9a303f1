"""One BLAS thread inside the simulator and the reference interpreter.

Their matmuls are many small products (one tile each): OpenBLAS's thread pool costs more
than it gains there and, on a machine with few cores, threads thrash (issue 22 measured
the reference's matmuls at 10.5 s with the default pool and about 3 s with one thread).
The limit applies only while simulating or interpreting and is restored afterwards, so a
caller's own numpy work keeps its threads; no environment variable is needed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from threadpoolctl import ThreadpoolController

P = ParamSpec("P")
R = TypeVar("R")


@functools.cache
def _controller() -> ThreadpoolController:
    """The process's thread pools, found once (finding them scans the loaded libraries:
    about 3 ms, as much as simulating a small kernel). Asked at the first call, when
    numpy, which loads BLAS, is imported by the callers."""
    return ThreadpoolController()


def single_threaded_blas(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorator: run `fn` with BLAS limited to one thread (nested calls are cheap)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with _controller().limit(limits=1, user_api="blas"):
            return fn(*args, **kwargs)

    return wrapper
