"""Chip descriptions: built-in files, name resolution, and validation messages."""

from pathlib import Path

import pytest

from ascend_mlir.chips import (
    CHIP_DIR,
    ChipError,
    builtin_chip_names,
    resolve_chip,
    chip_for_target,
    load_chip,
    load_chip_file,
    target_is_a5,
)


def test_builtin_chips_present():
    assert builtin_chip_names() == ("ascend910b", "ascend950")


def test_the_a5_generation_is_told_by_the_chip():
    # which bishengir build (and cce API) a target needs follows its chip's arch
    assert load_chip("ascend950").a5 and not load_chip("ascend910b").a5
    assert all(target_is_a5(t) for t in load_chip("ascend950").hacc_targets)
    assert not any(target_is_a5(t) for t in load_chip("ascend910b").hacc_targets)
    assert not target_is_a5("Ascend950-unknown")  # an unknown name is not a chip


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


def _with_pipe(text: str, pipe: str) -> str:
    return text.replace("[latency.copy.cbuf_ca]\n", f'[latency.copy.cbuf_ca]\npipe = "{pipe}"\n', 1)


def test_bad_pipe_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: _with_pipe(t, "MTE9"))
    with pytest.raises(ChipError, match="key 'latency.copy.cbuf_ca.pipe' must be one of"):
        load_chip_file(path)


def test_pipe_of_a_path_is_a_hardware_fact(tmp_path):
    # a file may repeat the path's pipe, never change it
    assert load_chip_file(_write_variant(tmp_path, lambda t: _with_pipe(t, "MTE1"))).latency.copy[
        ("cbuf", "ca")
    ].pipe == "MTE1"
    path = _write_variant(tmp_path, lambda t: _with_pipe(t, "MTE2"))
    with pytest.raises(ChipError, match="key 'latency.copy.cbuf_ca.pipe' must be 'MTE1'"):
        load_chip_file(path)


def test_copy_path_must_exist_in_hardware(tmp_path):
    path = _write_variant(
        tmp_path, lambda t: t + "\n[latency.copy.gm_cc]\nbase = 1\nbandwidth = 1\nissue = 0\nmin_ii = 0\nper_burst = false\n"
    )
    with pytest.raises(ChipError, match="key 'latency.copy.gm_cc' is not a hardware copy path"):
        load_chip_file(path)


def test_910b_extends_950():
    text = (CHIP_DIR / "ascend910b.toml").read_text()
    assert 'extends = "ascend950"' in text and "[latency" not in text
    b, a5 = load_chip("ascend910b"), load_chip("ascend950")
    assert b.latency.vector_throughput == a5.latency.vector_throughput
    assert b.alignment == a5.alignment and b.capacity["ub"] != a5.capacity["ub"]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_extends_overrides_key_by_key(tmp_path):
    path = _write(tmp_path, "mine.toml", 'extends = "ascend950"\n[chip]\nname = "mine"\n[latency.cube.throughput]\nbf16 = 4096\n')
    chip = load_chip_file(path)
    assert chip.name == "mine" and chip.arch == "dav-3510"
    assert chip.latency.cube_throughput["bf16"] == 4096 and chip.latency.cube_throughput["fp16"] == 8192
    # a relative path extends a file beside it; remove drops a copy path
    child = _write(tmp_path, "child.toml", 'extends = "mine.toml"\nremove = ["latency.copy.cc_ub"]\n')
    chip = load_chip_file(child)
    assert chip.name == "mine" and ("cc", "ub") not in chip.latency.copy


def test_extends_unknown_chip_is_named(tmp_path):
    path = _write(tmp_path, "x.toml", 'extends = "ascend999"\n')
    with pytest.raises(ChipError, match=rf"chip file {path}: key 'extends' names no chip: 'ascend999'"):
        load_chip_file(path)


def test_extends_cycle_is_named(tmp_path):
    _write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    b = _write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    with pytest.raises(ChipError, match="key 'extends' makes a cycle"):
        load_chip_file(b)


def test_remove_of_missing_key_is_named(tmp_path):
    path = _write(tmp_path, "x.toml", 'extends = "ascend910b"\nremove = ["latency.copy.cc_ub"]\n')
    with pytest.raises(ChipError, match=rf"{path}: key 'remove.latency.copy.cc_ub' names no setting"):
        load_chip_file(path)


