"""Loop problems of kernel files, as the modulo-schedule pass would build them.

A benchmark input helper (not a pass): `run.py --mlir` and the tests use it to hand the
solver the loops of real kernels.
"""

from __future__ import annotations

from typing import Any

from xdsl.context import Context


def loop_problems_of_file(path: str, chip: str | None = None) -> list[tuple[str, Any]]:
    """(name, LoopProblem) of every loop of an .mlir file, innermost first: what the
    modulo-schedule pass would hand the solver. Tile-level input is lowered by
    convert-tile-to-hivm first; latencies come from the chip (`chip=` as in the pass,
    else hacc.target)."""
    from ascend_mlir.analysis.loop_model import loop_problems
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.dialects import register_dialects
    from ascend_mlir.transforms.estimate_latency import annotate_latencies, module_chip

    ctx = register_dialects(Context())
    with open(path, encoding="utf-8") as f:
        module = parse_module(ctx, f.read(), path)
    if any(o.name.startswith("tile.") for o in module.walk()):
        from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass

        ConvertTileToHivmPass().apply(ctx, module)
    chip_desc = module_chip(module, chip, None)
    annotate_latencies(module, chip_desc)
    return loop_problems(module, chip_desc)
