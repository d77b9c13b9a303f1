"""`ascend-sim`: simulate a kernel on the pipe-level simulator and check it.

Parsing and diagnostics are ascend-opt's (same dialects, located ops, file:line:col
errors, no tracebacks).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Sequence

import numpy as np

from ascend_mlir import output_files
from ascend_mlir.tools.cli_args import ArgumentParser, at_least
from ascend_mlir.sim.routes import (
    argument_roles_of,
    comparison_line,
    compare_outputs,
    compare_simulated,
    compile_tile_level,
    is_tile_level,
    name_arguments,
)

DESCRIPTION = """\
ascend-sim: run a kernel on the pipe-level simulator of ascend-mlir.

FILE is an MLIR file or a Python DSL file (examples/vecadd.py: the @T.kernel it defines
at top level; FILE.py:NAME picks one by name, or calls a factory NAME() without
arguments), which is a tile-level kernel.

A tile-level file (one that contains tile.* ops) is first compiled with the
`ascend-compile` pass (modulo schedule and solver sync, as `ascend-opt -p
ascend-compile` runs it) and its outputs are compared with the numpy reference
interpreter run on the tile-level program. A hivm-level file is simulated as written
(reference_match is null). With --via bishengir a tile-level file is lowered without our
sync and bishengir-compile's own sync and memory plan are judged instead (its last
hivm-level dump), for --chip, else the module's hacc.target, else ascend950; a
bishengir-compile --mlir-print-ir-after-all log, or a module as bishengir prints it, is
read directly (--grid G gives its block count, a launch parameter absent from the IR).

Every block of the grid runs (ascend.grid); per core a scalar unit issues hivm ops
into per-pipe queues (same-pipe rule: only S and mmadL1 -> mmadL1 are ordered by the
pipe, other dependent ops of one pipe need pipe_barrier); timing comes from ascend.latency/ascend.ii or the chip's
latency model. The happens-before race detector reports every pair of conflicting
accesses that flags/barriers/pipe order do not order (independent of timing), plus
deadlocks, double set flags and flags left set at exit.

