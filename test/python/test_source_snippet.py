"""The quoted source line under a diagnostic is the line its location names (issue 22
item 4): for a DSL kernel printed with Python locations, the Python line, read from the
.py file, never the .mlir line of the same number; nothing when that file is not there."""

from __future__ import annotations

from ascend_mlir.tools import ascend_opt

PYTHON = """import ascend_mlir.frontend as T

@T.kernel(grid=1)
def k(x: T.Tensor((512,), "f32"), z: T.Tensor((512,), "f32")):
    u = T.alloc((512,), "f32", "ub")
    T.copy(x, u)
    T.copy(u, z)
"""

UB = "#hivm.address_space<ub>"
GM = "#hivm.address_space<gm>"
MLIR = f"""builtin.module {{
  func.func @k(%x: memref<512xf32, {GM}>, %z: memref<512xf32, {GM}>) attributes {{tile.kernel, tile.grid = 1 : i64}} {{
    %u = memref.alloc() : memref<256xf32, {UB}> loc("k.py":5:9)
    tile.copy ins(%x : memref<512xf32, {GM}>) outs(%u : memref<256xf32, {UB}>) loc("k.py":6:5)
    func.return loc("k.py":3:1)
  }} loc("k.py":3:1)
}}
"""


def test_python_location_quotes_the_python_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "k.py").write_text(PYTHON)
    (tmp_path / "k.mlir").write_text(MLIR)
    monkeypatch.chdir(tmp_path)
    assert ascend_opt.main(["k.mlir"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("k.py:6:5: error: 'tile.copy' op")
    assert err[1] == "    T.copy(x, u)"
    assert err[2] == "    ^"


def test_python_location_without_its_file_quotes_nothing(tmp_path, monkeypatch, capsys):
    (tmp_path / "k.mlir").write_text(MLIR)
    monkeypatch.chdir(tmp_path)
    assert ascend_opt.main(["k.mlir"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("k.py:6:5: error: 'tile.copy' op") and len(err) == 1, err


def test_mlir_location_still_quotes_the_mlir_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "k.mlir").write_text(MLIR.replace(' loc("k.py":6:5)', ""))
    monkeypatch.chdir(tmp_path)
    assert ascend_opt.main(["k.mlir"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("k.mlir:4:5: error: 'tile.copy' op")
    assert err[1].startswith("    tile.copy ins(%x")
