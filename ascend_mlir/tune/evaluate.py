"""One variant, end to end, in whatever process runs it (a pool worker, a Ray task, or
the caller): build the kernel from its factory, key it, compile, bound, simulate, judge.

`evaluate(task)` takes and returns plain dicts (picklable, JSON-able), so every executor
runs the same code and gets the same row, bit for bit. A task names its factory by the
source text of its module (shipped with the task, so a Ray node needs no copy of the
user's files) and the factory's name.

Statuses: `ok`; `wrong` (race, deadlock, flag left set, reference mismatch, or a
perturbed run that differs); `invalid` (the factory, the DSL or the compiler refused the
variant: capacity, no schedule, bad shapes); `crash` (an exception that is no
diagnostic: a compiler bug, with its traceback); `pruned` (its lower bound is at or
above the best cycles known when it was dispatched: not simulated). The executors add
`timeout`, and the search adds `dominated` and `skipped`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import os
import time
import traceback
import types
from pathlib import Path
from typing import Any

import ascend_mlir

# set in processes that evaluate variants: autotune must not run again from a factory module
IN_WORKER = False
_modules: dict[str, types.ModuleType] = {}
_compiler_version: str | None = None


def compiler_version() -> str:
    """The package version and a digest of its sources and chip files: any change to the
    compiler makes a new cache key."""
    global _compiler_version
    if _compiler_version is None:
        root = Path(ascend_mlir.__file__).parent
        digest = hashlib.sha256()
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
        _compiler_version = f"{ascend_mlir.__version__}+{digest.hexdigest()[:16]}"
    return _compiler_version


def load_factory(ref: dict):
    """The factory function of a task: the module's source is run once per process."""
    from ascend_mlir.user_modules import function_of, run_module

    module = _modules.get(ref["digest"])
    if module is None:
        module = run_module(ref["path"], f"_ascend_tune_{ref['digest'][:16]}", source=ref["source"])
        _modules[ref["digest"]] = module
    return function_of(module, ref["name"], ref["path"])


def _canonical_ir(module) -> str:
    from xdsl.printer import Printer

    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() + b"\0")
    return h.hexdigest()


def _canonical(value):
    """`value` with every set sorted (a frozenset's repr follows the process's hash seed,
    so the chip's `ordered_pipes` made the key differ between a worker and its caller)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, [[f.name, _canonical(getattr(value, f.name))] for f in dataclasses.fields(value)]]
    if isinstance(value, dict):
        return sorted(([repr(k), _canonical(v)] for k, v in value.items()), key=repr)
    if isinstance(value, set | frozenset):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return repr(value)


def chip_digest(chip) -> str:
    """The chip's resolved content (its file and every file it extends)."""
    return _digest(repr(_canonical(chip)))[:16]


def _is_diagnostic(err: BaseException) -> bool:
    from xdsl.utils.exceptions import DiagnosticException

    from ascend_mlir.frontend import CompileError, DSLError
    from ascend_mlir.sim.reference import ReferenceError

    return isinstance(err, (DSLError, CompileError, DiagnosticException, ReferenceError))


def _message(err: BaseException) -> str:
    from ascend_mlir.frontend import CompileError, DSLError

    if isinstance(err, (DSLError, CompileError)):
        return str(err)
    from ascend_mlir.frontend.driver import _diagnostic

    try:
        return _diagnostic(err)
    except Exception:  # a diagnostic that cannot render itself still has a message
        return f"{type(err).__name__}: {err}"


class _Built:
    """A variant's kernel, built, keyed and located in the cache."""

    def __init__(self, task: dict):
        from ascend_mlir.chips import resolve_chip
        from ascend_mlir.frontend.driver import _compile_spec
        from ascend_mlir.tune.space import split_config

        factory = load_factory(task["factory"])
        kwargs, self.chip, self.options = split_config(task["config"], set(task["factory_names"]),
                                                       task["takes_kwargs"])
        self.kernel = _call_factory(factory, kwargs)
        self.tile = self.kernel.build()
        self.spec = _compile_spec(self.chip, self.options)
        chip_name = self.options.get("chip_file") or self.chip
        self.chip_obj = resolve_chip(self.tile, chip_name)
        self.key = _digest("ascend-tune/1", _canonical_ir(self.tile), self.spec, chip_digest(self.chip_obj),
                           compiler_version(), f"seed={task['seed']}")


class FactoryError(Exception):
    """The factory refused the config (it raised, or returned no kernel)."""


def _call_factory(factory, kwargs: dict):
    from ascend_mlir.frontend import DSLError, Kernel

    try:
        kernel = factory(**kwargs)
    except DSLError:
        raise
    except Exception as err:
        raise FactoryError(f"the factory raised {type(err).__name__}: {err}") from None
    if not isinstance(kernel, Kernel):
        raise FactoryError(f"the factory returned {type(kernel).__name__}, not a @kernel")
    return kernel


