"""`ascend-tune`: sweep a Python kernel factory's space for the fastest correct variant.

    ascend-tune examples/vecadd.py:make_vecadd -s tile=512,1024,2048,4096 -s num_stages=1,2 -o out

Parsing and diagnostics follow ascend-opt: bad input is `ascend-tune: error: ...` with
exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from ascend_mlir.tools.cli_args import ArgumentParser, at_least

DESCRIPTION = """\
ascend-tune: search a kernel factory's space (tile sizes, num_stages, blocks, chip,
ascend-compile options) for the variant with the fewest simulated cycles that is
race-free and equal to the numpy reference.

FACTORY is `path/to/module.py:function`, a top-level function that returns a
@T.kernel; the space names are its parameters, plus `chip` and ascend-compile options
(sync, schedule, num_stages, chip_file). Every config is one row of the table
(statuses: ok wrong invalid timeout crash pruned dominated skipped). Results are cached
per variant under $ASCEND_TUNE_CACHE (default ~/.cache/ascend-mlir/tune), so a rerun
only computes new variants.

Exit status: 0 when the sweep ran (1 when a variant crashed the compiler, unless
--keep-going); 1 for bad input or when no variant passed the oracle.
"""


def _value(text: str):
    """`512` -> 512, `0.5` -> 0.5, `true` -> True, anything else stays a string."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def _arg_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="ascend-tune", description=DESCRIPTION,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("factory", help="module.py:function (a top-level function returning a @T.kernel)")
    p.add_argument("-s", "--set", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="one dimension of the space (repeatable)")
    p.add_argument("--space", metavar="JSON", help="the space as a JSON object (or @file.json)")
    p.add_argument("-o", "--output", metavar="DIR",
                   help="write results.csv, results.json, pareto.svg, best.npuir.mlir, best.cce here")
    p.add_argument("--executor", choices=("local", "ray", "inline"), default="local",
                   help="local: warm worker processes (default); ray: Ray core tasks; inline: this process")
    p.add_argument("--workers", type=at_least(1), default=None, help="local workers (default: one per core)")
    p.add_argument("--ray", metavar="ADDRESS", help="run on the Ray cluster at ADDRESS ('auto', host:port)")
    p.add_argument("--cache", metavar="DIR", help="cache directory (default $ASCEND_TUNE_CACHE or ~/.cache/ascend-mlir/tune)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument("--seed", type=at_least(0), default=0, help="simulator input seed and TPE seed (default 0)")
    p.add_argument("--search", choices=("grid", "tpe"), default="grid", help="grid (default) or tpe (Optuna)")
    p.add_argument("--budget", type=at_least(1), default=None, help="variants the TPE search may run")
    p.add_argument("--no-prune", action="store_true", help="simulate every variant (no bound or dominance pruning)")
    p.add_argument("--time-budget", type=at_least(0, float), default=None, metavar="S",
                   help="dispatch no variant after S seconds (the rest are 'skipped')")
    p.add_argument("--timeout", type=at_least(0.001, float), default=600.0, metavar="S",
                   help="seconds per variant before its worker is recycled, or (inline) the variant stopped "
                        "(default 600)")
    p.add_argument("--perturb", type=at_least(0), default=3, metavar="N",
                   help="perturbed-latency runs in the best variants' full oracle (default 3)")
    p.add_argument("--verify", type=at_least(0), default=3, metavar="K",
                   help="how many best variants get the full oracle (default 3)")
    p.add_argument("--keep-going", action="store_true", help="exit 0 even when a variant crashed the compiler")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line on stderr")
    return p


class _InputError(Exception):
    pass


def _space(args) -> dict:
    space: dict = {}
    if args.space:
        text = args.space
        if text.startswith("@"):
            try:
                with open(text[1:]) as f:
                    text = f.read()
            except OSError as err:
                raise _InputError(f"cannot read {args.space[1:]}: {err.strerror}") from None
        try:
            loaded = json.loads(text)
        except ValueError as err:
            raise _InputError(f"--space is not JSON: {err}") from None
        if not isinstance(loaded, dict):
            raise _InputError("--space must be a JSON object of lists")
        space.update(loaded)
    for item in args.set:
        name, eq, values = item.partition("=")
        if not eq or not name or not values:
            raise _InputError(f"-s '{item}': expected NAME=V1,V2,...")
        if any(not v.strip() for v in values.split(",")):
            raise _InputError(f"-s '{item}': an empty value (a stray comma?)")
        space[name.strip()] = [_value(v.strip()) for v in values.split(",")]
    if not space:
        raise _InputError("no space: give -s NAME=V1,V2 or --space JSON")
    return space


def _writable_directory(path: str | None, option: str) -> None:
    """Refuse `path` for `option` before any variant runs where it cannot be a directory:
    `-o /etc/passwd` ended the sweep in an internal FileExistsError."""
    if path is None:
        return
    if os.path.exists(path) and not os.path.isdir(path):
        raise _InputError(f"{option} {path}: exists and is not a directory")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        raise _InputError(f"{option} {path}: cannot create it: {err.strerror}") from None


def _factory(spec: str):
    from ascend_mlir.user_modules import UserModuleError, function_of, run_module

    path, colon, name = spec.rpartition(":")
    if not colon or not path or not name:
        raise _InputError(f"'{spec}': expected path/to/module.py:function")
    try:
        # the file's own name: a factory's classes pickle and print under it
        module = run_module(path, os.path.splitext(os.path.basename(path))[0])
        return function_of(module, name, path)
    except UserModuleError as err:
        raise _InputError(str(err)) from None


def run(argv: Sequence[str] | None = None) -> int:
    from ascend_mlir.frontend import DSLError
    from ascend_mlir.tune import SpaceError, TuneError, autotune

    args = _arg_parser().parse_args(argv)
    try:
        _writable_directory(args.output, "-o")
        if not args.no_cache and args.cache:
            _writable_directory(args.cache, "--cache")
        factory = _factory(args.factory)
        space = _space(args)
        result = autotune(
            factory, space,
            executor="ray" if args.ray else args.executor, workers=args.workers, ray_address=args.ray,
            cache=False if args.no_cache else (args.cache or True), seed=args.seed, search=args.search,
            budget=args.budget, prune=not args.no_prune, time_budget=args.time_budget,
            timeout=args.timeout, perturb=args.perturb, verify=args.verify, progress=not args.quiet)
    except (_InputError, TuneError, SpaceError, DSLError) as err:
        print(f"ascend-tune: error: {err}", file=sys.stderr)
        return 1
    except ConnectionError as err:  # Ray's: no cluster where it looked
        print(f"ascend-tune: error: no Ray cluster to run on (start one with `ray start --head`, or give "
              f"--ray ADDRESS; --executor local needs none): {err}", file=sys.stderr)
        return 1
    except OSError as err:  # the cache directory
        print(f"ascend-tune: error: {err}", file=sys.stderr)
        return 1
    if args.output:
        try:
            result.write(args.output)
        except OSError as err:
            print(f"ascend-tune: error: cannot write the results to {args.output}: {err}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(result.to_csv())
    print(result.summary())
    if result.crashed and not args.keep_going:
        return 1
    return 0 if result.best is not None else 1


def main(argv: Sequence[str] | None = None) -> int:
    from ascend_mlir.diagnostics import run_tool

    def body() -> int:
        try:
            return run(argv)
        except BrokenPipeError:  # the reader went away (e.g. `| head`)
            return 1

    return run_tool("ascend-tune", "internal error", body)


def _entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    _entry()
