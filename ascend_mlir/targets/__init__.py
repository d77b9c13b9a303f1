"""Printers of ascend-mlir as xDSL `Target`s, one module each."""

from collections.abc import Callable

from xdsl.utils.target import Target


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    def npuir():
        from ascend_mlir.targets.npuir import NpuirTarget

        return NpuirTarget

    def schedule_json():
        from ascend_mlir.targets.schedule_json import ScheduleJsonTarget

        return ScheduleJsonTarget

    def schedule_svg():
        from ascend_mlir.targets.schedule_svg import ScheduleSvgTarget

        return ScheduleSvgTarget

    def irdl():
        from ascend_mlir.targets.irdl import IrdlTarget

        return IrdlTarget

    def cce():
        from ascend_mlir.targets.cce import CceTarget

        return CceTarget

    return {
        "irdl": irdl,
        "npuir": npuir,
        "cce": cce,
        "schedule-json": schedule_json,
        "schedule-svg": schedule_svg,
    }
