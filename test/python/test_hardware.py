"""The hardware facts module and the modules that must agree with it."""

from ascend_mlir import hardware
from ascend_mlir.chips import load_chip
from ascend_mlir.dialects import hivm, tile


def test_pipes_have_one_home():
    from ascend_mlir.scheduling import PIPES as solver_pipes
    from ascend_mlir.sim.engine import PIPES as sim_pipes

    assert hivm.PIPE_NAMES is hardware.PIPES
    assert solver_pipes is hardware.PIPES and sim_pipes is hardware.PIPES


def test_cores_and_their_pipes():
    assert hardware.core_of_pipes(("MTE1",)) == "CUBE"
    assert hardware.core_of_pipes(("FIX",)) == "CUBE"
    assert hardware.core_of_pipes(("V",)) == "VECTOR"
    assert hardware.core_of_pipes(("MTE3",)) == "VECTOR"
    # MTE2 and S exist on both cores: they do not tell the core
    assert hardware.core_of_pipes(("MTE2",)) == "SCALAR"
    assert hardware.core_of_pipes(("S",)) == "SCALAR"
    assert set(hardware.PIPES) == hardware.CORE_PIPES["CUBE"] | hardware.CORE_PIPES["VECTOR"]


def test_same_pipe_rule():
    # only S is ordered by the hardware; M -> M between mmadL1 ops by the op
    assert hardware.HARDWARE_ORDERED_PIPES == {"S"}
    assert hardware.ORDERED_PIPES == {"M", "S"}
    assert not any(hardware.is_ordered(p) for p in ("V", "MTE1", "MTE2", "MTE3", "FIX"))
    from ascend_mlir.transforms.insert_barrier_sync import IN_ORDER_PIPES

    assert IN_ORDER_PIPES == hardware.HARDWARE_ORDERED_PIPES


def test_copy_paths_agree_with_tile_and_chips():
    assert set(tile.COPY_PATHS) == set(hardware.TILE_COPY_PATHS)
    assert tile.COPY_PATHS[("gm", "ub")] == "load (MTE2)"
    for name in ("ascend950", "ascend910b"):
        chip = load_chip(name)
        assert set(chip.latency.copy) <= set(hardware.COPY_PATHS)
        assert set(hardware.REQUIRED_COPY_PATHS) <= set(chip.latency.copy)
        for pair, path in chip.latency.copy.items():
            assert path.pipe == hardware.COPY_PATHS[pair].pipe
    # the 950 has every path of the hardware module
    assert set(load_chip("ascend950").latency.copy) == set(hardware.COPY_PATHS) - {("ub", "ub")}


def test_flag_limits():
    assert hivm.CROSS_CORE_FLAGS == hardware.CROSS_CORE_FLAGS == 16
    assert load_chip().events_per_pipe_pair <= hardware.EVENTS_PER_PIPE_PAIR
