"""ascend_mlir/forked_tools.py: a command run through its clients behaves as the process
bash would have started: the same fds (pipes, redirections with their offsets), working
directory, environment, argv and sys.path[0], exit status and death by signal; a command
it cannot stand in for runs the real program."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ascend_mlir.forked_tools import ForkedTools

ROOT = Path(__file__).resolve().parents[2]
VECADD = ROOT / "examples" / "vecadd.mlir"


@pytest.fixture(scope="module")
def tools() -> Iterator[ForkedTools]:
    with ForkedTools() as server:
        yield server


def _bash(tools: ForkedTools, text: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-o", "pipefail", "-c", text], cwd=cwd, capture_output=True, text=True,
                          env={**tools.environment(), **env})


def test_forks_of_the_server_not_fresh_interpreters(tools: ForkedTools, tmp_path: Path):
    # a fork's parent is the server; bash is the parent of a real program (the client execs it)
    run = _bash(tools, 'python -c "import os; print(os.getppid())"; echo $$', tmp_path)
    forked_parent, bash = run.stdout.split()
    assert forked_parent != bash
    # python's start-up reads PYTHON* variables: another value there runs the real python
    run = _bash(tools, 'python -c "import os; print(os.getppid())"; echo $$', tmp_path,
                PYTHONHASHSEED="7")
    parent, bash = run.stdout.split()
    assert parent == bash
    # options the forks do not take (here -I) run the real python too
    run = _bash(tools, 'python -I -c "import os; print(os.getppid())"; echo $$', tmp_path)
    parent, bash = run.stdout.split()
    assert parent == bash


def test_pipes_redirections_and_exit_codes(tools: ForkedTools, tmp_path: Path):
    run = _bash(tools, f"ascend-opt {VECADD} | ascend-opt -p convert-tile-to-hivm | grep -c hivm.hir.load", tmp_path)
    assert run.returncode == 0 and int(run.stdout) > 0, run.stderr
    # `>` truncates, `>>` and a group's shared fd append at the fd's own offset
    run = _bash(tools, f"echo first > out.txt; {{ echo second; ascend-opt {VECADD}; echo third; }} >> out.txt",
                tmp_path)
    alone = _bash(tools, f"ascend-opt {VECADD}", tmp_path).stdout
    assert run.returncode == 0 and "builtin.module" in alone
    assert (tmp_path / "out.txt").read_text() == f"first\nsecond\n{alone}third\n"
    # a failure's located error and exit status 1, as `$?` and `||` see them
    run = _bash(tools, "ascend-opt missing.mlir 2> err.txt || echo status $?", tmp_path)
    assert run.stdout == "status 1\n"
    assert "error: cannot read 'missing.mlir'" in (tmp_path / "err.txt").read_text()
    # stdin from a file; stdout flushed at exit even when the status is not 0
    (tmp_path / "in.txt").write_text("to stdout\n")
    run = _bash(tools, "python -c 'import sys; print(sys.stdin.read(), end=\"\"); sys.exit(3)' < in.txt", tmp_path)
    assert (run.returncode, run.stdout) == (3, "to stdout\n")
    run = _bash(tools, "python -c 'import sys; sys.exit(\"a message\")'", tmp_path)
    assert (run.returncode, run.stderr) == (1, "a message\n")


def test_python_forms(tools: ForkedTools, tmp_path: Path):
    script = tmp_path / "sub" / "show.py"
    script.parent.mkdir()
    script.write_text("import os, sys\nprint(__name__, sys.argv, sys.path[0], os.getcwd())\n")
    run = _bash(tools, "python sub/show.py a b", tmp_path)
    assert run.stdout == f"__main__ ['sub/show.py', 'a', 'b'] {script.parent.resolve()} {tmp_path}\n", run.stderr
    run = _bash(tools, "python -c 'import sys; print(sys.argv, repr(sys.path[0]))' x", tmp_path)
    assert run.stdout == "['-c', 'x'] ''\n"
    (tmp_path / "local_mod.py").write_text("import sys\nprint(__name__, sys.argv[1:], sys.path[0])\n")
    run = _bash(tools, "python -m local_mod y", tmp_path)
    assert run.stdout == f"__main__ ['y'] {tmp_path}\n", run.stderr
    run = _bash(tools, "python missing.py", tmp_path)
    assert run.returncode == 2 and "can't open file" in run.stderr
    # an escaping exception: its traceback starts at the user's code, status 1
    run = _bash(tools, "python -c 'raise ValueError(42)'", tmp_path)
    assert run.returncode == 1 and run.stderr.startswith("Traceback") and "forked_tools" not in run.stderr
    assert run.stderr.endswith("ValueError: 42\n")


def test_environment_cwd_umask_and_signals(tools: ForkedTools, tmp_path: Path):
    run = _bash(tools, "cd sub 2>/dev/null || mkdir sub && cd sub; umask 077; export DOC_VALUE=1; "
                       "python -c 'import os; print(os.environ[\"DOC_VALUE\"], os.getcwd()); open(\"f\", \"w\")'",
                tmp_path)
    assert run.stdout == f"1 {tmp_path / 'sub'}\n", run.stderr
    assert (tmp_path / "sub" / "f").stat().st_mode & 0o777 == 0o600
    # a death by a signal is the client's death by it: bash reports 128 + n
    run = _bash(tools, "python -c 'import os, signal; os.kill(os.getpid(), signal.SIGTERM)'; echo $?", tmp_path)
    assert run.stdout.endswith("143\n")
    # -o through a device: /dev/null stays a device
    run = _bash(tools, f"ascend-opt {VECADD} -o /dev/null", tmp_path)
    assert run.returncode == 0 and not os.path.isfile("/dev/null")
