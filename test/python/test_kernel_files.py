"""A Python DSL file given to ascend-opt and ascend-sim (what a new kernel author types
first: `ascend-opt examples/vecadd.py`): the kernel it defines at top level is built and
compiled as its MLIR twin would be; a file without one, or with several, is a located
error that says what a .py file must define (issue 22: they used to parse the Python as
MLIR, "End of file reached before closing string literal")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ascend_mlir.tools import ascend_opt, ascend_sim
from ascend_mlir.tools.kernel_files import KERNEL_FILE_RULE, kernel_file_spec

ROOT = Path(__file__).resolve().parents[2]
VECADD_PY = str(ROOT / "examples" / "vecadd.py")

TINY = '''\
import ascend_mlir.frontend as T


def make(n=1024, tile=512):
    @T.kernel(grid=1)
    def tiny_add(x: T.Tensor((n,), "f32"), z: T.Tensor((n,), "f32")):
        u = T.alloc((tile,), "f32", "ub")
        for i in T.pipelined(range(n // tile), num_stages=1):
            T.copy(x[i * tile:(i + 1) * tile], u)
            T.add(u, u, u)
            T.copy(u, z[i * tile:(i + 1) * tile])

    return tiny_add
'''


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_spec_tells_python_files_from_mlir_files():
    assert kernel_file_spec("examples/vecadd.py") == ("examples/vecadd.py", None)
    assert kernel_file_spec("k.py:make_vecadd") == ("k.py", "make_vecadd")
    assert kernel_file_spec("examples/vecadd.mlir") is None
    assert kernel_file_spec("-") is None


def test_ascend_opt_prints_the_kernel_a_py_file_defines(capsys):
    assert ascend_opt.main([VECADD_PY]) == 0
    out = capsys.readouterr().out
    assert "func.func @vecadd(%x: memref<32768xf32, #hivm.address_space<gm>>" in out
    assert "tile.add" in out


def _ssa_names_numbered(text: str) -> str:
    """`text` with every SSA value renamed %v<i> by first appearance (the Python twin
    names values after its variables, the .mlir file after its own)."""
    names: dict[str, str] = {}
    return re.sub(r"%[\w.$-]+", lambda m: names.setdefault(m.group(0), f"%v{len(names)}"), text)


def test_ascend_opt_compiles_a_py_file_as_its_mlir_twin(capsys):
    # the twins build the same IR (test_frontend), so they compile to the same npuir
    args = ["-p", "ascend-compile", "-t", "npuir"]
    assert ascend_opt.main([VECADD_PY, *args]) == 0
    from_python = capsys.readouterr().out
    assert ascend_opt.main([str(ROOT / "examples" / "vecadd.mlir"), *args]) == 0
    assert _ssa_names_numbered(from_python) == _ssa_names_numbered(capsys.readouterr().out)


def test_a_factory_is_called_and_a_kernel_named(tmp_path, capsys):
    path = _write(tmp_path, "tiny.py", TINY + "\nsmall = make(n=512)\nlarge = make(n=2048)\n")
    assert ascend_opt.main([f"{path}:make"]) == 0
    assert "memref<1024xf32" in capsys.readouterr().out
    assert ascend_opt.main([f"{path}:large"]) == 0
    assert "memref<2048xf32" in capsys.readouterr().out
    assert ascend_opt.main([path]) == 1
    err = capsys.readouterr().err
    assert f"{path}:1:1: error: 2 kernels (small, large): name one as {path}:NAME" in err


@pytest.mark.parametrize(("text", "spec", "message"), [
    (TINY, "", f"error: no kernel found: {KERNEL_FILE_RULE}"),
    (TINY, ":N", "error: 'N' is not defined, not a kernel"),
    (TINY + "N = 3\n", ":N", "error: 'N' is of type int, not a kernel"),
    (TINY.replace("u = T.alloc", "q = 1 // 0\n        u = T.alloc") + "k = make()\n", "",
     "error: building kernel 'tiny_add' raised ZeroDivisionError"),
    ("x = = 1\n", "", "error: invalid syntax"),
    ("raise RuntimeError('no')\n", "", "error: loading it raised RuntimeError: no"),
    # the file's own exit status is not the tool's (it was: ascend-opt exited 3)
    ("import sys\n\nsys.exit(3)\n", "", "error: loading it raised SystemExit: 3"),
    (TINY.replace("u = T.alloc", "raise SystemExit(4)\n        u = T.alloc") + "k = make()\n", "",
     "error: building kernel 'tiny_add' raised SystemExit: 4"),
])
def test_a_py_file_without_a_usable_kernel_is_a_located_error(tmp_path, capsys, text, spec, message):
    path = _write(tmp_path, "user_kernel.py", text)
    for main in (ascend_opt.main, ascend_sim.main):
        assert main([path + spec]) == 1
        err = capsys.readouterr().err
        assert "Traceback" not in err
        first = err.splitlines()[0]
        assert re.match(rf"{re.escape(path)}:\d+:\d+: ", first), first
        assert message in first, first


def test_a_dsl_misuse_is_located_at_the_kernel_line(tmp_path, capsys):
    text = TINY.replace("T.add(u, u, u)", "T.add(u, x, u)")  # a GM operand to a vector op
    path = _write(tmp_path, "misuse.py", text + "\nk = make()\n")
    line = text.splitlines().index("            T.add(u, x, u)") + 1
    assert ascend_opt.main([path]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{line}:"), err
    assert "T.add(u, x, u)" in err  # the quoted line is the Python line the location names


def test_ascend_sim_simulates_a_py_file(tmp_path, capsys):
    path = _write(tmp_path, "tiny_sim.py", TINY + "\nk = make()\n")
    assert ascend_sim.main([path, "--json"]) == 0
    import json

    result = json.loads(capsys.readouterr().out)
    assert result["ok"] and result["reference_match"] is True


def test_ascend_sim_missing_py_file_cannot_be_read(tmp_path, capsys):
    assert ascend_sim.main([str(tmp_path / "absent.py")]) == 1
    assert "ascend-sim: error: cannot read" in capsys.readouterr().err


def test_an_error_without_a_line_is_a_bare_error_line():
    from ascend_mlir.user_modules import UserModuleError

    assert UserModuleError("k.py", "no kernel", 4, 2).diagnostic() == "k.py:4:2: error: no kernel"
    assert UserModuleError("k.py", "no kernel", 4).diagnostic() == "k.py:4:1: error: no kernel"
    # not `k.py: error:`, which neither the located nor the bare form of the tools is
    assert UserModuleError("k.py", "no kernel").diagnostic() == "error: k.py: no kernel"
