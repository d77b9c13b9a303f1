"""Writing a tool's output to the path the user named, without destroying what it names.

`-o PATH` must behave like the shell's `> PATH` wherever that matters: a device, a FIFO,
a socket or a descriptor named through /proc (`-o /dev/stdout`) is written through (as
root, renaming a temporary file over `/dev/null` would turn the machine's `/dev/null`
into a regular file); a symlink is followed, never replaced; a regular file with other
hard links is written in place so the links keep seeing one file. Only where the path
names a plain regular file (or nothing yet) do we write a temporary file beside it and
rename it over the path, so that a failed run never leaves half an output behind; the
replacement keeps the old file's permission bits.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import tempfile


class OutputError(OSError):
    """The output could not be written; `str()` is the message a tool prints."""


def _replace_atomically(path: str, text: str, mode: int | None) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".ascend-mlir-", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # mkstemp's 0600 is not what `>` would give
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


def _write_through(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _through_proc(path: str) -> str | None:
    """The /proc path `path` reaches through its symlinks (`/dev/stdout`, `/dev/fd/N`,
    `/proc/self/fd/N`), or None: a descriptor opened before the tool ran, whose target's
    name (a pipe's `pipe:[N]`, the file of a `> out`) is no path to put a file at.
    Renaming over that name failed for a pipe and, for a file, swapped a new file in
    under the shell's open one, so what the shell wrote after the tool was lost."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on symlinks in one lookup
        folder = os.path.realpath(os.path.dirname(current))
        current = os.path.join(folder, os.path.basename(current))
        if folder == "/proc" or folder.startswith("/proc/"):
            return current
        if not os.path.islink(current):
            return None
        current = os.path.join(folder, os.readlink(current))
    return None


def _own_descriptor(proc_path: str) -> int | None:
    """N where `proc_path` is this process's /proc/PID/fd/N (`realpath` has made `self`
    our PID)."""
    match = re.fullmatch(r"/proc/(\d+)(?:/task/\d+)?/fd/(\d+)", proc_path)
    return int(match.group(2)) if match and int(match.group(1)) == os.getpid() else None


def _write_to_descriptor(fd: int, text: str) -> None:
    """Write at the descriptor's own offset, as the tool's output to it would: `-o
    /dev/stdout` inside `{ tool; echo more; } > out` leaves `more` after the text, where
    opening the path again starts a second offset at 0 and `more` overwrote the text."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    with os.fdopen(os.dup(fd), "w", encoding="utf-8") as f:
        f.write(text)


def write_text(path: str, text: str) -> None:
    """Write `text` to what `path` names (see the module docstring); raises OutputError."""
    try:
        proc_path = _through_proc(path)
        if proc_path is not None:
            fd = _own_descriptor(proc_path)
            if fd is not None:
                _write_to_descriptor(fd, text)
            else:  # another process's descriptor: what `>` does
                _write_through(path, text)
            return
        # A symlink is followed: the node it points at decides how we write.
        target = os.path.realpath(path) if os.path.islink(path) else path
        try:
            info = os.stat(target)
        except FileNotFoundError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if info is None:
            _replace_atomically(target, text, None)
        elif stat.S_ISREG(info.st_mode) and info.st_nlink == 1:
            if not os.access(target, os.W_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
            _replace_atomically(target, text, stat.S_IMODE(info.st_mode))
        else:
            # devices, FIFOs, sockets, hard-linked files: what `>` does
            _write_through(target, text)
    except OSError as err:
        raise OutputError(f"cannot write '{path}': {err.strerror or err}") from err
