"""ascend-opt never answers bad input with a traceback: a located error and exit 1."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_mlir.tools.ascend_opt import main

VALID = """func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  func.return %b : i32
}
"""


def run(tmp_path, text: str | bytes, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "in.mlir"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return main([str(path), *args]), str(path)


def test_valid_input_round_trips(tmp_path, capsys):
    code, _ = run(tmp_path, VALID)
    out = capsys.readouterr().out
    assert code == 0
    assert "arith.addi %a, %a : i32" in out


@pytest.mark.parametrize(
    "text, where",
    [
        ("func.func @f( {", ":1:"),
        (VALID.replace("-> i32 {", "-> i64 {"), ":3:3: error: 'func.return' op"),
        (b"\xff\xfe\x00garbage", "error: input is not UTF-8"),
        ('"builtin.module"() ({', ":1:"),
    ],
)
def test_bad_input_is_a_located_error(tmp_path, capsys, text, where):
    code, path = run(tmp_path, text)
    err = capsys.readouterr().err
    assert code == 1
    assert where in err
    assert path in err
    assert "Traceback" not in err


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=len(VALID) - 1), st.text(max_size=6))
def test_mutated_input_never_crashes(tmp_path_factory, position, insertion):
    tmp_path = tmp_path_factory.mktemp("fuzz")
    text = VALID[:position] + insertion + VALID[position + 1 :]
    code, _ = run(tmp_path, text)
    # Either it still parses and verifies, or it is a diagnostic (1); an internal
    # compiler error would exit 2.
    assert code in (0, 1)


def test_internal_errors_are_one_line_and_status_2(tmp_path, capsys, monkeypatch):
    """A bug of ours (any exception out of the pipeline) is reported without a traceback;
    ASCEND_MLIR_DEBUG=1 lets it through."""
    from ascend_mlir.tools.ascend_opt import AscendOptMain

    def broken(self):
        raise RuntimeError("boom")

    monkeypatch.setattr(AscendOptMain, "run", broken)
    monkeypatch.delenv("ASCEND_MLIR_DEBUG", raising=False)
    code, path = run(tmp_path, VALID)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"{path}: error: internal compiler error: RuntimeError: boom\n")
    assert "ASCEND_MLIR_DEBUG=1" in err and "Traceback" not in err
    monkeypatch.setenv("ASCEND_MLIR_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        run(tmp_path, VALID)


def test_a_remark_about_an_unrolled_loop_names_the_loop_line(capsys):
    """The loops unroll_loop, pipeline_loops, unroll_versions and peel-mmad-init write in
    place of the user's keep its location: vecadd's 'not proven optimal' remark named the
    function's line (its nearest located ancestor)."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "vecadd.mlir"
    lines = path.read_text().splitlines()
    loop_line = next(i for i, line in enumerate(lines, start=1) if "scf.for" in line)
    assert main([str(path), "-p", "ascend-compile", "--print-debuginfo"]) == 0
    captured = capsys.readouterr()
    remarks = [line for line in captured.err.splitlines() if "remark: loop vecadd.i" in line]
    # the remark comes and goes with the solver's proofs; the loop's location is what it reads
    assert all(r.startswith(f"{path}:{loop_line}:5: ") for r in remarks), captured.err
    assert f'loc("{path}":{loop_line}:5)' in captured.out