Exit status: 0 when there is no race, no deadlock, no double set flag, no flag left
set at kernel exit (on hardware it corrupts the next kernel's sync), no reference
mismatch and (with --perturb) identical outputs in every perturbed run; 1 otherwise
(also for bad input, reported as file:line:col: error: ..., and bad options); 2 for an
internal error.
"""


def _arg_parser() -> argparse.ArgumentParser:
    from ascend_mlir.sim.binding import DEFAULTS_HELP
    from ascend_mlir.targets.cce import ARCHS

    p = ArgumentParser(
        prog="ascend-sim", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    from ascend_mlir import __version__

    p.add_argument("file", help="MLIR file (tile level or hivm level), a Python DSL kernel file (k.py or "
                                "k.py:NAME); '-' reads stdin")
    p.add_argument("--version", action="version", version=f"ascend-sim {__version__}")
    p.add_argument("--chip", default=None, help="chip name or chip file (default: the module's hacc.target, else ascend950)")
    p.add_argument("--seed", type=at_least(0), default=0, help="seed of the generated inputs and of --perturb (default 0)")
    p.add_argument("--trace", metavar="T.json", help="write a Chrome/Perfetto trace of block 0")
    p.add_argument("--svg", metavar="T.svg", help="write an SVG pipe timeline of block 0")
    p.add_argument("--json", action="store_true", help="print one JSON object with the results")
    p.add_argument("--perturb", type=at_least(0), default=0, metavar="N",
                   help="re-run N times with every latency scaled by a random factor in [0.25, 4] "
                        "and require identical outputs and no race")
    p.add_argument("--blocks", type=at_least(1), default=None, metavar="B",
                   help="simulate only the first B blocks of the grid (default: all)")
    p.add_argument("--func", default=None, help="kernel function name (default: the hacc.entry function)")
    p.add_argument("--via", choices=("sim", "cce", "bishengir"), default="sim",
                   help="sim: ascend-compile, then the pipe-level simulator (default); cce: print with -t cce, "
                        "build with g++ against tools/cce-emu and run the emulation (same JSON keys and exit "
                        "codes); bishengir: bishengir-compile's own sync and memory plan (its last hivm-level "
                        "dump) on the simulator")
    p.add_argument("--arch", choices=ARCHS, default=None,
                   help="with --via cce: the CCE spelling (default: the chip's)")
    p.add_argument("--grid", type=at_least(1), default=None, metavar="G",
                   help="blocks of a hivm-level kernel whose IR does not say (a bishengir dump)")
    p.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                   help="the value of a kernel argument for this run (repeatable); NAME as written in the file "
                        "(%%n -> n) or arg<i>; a scalar takes a number of its type (n=1000), a GM memref with "
                        f"dynamic dimensions its shape (x=1000x4096). Defaults: {DEFAULTS_HELP}")
    p.add_argument("--reference", default=None, metavar="REF.py[:FUNC]",
                   help="for a hivm-level kernel (e.g. another frontend's, through bishengir): a Python function "
                        "(default name `reference`) called with the kernel's arguments by their names as written "
                        "(GM memrefs as numpy arrays, scalars as numbers) that returns the expected outputs "
                        "({name: array}, or one array for a kernel with one marked output); the simulator's "
                        "outputs must match it")
    p.add_argument("--progress", action="store_true",
                   help="write the progress line (shown for steps over 2 s) also when stderr is not a terminal")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line on stderr")
    return p


def _check_options(args: argparse.Namespace) -> str | None:
    """What is wrong with the options that only the file system or the chip data can
    tell, checked before any work (so no output file is left half-written)."""
    from ascend_mlir.chips import ChipError, load_chip

    if args.arch is not None and args.via != "cce":
        return "--arch chooses the CCE spelling of --via cce; without it nothing is printed (the simulator's chip is --chip)"
    if args.chip is not None:
        if not args.chip.strip():  # `--chip ''` (an unset shell variable) chose the default silently
            return "--chip is empty (a built-in chip: ascend950, ascend910b; or a chip file)"
        try:
            load_chip(args.chip)
        except ChipError as err:
            return f"--chip: {err}"
    for flag, path in (("--trace", args.trace), ("--svg", args.svg)):
        if path is None:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            return f"{flag}: '{path}' is a directory"
        if not os.path.isdir(folder):
            return f"{flag}: cannot write '{path}': no such directory '{folder}'"
        if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
            return f"{flag}: cannot write '{path}': permission denied"
    return None


def _write_output(flag: str, path: str, text: str) -> str | None:
    try:
        output_files.write_text(path, text)
    except output_files.OutputError as err:
        return f"{flag}: {err}"
    return None


# the comparison the routes share (sim/routes.py); `_compare` for older callers
_compare = compare_outputs


def _grid_of_result(module, func_name: str | None) -> int:
    from ascend_mlir.sim.hivm_frontend import find_kernel

    return find_kernel(module, func_name).grid


_is_tile_level = is_tile_level


def _read(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8"), "<stdin>"
    with open(path, "rb") as f:
        return f.read().decode("utf-8"), path


def _load(path: str):
    """(tool, module, []) or (tool, None, rendered diagnostics). A bishengir-compile
    `--mlir-print-ir-after-all` log is read as its last hivm-level dump."""
    from xdsl.utils.exceptions import ParseError

    from ascend_mlir.diagnostics import (
        irdl_form_note,
        parse_diagnostic,
        parse_module,
        verify_module,
        with_source_lines,
    )
    from ascend_mlir.sim import bishengir
    from ascend_mlir.tools.ascend_opt import AscendOptMain

    from ascend_mlir.tools.kernel_files import build_kernel_file, kernel_file_spec
    from ascend_mlir.user_modules import UserModuleError

    tool = AscendOptMain(args=[])
    kernel_file = kernel_file_spec(path) if path != "-" else None
    if kernel_file is not None:
        if not os.path.isfile(kernel_file[0]):  # as for an MLIR file: `cannot read`
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), kernel_file[0])
        try:
            return tool, build_kernel_file(*kernel_file), []
        except UserModuleError as err:
            source = _line_of_user_file(err)
            return tool, None, [err.diagnostic() + (f"\n{source}" if source else "")]
    text, name = _read(path)
    bishengir.register_bishengir_dialects(tool.ctx)
    if bishengir.needs_translation(text):
        try:
            text = bishengir.to_simulator_text(text)
        except bishengir.BishengirError as err:
            return tool, None, [f"{name}: error: {err}"]
    try:
        module = parse_module(tool.ctx, text, name)
    except ParseError as err:
        note = irdl_form_note(text)
        return tool, None, [parse_diagnostic(err).render()] + ([note.render()] if note is not None else [])
    diagnostics = verify_module(module)
    if diagnostics:
        return tool, None, [d.render() for d in with_source_lines(diagnostics, text, name=name)]
    return tool, module, []


def _line_of_user_file(err) -> str | None:
    """The quoted line and caret under a UserModuleError's location, as ascend-opt shows."""
    from ascend_mlir.diagnostics import Diagnostic, SourceLocation, with_source_lines

    if err.line is None:
        return None
    diag = Diagnostic("error", err.message, SourceLocation(err.path, err.line, err.column or 1))
    rendered = with_source_lines([diag], "", name="")[0].render()
    return rendered.partition("\n")[2] or None


def _compile(tool, module, chip: str | None):
    compile_tile_level(tool.ctx, module, chip)


class _Failed(Exception):
    """A reported failure of the run (bad input, a tool that cannot run): exit status 1."""


def _fail(message: str):
    print(message, file=sys.stderr)
    raise _Failed


def _via_ascend_compile(args, tool, module):
    """Compile a tile-level module in place; (inputs, expected outputs)."""
    from ascend_mlir.diagnostics import verify_module
    from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference

    tile_module = module.clone()
    tile_func = kernel_function(tile_module)
    inputs = make_inputs(tile_func, args.seed, bound_arguments(args, tile_func))
    with args.progress_line.phase("running the reference interpreter"):
        expected = run_reference(tile_module, inputs)
    with args.progress_line.phase("compiling (ascend-compile)"):
        _compile(tool, module, args.chip)
    problems = verify_module(module)
    if problems:
        _fail("\n".join([d.render() for d in problems] + ["note: the IR stopped verifying after ascend-compile"]))
    return inputs, expected


def _via_bishengir(args, module):
    """Lower a tile-level module without our sync, let bishengir-compile synchronise and
    plan it; (its last hivm dump parsed, grid, inputs, expected outputs)."""
    from ascend_mlir.chips import DEFAULT_CHIP, load_chip, module_hacc_target
    from ascend_mlir.dialects import ascend
    from ascend_mlir.sim import bishengir
    from ascend_mlir.sim.reference import gm_arguments, kernel_function, make_inputs, run_reference

    # the chip every other route takes: --chip, else the module's, else the default
    chip = load_chip(args.chip or module_hacc_target(module) or DEFAULT_CHIP).name
    tile_func = kernel_function(module)
    inputs = make_inputs(tile_func, args.seed, bound_arguments(args, tile_func))
    expected = run_reference(module, inputs)
    npuir = bishengir.lower_for_bishengir(module, chip)
    try:
        with args.progress_line.phase("running bishengir-compile"):
            log = bishengir.run_bishengir(npuir, options=bishengir.CUBE_OPTIONS if bishengir.is_cube(npuir) else ())
        text = bishengir.to_simulator_text(log)
    except bishengir.BishengirError as err:
        _fail(f"{args.file}: error: {err}")
    hivm = bishengir.parse_hivm(text, f"{args.file} (bishengir dump after {bishengir.last_hivm_dump(log).after})")
    # the dump's GM arguments (a MIX kernel's FFTS address comes first)
    names = bishengir.dump_argument_names(hivm, [name for name, _ in gm_arguments(tile_func)])
    inputs = {names.get(k, k): v for k, v in inputs.items()}
    expected = {names.get(k, k): v for k, v in expected.items()}
    return hivm, ascend.launch_grid(tile_func), chip, inputs, expected


def _prepare(args, tool, module):
    """(hivm module, chip, inputs, expected outputs or None) for the chosen route."""
    if not _is_tile_level(module):
        from ascend_mlir.transforms.ascend_compile import refuse_scalar_only_kernels

        refuse_scalar_only_kernels(module)
        if args.via == "bishengir":
            _fail(f"{args.file}: error: --via bishengir needs a tile-level file (this one is hivm level)")
        if args.grid is not None:
            _set_grid(module, args.func, args.grid)
        if args.chip:
            from ascend_mlir.analysis.hardware_checks import check_chip_limits
            from ascend_mlir.chips import load_chip

            check_chip_limits(module, load_chip(args.chip))  # the module's own target: checked by _load
        inputs = _hivm_inputs(args, module)
        return module, args.chip, inputs, _user_expected(args, module, inputs)
    if args.reference:
        _fail(f"{args.file}: error: --reference is for hivm-level kernels: a tile-level file is checked "
              "against its own program")
    from ascend_mlir.transforms.ascend_compile import refuse_on_chip_kernel_arguments

    refuse_on_chip_kernel_arguments(module)  # before the reference, which would fail unlocated

    if args.via == "bishengir":
        hivm, grid, chip, inputs, expected = _via_bishengir(args, module)
        _set_grid(hivm, None, grid)
        return hivm, chip, inputs, expected
    inputs, expected = _via_ascend_compile(args, tool, module)
    return module, args.chip, inputs, expected


def _refuse_grid_on_tile_level(args, module) -> None:
    """--grid gives the block count of a hivm-level kernel whose IR does not say (a
    bishengir dump); a tile-level kernel's is its tile.grid."""
    if args.grid is None or not _is_tile_level(module):
        return
    from ascend_mlir.diagnostics import location_of
    from ascend_mlir.sim.reference import ReferenceError, kernel_function

    try:
        where = location_of(kernel_function(module))
    except ReferenceError:
        where = None
    _fail(f"{where or args.file}: error: --grid is for hivm-level kernels whose IR does not carry their "
          "block count (a bishengir dump); this tile-level kernel's grid is its tile.grid")


def bound_arguments(args, func_op):
    """The binding of `--bind` options for `func_op` (sim.binding); a bad value is a
    diagnostic at the kernel function."""
    from ascend_mlir.diagnostics import location_of
    from ascend_mlir.sim.binding import BindError, bind_arguments, parse_bind_options

    try:
        return bind_arguments(func_op, parse_bind_options(args.bind))
    except BindError as err:
        where = location_of(err.func_op) if err.func_op is not None else None
        _fail(f"{where or 'ascend-sim'}: error: {err}")


def _hivm_inputs(args, module):
    """Inputs of a hivm-level kernel: None (the simulator's defaults) unless --bind or
    --reference (which needs the very inputs the simulator starts from)."""
    from ascend_mlir.sim.hivm_frontend import find_kernel
    from ascend_mlir.sim.reference import make_inputs

    if not args.bind and not args.reference:
        return None
    kernel = find_kernel(module, args.func)
    func_op = kernel.aic or kernel.aiv
    assert func_op is not None
    return make_inputs(func_op, args.seed, bound_arguments(args, func_op))


def _user_expected(args, module, inputs):
    """The outputs `--reference` expects for `inputs` (None without --reference)."""
    from ascend_mlir.diagnostics import location_of
    from ascend_mlir.sim.hivm_frontend import find_kernel
    from ascend_mlir.sim.user_reference import ReferenceSpecError, expected_outputs, load_reference

    if not args.reference:
        return None
    kernel = find_kernel(module, args.func)
    func_op = kernel.aic or kernel.aiv
    assert func_op is not None
    try:
        return expected_outputs(load_reference(args.reference), func_op, inputs)
    except ReferenceSpecError as err:
        _fail(f"{location_of(func_op) or args.file}: error: {err}")


def _set_grid(module, func_name: str | None, grid: int) -> None:
    """The launch grid of a kernel whose IR does not carry it (bishengir's output)."""
    from ascend_mlir.dialects import ascend
    from ascend_mlir.sim.hivm_frontend import find_kernel

    kernel = find_kernel(module, func_name)
    for f in (kernel.aic, kernel.aiv):
        if f is not None:
            ascend.set_grid(f, grid)


def _block_progress(args, run: int):
    """The simulator's per-block callback: `simulating block 3/32 (perturbed run 1/3)`."""
    where = f" (perturbed run {run}/{args.perturb})" if run else ""

    def on_block(block: int, blocks: int) -> None:
        args.progress_line.update(f"simulating block {block + 1}/{blocks}{where}")

    return on_block


def _simulate_all(args, module, chip, inputs):
    from ascend_mlir.sim.simulator import simulate

    result = simulate(module, inputs, chip=chip, seed=args.seed, blocks=args.blocks,
                      func_name=args.func, trace=bool(args.trace or args.svg), on_block=_block_progress(args, 0))
    perturbed = [
        simulate(module, inputs, chip=chip, seed=args.seed, perturb=args.seed * 1000 + k + 1,
                 blocks=args.blocks, func_name=args.func, trace=False, on_block=_block_progress(args, k + 1))
        for k in range(args.perturb)
    ]
    return result, perturbed


def _run_guarded(args, tool, module):
    """_prepare + _simulate_all with bad input reported as diagnostics (status 1)."""
    from xdsl.utils.exceptions import DiagnosticException, ParseError

    from ascend_mlir.diagnostics import exception_diagnostic, location_of
    from ascend_mlir.sim.reference import ReferenceError

    try:
        module, chip, inputs, expected = _prepare(args, tool, module)
        result, perturbed = _simulate_all(args, module, chip, inputs)
    except (DiagnosticException, ParseError, ValueError, NotImplementedError) as err:
        _fail(exception_diagnostic(err).render())
    except ReferenceError as err:
        where = location_of(err.op) if err.op is not None else None
        _fail(f"{where or args.file}: error: {err}")
    return module, expected, result, perturbed


def _run_via_cce(args, tool, module) -> int:
    from xdsl.utils.exceptions import DiagnosticException, ParseError

    from ascend_mlir.diagnostics import exception_diagnostic
    from ascend_mlir.sim.via_cce import run_via_cce

    try:
        return run_via_cce(args, tool, module)
    except (DiagnosticException, ParseError, ValueError, NotImplementedError) as err:
        _fail(exception_diagnostic(err).render())
    return 1


def _perturb_report(args, result, perturbed) -> dict | None:
    from ascend_mlir.sim.reference_numerics import is_float_array

    if not args.perturb:
        return None
    differing = []
    for k, r in enumerate(perturbed):
        same = all(
            np.array_equal(r.outputs[n], result.outputs[n], equal_nan=is_float_array(result.outputs[n]))
            for n in result.outputs
        )
        if not same or not r.ok:
            differing.append({"run": k + 1, "identical_outputs": same, "races": len(r.races),
                              "deadlock": r.deadlock, "cycles": r.cycles})
    return {"runs": args.perturb, "ok": not differing, "failures": differing,
            "cycles": [r.cycles for r in perturbed]}


def _write_traces(args, result) -> None:
    from ascend_mlir.sim.simulator import chrome_trace, svg_timeline

    for flag, path, render in (("--trace", args.trace, lambda: chrome_trace(result.trace)),
                               ("--svg", args.svg, lambda: svg_timeline(result.trace, result.cycles))):
        problem = _write_output(flag, path, render()) if path else None
        if problem is not None:
            _fail(f"ascend-sim: error: {problem}")


def _print_json(result, reference_match, comparison, perturb_report, ok) -> None:
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


def _print_text(args, result, reference_match, comparison, perturb_report, ok) -> None:
    print(f"{args.file}: {result.cycles} cycles, {result.blocks} block(s), cores {', '.join(result.cores)}, "
          f"{result.instructions} instructions")
    for r in result.races:
        print(f"error: {r.message()}")
    for u in result.uninitialized_reads:
        print(f"error: {u.message()}")
    if result.deadlock:
        print("error: deadlock: remaining work is blocked")
        for line in result.deadlock_info:
            print(f"  {line}")
    for line in result.double_sets:
        print(f"error: double set: {line}")
    for line in result.unbalanced_flags:
        print(f"error: unbalanced flag: {line}")
    busy = ", ".join(f"{p} {c}" for p, c in result.pipe_busy.items())
    print(f"pipe busy cycles: {busy}")
    if reference_match is not None:
        for c in comparison:
            print(comparison_line(c))
    if perturb_report is not None:
        if perturb_report["ok"]:
            print(f"perturb: {args.perturb} runs with latencies scaled 0.25x-4x: identical outputs, no race")
        else:
            for fail in perturb_report["failures"]:
                print(f"error: perturbed run {fail['run']}: identical outputs {fail['identical_outputs']}, "
                      f"races {fail['races']}, deadlock {fail['deadlock']}")
    print("OK" if ok else "FAILED")


def _load_or_fail(args):
    try:
        tool, module, diagnostics = _load(args.file)
    except OSError as err:
        _fail(f"ascend-sim: error: cannot read '{args.file}': {err.strerror}")
    except UnicodeDecodeError as err:
        _fail(f"{args.file}: error: input is not UTF-8 text (byte offset {err.start})")
    if diagnostics:
        _fail("\n".join(diagnostics))
    return tool, module


def run(argv: Sequence[str] | None = None) -> int:
    try:
        args = _arg_parser().parse_args(argv)
    except SystemExit as done:  # --help, or a bad option (already reported)
        return done.code if isinstance(done.code, int) else 1
    from ascend_mlir.progress import Progress, mode_of

    args.progress_line = Progress("ascend-sim", mode_of(args.progress, args.quiet))
    try:
        problem = _check_options(args)
        if problem is not None:
            _fail(f"ascend-sim: error: {problem}")
        tool, module = _load_or_fail(args)
        _refuse_grid_on_tile_level(args, module)
        if args.via == "cce":
            return _run_via_cce(args, tool, module)
        roles = argument_roles_of(module)
        try:
            module, expected, result, perturbed = _run_guarded(args, tool, module)
        finally:
            args.progress_line.close()
        reference_match = None
        comparison: list[dict] = []
        partial = args.blocks is not None and result.blocks < _grid_of_result(module, args.func)
        if expected is not None and not partial:
            reference_match, comparison = compare_simulated(result, expected)
            name_arguments(comparison, roles)
        elif expected is not None and not args.json:
            print(f"note: only {result.blocks} block(s) simulated: outputs not compared with the reference")
        perturb_report = _perturb_report(args, result, perturbed)
        _write_traces(args, result)
    except _Failed:
        return 1
    failed_perturb = perturb_report is not None and not perturb_report["ok"]
    ok = result.ok and reference_match is not False and not failed_perturb
    if result.unknown_latency_ops:
        # the cycles are only as good as the latencies: say which ones were guessed
        print(f"ascend-sim: note: {len(result.unknown_latency_ops)} op(s) without a derivable latency, "
              f"costed at a per-pipe default: {'; '.join(result.unknown_latency_ops)}", file=sys.stderr)
    if args.json:
        _print_json(result, reference_match, comparison, perturb_report, ok)
    else:
        _print_text(args, result, reference_match, comparison, perturb_report, ok)
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
