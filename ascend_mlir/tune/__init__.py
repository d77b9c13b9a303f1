"""ascend-tune: search a kernel factory's tile shapes, stages, chips and compile options
for the fastest variant the oracle accepts.

```python
import ascend_mlir.frontend as T

def make_vecadd(tile=512, num_stages=2):       # a module-level function returning a @T.kernel
    ...

result = T.autotune(make_vecadd, {"tile": [256, 512, 1024], "num_stages": [1, 2, 3]})
print(result.best["config"], result.best["cycles"])
result.write("tune-out")    # results.csv/json, pareto.svg, best.npuir.mlir, best.cce
```
The objective is the simulator's cycle count of the compiled kernel, counted only when
it is race-free and equal to the numpy reference. Every config of the space is one row
of the table, failures included (see `search`, `evaluate`, `cache` for the rules).
"""

from __future__ import annotations

import hashlib
import inspect
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ascend_mlir.tune.space import SpaceError, Variant, check_space, config_json, factory_parameters, grid

__all__ = ["SpaceError", "TuneError", "TuneResult", "autotune"]


class TuneError(ValueError):
    """A sweep that cannot start (bad factory, bad space, missing optional package)."""


def factory_ref(factory: Callable) -> dict:
    """How workers find `factory`: its module's source text, path and the function name."""
    from ascend_mlir.frontend.kernel import Kernel

    if isinstance(factory, Kernel):
        raise TuneError(_kernel_not_factory(factory))
    name = getattr(factory, "__name__", None)
    module = sys.modules.get(getattr(factory, "__module__", "") or "")
    if name is None or module is None or getattr(module, name, None) is not factory:
        raise TuneError("the kernel factory must be a function defined at the top level of a module "
                        f"(got {factory!r}): workers load it by its module's source and name")
    path = inspect.getsourcefile(factory)
    if path is None or not os.path.exists(path):
        raise TuneError(f"cannot find the source file of the kernel factory '{name}'")
    source = Path(path).read_text()
    digest = hashlib.sha256(source.encode() + b"\0" + path.encode()).hexdigest()
    return {"path": path, "source": source, "name": name, "digest": digest}


def _kernel_not_factory(kernel: Any) -> str:
    """What to say when given a @T.kernel itself (`gemm.py:gemm`) where a factory of
    kernels is asked for: the module's top-level functions are the candidates."""
    fn = getattr(kernel, "fn", None)
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    candidates = sorted(n for n, v in vars(module).items()
                        if inspect.isfunction(v) and v.__module__ == module.__name__) if module else []
    hint = f" (functions of its module: {', '.join(candidates)})" if candidates else ""
    return (f"'{getattr(fn, '__name__', kernel)}' is a @T.kernel, not a kernel factory: give a top-level "
            f"function that returns one, whose parameters the space names{hint}")


@dataclass
class TuneResult:
    rows: list[dict]
    names: list[str]
    factory: Callable
    seconds: float

    @property
    def best(self) -> dict | None:
        """The fastest `ok` row (the earlier one in grid order on a tie)."""
        ok = [r for r in self.rows if r["status"] == "ok" and r.get("cycles") is not None]
        return min(ok, key=lambda r: (r["cycles"], r["index"])) if ok else None

    @property
    def crashed(self) -> list[dict]:
        return [r for r in self.rows if r["status"] == "crash"]

    def summary(self) -> str:
        from ascend_mlir.tune.report import summary_lines

        return "\n".join(summary_lines(self.rows, self.best, self.seconds))

    def to_csv(self) -> str:
        from ascend_mlir.tune.report import to_csv

        return to_csv(self.rows, self.names)

    def to_json(self) -> str:
        from ascend_mlir.tune.report import counts, to_json

        return to_json(self.rows, self.best, {"counts": counts(self.rows), "seconds": round(self.seconds, 3)})

    def pareto_svg(self) -> str:
        from ascend_mlir.tune.report import pareto_svg

        return pareto_svg(self.rows, getattr(self.factory, "__name__", "kernel"))

    def best_kernel(self):
        """The best variant's @kernel, its chip and its ascend-compile options."""
        from ascend_mlir.tune.space import split_config

        best = self.best
        if best is None:
            return None
        names, kwargs_ok = factory_parameters(self.factory)
        kwargs, chip, options = split_config(best["config"], names, kwargs_ok)
        return self.factory(**kwargs), chip, options

    def write(self, directory: str | os.PathLike[str]) -> list[Path]:
        """results.csv, results.json, pareto.svg and the best variant's best.npuir.mlir
        and best.cce (when the CCE target prints it)."""
        import ascend_mlir.frontend as T
        from ascend_mlir.frontend import CompileError

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        files = {"results.csv": self.to_csv(), "results.json": self.to_json(), "pareto.svg": self.pareto_svg()}
        chosen = self.best_kernel()
        if chosen is not None:
            kernel, chip, options = chosen
            for target, name in (("npuir", "best.npuir.mlir"), ("cce", "best.cce")):
                try:
                    files[name] = T.compile(kernel, target=target, chip=chip, simulate=False, **options).text
                except CompileError as err:
                    files[name.replace("best.", "best-error.") + ".txt"] = str(err) + "\n"
        written = []
        for name, text in files.items():
            (out / name).write_text(text)
            written.append(out / name)
        return written


