"""Bad-input fuzzing of ascend-opt and ascend-sim: seeded mutants of the example kernels.

Each mutant is an example `.mlir` file changed in 1-3 places (a line deleted, duplicated
or swapped with another, the text cut short, a number made huge, negative or zero, an
element type or address space swapped for another, once or everywhere alike, a word of
the file for another (an op name, a pipe, an event), a token dropped, random bytes put
in). `--hivm` mutates the examples as `ascend-compile` wrote them instead.
`ascend-opt FILE -p ascend-compile` and `ascend-sim FILE` run on it in this process; a
tool may accept the mutant or refuse it, but only as a tool should (what
`check_run` asserts): exit status 0 or 1 (2 is an internal error), no Python traceback
on stderr, and every line of stderr that says `error:` is `FILE:line:col: error: ...`
or a bare `error: ...` / `ascend-opt: error: ...` line.

    python bench/safety/fuzz_inputs.py --budget 300 --seed 0 [--timeout 60] [--keep DIR]

prints one line per failing mutant (its seed, the mutations, the first offending line)
and keeps the failing files in DIR. test/python/test_fuzz_bad_input.py runs a fixed
budget of it in the default tier and a larger one under --slow.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# the examples a mutant starts from: the ones whose compile and simulation take well
# under a CPU second (the flash-attention and 32-block GEMM kernels would spend a test's
# budget on a handful of mutants); every construct the others use is in one of these
# (vector and cube, MIX, runtime shapes, nested loops, row statistics)
SEED_EXAMPLES = ("vecadd", "vecadd_dyn", "softmax", "rmsnorm", "gemm", "gemm_relu", "softmax_dyn")

_NUMBER = re.compile(r"(?<![\w%#@^.])\d+(?![\w.])")
_TYPES = ("f32", "f16", "bf16", "i8", "i32", "i64", "index", "f64", "i1")
_TYPE = re.compile(r"\b(?:f32|f16|bf16|i8|i32|i64|f64|i1|index)\b")
_SPACES = ("gm", "ub", "cbuf", "cc", "ca", "cb")
_SPACE = re.compile(r"(?<=address_space<)\w+(?=>)")
# a word of the file for another word of it: an op name for another op's (tile.add ->
# tile.sub, hivm.hir.vadd -> hivm.hir.load), a pipe or event for another (PIPE_V ->
# PIPE_MTE2, EVENT_ID0 -> EVENT_ID3), an attribute name for another
_WORD = re.compile(r"(?<![%#@^\w])[A-Za-z_][\w.]*")
_TOKEN = re.compile(r"[%\w.]+|[^\s\w]")
_NUMBERS = ("0", "-1", "1", "3", "4096", "65536", "2147483648", "9223372036854775808", "18446744073709551616")


@dataclass(frozen=True)
class Mutant:
    source: str  # the example's name
    seed: int
    mutations: tuple[str, ...]
    text: str

    @property
    def label(self) -> str:
        return f"{self.source} seed {self.seed}: {'; '.join(self.mutations)}"


def _body_lines(lines: list[str]) -> list[int]:
    """Indices of the lines that are not comments or blank (mutating a comment tells nothing)."""
    return [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("//")]


def _substitute(rng: random.Random, text: str, pattern: re.Pattern[str], choices: tuple[str, ...]) -> tuple[str, str]:
    matches = list(pattern.finditer(text))
    if not matches:
        return text, "nothing to substitute"
    match = rng.choice(matches)
    replacement = rng.choice([c for c in choices if c != match.group(0)] or list(choices))
    line = text.count("\n", 0, match.start()) + 1
    return text[:match.start()] + replacement + text[match.end():], f"line {line}: {match.group(0)} -> {replacement}"


def _everywhere(rng: random.Random, text: str, pattern: re.Pattern[str], choices: tuple[str, ...]) -> tuple[str, str]:
    """Every occurrence of one match of `pattern` replaced alike (a type, a shape or an
    address space changed consistently: the text still parses, the compiler is tried)."""
    found = sorted({m.group(0) for m in pattern.finditer(text)})
    if not found:
        return text, "nothing to substitute"
    old = rng.choice(found)
    new = rng.choice([c for c in choices if c != old] or list(choices))
    return pattern.sub(lambda m: new if m.group(0) == old else m.group(0), text), f"every {old} -> {new}"


_CONSTANT = re.compile(r"(?<=arith\.constant )-?\d+(?= : index)|(?<=tile\.grid = )\d+|(?<=num_stages = )\d+")


def _line_mutation(rng: random.Random, lines: list[str], body: list[int], kind: str) -> tuple[str, str]:
    """A line deleted, duplicated or swapped with another."""
    if kind == "delete":
        i = rng.choice(body)
        return "\n".join(lines[:i] + lines[i + 1:]), f"line {i + 1} deleted"
    if kind == "duplicate":
        i = rng.choice(body)
        return "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]), f"line {i + 1} duplicated"
    assert kind == "swap"
    i, j = rng.choice(body), rng.choice(body)
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines), f"lines {i + 1} and {j + 1} swapped"


# kind -> (one match or every match alike, what to match, what to put instead)
_SUBSTITUTIONS = {
    "number": (_substitute, _NUMBER, _NUMBERS),
    "type": (_substitute, _TYPE, _TYPES),
    "space": (_substitute, _SPACE, _SPACES),
    "constant": (_substitute, _CONSTANT, _NUMBERS),
    "every_number": (_everywhere, _NUMBER, ("0", "1", "2", "3", "7", "16", "100", "1000", "4096", "65536")),
    "every_type": (_everywhere, _TYPE, _TYPES),
    "every_space": (_everywhere, _SPACE, _SPACES),
}


def mutate_once(rng: random.Random, text: str) -> tuple[str, str]:
    """One random change of `text` and what it was: some keep the text parseable (a
    constant, a type, a shape or an address space changed alike everywhere), some swap a
    word of it for another (an op, a pipe, an event), the others break it anywhere."""
    lines = text.split("\n")
    body = _body_lines(lines) or list(range(len(lines)))
    kind = rng.choice(("delete", "duplicate", "swap", "truncate", "number", "type", "space", "token", "bytes",
                       "constant", "constant", "constant", "every_number", "every_number", "every_type",
                       "every_type", "every_space", "every_space", "word", "word", "word"))
    if kind == "word":
        return _substitute(rng, text, _WORD, tuple(sorted({m.group(0) for m in _WORD.finditer(text)})))
    if kind in _SUBSTITUTIONS:
        substitute, pattern, choices = _SUBSTITUTIONS[kind]
        return substitute(rng, text, pattern, choices)
    if kind in ("delete", "duplicate", "swap"):
        return _line_mutation(rng, lines, body, kind)
    if kind == "truncate":
        cut = rng.randrange(len(text))
        return text[:cut], f"cut at byte {cut} (line {text.count(chr(10), 0, cut) + 1})"
    if kind == "token":
        i = rng.choice(body)
        tokens = list(_TOKEN.finditer(lines[i]))
        if not tokens:
            return text, "nothing to drop"
        token = rng.choice(tokens)
        lines[i] = lines[i][:token.start()] + lines[i][token.end():]
        return "\n".join(lines), f"line {i + 1}: token {token.group(0)!r} dropped"
    # random characters: ASCII punctuation most often, sometimes any code point
    at = rng.randrange(len(text) + 1)
    alphabet = "{}()<>[]%@^#:;,=\"'\\-+*/0123456789xe. \n" if rng.random() < 0.8 else None
    size = rng.randint(1, 6)
    junk = "".join(rng.choice(alphabet) if alphabet else chr(rng.randrange(1, 0x3000)) for _ in range(size))
    return text[:at] + junk + text[at:], f"{junk!r} inserted at byte {at}"


def example_texts(sources: tuple[str, ...] = SEED_EXAMPLES) -> dict[str, str]:
    return {name: (ROOT / "examples" / f"{name}.mlir").read_text(encoding="utf-8") for name in sources}


def compiled_texts(sources: tuple[str, ...] = SEED_EXAMPLES) -> dict[str, str]:
    """The examples after `ascend-opt -p ascend-compile` (hivm level: scheduled, synced,
    planned), as `NAME_hivm`: mutants of these reach the simulator's own reading of
    hivm IR (flags, pointer casts, pipes), which a tile-level mutant never does."""
    texts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in sources:
            out = Path(tmp) / f"{name}.mlir"
            run = run_in_process("ascend-opt", [str(ROOT / "examples" / f"{name}.mlir"), "-p", "ascend-compile",
                                                "-o", str(out)])
            assert run.returncode == 0, run.stderr
            texts[f"{name}_hivm"] = out.read_text(encoding="utf-8")
    return texts


def _mutant(mutant_seed: int, source: str, text: str) -> Mutant:
    rng = random.Random(mutant_seed)
    done = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        text, what = mutate_once(rng, text)
        done.append(what)
    return Mutant(source, mutant_seed, tuple(done), text)


def mutants(seed: int, count: int, texts: dict[str, str] | None = None) -> list[Mutant]:
    """`count` mutants of `texts` (default: the seed examples), the same for the same
    seed: mutant k is drawn from its own generator (seed, k), so a failure is replayed
    alone by its seed (`mutant_of_seed`)."""
    texts = texts if texts is not None else example_texts()
    names = sorted(texts)
    return [_mutant(seed * 100_003 + k, names[k % len(names)], texts[names[k % len(names)]]) for k in range(count)]


def mutant_of_seed(mutant_seed: int, source: str, texts: dict[str, str] | None = None) -> Mutant:
    """The mutant of `mutants(...)` with this seed (for replaying one failure)."""
    texts = texts if texts is not None else example_texts((source,))
    return _mutant(mutant_seed, source, texts[source])


@dataclass(frozen=True)
class Run:
    returncode: int
    stderr: str
    stdout: str


def run_in_process(tool: str, argv: list[str]) -> Run:
    """ascend-opt's or ascend-sim's `main` in this process (as test_bad_input runs them);
    an exception escaping it is a failure like a traceback, reported as status 3."""
    import traceback

    from ascend_mlir.tools import ascend_opt, ascend_sim

    main = {"ascend-opt": ascend_opt.main, "ascend-sim": ascend_sim.main}[tool]
    stderr, stdout = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except Exception:  # noqa: BLE001 - what escaped main is the finding
            traceback.print_exc()
            code = 3
    return Run(code, stderr.getvalue(), stdout.getvalue())


def error_line_problem(line: str, path: str) -> str | None:
    """Why a stderr line that says `error:` is not a tool's error line, or None."""
    if "error:" not in line:
        return None
    located = re.compile(rf"^{re.escape(path)}:\d+:\d+: error: ")
    bare = re.compile(r"^(?:(?:ascend-opt|ascend-sim): )?error: ")
    if located.match(line) or bare.match(line):
        return None
    return f"not a located error line: {line}"


