"""Bad-input fuzzing (bench/safety/fuzz_inputs.py): seeded mutants of the example
kernels through `ascend-opt -p ascend-compile` and `ascend-sim`, in this process. Each
tool may accept a mutant or refuse it, but only with exit status 0 or 1, no Python
traceback and every error line `FILE:line:col: error:` or a bare `error:`. Every distinct
failure the fuzzer found is fixed at its root and kept, reduced, in test/bad-input."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import tier_budget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "safety"))
import fuzz_inputs  # noqa: E402  # pyright: ignore[reportMissingImports]


def test_mutations_are_seeded_and_change_the_text():
    first, again = fuzz_inputs.mutants(7, 20), fuzz_inputs.mutants(7, 20)
    assert [m.text for m in first] == [m.text for m in again]
    sources = fuzz_inputs.example_texts()
    assert sum(m.text != sources[m.source] for m in first) >= 18  # a mutation may undo another, rarely
    replayed = fuzz_inputs.mutant_of_seed(first[5].seed, first[5].source)
    assert replayed.text == first[5].text


@pytest.mark.parametrize(("line", "ok"), [
    ("/t/k.mlir:3:7: error: 'tile.copy' op ...", True),
    ("error: cannot read", True),
    ("ascend-sim: error: --chip: no such chip", True),
    ("/t/k.mlir: error: no input for argument arg0", False),  # the fuzzer's first unlocated line
    ("  File \"x.py\", line 3, in f: error: x", False),
    ("note: the IR stopped verifying", True),
])
def test_error_lines_must_be_located_or_bare(line, ok):
    assert (fuzz_inputs.error_line_problem(line, "/t/k.mlir") is None) == ok


@pytest.fixture(scope="module")
def compiled_examples() -> dict[str, str]:
    return fuzz_inputs.compiled_texts()  # about 1 CPU s


@pytest.mark.parametrize("level", ["tile", "hivm"])
def test_mutants_get_a_tools_answer(request, tmp_path, level, compiled_examples):
    # the default tier: 40 mutants of each level (about 3 CPU s each), the fast tier the
    # first 10 of them; --slow: 1000 of other seeds
    budget = tier_budget(request.config, fast=10, default=40, slow=1000)
    seed = 1 if budget > 40 else 0
    texts = compiled_examples if level == "hivm" else fuzz_inputs.example_texts()
    failures = []
    for mutant in fuzz_inputs.mutants(seed, budget, texts):
        problems = fuzz_inputs.fuzz_one(mutant, tmp_path)
        if problems:
            failures.append(f"{mutant.label}: {'; '.join(problems)}")
    assert not failures, "\n".join(failures)
