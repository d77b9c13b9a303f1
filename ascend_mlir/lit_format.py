"""A lit test format that runs our own tools inside lit's worker processes.

lit's internal shell starts a process per command of a RUN line, and each `ascend-opt`
or `ascend-sim` spends most of its CPU time importing xDSL and our dialects before it
reads its input (about 0.8 s; the suite has several hundred such commands). This format
is lit's `ShTest` except for pipelines made only of the console scripts in
`IN_PROCESS_SCRIPTS` (each optionally under `not`, with `<`, `>`, `>>`, `2>`, `2>>`,
`2>&1` and `2>&1 >file` (stderr into the pipe, stdout to the file) redirects): those run through `testing.run_console_script` in the worker, which
imported them once, one command after the other, each reading the previous one's stdout.
A pipeline that mixes them with other programs (`ascend-opt ... | %bishengir_opt |
ascend-opt | filecheck`, `ascend-sim --json | %python -c ...`, `grep -v ... | ascend-sim -`)
runs the same way, stage after stage: each other program goes alone through lit's shell,
reading the previous stage's output from a file. A pipeline of other programs only
(bishengir, mlir-opt, g++, grep, diff, `env`, `not --crash`, ...) goes to lit's shell
unchanged, and so does a mixed one whose other program reads its own `<` file.

A determinism check compares a run in the worker with one in a new interpreter (another
hash seed, cold caches): lit.cfg's `%in_new_process` puts `env` before that one, so lit's
shell starts it. A test whose every run must be its own interpreter says so with a
`LIT-SUBPROCESS:` line (and why) and runs wholly in lit's shell.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import lit.formats
import lit.ShUtil
import lit.TestRunner
from lit.ShellEnvironment import ShellCommandResult, expand_glob, expand_glob_expressions

from ascend_mlir.testing import console_script, run_console_script

SUBPROCESS_MARKER = "LIT-SUBPROCESS:"

# run in the worker when installed: the project's tools and the checker
IN_PROCESS_SCRIPTS = ("ascend-opt", "ascend-sim", "filecheck")


@dataclass
class _Stage:
    """One command of a pipeline: its arguments, negations and redirects."""

    command: lit.ShUtil.Command
    argv: list[str]
    negations: int
    stdin_file: str | None = None
    # (path, append) for fd 1 / fd 2, or None: fd 1 to the pipe, fd 2 to lit's record
    stdout_file: tuple[str, bool] | None = None
    stderr_file: tuple[str, bool] | None = None
    stderr_to_stdout: bool = False  # 2>&1: fd 2 goes wherever fd 1 goes
    stderr_to_pipe: bool = False  # 2>&1 >file: fd 2 took the pipe before fd 1 moved to the file


def _redirect(stage: _Stage, op: tuple, filename: str) -> bool:
    """Apply one redirect as lit's processRedirects does; False for one left to lit's
    shell (fd 1 moved after 2>&1 joined fd 2 to a file, other duplications)."""
    if op == ("<",):
        stage.stdin_file = filename
    elif op in ((">",), (">>",)) and not stage.stderr_to_stdout:
        stage.stdout_file = (filename, op[0] == ">>")
    elif op in ((">",), (">>",)) and stage.stdout_file is None:
        # `2>&1 >file`: fd 2 keeps the pipe fd 1 had, fd 1 goes to the file
        stage.stdout_file = (filename, op[0] == ">>")
        stage.stderr_to_stdout, stage.stderr_to_pipe = False, True
    elif op in ((">", 2), (">>", 2)):
        stage.stderr_file = (filename, op[0] == ">>")
        stage.stderr_to_stdout = stage.stderr_to_pipe = False
    elif op == (">&", 2) and filename == "1":
        stage.stderr_to_stdout = True
        stage.stderr_to_pipe = False
        stage.stderr_file = None
    else:
        return False
    return True


def _parse_stage(command: lit.ShUtil.Command, cwd: str) -> _Stage | None:
    args = list(command.args)
    negations = 0
    while args and args[0] == "not" and args[1:2] != ["--crash"]:
        args.pop(0)
        negations += 1
    if not args or args[0] not in IN_PROCESS_SCRIPTS or console_script(args[0]) is None:
        return None
    args = lit.TestRunner._expandLateSubstitutions(command, args, cwd)
    stage = _Stage(command, expand_glob_expressions(args, cwd), negations)
    for op, filename in command.redirects:
        names = expand_glob(filename, cwd)
        if len(names) != 1 or not _redirect(stage, op, names[0]):
            return None
    return stage


def _write_file(path: str, data: bytes, cwd: str, append: bool = True) -> None:
    with open(os.path.join(cwd, path), "ab" if append else "wb") as f:
        f.write(data)


def _run_stage(stage: _Stage, stdin: bytes, shenv) -> tuple[ShellCommandResult, bytes]:
    """Run one command: its result for lit's record and what it writes into the pipe."""
    if stage.stdin_file is not None:
        with open(os.path.join(shenv.cwd, stage.stdin_file), "rb") as f:
            stdin = f.read()
    run = run_console_script(stage.argv[0], stage.argv[1:], stdin, cwd=shenv.cwd, env=shenv.env,
                             join_stderr=stage.stderr_to_stdout)
    out, err, code = run.stdout, run.stderr, run.returncode
    # `not` (lit's): a failure succeeds, a success fails; `not not` keeps only failure
    if stage.negations % 2:
        code = 1 if code == 0 else 0
    elif stage.negations > 1:
        code = 1 if code != 0 else 0
    if stage.stdout_file is not None:
        _write_file(stage.stdout_file[0], out, shenv.cwd)
        out = b""
    if stage.stderr_file is not None:
        _write_file(stage.stderr_file[0], err, shenv.cwd)
        err = b""
    if stage.stderr_to_pipe:
        out, err = err, b""
    result = ShellCommandResult(stage.command, out.decode("utf-8", "replace"),
                                err.decode("utf-8", "replace"), code, False, [])
    return result, out