def check_run(run: Run, path: str) -> str | None:
    """What is wrong with how a tool answered a mutant, or None."""
    if run.returncode not in (0, 1):
        first = next((line for line in run.stderr.splitlines() if "error" in line), run.stderr[-300:])
        return f"exit {run.returncode}: {first}"
    if "Traceback" in run.stderr:
        return "a Python traceback on stderr"
    for line in run.stderr.splitlines():
        problem = error_line_problem(line, path)
        if problem is not None:
            return problem
    return None


def fuzz_one(mutant: Mutant, directory: Path, simulate: bool = True) -> list[str]:
    """Run both tools on `mutant` (written into `directory`); the problems found."""
    path = directory / f"{mutant.source}.mlir"  # the name a failure is reported by
    path.write_text(mutant.text, encoding="utf-8")
    out = directory / "out.mlir"
    problems = []
    compiled = run_in_process("ascend-opt", [str(path), "-p", "ascend-compile", "-o", str(out)])
    problem = check_run(compiled, str(path))
    if problem is not None:
        problems.append(f"ascend-opt -p ascend-compile: {problem}")
    if simulate:
        simulated = run_in_process("ascend-sim", [str(path), "--quiet"])
        problem = check_run(simulated, str(path))
        if problem is not None:
            problems.append(f"ascend-sim: {problem}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=int, default=200, help="mutants (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=int, default=60, help="CPU seconds a mutant may take (default 60)")
    parser.add_argument("--keep", metavar="DIR", help="write each failing mutant here")
    parser.add_argument("--sources", default=",".join(SEED_EXAMPLES), help="examples to mutate, comma-separated")
    parser.add_argument("--hivm", action="store_true", help="mutate the examples compiled by ascend-compile instead")
    args = parser.parse_args(argv)
    import resource
    import signal
    import time

    class _Timeout(BaseException):  # not caught as a bug of the tool (run_tool catches Exception)
        pass

    def on_alarm(signum, frame):
        raise _Timeout

    signal.signal(signal.SIGXCPU, on_alarm)
    failures = 0
    start = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        sources = tuple(args.sources.split(","))
        texts = compiled_texts(sources) if args.hivm else example_texts(sources)
        for mutant in mutants(args.seed, args.budget, texts):
            used = int(resource.getrusage(resource.RUSAGE_SELF).ru_utime)
            resource.setrlimit(resource.RLIMIT_CPU, (used + args.timeout, resource.RLIM_INFINITY))
            try:
                problems = fuzz_one(mutant, Path(tmp))
            except _Timeout:
                problems = [f"took more than {args.timeout} CPU s"]
            finally:
                resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            if problems:
                failures += 1
                print(f"{mutant.label}\n  " + "\n  ".join(problems), flush=True)
                if args.keep:
                    keep = Path(args.keep)
                    keep.mkdir(parents=True, exist_ok=True)
                    (keep / f"{mutant.source}-{mutant.seed}.mlir").write_text(mutant.text, encoding="utf-8")
    print(f"{args.budget} mutants, {failures} failing, {time.process_time() - start:.1f} CPU s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
