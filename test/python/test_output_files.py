"""`-o PATH` writes through to what PATH names and never replaces a device, FIFO or symlink.

Made as a normal user could: a FIFO and symlinks in a temporary folder (and, when the
suite runs as root, a character device made with mknod: the case that once turned the
machine's /dev/null into a regular file).
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ascend_mlir import output_files
from ascend_mlir.tools import ascend_opt

KERNEL = Path(__file__).resolve().parents[2] / "examples" / "vecadd.mlir"


def _ascend_opt_to(path: Path | str) -> int:
    return ascend_opt.main([str(KERNEL), "-p", "convert-tile-to-hivm", "-o", str(path)])


def test_regular_file_is_replaced_whole_and_keeps_its_mode(tmp_path: Path):
    out = tmp_path / "out.mlir"
    out.write_text("old")
    out.chmod(0o640)
    assert _ascend_opt_to(out) == 0
    assert "hivm.hir.vadd" in out.read_text()
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]  # no temporary left


def test_symlink_is_written_through_not_replaced(tmp_path: Path):
    target = tmp_path / "real.mlir"
    target.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert _ascend_opt_to(link) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "hivm.hir.vadd" in target.read_text()


def test_dangling_symlink_creates_its_target(tmp_path: Path):
    link = tmp_path / "link.mlir"
    link.symlink_to(tmp_path / "new.mlir")
    assert _ascend_opt_to(link) == 0
    assert link.is_symlink()
    assert "hivm.hir.vadd" in (tmp_path / "new.mlir").read_text()


def test_hard_linked_file_is_written_in_place(tmp_path: Path):
    first = tmp_path / "a.mlir"
    first.write_text("old")
    second = tmp_path / "b.mlir"
    os.link(first, second)
    assert _ascend_opt_to(first) == 0
    assert first.stat().st_ino == second.stat().st_ino
    assert "hivm.hir.vadd" in second.read_text()


def test_fifo_is_written_through(tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    assert _ascend_opt_to(fifo) == 0
    reader.join(timeout=30)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert b"hivm.hir.vadd" in received[0]


def test_character_device_stays_a_device(tmp_path: Path):
    if os.geteuid() != 0:
        pytest.skip("mknod of a character device needs root (the suite runs as root in CI)")
    node = tmp_path / "null"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a second /dev/null
    assert _ascend_opt_to(node) == 0
    assert stat.S_ISCHR(node.stat().st_mode)
    assert os.major(node.stat().st_rdev) == 1 and os.minor(node.stat().st_rdev) == 3


def test_dev_null_itself_stays_a_device():
    # The tutorial once ran `-o /dev/null`: whatever the suite did before, it is a device.
    assert _ascend_opt_to("/dev/null") == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_directory_and_missing_folder_are_errors(tmp_path: Path, capsys):
    assert _ascend_opt_to(tmp_path) == 1
    assert "cannot write" in capsys.readouterr().err
    assert _ascend_opt_to(tmp_path / "no" / "such.mlir") == 1
    assert "cannot write" in capsys.readouterr().err


def test_write_text_raises_output_error(tmp_path: Path):
    with pytest.raises(output_files.OutputError, match="cannot write"):
        output_files.write_text(str(tmp_path), "x")


def _ascend_opt_command(output: str) -> str:
    return " ".join(shlex.quote(a) for a in (sys.executable, "-m", "ascend_mlir.tools.ascend_opt", str(KERNEL),
                                             "-p", "convert-tile-to-hivm", "-o", output))


@pytest.mark.parametrize("output", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_stdout_named_as_a_path_is_the_pipe(output: str):
    # /dev/stdout -> /proc/self/fd/1 -> `pipe:[N]`: renaming a file over that name failed
    run = subprocess.run(_ascend_opt_command(output), shell=True, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "hivm.hir.vadd" in run.stdout


def test_stdout_named_as_a_path_writes_at_the_shells_offset(tmp_path: Path):
    # `{ tool -o /dev/stdout; echo more; } > out`: the text, then `more`, in the shell's one
    # file. Renaming over the file's name left `more` alone in the file the shell held;
    # opening the path again would start at offset 0, and `more` overwrite the text.
    out = tmp_path / "out.txt"
    run = subprocess.run(f"{{ {_ascend_opt_command('/dev/stdout')}; echo more; }} > {shlex.quote(str(out))}",
                         shell=True, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    text = out.read_text()
    assert text.startswith("builtin.module") and "hivm.hir.vadd" in text
    assert text.endswith("}\n\nmore\n")
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
