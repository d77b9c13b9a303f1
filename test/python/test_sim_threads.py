"""The simulator and the reference run their numpy matmuls on one BLAS thread (issue 22:
OpenBLAS threads thrash on small machines), and give the caller's limits back."""

import numpy as np
from threadpoolctl import threadpool_info

from ascend_mlir.sim import reference, simulator
from ascend_mlir.sim.threads import single_threaded_blas


def _blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_blas_is_single_threaded_inside_and_restored_after():
    np.ones((4, 4)) @ np.ones((4, 4))  # BLAS is loaded
    before = _blas_threads()
    assert before, "numpy's BLAS is not visible to threadpoolctl"

    @single_threaded_blas
    def inside() -> list[int]:
        return _blas_threads()

    assert inside() == [1] * len(before)
    assert _blas_threads() == before


def test_simulator_and_reference_entry_points_limit_blas():
    for entry in (simulator.simulate, reference.run_reference):
        assert getattr(entry, "__wrapped__", None) is not None, entry.__name__
