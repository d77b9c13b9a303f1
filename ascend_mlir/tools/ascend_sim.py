"""`ascend-sim`: simulate a kernel on the pipe-level simulator and check it.

Parsing and diagnostics are ascend-opt's (same dialects, located ops, file:line:col
errors, no tracebacks).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

import numpy as np

DESCRIPTION = """\
ascend-sim: run a kernel on the pipe-level simulator of ascend-mlir.

A tile-level file (one that contains tile.* ops) is first compiled with the
`ascend-compile` pass (today convert-tile-to-hivm + barrier sync) and its outputs are
compared with the numpy reference interpreter run on the tile-level program. A
hivm-level file is simulated as written (reference_match is null).

Every block of the grid runs (ascend.grid); per core a scalar unit issues hivm ops
into in-order pipe queues; timing comes from ascend.latency/ascend.ii or the chip's
latency model. The happens-before race detector reports every pair of conflicting
accesses that flags/barriers/pipe order do not order (independent of timing), plus
deadlocks, double set flags and flags left set at exit.

Exit status: 0 when there is no race, no deadlock, no double set flag, no reference
mismatch and (with --perturb) identical outputs in every perturbed run; 1 otherwise
(also for bad input, reported as file:line:col: error: ...); 2 for an internal error.
"""


def _arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ascend-sim", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("file", help="MLIR file (tile level or hivm level); '-' reads stdin")
    p.add_argument("--chip", default=None, help="chip name or chip file (default: the module's hacc.target, else ascend950)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated inputs and of --perturb (default 0)")
    p.add_argument("--trace", metavar="T.json", help="write a Chrome/Perfetto trace of block 0")
    p.add_argument("--svg", metavar="T.svg", help="write an SVG pipe timeline of block 0")
    p.add_argument("--json", action="store_true", help="print one JSON object with the results")
    p.add_argument("--perturb", type=int, default=0, metavar="N",
                   help="re-run N times with every latency scaled by a random factor in [0.25, 4] "
                        "and require identical outputs and no race")
    p.add_argument("--blocks", type=int, default=None, metavar="B",
                   help="simulate only the first B blocks of the grid (default: all)")
    p.add_argument("--func", default=None, help="kernel function name (default: the hacc.entry function)")
    p.add_argument("--via", choices=("sim", "cce"), default="sim",
                   help="sim: the pipe-level simulator (default); cce: print with -t cce, build with g++ "
                        "against tools/cce-emu and run the emulation (same JSON keys and exit codes)")
    p.add_argument("--arch", choices=("dav-3510", "dav-c220"), default=None,
                   help="with --via cce: the CCE spelling (default: the chip's)")
    return p


def _tolerance(element_type: str) -> tuple[float, float]:
    """(rtol, atol) for comparing with the reference: results may differ by summation
    order only (matmul, reductions), i.e. a few units in the last place of the type."""
    if element_type in ("f16", "bf16"):
        return 1e-2, 1e-2
    if element_type == "f64":
        return 1e-9, 1e-12
    return 1e-4, 1e-5


def _compare(actual: dict, expected: dict, types: dict[str, str]) -> tuple[bool, list[dict]]:
    report = []
    ok = True
    for name, exp in expected.items():
        got = actual.get(name)
        if got is None:
            continue
        exp = np.asarray(exp)
        rtol, atol = _tolerance(types.get(name, "f32"))
        if exp.dtype.kind in "iub":
            same = bool(np.array_equal(got, exp))
            err = float(np.max(np.abs(got.astype(np.int64) - exp.astype(np.int64)))) if got.size else 0.0
        else:
            same = bool(np.allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True))
            with np.errstate(all="ignore"):
                diff = np.abs(got.astype(np.float64) - exp.astype(np.float64))
                err = float(np.nanmax(diff)) if diff.size else 0.0
        ok &= same
        report.append({"name": name, "match": same, "max_abs_error": err})
    return ok, report


def _grid_of_result(module, func_name: str | None) -> int:
    from ascend_mlir.sim.hivm_frontend import find_kernel

    return find_kernel(module, func_name).grid


def _is_tile_level(module) -> bool:
    return any(op.name.startswith("tile.") for op in module.walk())


def _load(path: str):
    """(ctx holder, module) or a list of rendered diagnostics."""
    from xdsl.utils.exceptions import ParseError

    from ascend_mlir.diagnostics import parse_diagnostic, parse_module, verify_module, with_source_lines
    from ascend_mlir.tools.ascend_opt import AscendOptMain

    if path == "-":
        text, name = sys.stdin.buffer.read().decode("utf-8"), "<stdin>"
    else:
        with open(path, "rb") as f:
            text, name = f.read().decode("utf-8"), path
    tool = AscendOptMain(args=[])
    try:
        module = parse_module(tool.ctx, text, name)
    except ParseError as err:
        return tool, None, [parse_diagnostic(err).render()]
    diagnostics = verify_module(module)
    if diagnostics:
        return tool, None, [d.render() for d in with_source_lines(diagnostics, text)]
    return tool, module, []


def _compile(tool, module, chip: str | None):
    """Run ascend-compile on `module` in place."""
    from xdsl.passes import PassPipeline

    if chip and (os.sep in chip or chip.endswith((".toml", ".json"))):
        spec = f'ascend-compile{{chip-file="{chip}"}}'  # a path is not a pipeline token
    else:
        spec = "ascend-compile" + (f"{{chip={chip}}}" if chip else "")
    pipeline = PassPipeline.parse_spec(tool.available_passes, spec)
    pipeline.apply(tool.ctx, module)


def run(argv: Sequence[str] | None = None) -> int:
    args = _arg_parser().parse_args(argv)
    from xdsl.utils.exceptions import DiagnosticException, ParseError

    from ascend_mlir.diagnostics import exception_diagnostic, verify_module

    try:
        tool, module, diagnostics = _load(args.file)
    except OSError as err:
        print(f"ascend-sim: error: cannot read '{args.file}': {err.strerror}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as err:
        print(f"{args.file}: error: input is not UTF-8 text (byte offset {err.start})", file=sys.stderr)
        return 1
    if diagnostics:
        for d in diagnostics:
            print(d, file=sys.stderr)
        return 1
    assert module is not None  # _load returns diagnostics or a module

    if args.via == "cce":
        from ascend_mlir.sim.via_cce import run_via_cce

        assert module is not None
        try:
            return run_via_cce(args, tool, module)
        except (DiagnosticException, ParseError, ValueError, NotImplementedError) as err:
            print(exception_diagnostic(err).render(), file=sys.stderr)
            return 1

    from ascend_mlir.sim.reference import ReferenceError as ReferenceFailure
    from ascend_mlir.sim.simulator import chrome_trace, simulate, svg_timeline

    expected = None
    inputs = None
    try:
        if _is_tile_level(module):
            from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference

            tile_module = module.clone()
            inputs = make_inputs(kernel_function(tile_module), args.seed)
            expected = run_reference(tile_module, inputs)
            try:
                _compile(tool, module, args.chip)
            except ImportError as err:
                print(f"{args.file}: error: ascend-compile is not available: {err}", file=sys.stderr)
                return 1
            problems = verify_module(module)
            if problems:
                for d in problems:
                    print(d.render(), file=sys.stderr)
                print("note: the IR stopped verifying after ascend-compile", file=sys.stderr)
                return 1
        elif args.chip:
            from ascend_mlir.analysis.hardware_checks import check_chip_limits
            from ascend_mlir.chips import load_chip

            check_chip_limits(module, load_chip(args.chip))  # the module's own target: checked by _load
        result = simulate(module, inputs, chip=args.chip, seed=args.seed, blocks=args.blocks,
                          func_name=args.func, trace=bool(args.trace or args.svg))
        perturbed = []
        for k in range(args.perturb):
            perturbed.append(simulate(module, inputs, chip=args.chip, seed=args.seed,
                                      perturb=args.seed * 1000 + k + 1, blocks=args.blocks,
                                      func_name=args.func, trace=False))
    except (DiagnosticException, ParseError, ValueError, NotImplementedError) as err:
        print(exception_diagnostic(err).render(), file=sys.stderr)
        return 1
    except ReferenceFailure as err:
        print(f"{args.file}: error: {err}", file=sys.stderr)
        return 1

    reference_match = None
    comparison: list[dict] = []
    partial = args.blocks is not None and result.blocks < _grid_of_result(module, args.func)
    if expected is not None and not partial:
        reference_match, comparison = _compare(result.outputs, expected, result.output_types)
    elif expected is not None and not args.json:
        print(f"note: only {result.blocks} block(s) simulated: outputs not compared with the reference")

    perturb_report = None
    failed_perturb = False
    if args.perturb:
        differing = []
        for k, r in enumerate(perturbed):
            same = all(
                np.array_equal(r.outputs[n], result.outputs[n], equal_nan=result.outputs[n].dtype.kind == "f")
                for n in result.outputs
            )
            if not same or r.races or r.deadlock:
                differing.append({"run": k + 1, "identical_outputs": same, "races": len(r.races),
                                  "deadlock": r.deadlock, "cycles": r.cycles})
        failed_perturb = bool(differing)
        perturb_report = {
            "runs": args.perturb,
            "ok": not differing,
            "failures": differing,
            "cycles": [r.cycles for r in perturbed],
        }

    if args.trace:
        with open(args.trace, "w", encoding="utf-8") as f:
            f.write(chrome_trace(result.trace))
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(svg_timeline(result.trace, result.cycles))

    ok = result.ok and not result.double_sets and reference_match is not False and not failed_perturb
    if args.json:
        obj = {
            "cycles": result.cycles,
            "races": [r.to_json() for r in result.races],
            "deadlock": result.deadlock,
            "unbalanced_flags": result.unbalanced_flags,
            "reference_match": reference_match,
            "pipe_busy": result.pipe_busy,
        }
        obj.update({k: v for k, v in result.to_json().items() if k not in obj})
        obj["reference"] = comparison
        if perturb_report is not None:
            obj["perturb"] = perturb_report
        obj["ok"] = ok
        print(json.dumps(obj))
    else:
        print(f"{args.file}: {result.cycles} cycles, {result.blocks} block(s), cores {', '.join(result.cores)}, "
              f"{result.instructions} instructions")
        for r in result.races:
            print(f"error: {r.message()}")
        if result.deadlock:
            print("error: deadlock: remaining work is blocked")
            for line in result.deadlock_info:
                print(f"  {line}")
        for line in result.double_sets:
            print(f"error: double set: {line}")
        for line in result.unbalanced_flags:
            print(f"warning: unbalanced flag: {line}")
        busy = ", ".join(f"{p} {c}" for p, c in result.pipe_busy.items())
        print(f"pipe busy cycles: {busy}")
        if reference_match is not None:
            for c in comparison:
                state = "matches" if c["match"] else "MISMATCHES"
                print(f"{'' if c['match'] else 'error: '}output {c['name']} {state} the reference "
                      f"(max abs error {c['max_abs_error']:.3g})")
        if perturb_report is not None:
            if perturb_report["ok"]:
                print(f"perturb: {args.perturb} runs with latencies scaled 0.25x-4x: identical outputs, no race")
            else:
                for fail in perturb_report["failures"]:
                    print(f"error: perturbed run {fail['run']}: identical outputs {fail['identical_outputs']}, "
                          f"races {fail['races']}, deadlock {fail['deadlock']}")
        print("OK" if ok else "FAILED")
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    from ascend_mlir.diagnostics import run_tool

    def body() -> int:
        try:
            return run(argv)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing left to say
            return 1

    return run_tool("ascend-sim", "internal error", body)


def _entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    _entry()
