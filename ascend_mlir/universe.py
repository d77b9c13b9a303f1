"""The xDSL plug-in entry point: stock `xdsl-opt` sees our dialects, passes, targets."""

from xdsl.universe import Universe

from ascend_mlir.dialects import get_all_dialects
from ascend_mlir.targets import get_all_targets
from ascend_mlir.transforms import get_all_passes

ASCEND_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
