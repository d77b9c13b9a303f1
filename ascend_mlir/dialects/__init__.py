"""Dialects of ascend-mlir, one module each.

`get_all_dialects()` maps a dialect name to a factory so that start-up imports only
the dialects a run actually parses (the pattern of xDSL's own registry).
"""

from collections.abc import Callable

from xdsl.ir import Dialect


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

    def get_tile() -> Dialect:
        from ascend_mlir.dialects.tile import Tile

        return Tile

    return {
        "hivm": get_hivm,
        "hacc": get_hacc,
        "annotation": get_annotation,
        "tile": get_tile,
    }
