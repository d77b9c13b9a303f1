"""Our tools run in this interpreter (testing.run_console_script) and inside lit's workers
(lit_format.InProcessShTest) exactly as a process would run them: same bytes on stdout
and stderr (interleaved as a process interleaves them under 2>&1), same exit codes; the
lit format takes only pipelines of our tools and leaves every other one to lit's shell."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import lit.ShUtil
import pytest

from ascend_mlir.lit_format import _in_process_stages, _mixed_stages, _Stage
from ascend_mlir.testing import _run_entry, console_script, run_console_script

ROOT = Path(__file__).resolve().parents[2]

GOOD = 'func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n'
BAD = 'func.func @f() {\n  "test.nope"() : () -> ()\n  func.return\n}\n'


def _process(name: str, args: list[str], stdin: str, join: bool) -> tuple[int, str, str]:
    script = console_script(name)
    assert script is not None
    argv = [sys.executable, "-c", f"import sys; sys.argv[0] = {name!r}; "
            f"from {script.__module__} import {script.__name__} as f; sys.exit(f())", *args]
    run = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT if join else subprocess.PIPE, text=True, cwd=ROOT)
    return run.returncode, run.stdout, run.stderr or ""


@pytest.mark.parametrize("case", [
    (["-"], GOOD, False),             # output on stdout
    (["-"], BAD, True),               # a located error, 2>&1
    (["-", "-p", "no-such-pass"], GOOD, True),  # a pipeline error
    (["--no-such-flag"], GOOD, False),  # argparse's usage error: SystemExit(2)
], ids=["output", "error-joined", "bad-pass", "usage"])
def test_in_process_run_is_a_process_run(case):
    args, stdin, join = case
    run = run_console_script("ascend-opt", args, stdin, cwd=ROOT, join_stderr=join)
    assert (run.returncode, run.out, run.err) == _process("ascend-opt", args, stdin, join)


def test_run_restores_the_interpreter_state(tmp_path):
    argv, cwd, stdout = list(sys.argv), os.getcwd(), sys.stdout
    env = {**os.environ, "ASCEND_MLIR_TEST_VARIABLE": "1"}
    run = run_console_script("ascend-opt", ["in.mlir"], cwd=tmp_path, env=env)
    assert run.returncode == 1 and "in.mlir" in run.err  # relative to cwd: not there
    assert (sys.argv, os.getcwd(), sys.stdout) == (argv, cwd, stdout)
    assert "ASCEND_MLIR_TEST_VARIABLE" not in os.environ


def test_escaping_exception_is_a_traceback_and_exit_1(capsys):
    def broken() -> int:
        raise RuntimeError("boom")

    assert _run_entry(broken) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback") and "RuntimeError: boom" in err
    assert _run_entry(lambda: sys.exit("bad thing")) == 1
    assert capsys.readouterr().err == "bad thing\n"
    assert _run_entry(lambda: 3) == 3


def _pipeline(line: str):
    return lit.ShUtil.ShParser(line, False, True).parse()


@pytest.mark.parametrize("line,in_process", [
    ("ascend-opt a.mlir | filecheck a.mlir", True),
    ("not ascend-opt a.mlir 2>&1 | filecheck a.mlir", True),
    ("ascend-sim a.mlir --json > out.json", True),
    ("filecheck a.mlir < out.json", True),
    ("not --crash ascend-opt a.mlir", False),          # lit's `not --crash`
    ("ascend-opt a.mlir | grep func", False),          # another program in the pipe
    ("env X=1 ascend-opt a.mlir", False),              # environment changes: lit's shell
    ("ascend-opt a.mlir 2>&1 > out.mlir", True),       # stderr into the pipe, stdout to the file
    ("ascend-opt a.mlir > a.txt 2>&1 > b.txt", False),  # fd 1 moved after joining fd 2 to a file
    ("/bin/ascend-opt a.mlir", False),                 # a path, not the installed script
])
def test_which_pipelines_run_in_process(line, in_process):
    assert (_in_process_stages(_pipeline(line), str(ROOT)) is not None) == in_process


@pytest.mark.parametrize("line,ours", [
    ("ascend-opt a.mlir | grep func | filecheck a.mlir", [True, False, True]),
    ("grep -v x a.mlir | not ascend-sim - --json | filecheck a.mlir", [False, True, True]),
    ("ascend-sim a.mlir --json | python3 -c pass", [True, False]),
    ("ascend-opt a.mlir | grep func < b.mlir | filecheck a.mlir", None),  # grep reads its own file
    ("ascend-opt a.mlir 2>&1 >o.mlir | grep x | filecheck a.mlir", [True, False, True]),
    ("ascend-opt a.mlir >a 2>&1 >b | grep x | filecheck a.mlir", None),  # a redirect the format leaves
    ("grep func a.mlir | sed s/a/b/", None),             # none of ours: lit's shell
    ("ascend-opt a.mlir | not grep x 2>&1 | filecheck a.mlir", [True, False, True]),  # its stderr joined
    ("ascend-opt a.mlir | grep x 2>/dev/null | filecheck a.mlir", None),  # another redirect: lit's shell
])
def test_which_mixed_pipelines_run_stage_by_stage(line, ours):
    stages = _mixed_stages(_pipeline(line), str(ROOT))
    assert (None if stages is None else [isinstance(stage, _Stage) for stage in stages]) == ours


SUITE_CFG = """
import sys
from ascend_mlir.lit_format import InProcessShTest
config.name = "lit-format-check"
config.test_format = InProcessShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = config.test_exec_root = r"{root}"
import os
config.environment["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
config.environment["PYTHONPATH"] = os.environ.get("PYTHONPATH", "")
config.substitutions.append(("%python", sys.executable))
"""

SUITE = {
    # a pipeline, a file written by one command and read by the next with `<`, stderr
    # of a failing command joined to stdout under `not`, and a shell builtin in between
    "pass.mlir": """
        // RUN: ascend-opt %s | filecheck %s
        // RUN: ascend-opt %s -o %t.mlir && filecheck %s < %t.mlir
        // RUN: rm -f %t.out && not ascend-opt %s -p no-such-pass > %t.out 2>&1
        // RUN: filecheck %s --check-prefix=ERR < %t.out
        // CHECK: func.func @f
        // ERR: no-such-pass
        func.func @f() {
          func.return
        }
    """,
    # `2>&1 >file`: stderr goes down the pipe, stdout into the file, as in a shell
    "stderr-piped.mlir": """
        // RUN: not ascend-opt %s -p no-such-pass 2>&1 >%t.out | filecheck %s --check-prefix=ERR
        // RUN: ascend-opt %s 2>&1 >%t.mlir | filecheck %s --allow-empty --check-prefix=QUIET
        // RUN: filecheck %s < %t.mlir
        // CHECK: func.func @f
        // ERR: no-such-pass
        // QUIET-NOT: {{.}}
        func.func @f() {
          func.return
        }
    """,
    # a CHECK that does not hold must fail the test
    "fail-check.mlir": """
        // RUN: ascend-opt %s | filecheck %s
        // CHECK: func.func @g
        func.func @f() {
          func.return
        }
    """,
    # a tool that fails without `not` must fail the test
    "fail-exit.mlir": """
        // RUN: ascend-opt %s -p no-such-pass | filecheck %s
        // CHECK: func.func @f
        func.func @f() {
          func.return
        }
    """,
    # `not` on a tool that succeeds must fail the test
    "fail-not.mlir": """
        // RUN: not ascend-opt %s
        func.func @f() {
          func.return
        }
    """,
    # our tools piped through other programs (and from one), stage by stage
    "mixed.mlir": """
        // RUN: ascend-opt %s | grep -v NOT-THERE | filecheck %s
        // RUN: grep -v NOT-THERE %s | ascend-opt - | filecheck %s
        // RUN: ascend-opt %s | grep func.func > %t.grep && filecheck %s < %t.grep
        // RUN: not ascend-opt %s -p no-such-pass 2>&1 | grep -c no-such-pass | filecheck %s --check-prefix=COUNT
        // RUN: ascend-opt %s | not %python -c "import sys; sys.stderr.write('to-stderr' + sys.stdin.read()); sys.exit(1)" 2>&1 | filecheck %s --check-prefix=JOINED
        // JOINED: to-stderr
        // JOINED-NEXT: func.func @f
        // CHECK: func.func @f
        // COUNT: 1
        func.func @f() {
          func.return
        }
    """,
    # another program failing in the middle of a mixed pipeline fails the test (pipefail)
    "fail-mixed.mlir": """
        // RUN: ascend-opt %s | grep NOT-THERE | filecheck %s --allow-empty
        func.func @f() {
          func.return
        }
    """,
    # the marker: every RUN line through lit's shell
    "subprocess.mlir": """
        // LIT-SUBPROCESS: checks the format's escape hatch
        // RUN: ascend-opt %s | filecheck %s
        // CHECK: func.func @f
        func.func @f() {
          func.return
        }
    """,
}


def test_lit_suite_passes_and_fails_as_lit_shell_would(tmp_path):
    for name, text in SUITE.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip())
    (tmp_path / "lit.cfg").write_text(SUITE_CFG.format(root=tmp_path))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", "import lit.main; lit.main.main()", "-v", "-j1", str(tmp_path)],
                         capture_output=True, text=True, env=env)
    verdicts = {line.split(" :: ")[1].split()[0]: line.split(":")[0]
                for line in run.stdout.splitlines() if " :: " in line and line.split(":")[0] in ("PASS", "FAIL")}
    assert verdicts == {"pass.mlir": "PASS", "subprocess.mlir": "PASS", "mixed.mlir": "PASS",
                        "stderr-piped.mlir": "PASS",
                        "fail-check.mlir": "FAIL", "fail-exit.mlir": "FAIL", "fail-not.mlir": "FAIL",
                        "fail-mixed.mlir": "FAIL"}, run.stdout + run.stderr
