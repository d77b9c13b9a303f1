"""Chip descriptions: built-in files, name resolution, and validation messages."""

from pathlib import Path

import pytest

from ascend_mlir.chips import (
    CHIP_DIR,
    ChipError,
    builtin_chip_names,
    chip_for_module,
    chip_for_target,
    load_chip,
    load_chip_file,
)


def test_builtin_chips_present():
    assert builtin_chip_names() == ("ascend910b", "ascend950")


def test_default_is_ascend950():
    chip = load_chip()
    assert chip.name == "ascend950"
    assert chip.arch == "dav-3510"
    assert chip.hacc_target == "Ascend950PR_9599"
    assert chip.capacity == {
        "gm": chip.capacity["gm"],
        "cbuf": 524288,
        "ca": 65536,
        "cb": 65536,
        "cc": 262144,
        "ub": 253952,
    }
    assert chip.alignment["ub"] == 32 and chip.alignment["cc"] == 1024
    assert chip.alignment["cbuf"] == chip.alignment["ca"] == chip.alignment["cb"] == 512
    assert chip.events_per_pipe_pair == 8


def test_ascend910b_capacities_and_paths():
    chip = load_chip("ascend910b")
    assert chip.arch == "dav-c220"
    assert chip.hacc_target == "Ascend910B1"
    assert chip.capacity["ub"] == 196608 and chip.capacity["cc"] == 131072
    # dav-c220 has no L0C -> UB and no UB -> L1 path
    assert ("cc", "ub") not in chip.latency.copy
    assert ("ub", "cbuf") not in chip.latency.copy


@pytest.mark.parametrize("target", ["Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4"])
def test_910b_family_maps_to_one_file(target):
    assert chip_for_target(target).name == "ascend910b"
    assert load_chip(target).name == "ascend910b"


def test_latency_table_matches_reference():
    t = load_chip().latency
    assert (t.cube_base, t.cube_base_fp32, t.cube_base_mx) == (8, 67, 25)
    assert t.cube_throughput["fp16"] == t.cube_throughput["bf16"] == 8192
    assert t.cube_throughput["fp8"] == 16384 and t.cube_throughput["hf32"] == 4096
    assert t.cube_throughput["fp32"] == 512 and t.cube_throughput["mxfp4"] == 32768
    gm_l1 = t.copy[("gm", "cbuf")]
    assert (gm_l1.pipe, gm_l1.base, gm_l1.bandwidth, gm_l1.min_ii) == ("MTE2", 190, 100, 64)
    assert (t.copy[("gm", "ub")].base, t.copy[("gm", "ub")].min_ii) == (90, 13)
    assert (t.copy[("ub", "gm")].base, t.copy[("ub", "gm")].bandwidth) == (180, 115)
    assert t.copy[("ub", "gm")].pipe == "MTE3"
    assert (t.copy[("ub", "cbuf")].base, t.copy[("ub", "cbuf")].bandwidth) == (43, 256)
    assert (t.copy[("cbuf", "ca")].issue, t.copy[("cbuf", "cb")].bandwidth) == (3, 256)
    assert (t.copy[("cc", "ub")].base, t.copy[("cc", "ub")].issue) == (58, 2)
    assert (t.copy[("cc", "gm")].base, t.copy[("cc", "gm")].pipe) == (200, "FIX")
    assert t.vector_bandwidth == 256
    assert t.vector_throughput == {"simple": 51, "div": 13, "special": 8}
    assert t.vector_op_class["vexp"] == "special" and t.vector_op_class["vdiv"] == "div"
    assert t.scalar == 1


def test_unknown_chip_lists_the_known_ones():
    with pytest.raises(ChipError, match="unknown chip 'nosuch'.*ascend910b, ascend950"):
        load_chip("nosuch")


def test_unknown_hacc_target():
    with pytest.raises(ChipError, match="unknown hacc target 'Ascend310P'"):
        chip_for_target("Ascend310P")


def _write_variant(tmp_path: Path, edit) -> Path:
    text = (CHIP_DIR / "ascend950.toml").read_text()
    path = tmp_path / "chip.toml"
    path.write_text(edit(text))
    return path


def test_user_chip_file_recalibrates(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace("bf16 = 8192", "bf16 = 4096"))
    chip = load_chip(str(path))
    assert chip.latency.cube_throughput["bf16"] == 4096
    assert chip.path == str(path)


def test_missing_key_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace("cc = 262144\n", ""))
    with pytest.raises(ChipError, match=rf"{path}: key 'capacity.cc' is missing"):
        load_chip_file(path)


def test_missing_copy_path_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace("[latency.copy.gm_ub]", "[latency.copy.gm_ubx]"))
    with pytest.raises(ChipError, match="key 'latency.copy.gm_ub' is missing"):
        load_chip_file(path)


def test_wrong_type_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace("ub = 253952", 'ub = "big"'))
    with pytest.raises(ChipError, match="key 'capacity.ub' must be an integer"):
        load_chip_file(path)


def test_bad_pipe_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace('pipe = "MTE1"', 'pipe = "MTE9"', 1))
    with pytest.raises(ChipError, match="key 'latency.copy.cbuf_ca.pipe' must be one of"):
        load_chip_file(path)


def test_unknown_vector_class_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace('vexp = "special"', 'vexp = "fancy"'))
    with pytest.raises(ChipError, match="latency.vector.op_class.vexp' names class 'fancy'"):
        load_chip_file(path)


def test_syntax_error_names_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[chip\nname = 1\n")
    with pytest.raises(ChipError, match=rf"chip file {path} is not valid"):
        load_chip_file(path)


def test_unreadable_file(tmp_path):
    with pytest.raises(ChipError, match="cannot read chip file"):
        load_chip(str(tmp_path / "missing.toml"))


def test_chip_for_module_precedence(tmp_path):
    from xdsl.dialects.builtin import ModuleOp

    from ascend_mlir.chips import set_module_target
    from ascend_mlir.dialects.hacc import TargetAttr

    module = ModuleOp([])
    module.attributes["hacc.target"] = TargetAttr("Ascend910B2")
    assert chip_for_module(module).name == "ascend910b"
    assert chip_for_module(module, chip="ascend950").name == "ascend950"
    path = _write_variant(tmp_path, lambda t: t.replace('name = "ascend950"', 'name = "mine"'))
    assert chip_for_module(module, chip="ascend950", chip_file=str(path)).name == "mine"
    assert chip_for_module(ModuleOp([])).name == "ascend950"
    # a pass option records the chip in bishengir's spelling
    set_module_target(module, load_chip("ascend950"))
    assert module.attributes["hacc.target"] == TargetAttr("Ascend950PR_9599")


def test_misspelt_key_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace("bandwidth = 115", "bandwith = 115"))
    with pytest.raises(ChipError, match=r"key 'latency.copy.ub_gm.bandwith' is not a chip setting"):
        load_chip_file(path)


def test_unknown_table_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t + "\n[latencies]\nx = 1\n")
    with pytest.raises(ChipError, match=r"key 'latencies' is not a chip setting \(expected one of: chip, capacity"):
        load_chip_file(path)
