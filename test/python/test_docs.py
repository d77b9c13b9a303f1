"""The commands of the documentation work as written.

Every fenced ```sh and ```python block of docs/tutorial.md and docs/chip-calibration.md
is run, in order, from a fresh copy of docs/ and examples/ (the tools come from the
installed package, as after the README set-up). A block whose first line is
`# needs: X` runs only where X exists: `bishengir` (the ascendnpu-ir binaries; required
when ASCEND_MLIR_REQUIRE_TOOLS=1), `cce` (the CCE target of ascend-opt) or `mlir-opt`
(upstream mlir-opt 22, required likewise). The README's blocks run too, from the
repository's examples (but the set-up, the suite itself and the benchmarks:
README_NOT_RUN), and dialects/README.md's mlir-opt round trip, with the tools on PATH as
the README says to put them. docs/foreign-kernels.md's blocks run too; a document with
blocks that no test runs fails test_every_documented_command_is_run.

bash runs every block as written; the `ascend-opt`, `ascend-sim`, `ascend-tune` and
`python` processes it starts (and the python blocks) are forks of one interpreter that
imported the compiler once (ascend_mlir/forked_tools.py: each is still a process of its
own, with the fds, cwd, environment and exit status bash gave it), not a fresh start of
about 2 CPU s each.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from ascend_mlir.forked_tools import ForkedTools
from ascend_mlir.testing import find_tool, tools_required

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(sh|python)\n(.*?)^```", re.S | re.M)
# set-up of the machine itself: done before the suite runs
SETUP_COMMANDS = ("./tools/setup.sh",)
# README blocks not run here: the suite itself, and benchmarks of a minute and more
README_NOT_RUN = ("./tools/run-tests.sh", "python bench/")


@dataclass
class Block:
    doc: str
    language: str
    text: str

    @property
    def needs(self) -> str | None:
        first = self.text.split("\n", 1)[0]
        match = re.match(r"#\s*needs:\s*(\S+)", first)
        return match.group(1) if match else None

    def script(self) -> str:
        lines = []
        for line in self.text.split("\n"):
            for setup in SETUP_COMMANDS:
                line = line.removeprefix(f"{setup} && ")
            if line.strip() not in SETUP_COMMANDS:
                lines.append(line)
        return "\n".join(lines)


def blocks(doc: str, directory: Path = DOCS) -> list[Block]:
    text = (directory / doc).read_text()
    return [Block(doc, m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def _run(block: Block, cwd: Path, tools: ForkedTools | None, env: dict[str, str] | None = None) -> None:
    """The block as bash (or python) runs it, with `tools`' clients first on PATH; with
    no `tools` (a block that starts none of our tools: the server's start would cost more
    than it saves), fresh processes in `env`."""
    if tools is not None:
        env = tools.environment()
    if block.language == "sh":
        command = ["bash", "-e", "-o", "pipefail", "-c", block.script()]
    else:
        command = [sys.executable if tools is None else tools.python(), "-c", block.script()]
    run = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    assert run.returncode == 0, (
        f"{block.doc}: this block failed (exit {run.returncode}):\n{block.text}\n"
        f"stdout:\n{run.stdout[-3000:]}\nstderr:\n{run.stderr[-3000:]}")


class Tutorial:
    """A fresh copy of docs/ and examples/ where the tutorial's plain blocks run in order,
    as far as a test needs: the fast tier's tests of the `needs:` blocks need only the
    first few files, not every command (about 30 CPU s, load 10-16)."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.pending = [block for block in blocks("tutorial.md") if block.needs is None]

    def run_until(self, made: str | None = None) -> Path:
        """Runs the plain blocks in order until `made` exists (all of them when None)."""
        if self.pending and (made is None or not (self.work / made).exists()):
            with ForkedTools() as tools:
                while self.pending and (made is None or not (self.work / made).exists()):
                    _run(self.pending.pop(0), self.work, tools)
        assert made is None or (self.work / made).exists(), f"no tutorial block made {made}"
        return self.work


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory) -> Tutorial:
    work = tmp_path_factory.mktemp("tutorial")
    shutil.copytree(DOCS, work / "docs")
    shutil.copytree(ROOT / "examples", work / "examples")
    return Tutorial(work)


