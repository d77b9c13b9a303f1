"""The IRDL route on every input of the lit suite and every example, not on chosen files.

Each `// -----` chunk of each `.mlir` file under test/ and examples/ that ascend-opt
parses and verifies, and that uses one of our dialects, is printed in IRDL form
(`ascend-opt -t irdl`), verified by upstream mlir-opt against dialects/*.irdl.mlir, and
read back from mlir-opt's output into the same module. Chunks our verifier rejects (the
negative tests) are not inputs of this route.
"""

from __future__ import annotations

import os
import re
import struct
import subprocess
from collections.abc import Sequence
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation, VarOperandDef
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

from ascend_mlir.diagnostics import verify_module
from ascend_mlir.dialects import get_all_dialects, register_dialects
from ascend_mlir.targets.irdl import IRDLFormReader, default_context, irdl_form
from ascend_mlir.testing import require_tool, run_console_script

ROOT = Path(__file__).resolve().parents[2]
SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
OUR_PREFIXES = tuple(f"{name}." for name in get_all_dialects())


def _inputs() -> list[Path]:
    # lit's Output/ directories are not walked: run-tests.sh runs lit beside pytest, and a
    # RUN line's `rm -rf %t` may delete one while it is listed (rglob raises then)
    files: list[Path] = []
    for top in (ROOT / "test", ROOT / "examples"):
        found = []
        for directory, subdirectories, names in os.walk(top):
            subdirectories[:] = [name for name in subdirectories if name != "Output"]
            found += [Path(directory) / name for name in names if name.endswith(".mlir")]
        files += sorted(found)
    return files


def _chunks(path: Path) -> list[str]:
    return SPLIT.split(path.read_text(encoding="utf-8"))


def _accepted_module(text: str, name: str) -> ModuleOp | None:
    """The verified module of `text`, None when ascend-opt would reject it (same dialects)."""
    try:
        module = Parser(register_dialects(Context()), text, name).parse_module()
    except (DiagnosticException, ParseError, NotImplementedError, RecursionError, ValueError, struct.error):
        # NotImplementedError: xDSL 0.75 reads no semi-affine map (bishengir's raw dumps);
        # RecursionError: nesting deeper than Python's limit; ValueError: an operand used
        # before its definition inside its own op's region (xDSL: "Forward declared values
        # do not have an owner"); struct.error: an i64 array element wider than 64 bits.
        # Bad-input cases, which ascend-opt refuses, located
        return None
    try:
        return None if verify_module(module) else module  # ascend-opt's verification
    except ValueError:  # a forward-declared placeholder the parser left in (see above)
        return None


def _uses_our_dialects(module: Operation) -> bool:
    return any(op.name.startswith(OUR_PREFIXES) for op in module.walk()) or "#hivm." in str(module)


def _generic(module: Operation) -> str:
    stream = StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(module)
    return stream.getvalue()


@pytest.fixture(scope="module")
def irdl_file() -> Path:
    # the bundle users pass to mlir-opt (dialects/README; test_dialect_docs keeps it current)
    return ROOT / "dialects" / "all.irdl.mlir"


def _mixed_variadic_group(module: Operation) -> bool:
    """Some op has a variadic operand group whose elements differ in type (custom's
    `ins(%m, %n : memref<..>, i64)`) and that the export does not split per element: IRDL
    binds one type per group (targets/irdl.py notes it per op), so this route cannot carry
    it by construction."""
    for op in module.walk():
        if not isinstance(op, IRDLOperation):
            continue
        split = getattr(op, "operand_group_bounds", dict)() or {}
        definition = op.get_irdl_definition()
        for name, group in definition.operands:
            values = getattr(op, name)
            if isinstance(group, VarOperandDef) and name not in split and isinstance(values, Sequence):
                if len({value.type for value in values}) > 1:
                    return True
    return False


def _routed_chunks(path: Path) -> list[tuple[int, ModuleOp]]:
    """The chunks of `path` this route takes: accepted by our verifier, using our dialects,
    expressible in IRDL."""
    chunks = ((index, _accepted_module(chunk, str(path))) for index, chunk in enumerate(_chunks(path)))
    return [
        (index, module) for index, module in chunks
        if module is not None and _uses_our_dialects(module) and not _mixed_variadic_group(module)
    ]


@pytest.fixture(scope="module")
def routed() -> dict[Path, list[tuple[int, ModuleOp]]]:
    """The inputs this route takes and their parsed chunks, parsed once (about 9 CPU s):
    in a fixture, not at collection time, so that only the worker that runs this file
    pays for it (every pytest-xdist worker collects every file)."""
    found = {path: _routed_chunks(path) for path in _inputs()}
    return {path: chunks for path, chunks in found.items() if chunks}


