"""A user's Python file (an ascend-tune factory module, an ascend-sim --reference file):
every way it can fail to load is a message located in that file, never our traceback."""

from __future__ import annotations

import sys

import pytest

from ascend_mlir.user_modules import UserModuleError, function_of, run_module


def test_a_module_runs_with_its_directory_on_the_path(tmp_path):
    (tmp_path / "helper_mod_for_test.py").write_text("K = 3\n")
    path = tmp_path / "user.py"
    path.write_text("from helper_mod_for_test import K\n\ndef f(x):\n    return x * K\n")
    module = run_module(str(path), "_user_module_test_ok")
    assert function_of(module, "f", str(path))(2) == 6
    assert sys.modules["_user_module_test_ok"] is module


@pytest.mark.parametrize(("text", "located"), [
    ("def f(:\n    pass\n", ":1:7: invalid syntax"),
    ("x = 1\n\ndef g():\n    return 1 / 0\n\ng()\n", ":4: loading it raised ZeroDivisionError"),
    ("import no_such_module_anywhere_here\n", ":1: loading it raised ModuleNotFoundError"),
])
def test_load_failures_are_located_in_the_users_file(tmp_path, text, located):
    path = tmp_path / "bad.py"
    path.write_text(text)
    with pytest.raises(UserModuleError) as info:
        run_module(str(path), "_user_module_test_bad")
    assert str(info.value).startswith(str(path)) and located in str(info.value)
    assert "_user_module_test_bad" not in sys.modules  # a failed load leaves nothing behind


def test_missing_file_and_missing_function(tmp_path):
    with pytest.raises(UserModuleError, match="no such file"):
        run_module(str(tmp_path / "absent.py"), "_user_module_test_absent")
    path = tmp_path / "user.py"
    path.write_text("f = 3\n")
    module = run_module(str(path), "_user_module_test_nofunc")
    with pytest.raises(UserModuleError, match="has no function 'f'"):
        function_of(module, "f", str(path))
