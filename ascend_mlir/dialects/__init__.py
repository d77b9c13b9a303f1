"""Dialects of ascend-mlir, one module each.

`get_all_dialects()` maps a dialect name to a factory so that start-up imports only
the dialects a run actually parses (the pattern of xDSL's own registry).
"""

from collections.abc import Callable, Iterable

from xdsl.context import Context
from xdsl.ir import Dialect

# the upstream dialects ascend-mlir programs are written with (what ascend-opt parses)
UPSTREAM_DIALECTS = ("builtin", "func", "arith", "memref", "scf", "tensor")


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    def get_hivm() -> Dialect:
        from ascend_mlir.dialects.hivm import HIVM

        return HIVM

    def get_hacc() -> Dialect:
        from ascend_mlir.dialects.hacc import HACC

        return HACC

    def get_annotation() -> Dialect:
        from ascend_mlir.dialects.annotation import Annotation

        return Annotation

    def get_ascend() -> Dialect:
        from ascend_mlir.dialects.ascend import Ascend

        return Ascend

    def get_cce() -> Dialect:
        from ascend_mlir.dialects.cce import CCE

        return CCE

    def get_tile() -> Dialect:
        from ascend_mlir.dialects.tile import Tile

        return Tile

    return {
        "hivm": get_hivm,
        "hacc": get_hacc,
        "annotation": get_annotation,
        "tile": get_tile,
        "ascend": get_ascend,
        "cce": get_cce,
    }


def _get_memref() -> Dialect:
    from ascend_mlir.dialects.memref import MemRef

    return MemRef


def register_dialects(ctx: Context, upstream: Iterable[str] = UPSTREAM_DIALECTS) -> Context:
    """Register the named upstream dialects and all of ours in `ctx` (lazily); returns it."""
    from xdsl.dialects import get_all_dialects as upstream_dialects

    factories = upstream_dialects()
    factories["memref"] = _get_memref  # MLIR's memref.copy syntax (dialects/memref.py)
    for name in upstream:
        ctx.register_dialect(name, factories[name])
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
