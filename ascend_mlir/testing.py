"""Locating the external programs that keep us honest, for tests and tools.

A test that needs `bishengir-opt`, `bishengir-compile` or `mlir-opt` calls
`require_tool(name)`: locally a missing program skips the test with a visible reason;
with ASCEND_MLIR_REQUIRE_TOOLS=1 (set by CI) it is a failure, so CI never skips silently.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import shutil
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

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


# --- console scripts run in this interpreter ------------------------------------------
# Starting `ascend-opt` costs about 0.8 s of imports before it reads its input; a test
# suite that runs it hundreds of times spends most of its time there. These helpers call
# the function an installed console script calls, with what a process would see.

_PIPE_BUFFER = 8192  # io.DEFAULT_BUFFER_SIZE: a Python process's stdout to a pipe


@dataclass(frozen=True)
class ScriptRun:
    """What a console script run left: its exit code and the bytes of fd 1 and fd 2
    (fd 2 empty when it was joined to fd 1)."""

    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", "replace")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "replace")


@functools.cache
def console_script(name: str) -> Callable[[], object] | None:
    """The function the installed console script `name` calls (pyproject's
    [project.scripts], or another distribution's, e.g. filecheck), or None."""
    for entry in entry_points(group="console_scripts", name=name):
        return entry.load()
    return None


class _Sink(io.RawIOBase):
    """The read end of a pipe: collects bytes in write order."""

    def __init__(self) -> None:
        super().__init__()
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        self.data += bytes(b)
        return len(b)


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    return value if isinstance(value, int) else 1


@contextlib.contextmanager
def _process_state(argv: list[str], cwd: str | None, env: dict[str, str] | None) -> Iterator[None]:
    """sys.argv, the working directory, os.environ and the warning registries as a new
    process would have them; restored afterwards."""
    saved_argv, saved_cwd, saved_env = sys.argv, os.getcwd(), dict(os.environ)
    sys.argv = list(argv)
    if cwd is not None:
        os.chdir(cwd)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    try:
        # catch_warnings resets the once-per-location registries: each run warns anew
        with warnings.catch_warnings():
            yield
    finally:
        if env is not None:
            os.environ.clear()
            os.environ.update(saved_env)
        os.chdir(saved_cwd)
        sys.argv = saved_argv


def _run_entry(entry: Callable[[], object]) -> int:
    """entry() as the console script's `sys.exit(entry())` and the interpreter's exit
    would end: an exit message or an escaping exception's traceback on stderr."""
    try:
        code = entry()
    except SystemExit as exit_:
        code = exit_.code
    except KeyboardInterrupt:
        raise
    except BaseException:
        traceback.print_exc()
        return 1
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
    return _exit_code(code)


def run_console_script(name: str, args: Sequence[str], stdin: bytes | str = b"", *,
                       cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None,
                       join_stderr: bool = False) -> ScriptRun:
    """Run the console script `name` with `args` in this interpreter, as a process with
    that argv, `stdin`, working directory and environment (None: this one's) would run:
    stdout and stderr set up as Python does for pipes (stdout block-buffered in 8 KiB,
    stderr line-buffered), written to one stream with `join_stderr` (as `2>&1`), so the
    interleaving is a process's. The tool's state is this interpreter's (imports, caches,
    hash seed): a test of determinism across processes must start processes."""
    entry = console_script(name)
    if entry is None:
        raise LookupError(f"no console script named {name!r} is installed")
    out_sink = _Sink()
    err_sink = out_sink if join_stderr else _Sink()
    stdout = io.TextIOWrapper(io.BufferedWriter(out_sink, _PIPE_BUFFER), encoding="utf-8")
    stderr = io.TextIOWrapper(io.BufferedWriter(err_sink, _PIPE_BUFFER), encoding="utf-8",
                              errors="backslashreplace", line_buffering=True)
    data = stdin.encode() if isinstance(stdin, str) else stdin
    stdin_stream = io.TextIOWrapper(io.BufferedReader(io.BytesIO(data)), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin_stream, stdout, stderr
    try:
        with _process_state([name, *args], None if cwd is None else os.fspath(cwd), env):
            code = _run_entry(entry)
        # the interpreter flushes stdout, then stderr, at exit
        for stream in (stdout, stderr):
            if not stream.closed:
                stream.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return ScriptRun(code, bytes(out_sink.data), b"" if join_stderr else bytes(err_sink.data))


def tool_dirs() -> list[str]:
    """The directories of the external tools that are installed but not on PATH: the
    ascendnpu-ir wheel's bin (bishengir-opt, bishengir-compile and their -a5 builds) and
    upstream mlir-opt 22's. `export PATH="$(python -m ascend_mlir.testing):$PATH"` puts
    them where the README's commands find them."""
    dirs: list[str] = []
    bishengir = _bishengir_bin_dir()
    if bishengir is not None:
        dirs.append(str(bishengir))
    dirs += [d for d in MLIR_OPT_DIRS if os.access(Path(d) / "mlir-opt", os.X_OK)]
    return dirs


if __name__ == "__main__":
    print(os.pathsep.join(tool_dirs()))