@pytest.mark.slow  # every tutorial command (about 30 CPU s); test_tutorial_cce and the CLI tests stay in the fast tier
def test_tutorial_runs(tutorial: Tutorial):
    workdir = tutorial.run_until()
    # what the plain blocks promised to leave behind
    for name in ("axpy.mlir", "axpy.hivm.mlir", "axpy.schedule.svg", "axpy.trace.json",
                 "axpy.unsynced.mlir", "races.txt", "axpy.npuir.mlir", "axpy.dump/index.txt",
                 "vecadd.tune/results.csv", "vecadd.tune/best.npuir.mlir", "vecadd.tune/pareto.svg"):
        assert (workdir / name).exists(), name
    assert "error: race (write-read)" in (workdir / "races.txt").read_text()
    assert "<svg" in (workdir / "axpy.schedule.svg").read_text()
    # the tutorial's grep prints one number, the loop's II, as its text says
    import json

    grep = next(line for b in blocks("tutorial.md") for line in b.text.split("\n") if line.startswith("grep -m1 -o '\"ii\""))
    printed = subprocess.run(["bash", "-c", grep], cwd=workdir, capture_output=True, text=True, check=True).stdout
    loops = json.loads((workdir / "axpy.schedule.json").read_text())["functions"][0]["loops"]
    assert printed == f'"ii": {loops[0]["ii"]}\n'
    assert f'`"ii": {loops[0]["ii"]}`' in (DOCS / "tutorial.md").read_text()


def test_tutorial_knows_every_requirement():
    for doc in ("tutorial.md", "chip-calibration.md"):
        for block in blocks(doc):
            assert block.needs in (None, "bishengir", "cce", "mlir-opt"), block.text


# bishengir-compile's time (about 30 CPU s with the tutorial commands before it); in the
# fast tier lit's interop/bishengir-compile tests (vecadd.mlir, softmax.mlir: our npuir
# through bishengir-compile) stand in
@pytest.mark.slow
def test_tutorial_bishengir(tutorial: Tutorial):
    if find_tool("bishengir-compile-a5") is None or find_tool("bishengir-opt-a5") is None:
        if tools_required():
            pytest.fail("ASCEND_MLIR_REQUIRE_TOOLS=1 but bishengir-compile-a5/bishengir-opt-a5 are missing")
        pytest.skip("bishengir (ascendnpu-ir) is not installed here")
    workdir = tutorial.run_until("axpy.npuir.mlir")
    for block in blocks("tutorial.md"):
        if block.needs == "bishengir":  # bishengir and a python without our imports
            _run(block, workdir, None)
    assert "hivm.hir.pipe_barrier" in (workdir / "axpy.bisheng" / "module.hivm.opt.mlir").read_text()


def test_tutorial_cce(tutorial: Tutorial):
    from ascend_mlir.targets import get_all_targets

    if "cce" not in get_all_targets():
        pytest.skip("ascend-opt has no cce target yet (the CCE backend has not landed)")
    workdir = tutorial.run_until("axpy.mlir")
    for block in blocks("tutorial.md"):
        if block.needs == "cce":  # one ascend-opt: a fresh process costs what the server's start does
            _run(block, workdir, None)


@pytest.mark.slow  # 1.8 CPU s; test_chips and lit's chip-file=PATH tests (ascend-insert-sync/out-of-events.mlir) stand in
def test_chip_calibration_commands(tmp_path: Path):
    shutil.copytree(DOCS, tmp_path / "docs")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    with ForkedTools() as tools:
        for block in blocks("chip-calibration.md"):
            _run(block, tmp_path, tools)
    assert (tmp_path / "mychip.toml").exists()


def test_foreign_kernels_commands(tmp_path: Path):
    """docs/foreign-kernels.md's simulation of a triton-ascend dump, from a copy of the
    inputs it names (repository-relative paths, as written)."""
    shutil.copytree(ROOT / "test" / "sim" / "Inputs" / "triton", tmp_path / "test" / "sim" / "Inputs" / "triton")
    ran = [block for block in blocks("foreign-kernels.md") if block.needs is None]
    assert ran
    for block in ran:  # one ascend-sim each: fresh processes cost what the server's start does
        _run(block, tmp_path, None)


# the documents whose blocks a test above runs; a new one with commands must join them
RUN_DOCUMENTS = {DOCS / "tutorial.md", DOCS / "chip-calibration.md", DOCS / "foreign-kernels.md",
                 ROOT / "README.md", ROOT / "dialects" / "README.md", ROOT / "examples" / "README.md"}


