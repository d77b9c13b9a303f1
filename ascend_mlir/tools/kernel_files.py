"""A Python DSL kernel file given to ascend-opt or ascend-sim (`ascend-sim
examples/linear_bias.py`): the kernel it defines, built into a tile-level module located
at its Python lines. What goes wrong in the user's file is a UserModuleError located
there (user_modules), never a traceback of ours. Here, above both the frontend and
user_modules, because the library's own users of user_modules (the simulator's
--reference) sit under the frontend."""

from __future__ import annotations

import os
import re
import types
from typing import Any

from ascend_mlir.user_modules import UserModuleError, raising_line, run_module

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
                                      raising_line(err, path)) from None
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
                              raising_line(err, path)) from None
