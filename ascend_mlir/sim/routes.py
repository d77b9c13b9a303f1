"""What every simulation route shares (ascend-sim, --via cce, --via bishengir, the DSL):
telling a tile-level module, compiling it as `ascend-sim` does, comparing outputs with
the reference within the element type's tolerance, naming arguments in reports. The
CLI (tools/ascend_sim.py) calls these; nothing here imports a tool."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp


def is_tile_level(module: ModuleOp) -> bool:
    return any(op.name.startswith("tile.") for op in module.walk())


def compile_tile_level(ctx: Context, module: ModuleOp, chip: str | None, target: str = "npuir") -> None:
    """Run ascend-compile on `module` in place (the pass object is built directly: a chip
    file path is not a token of the pass-pipeline syntax); `target=cce` lowers mmadL1
    for the CCE route before the sync check."""
    from ascend_mlir.chips import builtin_chip_names
    from ascend_mlir.transforms.ascend_compile import AscendCompilePass

    chip_file = chip if chip and chip not in builtin_chip_names() and (
        "/" in chip or chip.endswith((".toml", ".json"))) else None
    AscendCompilePass(chip=None if chip_file else chip, chip_file=chip_file, target=target).apply(ctx, module)


def _tolerance(element_type: str) -> tuple[float, float]:
    """(rtol, atol) for comparing with the reference: results may differ by summation
    order only (matmul, reductions), i.e. a few units in the last place of the type."""
    if element_type in ("f16", "bf16"):
        return 1e-2, 1e-2
    if element_type == "f64":
        return 1e-9, 1e-12
    return 1e-4, 1e-5


def _comparable(values: Any) -> np.ndarray:
    """bf16 widened to float32 (exact): tolerances are checked in float32, never in bf16."""
    from ascend_mlir.sim.reference_numerics import BF16

    values = np.asarray(values)
    return values.astype(np.float32) if values.dtype == BF16 else values


def compare_outputs(actual: dict, expected: dict, types: dict[str, str]) -> tuple[bool, list[dict]]:
    """(all match, per output: name, match, max_abs_error) within `_tolerance`."""
    report = []
    ok = True
    for name, exp in expected.items():
        got = actual.get(name)
        if got is None:
            continue
        got, exp = _comparable(got), _comparable(exp)
        rtol, atol = _tolerance(types.get(name, "f32"))
        if exp.dtype.kind in "iub":
            same = bool(np.array_equal(got, exp))
            err = float(np.max(np.abs(got.astype(np.int64) - exp.astype(np.int64)))) if got.size else 0.0
        else:
            same = bool(np.allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True))
            err = _max_abs_error(got.astype(np.float64), exp.astype(np.float64))
        ok &= same
        # JSON has no NaN: null stands for "a NaN where the reference has a number"
        report.append({"name": name, "match": same, "max_abs_error": None if err != err else err})
    return ok, report


def _max_abs_error(got: np.ndarray, exp: np.ndarray) -> float:
    """The largest |got - exp|, where equal values (infinities included) and NaN in both
    count 0 and a NaN on one side only counts NaN: a NaN output where the reference has a
    number is never shown as a small error (nanmax skipped it), and NaN outputs that
    match NaN references do not make the error NaN."""
    if not got.size:
        return 0.0
    with np.errstate(all="ignore"):
        agree = (got == exp) | (np.isnan(got) & np.isnan(exp))
        diff = np.where(agree, 0.0, np.abs(got - exp))
    return float(np.max(diff))


def compare_simulated(result: Any, expected: dict) -> tuple[bool, list[dict]]:
    """`compare_outputs` of a simulation (a SimResult): outputs computed from on-chip
    memory no op wrote are never a match, whatever values the simulator's zeros gave."""
    match, comparison = compare_outputs(result.outputs, expected, result.output_types)
    return match and not result.uninitialized_reads, comparison


def argument_roles_of(module: Any) -> dict[str, tuple[str, str]]:
    """"arg<i>" -> (source name, input/output) of a tile-level kernel, read before it
    is compiled ({} for other files: their comparisons keep the positional names)."""
    from ascend_mlir.sim.reference import ReferenceError, argument_roles, kernel_function

    if not is_tile_level(module):
        return _written_argument_names(module)
    try:
        return argument_roles(kernel_function(module))
    except ReferenceError:
        return {}


def _written_argument_names(module: Any) -> dict[str, tuple[str, str]]:
    """"arg<i>" -> (the argument's name as the file writes it, "output") of a hivm-level
    kernel: the simulator numbers data arguments without the FFTS base address, so a
    foreign kernel's `%arg5` is its "arg4"; reports use the written name."""
    from ascend_mlir.sim.hivm_frontend import find_kernel
    from ascend_mlir.sim.user_reference import data_arguments

    try:
        kernel = find_kernel(module, None)
    except Exception:  # noqa: BLE001 - no kernel to name: the comparison keeps positional names
        return {}
    func_op = kernel.aic or kernel.aiv
    if func_op is None:
        return {}
    return {key: (name, "output") for key, name, _ in data_arguments(func_op)}


def name_arguments(comparison: list[dict], roles: dict[str, tuple[str, str]]) -> None:
    """Add each compared argument's source name and role (input/output)."""
    for entry in comparison:
        if entry["name"] in roles:
            entry["argument"], entry["role"] = roles[entry["name"]]


def comparison_line(entry: dict) -> str:
    """`output y matches the reference (max abs error 0)`, `error: ...` when it does not."""
    state = "matches" if entry["match"] else "MISMATCHES"
    what = f"{entry.get('role', 'output')} {entry.get('argument', entry['name'])}"
    return f"{'' if entry['match'] else 'error: '}{what} {state} the reference ({error_size(entry)})"


def error_size(entry: dict) -> str:
    """`max abs error 0.5` of a compared output, or what a null error means."""
    err = entry["max_abs_error"]
    return f"max abs error {err:.3g}" if err is not None else "NaN where the reference has a number"


# what a simulation route raises on a kernel it cannot run (bad input, not a bug of ours)
def run_problem_types() -> tuple[type[BaseException], ...]:
    from xdsl.utils.exceptions import DiagnosticException

    from ascend_mlir.sim.reference import ReferenceError

    return (DiagnosticException, ReferenceError, ValueError, NotImplementedError)


def located_problem(err: BaseException) -> str:
    """`file:line:col: error: ...` for an exception of `run_problem_types()`: the
    simulator's and the reference's findings at the op that raised them."""
    from ascend_mlir.diagnostics import exception_diagnostic, location_of
    from ascend_mlir.sim.reference import ReferenceError

    if isinstance(err, ReferenceError):
        where = location_of(err.op) if err.op is not None else None
        return f"{where}: error: {err}" if where is not None else f"error: {err}"
    return exception_diagnostic(err).render(show_source=False)