def test_remove_without_extends_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: 'remove = ["capacity.ub"]\n' + t)
    with pytest.raises(ChipError, match="key 'remove' needs 'extends'"):
        load_chip_file(path)


def test_misspelt_key_in_extending_file_is_named(tmp_path):
    path = _write(tmp_path, "x.toml", 'extends = "ascend950"\n[capacity]\nubb = 1\n')
    with pytest.raises(ChipError, match=rf"{path}: key 'capacity.ubb' is not a chip setting"):
        load_chip_file(path)


def test_too_many_events_is_named(tmp_path):
    path = _write_variant(tmp_path, lambda t: t.replace("events_per_pipe_pair = 8", "events_per_pipe_pair = 9"))
    with pytest.raises(ChipError, match="key 'chip.events_per_pipe_pair' must be <= 8"):
        load_chip_file(path)


def test_resolve_chip_records_the_option(tmp_path):
    from xdsl.dialects.builtin import ModuleOp

    from ascend_mlir.chips import resolve_chip
    from ascend_mlir.dialects.hacc import TargetAttr

    module = ModuleOp([])
    assert resolve_chip(module, record=True).name == "ascend950"
    assert "hacc.target" not in module.attributes  # nothing chose a chip: nothing recorded
    assert resolve_chip(module, chip="Ascend910B2", record=True).name == "ascend910b"
    assert module.attributes["hacc.target"] == TargetAttr("Ascend910B1")  # bishengir's spelling
    resolve_chip(module, chip="ascend950", record=True)
    assert module.attributes["hacc.target"] == TargetAttr("Ascend950PR_9599")
    assert resolve_chip(module).name == "ascend950"


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


def test_resolve_chip_precedence(tmp_path):
    from xdsl.dialects.builtin import ModuleOp

    from ascend_mlir.chips import set_module_target
    from ascend_mlir.dialects.hacc import TargetAttr

    module = ModuleOp([])
    module.attributes["hacc.target"] = TargetAttr("Ascend910B2")
    assert resolve_chip(module).name == "ascend910b"
    assert resolve_chip(module, chip="ascend950").name == "ascend950"
    path = _write_variant(tmp_path, lambda t: t.replace('name = "ascend950"', 'name = "mine"'))
    assert resolve_chip(module, chip="ascend950", chip_file=str(path)).name == "mine"
    assert resolve_chip(ModuleOp([])).name == "ascend950"
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


def test_a_chip_file_reaches_every_stage_of_ascend_compile(tmp_path):
    """`ascend-compile{chip-file=...}` schedules for the file, not for the built-in chip its
    hacc.target names: the latencies, the loop's II and the sync all come from it (before,
    only the sync passes got the file, and a chip of slower GM paths and 4 event ids per
    pipe pair was scheduled with the 950's latencies and 8 ids)."""
    from xdsl.context import Context
    from xdsl.dialects import scf

    from ascend_mlir.dialects import UPSTREAM_DIALECTS, ascend, hivm, register_dialects
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.transforms.ascend_compile import AscendCompilePass

    slow = _write_variant(tmp_path, lambda t: t.replace("base = 90", "base = 300", 1))
    text = (Path(__file__).resolve().parents[2] / "examples" / "vecadd.mlir").read_text()

    def compiled(**options):
        module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), text, "vecadd.mlir")
        AscendCompilePass(**options).apply(register_dialects(Context(), UPSTREAM_DIALECTS), module)
        loads = [ascend.task_of(o) for o in module.walk() if isinstance(o, hivm.LoadOp)]
        loop = next(ascend.loop_of(o) for o in module.walk() if isinstance(o, scf.ForOp) and ascend.loop_of(o))
        return [t.latency for t in loads if t is not None], loop.ii  # type: ignore[union-attr]

    builtin_loads, builtin_ii = compiled(chip="ascend950")
    file_loads, file_ii = compiled(chip_file=str(slow))
    assert builtin_loads and len(file_loads) == len(builtin_loads)
    assert all(f == b + 210 for f, b in zip(file_loads, builtin_loads, strict=True))  # 300 - 90
    assert file_ii != builtin_ii
