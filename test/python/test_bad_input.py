"""The bad-input corpus (test/bad-input): nothing the hardware cannot run is accepted.

Each `test/bad-input/<category>/<name>.mlir` starts with a header:

    // Bad input (<category>): what is wrong.
    // ARGS: ascend-opt arguments after the file (optional; %S is the file's directory)
    // SIM: ascend-sim arguments (optional: the file also goes through ascend-sim)
    // ERROR: a part of the expected error message
    // OUTPUT: (instead of ERROR) a degenerate input with a correct result: ascend-opt
    //         must exit 0 and print this line (an empty file is an empty module, as
    //         mlir-opt prints it)

ascend-opt (with `-o`) and, for SIM files, ascend-sim must exit with status 1, print the
message as a located `file:line:col: error:` (options and chip files: `error:`), print no
Python traceback, and leave no output file behind. The tools run in this process (their
`main`); files and paths (missing, a directory, not UTF-8, unwritable outputs) are run as
the installed commands, the cases at the end.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from ascend_mlir.testing import run_console_script

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "test" / "bad-input"
UNLOCATED = ("options", "chip-files")
GOOD_KERNEL = ROOT / "examples" / "vecadd.mlir"


@dataclass(frozen=True)
class BadInput:
    path: Path
    args: tuple[str, ...]
    sim: tuple[str, ...] | None
    error: str
    output: str | None = None  # a correct result expected instead of an error

    @property
    def category(self) -> str:
        return self.path.parent.name


def _header(path: Path) -> BadInput:
    fields: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"// (ARGS|SIM|ERROR|OUTPUT):(.*)$", line)
        if match:
            fields[match.group(1)] = match.group(2).strip()
        elif not line.startswith("//"):
            break
    directory = str(path.parent)

    def split(text: str) -> tuple[str, ...]:
        return tuple(shlex.split(text.replace("%S", directory)))

    assert fields.get("ERROR", fields.get("OUTPUT", "")) != "", f"{path}: no // ERROR: or // OUTPUT: line"
    return BadInput(
        path,
        split(fields.get("ARGS", "")),
        split(fields["SIM"]) if "SIM" in fields else None,
        fields.get("ERROR", ""),
        fields.get("OUTPUT"),
    )


def corpus() -> list[BadInput]:
    return [_header(p) for p in sorted(CORPUS.glob("*/*.mlir"))]


@dataclass(frozen=True)
class Run:
    returncode: int
    stderr: str
    stdout: str = ""


def _run_in_process(tool: str, argv: list[str]) -> Run:
    """Run ascend-opt/ascend-sim's `main` here (a subprocess per case is slow); an
    exception escaping it fails the test like a traceback would."""
    from ascend_mlir.tools import ascend_opt, ascend_sim

    main = {"ascend-opt": ascend_opt.main, "ascend-sim": ascend_sim.main}[tool]
    stderr, stdout = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    return Run(code, stderr.getvalue(), stdout.getvalue())


def _check_failure(run: Run, case: BadInput, tool: str) -> None:
    where = f"{tool} on {case.path.relative_to(ROOT)}"
    assert "Traceback" not in run.stderr, f"{where} printed a traceback:\n{run.stderr}"
    assert run.returncode == 1, f"{where}: exit {run.returncode}, expected 1\n{run.stderr}"
    lines = [line for line in run.stderr.splitlines() if case.error in line]
    assert lines, f"{where}: expected an error containing {case.error!r}, got:\n{run.stderr}"
    if case.category in UNLOCATED:
        assert "error:" in lines[0], f"{where}: not an error line: {lines[0]}"
    else:
        located = re.compile(rf"^{re.escape(str(case.path))}:\d+:\d+: error: ")
        assert located.match(lines[0]), f"{where}: not located at the input: {lines[0]}"


def test_the_corpus_is_large_and_covers_every_category() -> None:
    cases = corpus()
    assert len(cases) >= 80
    categories = {c.category for c in cases}
    assert {"syntax", "verifier", "scopes", "capacity", "types", "subviews", "options", "chip-files"} <= categories


@pytest.mark.parametrize("case", corpus(), ids=lambda c: f"{c.category}/{c.path.stem}")
def test_ascend_opt_rejects(case: BadInput, tmp_path: Path) -> None:
    output = tmp_path / "out.mlir"
    run = _run_in_process("ascend-opt", [str(case.path), *case.args, "-o", str(output)])
    if case.output is not None:
        assert "Traceback" not in run.stderr and run.returncode == 0, run.stderr
        assert case.output in output.read_text().splitlines(), output.read_text()
        return
    _check_failure(run, case, "ascend-opt")
    assert not output.exists(), "a failed run left an output file"
    assert not list(tmp_path.iterdir()), "a failed run left a temporary file"


@pytest.mark.parametrize(
    "case", [c for c in corpus() if c.sim is not None], ids=lambda c: f"{c.category}/{c.path.stem}"
)
def test_ascend_sim_rejects(case: BadInput) -> None:
    assert case.sim is not None
    run = _run_in_process("ascend-sim", [str(case.path), *case.sim])
    _check_failure(run, case, "ascend-sim")


# ----- files and paths ----------------------------------------------------------------


def _plain_failure(args: list[str], message: str) -> None:
    # the console script's entry in this interpreter, exit code and stderr as a process has
    # them (an escaping exception's traceback included): what is under test is the tool's
    # handling of the path, not a process start (about 0.8 CPU s each)
    run = run_console_script(args[0], args[1:])
    stderr = run.err
    assert "Traceback" not in stderr, stderr
    assert run.returncode == 1, f"{args}: exit {run.returncode}\n{stderr}"
    assert message in stderr and "error:" in stderr, stderr


@pytest.mark.parametrize("tool", ["ascend-opt", "ascend-sim"])
def test_missing_input_file(tool: str, tmp_path: Path) -> None:
    _plain_failure([tool, str(tmp_path / "missing.mlir")], "No such file or directory")


@pytest.mark.parametrize("tool", ["ascend-opt", "ascend-sim"])
def test_directory_as_input(tool: str, tmp_path: Path) -> None:
    _plain_failure([tool, str(tmp_path)], "Is a directory")


@pytest.mark.parametrize("tool", ["ascend-opt", "ascend-sim"])
def test_input_that_is_not_utf8(tool: str, tmp_path: Path) -> None:
    path = tmp_path / "latin1.mlir"
    path.write_bytes(b"module {\n  // caf\xe9\n}\n")
    _plain_failure([tool, str(path)], "not UTF-8")


def test_output_into_a_missing_directory(tmp_path: Path) -> None:
    _plain_failure(["ascend-opt", str(GOOD_KERNEL), "-o", str(tmp_path / "no" / "out.mlir")], "cannot write")


def test_output_onto_a_directory(tmp_path: Path) -> None:
    _plain_failure(["ascend-opt", str(GOOD_KERNEL), "-o", str(tmp_path)], "cannot write")
    assert list(tmp_path.iterdir()) == []


def test_failed_run_keeps_an_existing_output_file(tmp_path: Path) -> None:
    """`-o` replaces its file only with a whole result: a failure leaves the old one."""
    output = tmp_path / "out.mlir"
    output.write_text("previous result\n")
    bad = CORPUS / "control" / "for-zero-step.mlir"
    run = run_console_script("ascend-opt", [str(bad), "-o", str(output)])
    assert run.returncode == 1
    assert output.read_text() == "previous result\n"
