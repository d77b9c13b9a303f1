"""Running a user's Python file: a kernel factory for `ascend-tune` (in the caller and again
in every worker, from the source text the task ships) and a reference for
`ascend-sim --reference`. One place turns what can go wrong there (no such file, a syntax
error, an exception while the module runs, no such function) into a message located in
the user's file, never a traceback of ours."""

from __future__ import annotations

import os
import sys
import traceback
import types
from collections.abc import Callable
from typing import Any


class UserModuleError(Exception):
    """The user's module cannot be loaded, or lacks the function asked for. `str(err)` is
    the message with its place in the user's file in front (`path:line: ...`); `path`,
    `line` and `column` (None when not known) and `message` give the parts, for a tool
    that prints `path:line:col: error: message`."""

    def __init__(self, path: str, message: str, line: int | None = None, column: int | None = None):
        self.path, self.message, self.line, self.column = path, message, line, column
        where = path if line is None else f"{path}:{line}" if column is None else f"{path}:{line}:{column}"
        super().__init__(f"{where}: {message}")

    def diagnostic(self) -> str:
        """`path:line:col: error: message` (column 1 when only the line is known), or
        `error: path: message` when not even the line is (as ascend-opt prints it)."""
        if self.line is None:
            return f"error: {self.path}: {self.message}"
        return f"{self.path}:{self.line}:{self.column or 1}: error: {self.message}"


def raising_line(err: BaseException, path: str) -> int | None:
    """The line of the innermost frame of the user's file in err's traceback."""
    target = os.path.abspath(path)
    frames = [f for f in traceback.extract_tb(err.__traceback__) if os.path.abspath(f.filename) == target]
    return frames[-1].lineno if frames else None


def run_module(path: str, module_name: str, source: str | None = None) -> types.ModuleType:
    """Execute `path` (or `source`, the text it had) as module `module_name`, registered in
    sys.modules (dataclasses and pickling look classes up there), with the file's directory
    on sys.path so that its sibling imports work."""
    if source is None:
        if not os.path.isfile(path):
            raise UserModuleError(path, "no such file")
        with open(path, encoding="utf-8") as stream:
            source = stream.read()
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(directory) and directory not in sys.path:
        sys.path.insert(0, directory)  # as `python path` would
    module = types.ModuleType(module_name)
    module.__file__ = path
    sys.modules[module_name] = module
    try:
        code = compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as err:
        del sys.modules[module_name]
        raise UserModuleError(path, err.msg, err.lineno, err.offset) from None
    try:
        exec(code, module.__dict__)
    except (Exception, SystemExit) as err:  # noqa: BLE001 - the user's code: any error is theirs to see, located
        # (a sys.exit() of the file must not become the tool's own exit status)
        del sys.modules[module_name]
        located = _located_in(err, path)
        if located is not None:
            raise located from None
        raise UserModuleError(path, f"loading it raised {type(err).__name__}: {err}", raising_line(err, path)) from None
    return module


def _located_in(err: BaseException, path: str) -> UserModuleError | None:
    """The error as its own message at its own place in `path`, for an error that already
    names one (the DSL's `DSLError`: an unknown dtype in a `T.Tensor` annotation), rather
    than "loading it raised DSLError: path:17:71: error: ..." at the line of the `def`."""
    location, message = getattr(err, "location", None), getattr(err, "message", None)
    line, column = getattr(location, "line", None), getattr(location, "column", None)
    if not isinstance(message, str) or not isinstance(line, int):
        return None
    if os.path.abspath(str(getattr(location, "file", ""))) != os.path.abspath(path):
        return None
    return UserModuleError(path, message, line, column if isinstance(column, int) else None)


def function_of(module: types.ModuleType, name: str, path: str) -> Callable[..., Any]:
    function = getattr(module, name, None)
    if not callable(function):
        raise UserModuleError(path, f"has no function '{name}'")
    return function
