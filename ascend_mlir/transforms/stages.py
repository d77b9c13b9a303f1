"""Stage observers: a composite pass (ascend-compile runs several passes as one) reports
the IR after each of its stages, so tools can look inside it (`ascend-opt --dump-dir`).

    from ascend_mlir.transforms.stages import observe_stages, stage_done

    with observe_stages(lambda name, module: ...):   # a tool
        pipeline.apply(ctx, module)

    stage_done("convert-tile-to-hivm", op)           # inside a composite pass

With no observer, `stage_done` costs a list check. Observers must not modify the module.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from xdsl.dialects.builtin import ModuleOp

StageObserver = Callable[[str, ModuleOp], None]

_observers: list[StageObserver] = []


@contextlib.contextmanager
def observe_stages(observer: StageObserver) -> Iterator[None]:
    """Call `observer(stage_name, module)` after every stage while the context is open."""
    _observers.append(observer)
    try:
        yield
    finally:
        _observers.remove(observer)


def observing() -> bool:
    """Whether an observer watches the stages (a cached compile would not show them)."""
    return bool(_observers)


def stage_done(name: str, module: ModuleOp) -> None:
    """A composite pass finished its stage `name` (the sub-pass's name) on `module`."""
    for observer in list(_observers):
        observer(name, module)
