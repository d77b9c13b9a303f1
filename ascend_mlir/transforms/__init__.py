"""Passes of ascend-mlir, one module each.

`get_all_passes()` maps a pass name to a factory returning the pass class; nothing is
imported until a pipeline names the pass.
"""

import importlib
from collections.abc import Callable

from xdsl.passes import ModulePass

# pass name -> (module under ascend_mlir.transforms, pass class); a new pass is one line here
_PASSES: dict[str, tuple[str, str]] = {
    "convert-tile-to-hivm": ("convert_tile_to_hivm", "ConvertTileToHivmPass"),
    "ascend-estimate-latency": ("estimate_latency", "EstimateLatencyPass"),
    "ascend-modulo-schedule": ("modulo_schedule", "ModuloSchedulePass"),
    "ascend-insert-barrier-sync": ("insert_barrier_sync", "InsertBarrierSyncPass"),
    "ascend-insert-sync": ("insert_sync", "InsertSyncPass"),
    "ascend-verify-sync": ("verify_sync", "VerifySyncPass"),
    "ascend-plan-memory": ("plan_memory", "PlanMemoryPass"),
    "ascend-multi-buffer": ("multi_buffer", "MultiBufferPass"),
    "ascend-pipeline-loops": ("pipeline_loops", "PipelineLoopsPass"),
    "ascend-compile": ("ascend_compile", "AscendCompilePass"),
    "peel-mmad-init": ("peel_mmad_init", "PeelMmadInitPass"),
    "hoist-constants": ("hoist_constants", "HoistConstantsPass"),
    "split-mix-kernel": ("split_mix_kernel", "SplitMixKernelPass"),
    "alloc-planned-buffers": ("alloc_planned_buffers", "AllocPlannedBuffersPass"),
    "ascend-lower-mmad-l0": ("lower_mmad_l0", "LowerMmadL0Pass"),
    "ascend-lower-wide-reduce": ("lower_wide_reduce", "LowerWideReducePass"),
    "ascend-guard-zero-trip-loops": ("guard_zero_trip", "GuardZeroTripLoopsPass"),
    "ascend-sink-index-math": ("sink_index_math", "SinkIndexMathPass"),
    "ascend-fold-index-constants": ("fold_index_constants", "FoldIndexConstantsPass"),
    "ascend-cse-index-math": ("cse_index_math", "CseIndexMathPass"),
}


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    """A factory that imports the pass module only when called."""

    def factory() -> type[ModulePass]:
        return getattr(importlib.import_module(f"ascend_mlir.transforms.{module}"), cls)

    return factory


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {name: _lazy(module, cls) for name, (module, cls) in _PASSES.items()}