def _run_in_shell(shell, command: lit.ShUtil.Command, stdin: bytes | None, pipe_err: bool, shenv,
                  timeout_helper) -> tuple[ShellCommandResult, bytes]:
    """Another program of a mixed pipeline, alone through lit's shell; `stdin` (None for
    the first stage) is what the previous stage wrote, given as a `<` file."""
    redirects = list(command.redirects)
    fd, path = tempfile.mkstemp(prefix="lit-pipe-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(stdin or b"")
        if stdin is not None and not any(op[0] == "<" for op, _ in redirects):  # its own `<` file wins
            redirects.append((("<",), path))
        own: list = []
        code = shell(lit.ShUtil.Pipeline([lit.ShUtil.Command(command.args, redirects)], False, pipe_err),
                     shenv, own, timeout_helper)
    finally:
        os.unlink(path)
    result = own[-1] if own else ShellCommandResult(command, "", "", 0, False, [])
    result.exitCode = code if code is not None else 1
    return result, result.stdout.encode("utf-8")


def _run_pipeline(stages: Sequence[_Stage | lit.ShUtil.Command], pipe_err: bool, shenv, results: list,
                  shell=None, timeout_helper=None) -> int:
    """The stages one after the other (a pipe's reader sees the same bytes when the
    writer finished first); the exit code as lit's shell computes it (with pipefail, the
    last failing command's). A stage that is a lit Command (another program) runs in
    lit's `shell`."""
    # the shell opens every redirected file (truncating unless appending) first
    for stage in stages:
        if isinstance(stage, _Stage):
            for target in (stage.stdout_file, stage.stderr_file):
                if target is not None:
                    _write_file(target[0], b"", shenv.cwd, append=target[1])
    piped = b""
    exit_code = 0
    for index, stage in enumerate(stages):
        if isinstance(stage, _Stage):
            result, piped = _run_stage(stage, piped, shenv)
        else:
            result, piped = _run_in_shell(shell, stage, piped if index else None, pipe_err, shenv, timeout_helper)
        if index < len(stages) - 1:
            result.stdout = ""  # the next command read it
        results.append(result)
        if not pipe_err or not exit_code or result.exitCode != 0:
            exit_code = result.exitCode
    return exit_code


def _in_process_stages(cmd, cwd: str) -> list[_Stage] | None:
    if not isinstance(cmd, lit.ShUtil.Pipeline):
        return None
    stages = [_parse_stage(command, cwd) for command in cmd.commands]
    if not stages or any(stage is None for stage in stages):
        return None
    return [stage for stage in stages if stage is not None]


def _mixed_stages(cmd, cwd: str) -> list[_Stage | lit.ShUtil.Command] | None:
    """A pipeline of our tools and other programs: each stage parsed, or the lit Command
    of another program; None (lit's shell takes it whole) when no stage is ours, when
    one of ours has redirects the format does not take, or when another program that is
    not the last has redirects other than `2>&1` (its stdout, with its stderr where it
    says so, and nothing else must feed the next stage: lit's shell runs it as the last
    command of its own pipeline, whose stdout it captures, stderr joined under `2>&1`)."""
    if not isinstance(cmd, lit.ShUtil.Pipeline):
        return None
    stages: list[_Stage | lit.ShUtil.Command] = []
    for index, command in enumerate(cmd.commands):
        stage = _parse_stage(command, cwd)
        if stage is None and _names_our_tool(command):
            return None
        if stage is None and index < len(cmd.commands) - 1 and command.redirects not in ([], [_JOIN_STDERR]):
            return None
        stages.append(stage or command)
    return stages if any(isinstance(stage, _Stage) for stage in stages) else None


_JOIN_STDERR = ((">&", 2), "1")  # lit.ShUtil's parse of `2>&1`


def _names_our_tool(command: lit.ShUtil.Command) -> bool:
    args = [a for a in command.args if a != "not"]
    return bool(args) and args[0] in IN_PROCESS_SCRIPTS


@contextlib.contextmanager
def _scripts_in_process() -> Iterator[None]:
    shell = lit.TestRunner._executeShCmd

    def execute(cmd, shenv, results, timeout_helper):
        stages = _mixed_stages(cmd, shenv.cwd)
        if stages is None:
            return shell(cmd, shenv, results, timeout_helper)
        code = _run_pipeline(stages, cmd.pipe_err, shenv, results, shell, timeout_helper)
        return int(not code) if cmd.negate else code

    lit.TestRunner._executeShCmd = execute
    try:
        yield
    finally:
        lit.TestRunner._executeShCmd = shell


class InProcessShTest(lit.formats.ShTest):
    """lit's ShTest; our tools' pipelines run in the worker (see the module's docstring)."""

    def execute(self, test, litConfig):
        with open(test.getSourcePath(), encoding="utf-8", errors="replace") as source:
            if SUBPROCESS_MARKER in source.read():
                return super().execute(test, litConfig)
        with _scripts_in_process():
            return super().execute(test, litConfig)