def test_every_documented_command_is_run():
    documents = {*DOCS.glob("*.md"), ROOT / "README.md", *(ROOT / "dialects").glob("*.md"),
                 ROOT / "examples" / "README.md"}
    with_commands = {doc for doc in documents if FENCE.search(doc.read_text())}
    assert with_commands <= RUN_DOCUMENTS, f"blocks no test runs: {sorted(map(str, with_commands - RUN_DOCUMENTS))}"


def test_docs_link_to_existing_files():
    for doc in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+)\)", doc.read_text()):
            assert (doc.parent / target).exists(), f"{doc.name} links to missing {target}"


def _env_with_tools_on_path() -> dict[str, str]:
    """The environment after the README's `export PATH="$(python -m ascend_mlir.testing):$PATH"`."""
    import os

    from ascend_mlir.testing import tool_dirs

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([*tool_dirs(), env.get("PATH", "")])
    return env


def _require_mlir_opt() -> None:
    if find_tool("mlir-opt") is None:
        if tools_required():
            pytest.fail("ASCEND_MLIR_REQUIRE_TOOLS=1 but mlir-opt (llvm 22) is missing")
        pytest.skip("upstream mlir-opt 22 is not installed here")


@pytest.mark.slow  # README blocks incl. gemm --perturb 5 and a CCE emulation (about 18 CPU s)
def test_readme_commands(tmp_path: Path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    ran = 0
    with ForkedTools(_env_with_tools_on_path()) as tools:
        for block in blocks("README.md", ROOT):
            if any(marker in block.text for marker in README_NOT_RUN):
                continue
            _run(block, tmp_path, tools)
            ran += 1
    assert ran >= 4  # the run command, PATH, the schedule/simulator block, the CCE blocks
    assert "<svg" in (tmp_path / "gemm.svg").read_text()


@pytest.mark.slow  # 3.3 CPU s; test_tutorial_cce and test_foreign_kernels_commands run documented blocks in the fast tier
def test_examples_readme_commands(tmp_path: Path):
    """examples/README.md's try-one block: a simulation of the .mlir, the Python twin
    printed, a .py file simulated, the npuir printed (about 4 CPU s)."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    ran = blocks("README.md", ROOT / "examples")
    assert ran
    with ForkedTools() as tools:
        for block in ran:
            _run(block, tmp_path, tools)


@pytest.mark.slow  # 1.7 CPU s; lit's interop/mlir-opt tests (the IRDL round trip) stand in
def test_dialects_readme_round_trip(tmp_path: Path):
    from xdsl.dialects.builtin import ModuleOp

    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module

    _require_mlir_opt()
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "dialects", tmp_path / "dialects")
    round_trips = [b for b in blocks("README.md", ROOT / "dialects") if b.needs == "mlir-opt"]
    assert round_trips
    with ForkedTools(_env_with_tools_on_path()) as tools:
        for block in round_trips:
            _run(block, tmp_path, tools)
    ctx = make_context()
    original = parse_module(ctx, (tmp_path / "kernel.mlir").read_text(), "kernel.mlir")
    back = parse_module(ctx, (tmp_path / "kernel.back.mlir").read_text(), "kernel.back.mlir")
    assert isinstance(back, ModuleOp) and "hivm.hir" in (tmp_path / "kernel.back.mlir").read_text()
    assert original.is_structurally_equivalent(back)


def test_irdl_form_parse_error_names_the_converter(tmp_path: Path, capsys):
    from ascend_mlir.tools import ascend_opt

    irdl_text = (
        '"builtin.module"() ({\n'
        '  "hivm.hir_pipe_barrier"() {pipe = #hivm.pipe<"PIPE_ALL">} : () -> ()\n'
        "}) : () -> ()\n"
    )
    (tmp_path / "k.irdl.mlir").write_text(irdl_text)
    assert ascend_opt.main([str(tmp_path / "k.irdl.mlir")]) == 1
    err = capsys.readouterr().err
    assert "error:" in err and "python -m ascend_mlir.targets.irdl --from-irdl-form" in err
    (tmp_path / "plain.mlir").write_text("func.func @f( {\n")
    assert ascend_opt.main([str(tmp_path / "plain.mlir")]) == 1
    assert "--from-irdl-form" not in capsys.readouterr().err
