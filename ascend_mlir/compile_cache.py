"""A run-scoped cache of ascend-compile's results and of the CCE printer's sync re-check,
for the test suite: several test files compile the same example with the same options
(flash_attention_dyn: about 18 CPU s for -t npuir and 35 for the CCE route, plus 36 for
the printer's re-check, most of it verify-sync), and one compile per run is enough.

Off unless a caller opens `caching(directory)` (the suite's conftest does, for the test
files that say `SHARE_COMPILES = True`); a tool run never caches. While it is open:

* `AscendCompilePass.apply` looks its input up by a digest of the input as printed (with
  its locations), the pass's options, a chip file's bytes, xDSL's version and every
  source file of ascend_mlir; a hit puts the stored output in place of the module's body
  and writes the remarks the first run wrote on stderr; a miss compiles, then stores the
  output (only when it prints back byte-identical after a parse) and its remarks;
* `check_prepared` (the printer's re-check of the sync it prints) likewise, remarks only;
* the modulo scheduler's solve of a loop (`solve_through`) is looked up by its problem
  and options (the solver is a function of them within its rlimit), so inputs that
  differ but pose equal loops (a trip count, a sync mode) solve each loop once per
  process; `sharing_solves()` opens that alone (and the replays of equal problems,
  `scheduling.problem.sharing_replays`, which are likewise functions of the problem).

Inputs that differ only in the name of their one source file share an entry: the name is
replaced by a placeholder in the key, the stored output and the remarks, and the
caller's name put back on a hit (the same kernel read from `examples/k.mlir` and from its
absolute path). Only successes are stored: a refusal is computed again, so its message
and location are always the caller's. Nothing is stored while a stage observer
(`ascend-opt --dump-dir`) watches the stages, which a hit would not show it. One lock file
per entry makes a second process (an xdist worker) wait for the first one's result instead
of computing it too. A test that patches the compiler's functions or constants must not
open the cache (its digest sees the sources on disk, not the patch)."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import io
import os
import pickle
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ascend_mlir.scheduling.problem import sharing_replays

PLACEHOLDER = "@ascend-mlir-cache-file@"

Solved = TypeVar("Solved")

_directory: list[Path] = []  # the open cache, innermost last


@contextlib.contextmanager
def caching(directory: str | os.PathLike[str]) -> Iterator[Path]:
    """Cache compiles and re-checks in `directory` (made if missing) while open."""
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    _directory.append(path)
    try:
        with sharing_replays():
            yield path
    finally:
        _directory.remove(path)


def active() -> Path | None:
    return _directory[-1] if _directory else None


@functools.cache
def _sources_digest() -> str:
    """Every source and chip file of the package and xDSL's version: a change to any of
    them is a new key."""
    import xdsl

    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(str(getattr(xdsl, "__version__", "?")).encode())
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _printed(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()


def _source_name(module: ModuleOp) -> str | None:
    """The one file every location of `module` names, when it is one plain name (else
    None: the text is taken as it is)."""
    names = {op.location.filename.data for op in module.walk() if isinstance(op.location, FileLineColLoc)}
    if len(names) != 1:
        return None
    name = names.pop()
    return name if re.fullmatch(r"[\w./+-]+", name) and PLACEHOLDER not in name else None


class _Names:
    """The caller's source name <-> the placeholder, in IR text and in diagnostics."""

    def __init__(self, name: str | None) -> None:
        self.name = name

    def hide(self, text: str) -> str:
        if self.name is None:
            return text
        text = text.replace(f'loc("{self.name}":', f'loc("{PLACEHOLDER}":')
        return re.sub(rf"(?<![\w./+-]){re.escape(self.name)}(?=:\d+:\d+)", PLACEHOLDER, text)

    def show(self, text: str) -> str:
        return text if self.name is None else text.replace(PLACEHOLDER, self.name)


