"""The tuner's disk cache: one JSON file per variant, failures included.

Where: `$ASCEND_TUNE_CACHE` if set, else `$XDG_CACHE_HOME/ascend-mlir/tune`, else
`~/.cache/ascend-mlir/tune`. Two kinds of entries:

* `rows/<k[:2]>/<k>.json`, keyed by the variant's canonical tile IR (shapes included,
  Python locations left out), the `ascend-compile` pipeline and options, the chip's
  resolved content, the compiler version (package version + digest of its sources and
  chip files) and the simulator seed; a perturbed check (`perturb` N) is its own entry.
  A worker reads it after building the variant, before compiling.
* `index/<f[:2]>/<f>.json`, keyed by the factory module's source, the factory's name,
  the config, the compiler version, the seed (and any chip file's content): the same row,
  found by the caller without building anything, which is what makes a rerun cheap.

Entries are written by the caller only (atomically: temp file + rename), so several
workers or nodes never race on a file. A `pruned` entry answers only for a threshold
its bound still reaches; a `timeout` only for a time limit no larger than the one that
expired. Delete the directory to start over.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

ENV = "ASCEND_TUNE_CACHE"
# what a row carries that belongs to the run, not to the variant
_VOLATILE = ("cache_hit", "seconds", "index", "config")


def default_dir() -> Path:
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ascend-mlir" / "tune"


def _still_valid(row: dict, task: dict) -> bool:
    if row.get("status") == "pruned":
        threshold = task.get("threshold")
        return threshold is not None and row.get("bound") is not None and row["bound"] >= threshold
    if row.get("status") == "timeout":
        return (task.get("timeout") or 0) <= (row.get("timeout") or 0)
    return True


class Cache:
    def __init__(self, directory: str | os.PathLike[str]):
        self.dir = Path(directory)

    def _path(self, kind: str, key: str, perturb: int = 0) -> Path:
        name = key + (f".perturb{perturb}" if perturb else "") + ".json"
        return self.dir / kind / key[:2] / name

    def _read(self, path: Path) -> dict | None:
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            return None  # missing or half-written by a killed run: a miss

    def _lookup(self, kind: str, key: str, task: dict) -> dict | None:
        row = self._read(self._path(kind, key, task.get("perturb", 0)))
        if row is None or not _still_valid(row, task):
            return None
        if row.get("status") == "pruned":
            row["threshold"] = task["threshold"]
            row["message"] = f"lower bound {row['bound']} >= best {task['threshold']} cycles"
        return row

    def lookup(self, key: str, task: dict) -> dict | None:
        """The row stored for this variant's IR key, if it still answers `task`."""
        return self._lookup("rows", key, task)

    def lookup_index(self, fast_key: str, task: dict) -> dict | None:
        """The row stored under the fast (source and config) key, if it still answers `task`."""
        return self._lookup("index", fast_key, task)

    def store(self, row: dict, task: dict, fast_key: str | None) -> None:
        """Keep `row` (the outcome of `task`) under its IR key and its fast key."""
        entry = {k: v for k, v in row.items() if k not in _VOLATILE}
        if row.get("status") == "timeout":
            entry["timeout"] = task.get("timeout")
        perturb = task.get("perturb", 0)
        if row.get("key"):
            self._write(self._path("rows", row["key"], perturb), entry)
        if fast_key:
            self._write(self._path("index", fast_key, perturb), entry)

    def _write(self, path: Path, entry: dict) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(entry, f, sort_keys=True)
        os.replace(tmp, path)
