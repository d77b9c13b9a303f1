"""Locating the external programs that keep us honest, for tests and tools.

A test that needs `bishengir-opt`, `bishengir-compile` or `mlir-opt` calls
`require_tool(name)`: locally a missing program skips the test with a visible reason;
with ASCEND_MLIR_REQUIRE_TOOLS=1 (set by CI) it is a failure, so CI never skips silently.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

MLIR_OPT_DIRS = ("/usr/lib/llvm-22/bin",)


def _bishengir_bin_dir() -> Path | None:
    try:
        import ascendnpuir  # type: ignore[import-not-found]
    except ImportError:
        return None
    candidate = Path(ascendnpuir.__file__).parent / "bin"
    return candidate if candidate.is_dir() else None


def find_tool(name: str) -> str | None:
    """The absolute path of an external tool, or None when it is not installed.

    Known names: bishengir-opt, bishengir-compile (and their `-a5` builds), mlir-opt.
    Environment variables ASCEND_MLIR_<NAME> (upper case, '-' -> '_') override the search.
    """
    override = os.environ.get("ASCEND_MLIR_" + name.upper().replace("-", "_"))
    if override:
        return override if os.access(override, os.X_OK) else None
    if name.startswith("bishengir"):
        bin_dir = _bishengir_bin_dir()
        if bin_dir is not None and os.access(bin_dir / name, os.X_OK):
            return str(bin_dir / name)
        return shutil.which(name)
    if name == "mlir-opt":
        for directory in MLIR_OPT_DIRS:
            path = Path(directory) / name
            if os.access(path, os.X_OK):
                return str(path)
        return shutil.which("mlir-opt-22") or shutil.which("mlir-opt")
    return shutil.which(name)


def tools_required() -> bool:
    return os.environ.get("ASCEND_MLIR_REQUIRE_TOOLS", "") not in ("", "0")


def require_tool(name: str) -> str:
    """Path of `name` for a pytest test; skip (locally) or fail (in CI) when missing."""
    import pytest

    path = find_tool(name)
    if path is None:
        message = f"external tool '{name}' not found"
        if tools_required():
            pytest.fail(message + " and ASCEND_MLIR_REQUIRE_TOOLS=1", pytrace=False)
        pytest.skip(message)
    return path
