"""ascend-sim's checks: reference comparison, exit codes, JSON fields."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from ascend_mlir.tools import ascend_sim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECADD = os.path.join(ROOT, "examples", "vecadd.mlir")
SYNCED = os.path.join(ROOT, "test", "sim", "vadd_synced.mlir")
MUTANT = os.path.join(ROOT, "test", "sim", "mutant_wait_removed.mlir")


def test_compare_tolerances_by_element_type():
    exp = {"a": np.array([1.0, 2.0], np.float32), "b": np.array([1, 2], np.int32)}
    ok, report = ascend_sim._compare({"a": np.array([1.0, 2.0001], np.float32), "b": np.array([1, 2], np.int32)},
                                     exp, {"a": "f32", "b": "i32"})
    assert ok and all(r["match"] for r in report)
    ok, _ = ascend_sim._compare({"a": np.array([1.0, 2.01], np.float32), "b": np.array([1, 2], np.int32)},
                                exp, {"a": "f32", "b": "i32"})
    assert not ok
    ok, _ = ascend_sim._compare({"a": np.array([1.0, 2.01], np.float32), "b": np.array([1, 2], np.int32)},
                                exp, {"a": "bf16", "b": "i32"})
    assert ok
    ok, _ = ascend_sim._compare({"a": exp["a"], "b": np.array([1, 3], np.int32)}, exp, {"a": "f32", "b": "i32"})
    assert not ok


def test_tile_level_file_is_compiled_and_matches(capsys):
    assert ascend_sim.main([VECADD, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reference_match"] is True and out["races"] == [] and out["deadlock"] is False
    assert set(out) >= {"cycles", "races", "deadlock", "unbalanced_flags", "reference_match", "pipe_busy"}


def test_reference_mismatch_fails(monkeypatch, capsys):
    import ascend_mlir.sim.reference as reference

    real = reference.run_reference

    def wrong_reference(module, inputs, **kw):
        outputs = real(module, inputs, **kw)
        outputs["arg2"] = outputs["arg2"] + 1
        return outputs

    monkeypatch.setattr(reference, "run_reference", wrong_reference)
    assert ascend_sim.main([VECADD, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["reference_match"] is False
    assert [r["name"] for r in out["reference"] if not r["match"]] == ["arg2"]


def test_hivm_level_exit_codes(capsys):
    assert ascend_sim.main([SYNCED, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reference_match"] is None
    assert ascend_sim.main([MUTANT]) == 1
    text = capsys.readouterr().out
    assert "error: race (write-read)" in text and "FAILED" in text


def test_trace_and_svg_are_well_formed(tmp_path):
    import xml.etree.ElementTree as ET

    trace, svg = tmp_path / "t.json", tmp_path / "t.svg"
    assert ascend_sim.main([SYNCED, "--trace", str(trace), "--svg", str(svg)]) == 0
    events = json.loads(trace.read_text())["traceEvents"]
    ops = [e for e in events if e["ph"] == "X"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert {names[(e["pid"], e["tid"])] for e in ops} == {"MTE2", "MTE3", "V"}
    assert all(e["dur"] >= 1 and "vadd_synced.mlir:" in e["args"]["loc"] for e in ops)
    root = ET.fromstring(svg.read_text())
    rects = root.findall("{http://www.w3.org/2000/svg}rect")
    assert len(rects) == len(ops)


def test_internal_errors_are_one_line_and_status_2(capsys, monkeypatch):
    def broken(argv):
        raise RuntimeError("boom")

    monkeypatch.setattr(ascend_sim, "run", broken)
    monkeypatch.delenv("ASCEND_MLIR_DEBUG", raising=False)
    assert ascend_sim.main([SYNCED]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ascend-sim: error: internal error: RuntimeError: boom\n")
    assert "ASCEND_MLIR_DEBUG=1" in err and "Traceback" not in err


def test_broken_pipe_is_quiet_status_1(capsys, monkeypatch):
    def reader_gone(argv):
        raise BrokenPipeError

    monkeypatch.setattr(ascend_sim, "run", reader_gone)
    assert ascend_sim.main([SYNCED]) == 1
    assert capsys.readouterr().err == ""


def test_flag_left_set_at_exit_is_an_error(tmp_path, capsys):
    """Strict verdict: a flag still set when the kernel returns corrupts the next
    kernel's sync on hardware, so it fails the run even without a race."""
    text = open(SYNCED).read()
    lines = text.splitlines()
    ret = max(i for i, line in enumerate(lines) if line.strip() == "return")
    lines.insert(ret, "    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID5>]")
    leftover = tmp_path / "leftover.mlir"
    leftover.write_text("\n".join(lines))
    assert ascend_sim.main([str(leftover), "--json", "--blocks", "1"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["races"] == [] and out["deadlock"] is False and out["ok"] is False
    assert out["unbalanced_flags"] == ["flag MTE3->MTE2 event 5 [vec] still set at exit"]
    assert ascend_sim.main([str(leftover), "--blocks", "1"]) == 1
    assert "error: unbalanced flag: flag MTE3->MTE2 event 5" in capsys.readouterr().out


@pytest.mark.parametrize("options,message", [
    (["--blocks", "0"], "argument --blocks: 0 is less than 1"),
    (["--blocks", "-2"], "argument --blocks: -2 is less than 1"),
    (["--blocks", "two"], "argument --blocks: 'two' is not an integer"),
    (["--perturb", "-1"], "argument --perturb: -1 is less than 0"),
    (["--seed", "-1"], "argument --seed: -1 is less than 0"),
    (["--chip", "nosuch"], "--chip: unknown chip 'nosuch'"),
    (["--chip", "/nonexistent/chip.toml"], "--chip: cannot read chip file /nonexistent/chip.toml"),
    (["--trace", "/nonexistent/dir/t.json"], "--trace: cannot write '/nonexistent/dir/t.json': no such directory"),
    (["--svg", "/nonexistent/dir/t.svg"], "--svg: cannot write '/nonexistent/dir/t.svg': no such directory"),
    (["--trace", "/"], "--trace: '/' is a directory"),
])
def test_bad_options_are_status_1_with_a_message(options, message, capsys):
    assert ascend_sim.main([SYNCED, *options]) == 1
    err = capsys.readouterr().err
    assert f"ascend-sim: error: {message}" in err
    assert "internal error" not in err and "Traceback" not in err


def test_trace_write_failure_is_status_1(tmp_path, capsys):
    """A write that fails only when attempted (a directory nobody may create files in,
    even root: /proc; a path through a regular file) is a message and status 1."""
    not_a_dir = tmp_path / "plain"
    not_a_dir.write_text("")
    for flag, path in (("--trace", "/proc/ascend-sim-trace.json"), ("--svg", str(not_a_dir / "t.svg"))):
        assert ascend_sim.main([SYNCED, flag, path]) == 1
        err = capsys.readouterr().err
        assert f"ascend-sim: error: {flag}: cannot write '{path}'" in err, err
        assert "internal error" not in err
    assert not_a_dir.read_text() == ""


def test_chip_file_path_works_for_a_tile_level_file(capsys):
    """A chip file path reaches ascend-compile as its chip_file option (it used to be
    spliced into a pass-pipeline string, which cannot hold a path: a traceback)."""
    chip_file = os.path.join(ROOT, "ascend_mlir", "chips", "ascend910b.toml")
    assert ascend_sim.main([VECADD, "--chip", chip_file, "--json"]) == 0
    by_file = json.loads(capsys.readouterr().out)
    assert ascend_sim.main([VECADD, "--chip", "ascend910b", "--json"]) == 0
    by_name = json.loads(capsys.readouterr().out)
    assert by_file["reference_match"] is True
    assert by_file["cycles"] == by_name["cycles"]


def test_reports_name_arguments_as_the_kernel_does(capsys):
    assert ascend_sim.main([VECADD]) == 0
    text = capsys.readouterr().out
    # vecadd(%x, %y, %z): z is written, x and y are only read
    assert "input x matches the reference" in text and "input y matches" in text
    assert "output z matches the reference" in text and "output arg" not in text
    assert ascend_sim.main([VECADD, "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)["reference"]
    assert [(e["name"], e["argument"], e["role"]) for e in entries] == [
        ("arg0", "x", "input"), ("arg1", "y", "input"), ("arg2", "z", "output")]


def test_trace_time_axis_is_cycles_not_nanoseconds(tmp_path):
    trace = tmp_path / "t.json"
    assert ascend_sim.main([SYNCED, "--trace", str(trace)]) == 0
    data = json.loads(trace.read_text())
    assert "displayTimeUnit" not in data  # "ns" made viewers print cycles as nanoseconds
    assert data["otherData"]["time_unit"] == "cycle"
    processes = [e["args"]["name"] for e in data["traceEvents"] if e["name"] == "process_name"]
    assert processes and all("cycles" in name for name in processes)
    for event in (e for e in data["traceEvents"] if e["ph"] == "X"):
        assert (event["args"]["start_cycle"], event["args"]["cycles"]) == (event["ts"], event["dur"])