# The route on every lit and example input (the parse of them all, about 10 CPU s, and
# mlir-opt and the read-back of each chunk, about 15) is `slow`: in the fast tier the
# compiled examples below (each example through convert-tile-to-hivm and ascend-compile)
# stand in for the route, and lit's test/interop/mlir-opt (hivm-irdl, tile-irdl) for the
# hand-written inputs
@pytest.mark.slow
def test_routed_inputs_cover_the_suite(routed) -> None:
    """The route is not vacuous: most inputs with our dialects take it."""
    assert len(routed) >= 40


def _mlir_opt(irdl_file: Path, texts: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """mlir-opt on each IRDL-form text, as one process per text would answer: one process
    for all of them (`--split-input-file`; each of ~300 starts costs about 0.08 CPU s),
    and one per text only when that batch fails, so a rejected text gets its own stderr."""
    mlir_opt = require_tool("mlir-opt")
    command = [mlir_opt, f"--irdl-file={irdl_file}", "--mlir-print-op-generic"]
    if len(texts) > 1:
        batch = subprocess.run([*command, "--split-input-file", "-"], input=SEPARATOR.join(texts),
                               capture_output=True, text=True)
        outputs = batch.stdout.split(SEPARATOR)
        if batch.returncode == 0 and len(outputs) == len(texts):
            return [subprocess.CompletedProcess(command, 0, out, "") for out in outputs]
    return [subprocess.run([*command, "-"], input=text, capture_output=True, text=True) for text in texts]


SEPARATOR = "\n// -----\n"


@pytest.fixture(scope="module")
def routed_runs(irdl_file: Path, routed) -> dict[tuple[Path, int], subprocess.CompletedProcess[str]]:
    keys = [(path, index) for path, chunks in routed.items() for index, _ in chunks]
    texts = [irdl_form(module) for chunks in routed.values() for _, module in chunks]
    assert not any(SEPARATOR.strip() in text for text in texts)
    return dict(zip(keys, _mlir_opt(irdl_file, texts), strict=True))


def _route_failure(path: Path, index: int, module: ModuleOp, run: subprocess.CompletedProcess[str]) -> str | None:
    """Why chunk `index` of `path` does not survive the route, None when it does."""
    if run.returncode != 0:
        return f"chunk {index} of {path}: mlir-opt rejects it:\n{run.stderr}"
    back = IRDLFormReader(default_context()).parse(run.stdout, f"{path.name}#{index}")
    back.verify()
    if not back.is_structurally_equivalent(module):
        return f"chunk {index} of {path} changed on the way back:\n{_generic(back)}"
    return None


@pytest.mark.slow
def test_irdl_route_accepts_what_our_verifier_accepts(routed, routed_runs) -> None:
    # one test over every routed chunk, each failure named: which files take the route is
    # known only after parsing them all, which as a parametrization would be done at
    # collection time, once in every pytest-xdist worker
    failures = [failure for path, chunks in routed.items() for index, module in chunks
                if (failure := _route_failure(path, index, module, routed_runs[(path, index)])) is not None]
    assert not failures, f"{len(failures)} chunks fail the IRDL route:\n" + "\n".join(failures[:5])


def _compiled_example_cases() -> list:
    # ascend-compile of flash_attention_dyn (about 22 CPU s, most of it verify-sync) is `slow`:
    # in the fast tier flash_attention (its ops, static) and the other _dyn examples (the
    # runtime-shape forms) stand in, and flash_attention_dyn's convert-tile-to-hivm stays
    return [pytest.param(example, pipeline, id=f"{pipeline}-{example.name}",
                         marks=[pytest.mark.slow] if (pipeline, example.name) == SLOW_COMPILE else [])
            for pipeline in ("convert-tile-to-hivm", "ascend-compile")
            for example in sorted((ROOT / "examples").glob("*.mlir"))]


SLOW_COMPILE = ("ascend-compile", "flash_attention_dyn.mlir")
# that compile once per run, shared with test_examples and test_runtime_shape_attention (conftest)
SHARE_COMPILES = True


@pytest.mark.parametrize(("example", "pipeline"), _compiled_example_cases())
def test_irdl_route_accepts_compiled_examples(example: Path, pipeline: str, irdl_file: Path) -> None:
    """What our passes make of each example (hivm with sync) passes the IRDL route too."""
    mlir_opt = require_tool("mlir-opt")
    compiled = run_console_script("ascend-opt", [str(example), "-p", pipeline])
    assert compiled.returncode == 0, compiled.err
    # with its schedule (#ascend.task on every op, #ascend.loop, #ascend.buffer)
    module = Parser(register_dialects(Context()), compiled.out, example.name).parse_module()
    run = subprocess.run(
        [mlir_opt, f"--irdl-file={irdl_file}", "--mlir-print-op-generic", "-"],
        input=irdl_form(module),
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, f"mlir-opt rejects {pipeline} of {example.name}:\n{run.stderr}"
    back = IRDLFormReader(default_context()).parse(run.stdout, example.name)
    back.verify()
    assert back.is_structurally_equivalent(module), f"{pipeline} of {example.name} changed on the way back"
