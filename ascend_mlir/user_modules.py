"""Running a user's Python file: a kernel factory for `ascend-tune` (in the caller and again
in every worker, from the source text the task ships) and a reference for
`ascend-sim --reference`. One place turns what can go wrong there (no such file, a syntax
error, an exception while the module runs, no such function) into a message located in
the user's file, never a traceback of ours."""

from __future__ import annotations

import os
import re
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
        """`path:line:col: error: message` (column 1 when only the line is known)."""
        where = self.path if self.line is None else f"{self.path}:{self.line}:{self.column or 1}"
        return f"{where}: error: {self.message}"


def _raising_line(err: BaseException, path: str) -> int | None:
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
        raise UserModuleError(path, f"loading it raised {type(err).__name__}: {err}", _raising_line(err, path)) from None
    return module


def function_of(module: types.ModuleType, name: str, path: str) -> Callable[..., Any]:
    function = getattr(module, name, None)
    if not callable(function):
        raise UserModuleError(path, f"has no function '{name}'")
    return function


# ----- a Python kernel file given to ascend-opt / ascend-sim -----------------------------

KERNEL_FILE_RULE = (
    "a .py file must define a @T.kernel at top level (e.g. `vecadd = make_vecadd()`), or be "
    "given as FILE.py:NAME where NAME is a kernel or a function returning one when called "
    "without arguments")

_KERNEL_FILE = re.compile(r"(?P<path>.+\.py)(?::(?P<name>[A-Za-z_]\w*))?")


def kernel_file_spec(argument: str) -> tuple[str, str | None] | None:
    """(path, kernel name or None) when `argument` names a Python kernel file (`k.py` or
    `k.py:NAME`), else None (an MLIR file)."""
    match = _KERNEL_FILE.fullmatch(argument)
    return (match.group("path"), match.group("name")) if match else None


def _kernels_defined(module: types.ModuleType) -> list[tuple[str, Any]]:
    """The module's top-level kernels, by name; those the file itself defines when it also
    imports some (a kernel built from an imported factory counts as its own)."""
    from ascend_mlir.frontend import Kernel

    found: dict[int, tuple[str, Any]] = {}
    for name, value in vars(module).items():
        if isinstance(value, Kernel) and not name.startswith("_"):
            found.setdefault(id(value), (name, value))
    kernels = list(found.values())
    own = [(n, k) for n, k in kernels if getattr(k.fn, "__module__", None) == module.__name__]
    return own or kernels


def kernel_of_file(path: str, name: str | None = None) -> Any:
    """The kernel (a frontend `Kernel`) a Python file defines: the one top-level kernel, or
    `name` (a kernel, or a function returning one when called without arguments). Raises
    UserModuleError, located in the file, when there is none or more than one to choose."""
    from ascend_mlir.frontend import Kernel

    module = run_module(path, "_ascend_kernel_file_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0]))
    if name is not None:
        value = getattr(module, name, None)
        if callable(value) and not isinstance(value, Kernel):
            try:
                value = value()
            except (Exception, SystemExit) as err:  # noqa: BLE001 - the user's factory: its error is theirs, located
                raise UserModuleError(path, f"calling {name}() raised {type(err).__name__}: {err}",
                                      _raising_line(err, path)) from None
        if not isinstance(value, Kernel):
            what = "is not defined" if not hasattr(module, name) else f"is of type {type(value).__name__}"
            raise UserModuleError(path, f"'{name}' {what}, not a kernel: {KERNEL_FILE_RULE}", 1, 1)
        return value
    kernels = _kernels_defined(module)
    if not kernels:
        raise UserModuleError(path, f"no kernel found: {KERNEL_FILE_RULE}", 1, 1)
    if len(kernels) > 1:
        names = ", ".join(n for n, _ in kernels)
        raise UserModuleError(path, f"{len(kernels)} kernels ({names}): name one as {path}:NAME", 1, 1)
    return kernels[0][1]


def build_kernel_file(path: str, name: str | None = None):
    """The tile-level module of `kernel_of_file(path, name)`, its ops located at the
    Python lines that made them. A misuse of the DSL, or any exception the kernel body
    raises, is a UserModuleError at the user's line."""
    from ascend_mlir.frontend import DSLError

    kernel = kernel_of_file(path, name)
    try:
        return kernel.build()
    except DSLError as err:
        loc = err.location
        if loc is None:
            raise UserModuleError(path, err.message) from None
        raise UserModuleError(loc.file, err.message, loc.line, loc.column) from None
    except (Exception, SystemExit) as err:  # noqa: BLE001 - the kernel body is the user's code
        raise UserModuleError(path, f"building kernel '{kernel.name}' raised {type(err).__name__}: {err}",
                              _raising_line(err, path)) from None
