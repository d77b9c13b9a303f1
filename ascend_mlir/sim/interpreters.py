"""xDSL's interpreter functions, one module at a time.

`import xdsl.interpreters.arith` first runs the package's `__init__`, which imports every
interpreter xDSL ships (riscv, snitch, linalg, pdl...): about 0.3 s of ascend-sim's
start-up for nothing. `interpreter_module` imports only the named submodules: the
package is entered as a bare namespace (its `__path__`, without running `__init__`) for
the duration of the import and removed afterwards, so a later `import xdsl.interpreters`
still gets the full package.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType

_PACKAGE = "xdsl.interpreters"


def interpreter_module(name: str) -> ModuleType:
    """`xdsl.interpreters.<name>` without the package's eager imports."""
    full = f"{_PACKAGE}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    placeholder = None
    if _PACKAGE not in sys.modules:
        spec = importlib.util.find_spec(_PACKAGE)
        assert spec is not None
        placeholder = importlib.util.module_from_spec(spec)
        sys.modules[_PACKAGE] = placeholder
    try:
        return importlib.import_module(full)
    finally:
        if placeholder is not None and sys.modules.get(_PACKAGE) is placeholder:
            del sys.modules[_PACKAGE]
