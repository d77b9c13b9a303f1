"""Element types per op as bishengir's verifiers allow them (issue 23).

Differential: every hivm case ascend-opt refuses, the real bishengir-opt refuses too
(both builds where they agree), and the legal spellings next to them pass both. The tile
ops refuse the same types, with a located error, before anything is lowered.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path

import pytest

from ascend_mlir.testing import require_tool
from ascend_mlir.tools import ascend_opt

UB = "#hivm.address_space<ub>"


def _unary_hivm(op: str, src: str, dst: str) -> str:
    return (
        f"func.func @k(%a: memref<64x{src}, {UB}>, %b: memref<64x{dst}, {UB}>) {{\n"
        f"  hivm.hir.{op} ins(%a : memref<64x{src}, {UB}>) outs(%b : memref<64x{dst}, {UB}>)\n"
        f"  return\n}}\n"
    )


def _unary_tile(op: str, src: str, dst: str) -> str:
    return (
        f"func.func @k(%a: memref<64x{src}, {UB}>, %b: memref<64x{dst}, {UB}>) attributes {{tile.kernel}} {{\n"
        f"  tile.{op} ins(%a : memref<64x{src}, {UB}>) outs(%b : memref<64x{dst}, {UB}>)\n"
        f"  return\n}}\n"
    )


# (op kind, source type, dest type): refused by bishengir-opt 1.2.0
REFUSED = [
    ("exp", "i32", "i32"),
    ("exp", "bf16", "bf16"),
    ("sqrt", "i32", "i32"),
    ("sqrt", "i16", "i16"),
    ("ln", "i32", "i32"),
    ("rsqrt", "i32", "i32"),
    ("rec", "i32", "i32"),
    ("relu", "i16", "i16"),
    ("cast", "f32", "i1"),
    ("cast", "f16", "i1"),
]
ACCEPTED = [
    ("exp", "f32", "f32"),
    ("sqrt", "f16", "f16"),
    ("relu", "i32", "i32"),
    ("abs", "i32", "i32"),
    ("cast", "i32", "i1"),
    ("cast", "f32", "i32"),
]


def _ascend_opt(path: Path) -> tuple[int, str]:
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = ascend_opt.main([str(path)])
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    return code, stderr.getvalue()


def _case(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "case.mlir"
    path.write_text(text)
    return path


@pytest.mark.parametrize("kind,src,dst", REFUSED, ids=lambda v: str(v))
def test_hivm_refused_here_and_by_bishengir(kind: str, src: str, dst: str, tmp_path: Path) -> None:
    path = _case(tmp_path, _unary_hivm(f"v{kind}", src, dst))
    code, err = _ascend_opt(path)
    assert code == 1 and "Traceback" not in err
    assert err.startswith(f"{path}:2:3: error: 'hivm.hir.v{kind}' op "), err
    bishengir = require_tool("bishengir-opt")
    run = subprocess.run([bishengir, str(path)], capture_output=True, text=True)
    assert run.returncode != 0, f"bishengir-opt accepts {kind} {src} -> {dst}"


@pytest.mark.parametrize("kind,src,dst", [c for c in REFUSED if c[0] != "cast"], ids=lambda v: str(v))
def test_a5_bishengir_refuses_the_same_vector_types(kind: str, src: str, dst: str, tmp_path: Path) -> None:
    path = _case(tmp_path, _unary_hivm(f"v{kind}", src, dst))
    bishengir = require_tool("bishengir-opt-a5")
    run = subprocess.run([bishengir, str(path)], capture_output=True, text=True)
    assert run.returncode != 0, f"bishengir-opt-a5 accepts {kind} {src} -> {dst}"


@pytest.mark.parametrize("kind,src,dst", ACCEPTED, ids=lambda v: str(v))
def test_legal_types_pass_both(kind: str, src: str, dst: str, tmp_path: Path) -> None:
    path = _case(tmp_path, _unary_hivm(f"v{kind}", src, dst))
    code, err = _ascend_opt(path)
    assert code == 0, err
    bishengir = require_tool("bishengir-opt")
    run = subprocess.run([bishengir, str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("kind,src,dst", REFUSED, ids=lambda v: str(v))
def test_tile_refused_at_its_line(kind: str, src: str, dst: str, tmp_path: Path) -> None:
    path = _case(tmp_path, _unary_tile(kind, src, dst))
    code, err = _ascend_opt(path)
    assert code == 1 and "Traceback" not in err
    assert err.startswith(f"{path}:2:3: error: 'tile.{kind}' op "), err


@pytest.mark.parametrize("kind,src,dst", ACCEPTED, ids=lambda v: str(v))
def test_tile_legal_types_accepted(kind: str, src: str, dst: str, tmp_path: Path) -> None:
    code, err = _ascend_opt(_case(tmp_path, _unary_tile(kind, src, dst)))
    assert code == 0, err