class _Tee(io.TextIOBase):
    """Writes to `stream` and keeps a copy."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, s: str) -> int:
        self.copy.write(s)
        return self.stream.write(s)

    def flush(self) -> None:
        self.stream.flush()


@contextlib.contextmanager
def _locked(directory: Path, key: str) -> Iterator[None]:
    with open(directory / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _write(path: Path, text: str) -> None:
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)  # a reader sees the whole entry or none


def _key(kind: str, parts: Sequence[str]) -> str:
    digest = hashlib.sha256(f"{kind}\0{_sources_digest()}".encode())
    for part in parts:
        digest.update(b"\0" + part.encode())
    return f"{kind}-{digest.hexdigest()[:40]}"


def _replace_module(op: ModuleOp, new: ModuleOp) -> None:
    """`op` becomes `new`: its attributes, properties and body ops."""
    op.attributes.clear()
    op.attributes.update(new.attributes)
    op.properties.clear()
    op.properties.update(new.properties)
    block = op.body.block
    for old in reversed(list(block.ops)):
        old.detach()
        old.erase(safe_erase=False)
    for moved in list(new.body.block.ops):
        moved.detach()
        block.add_op(moved)


def _observed() -> bool:
    from ascend_mlir.transforms.stages import observing

    return observing()


@functools.cache
def _context() -> Context:
    """Our dialects and the upstream ones our IR uses (the caller's own context may have
    only the input's)."""
    from ascend_mlir.context import make_context

    return make_context()


def compile_through(op: ModuleOp, options: str, compile_module: Callable[[], None]) -> None:
    """Run `compile_module()` (which rewrites `op` in place), or put a cached result of the
    same input and `options` in its place."""
    directory = active()
    if directory is None or _observed():
        compile_module()
        return
    names = _Names(_source_name(op))
    key = _key("compile", [options, names.hide(_printed(op))])
    with _locked(directory, key):
        stored, remarks = directory / f"{key}.mlir", directory / f"{key}.stderr"
        if stored.exists() and remarks.exists():
            _replace_module(op, Parser(_context(), names.show(stored.read_text(encoding="utf-8"))).parse_module())
            sys.stderr.write(names.show(remarks.read_text(encoding="utf-8")))
            return
        with _teed_stderr() as tee:
            compile_module()
        output = _printed(op)
        if _printed(Parser(_context(), output).parse_module()) == output:  # stored only what reads back the same
            _write(remarks, names.hide(tee.copy.getvalue()))
            _write(stored, names.hide(output))


def check_through(module: ModuleOp, options: str, check: Callable[[], None]) -> None:
    """Run `check()` (a check that only raises or writes remarks), or write the remarks of
    its earlier success on the same IR and `options`."""
    directory = active()
    if directory is None:
        check()
        return
    names = _Names(_source_name(module))
    key = _key("check", [options, names.hide(_printed(module))])
    with _locked(directory, key):
        remarks = directory / f"{key}.stderr"
        if remarks.exists():
            sys.stderr.write(names.show(remarks.read_text(encoding="utf-8")))
            return
        with _teed_stderr() as tee:
            check()
        _write(remarks, names.hide(tee.copy.getvalue()))


_solves: dict[str, bytes] = {}  # this process's solves, pickled, by key
_sharing_solves: list[bool] = []  # open `sharing_solves()` contexts


@contextlib.contextmanager
def sharing_solves() -> Iterator[None]:
    """Share solves (`solve_through`) while open, without caching whole compiles: for
    inputs that differ but pose equal loops (the compile cache stores each output,
    work wasted on inputs that never come back)."""
    _sharing_solves.append(True)
    try:
        with sharing_replays():
            yield
    finally:
        _sharing_solves.pop()


def solve_through(problem: object, options: dict[str, object], solve: Callable[[], Solved]) -> Solved:
    """`solve()`, a function of `problem` and `options` alone (the modulo scheduler of
    one loop within its rlimit), or a copy of its earlier result in this process on an
    equal problem with equal options, while the cache or `sharing_solves()` is open.
    Keyed by their reprs (plain dataclasses: every field shows); only results are
    kept, an error is raised again by solving again."""
    if active() is None and not _sharing_solves:
        return solve()
    key = _key("solve", [repr(problem), repr(sorted(options.items()))])
    if key not in _solves:
        _solves[key] = pickle.dumps(solve())
    return pickle.loads(_solves[key])


@contextlib.contextmanager
def _teed_stderr() -> Iterator[_Tee]:
    tee = _Tee(sys.stderr)
    saved, sys.stderr = sys.stderr, tee
    try:
        yield tee
    finally:
        sys.stderr = saved