def _executor(executor, workers: int | None, ray_address: str | None, timeout: float | None):
    from ascend_mlir.tune import executors

    if not isinstance(executor, str):  # an executor object the caller keeps (and closes)
        if hasattr(executor, "timeout"):
            executor.timeout = timeout
        return executor
    if executor == "inline":
        return executors.InlineExecutor(timeout)
    if executor == "local":
        return executors.LocalPool(workers, timeout)
    if executor == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise TuneError("the ray executor needs Ray: pip install 'ascend-mlir[ray]'") from None
        return executors.RayExecutor(ray_address or "auto", timeout, workers)
    raise TuneError(f"unknown executor '{executor}' (local, ray, inline)")


def _chip_files_digest(config: Mapping) -> str:
    """Chip files named by path in a config (built-in chips are in the compiler version)."""
    parts = []
    for key in ("chip", "chip_file"):
        value = config.get(key)
        if isinstance(value, str) and os.path.isfile(value):
            parts.append(hashlib.sha256(Path(value).read_bytes()).hexdigest())
    return ",".join(parts)


def autotune(
    factory: Callable,
    space: Mapping[str, Sequence],
    *,
    executor: Any = "local",
    workers: int | None = None,
    ray_address: str | None = None,
    cache: bool | str | os.PathLike[str] = True,
    seed: int = 0,
    search: str = "grid",
    budget: int | None = None,
    prune: bool = True,
    time_budget: float | None = None,
    timeout: float | None = 600.0,
    perturb: int = 3,
    verify: int = 3,
    progress: bool = False,
) -> TuneResult:
    """Run every variant of `space` (or `budget` of them chosen by TPE with
    `search="tpe"`) through compile + simulate + reference and return the table.

    executor: "local" (warm worker processes, `workers` of them, default one per core),
    "ray" (Ray core tasks on the cluster at `ray_address`, default "auto"), "inline", or
    an executor object (`executors.LocalPool(...)`, `RayExecutor(...)`) to keep warm
    across several sweeps: the caller closes it.
    cache: True (the default directory, see `ascend_mlir.tune.cache`), a directory, or
    False. timeout: seconds per variant before its worker is recycled. perturb/verify:
    the `verify` best variants get `perturb` runs with latencies scaled 0.25x-4x."""
    from ascend_mlir.tune import evaluate
    from ascend_mlir.tune.cache import Cache, default_dir
    from ascend_mlir.tune.report import Progress
    from ascend_mlir.tune.search import Plan, Sweep

    if evaluate.IN_WORKER:
        raise TuneError("autotune was called while a worker loaded the factory's module: "
                        "put the call under `if __name__ == \"__main__\":`")
    if search not in ("grid", "tpe"):
        raise TuneError(f"unknown search '{search}' (grid, tpe)")
    started = time.monotonic()
    ref = factory_ref(factory)
    names, takes_kwargs = factory_parameters(factory)
    check_space(space, names, takes_kwargs)
    variants = grid(space)
    if search == "tpe":
        try:
            import optuna  # noqa: F401
        except ImportError:
            raise TuneError("search='tpe' needs Optuna: pip install 'ascend-mlir[tpe]'") from None
    cache_obj = None
    if cache:
        cache_obj = Cache(default_dir() if cache is True else cache)
    version = evaluate.compiler_version()

    def make_task(variant: Variant) -> dict:
        return {"config": dict(variant.config), "factory": ref, "factory_names": sorted(names),
                "takes_kwargs": takes_kwargs, "seed": seed, "timeout": timeout, "perturb": 0, "cwd": os.getcwd(),
                "cache_dir": str(cache_obj.dir) if cache_obj is not None else None}

    def fast_key(variant: Variant, perturb_runs: int) -> str:
        text = "\0".join([ref["digest"], ref["name"], config_json(variant.config), version, f"seed={seed}",
                          _chip_files_digest(variant.config), f"perturb={perturb_runs}"])
        return hashlib.sha256(text.encode()).hexdigest()

    meter = Progress(enabled=progress)

    def on_row(row: dict) -> None:
        meter.row(row)

    plan = Plan(make_task, fast_key, cache_obj, prune=prune, time_budget=time_budget, perturb=perturb,
                verify=verify, on_row=on_row, on_progress=meter.update, started=started)
    runner = _executor(executor, workers, ray_address, timeout)
    try:
        sweep = Sweep(variants, runner, plan)
        if search == "tpe":
            sweep.tpe(budget or len(variants), seed)
        else:
            sweep.grid()
        sweep.verify_best()
    finally:
        if isinstance(executor, str):
            runner.close()
    rows = [sweep.rows[v.index] for v in variants]
    return TuneResult(rows, list(space), factory, time.monotonic() - started)


def result_rows_equal(a: TuneResult, b: TuneResult) -> bool:
    """Whether two sweeps found the same table (ignoring timing and cache hits)."""
    def strip(rows: list[dict]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k not in ("seconds", "cache_hit")} for r in rows]

    return strip(a.rows) == strip(b.rows)