def evaluate(task: dict) -> dict[str, Any]:
    """The row of one variant (see the module doc for the statuses). Never raises. Runs
    in the caller's working directory when this machine has it, so diagnostics name the
    user's files as the caller would (a Ray worker starts elsewhere)."""
    here = os.getcwd()
    cwd = task.get("cwd") or here
    moved = cwd != here and os.path.isdir(cwd)
    if moved:
        os.chdir(cwd)
    said = io.StringIO()  # the compiler's remarks and warnings belong to the row, not the terminal
    try:
        with contextlib.redirect_stderr(said):
            row = _evaluate(task)
    finally:
        if moved:
            os.chdir(here)
    remarks = [line for line in said.getvalue().splitlines() if line.strip()]
    if remarks and not row.get("cache_hit"):
        row["remarks"] = remarks[:20]
    return row


def _evaluate(task: dict) -> dict[str, Any]:
    start = time.perf_counter()
    row: dict[str, Any] = {"status": "crash", "cache_hit": False}
    try:
        built = _Built(task)
        row["key"] = built.key
        hit = _cached(task, built.key)
        if hit is not None:
            hit["cache_hit"] = True
            hit["seconds"] = round(time.perf_counter() - start, 3)
            return hit
        row.update(_measure(task, built))
    except FactoryError as err:
        row.update(status="invalid", message=str(err))
    except Exception as err:  # noqa: BLE001 - every failure is a row
        if _is_diagnostic(err):
            row.update(status="invalid", message=_message(err))
        else:
            row.update(status="crash", message=f"{type(err).__name__}: {err}",
                       traceback=traceback.format_exc())
    except SystemExit as err:
        # a factory's sys.exit() is its variant's failure: in the inline executor it ended
        # the whole sweep with the factory's status and no table
        row.update(status="crash", message=f"the factory called sys.exit({err.code!r})",
                   traceback=traceback.format_exc())
    row["seconds"] = round(time.perf_counter() - start, 3)
    return row


def _cached(task: dict, key: str) -> dict | None:
    from ascend_mlir.tune.cache import Cache

    if not task.get("cache_dir"):
        return None
    return Cache(task["cache_dir"]).lookup(key, task)


def _measure(task: dict, built: _Built) -> dict[str, Any]:
    from ascend_mlir.frontend.driver import _run_passes, _schedule
    from ascend_mlir.tune.measure import bytes_per_scope, pipe_busy_bound, static_capacity_error

    problem = static_capacity_error(built.tile, built.chip_obj)
    if problem:
        return {"status": "invalid", "message": f"{problem} (static check, not compiled)"}
    module = built.tile.clone()
    _run_passes(module, built.spec)
    loops, _ = _schedule(module, built.chip)
    row: dict[str, Any] = {
        "loops": [{"name": lp.name, "ii": lp.ii, "mii": lp.mii, "versions": dict(lp.versions)} for lp in loops],
        "bytes": bytes_per_scope(module),
        "bound": pipe_busy_bound(module),
    }
    threshold = task.get("threshold")
    if threshold is not None and row["bound"] is not None and row["bound"] >= threshold:
        row.update(status="pruned", message=f"lower bound {row['bound']} >= best {threshold} cycles",
                   threshold=threshold)
        return row
    row.update(_oracle(task, built, module))
    return row


def _oracle(task: dict, built: _Built, module) -> dict[str, Any]:
    """Simulate on the seeded inputs and compare with the reference (and, for a task with
    `perturb` N, N runs with latencies scaled 0.25x-4x must give the same outputs)."""
    import numpy as np

    from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
    from ascend_mlir.sim.reference_numerics import is_float_array
    from ascend_mlir.sim.simulator import simulate
    from ascend_mlir.sim.routes import compare_simulated, error_size

    seed = task["seed"]
    inputs = make_inputs(kernel_function(built.tile), seed)
    expected = run_reference(built.tile, inputs)
    result = simulate(module.clone(), inputs, chip=built.chip, seed=seed, trace=False)
    match, comparison = compare_simulated(result, expected)
    out: dict[str, Any] = {"cycles": result.cycles, "pipe_busy": dict(sorted(result.pipe_busy.items()))}
    problems = [r.message() for r in result.races[:1]]
    problems += ["deadlock"] if result.deadlock else []
    problems += [f"flag left set: {f}" for f in result.unbalanced_flags[:1]]
    problems += [f"double set: {f}" for f in result.double_sets[:1]]
    problems += [u.message() for u in result.uninitialized_reads[:1]]
    problems += [f"{c['name']} differs from the reference ({error_size(c)})"
                 for c in comparison if not c["match"]]
    for k in range(task.get("perturb", 0)):
        run = simulate(module.clone(), inputs, chip=built.chip, seed=seed, perturb=seed * 1000 + k + 1,
                       trace=False)
        same = all(np.array_equal(run.outputs[n], result.outputs[n], equal_nan=is_float_array(result.outputs[n]))
                   for n in result.outputs)
        if not same or not run.ok:
            problems.append(f"perturbed run {k + 1}: {'different outputs' if not same else 'race or deadlock'}")
    if task.get("perturb"):
        out["perturb"] = task["perturb"]
    out["status"] = "wrong" if problems else "ok"
    if problems:
        out["message"] = problems[0] if len(problems) == 1 else f"{problems[0]} (+{len(problems) - 1} more)"
    return out
