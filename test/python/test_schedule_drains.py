"""The flag drains ascend-modulo-schedule reserves are recorded on the loop
(`#ascend.drains`) and reported by schedule-json: each in its pipe's free cycles of the
modulo window, and together with the pipe's tasks they make up its ResMII."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context

from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import register_dialects
from ascend_mlir.targets.schedule_json import schedule_report
from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass
from ascend_mlir.transforms.modulo_schedule import ModuloSchedulePass

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _report(name: str, **options) -> dict:
    ctx = register_dialects(Context())
    module = parse_module(ctx, (EXAMPLES / f"{name}.mlir").read_text(), name)
    ConvertTileToHivmPass().apply(ctx, module)
    ModuloSchedulePass(**options).apply(ctx, module)
    return schedule_report(module)


def _cycles(start: int, length: int, ii: int) -> set[int]:
    return {(start + c) % ii for c in range(min(length, ii))}


@pytest.mark.parametrize("example", ["vecadd", "softmax", "rmsnorm"])
def test_drains_sit_in_free_cycles_and_make_up_the_pipe_bound(example: str) -> None:
    loops = [loop for f in _report(example)["functions"] for loop in f["loops"]]
    assert any(loop["drains"] for loop in loops), "these kernels publish flags every iteration"
    for loop in loops:
        ii = loop["ii"]
        for pipe in {d["pipe"] for d in loop["drains"]}:
            busy: list[set[int]] = [_cycles(t["start"], t["ii"], ii) for t in loop["tasks"]
                                    if pipe in t["pipe"].split("+")]
            busy += [_cycles(d["start"], d["cycles"], ii) for d in loop["drains"] if d["pipe"] == pipe]
            assert sum(map(len, busy)) == len(set().union(*busy)), f"{pipe} slots overlap in the window"
            assert sum(map(len, busy)) == loop["res_mii"][pipe]


def test_no_drains_without_the_reservation() -> None:
    report = _report("vecadd", flag_drains=False)
    assert [loop["drains"] for f in report["functions"] for loop in f["loops"]] == [[]]
