"""The DSL never ends in a traceback into our internals (issue 23 item 7): recursion in
a kernel body and what the simulator or the reference refuses are DSLErrors at the
user's Python line, and an uncaught one ends a script with that line and status 1."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ascend_mlir.frontend as T

HERE = Path(__file__).name


def _line_of(marker: str) -> int:
    for number, line in enumerate(Path(__file__).read_text().splitlines(), start=1):
        if line.rstrip().endswith(marker):
            return number
    raise AssertionError(marker)


def _endless(ub):
    return _endless(ub)  # endless-call


@T.kernel(grid=1)
def recursing(x: T.Tensor((512,), "f32"), z: T.Tensor((512,), "f32")):
    ux = T.alloc((512,), "f32", "ub")
    _endless(ux)
    T.copy(ux, z)


def test_recursion_in_a_kernel_body_is_located():
    with pytest.raises(T.DSLError) as err:
        recursing.build()
    assert err.value.location is not None
    assert (Path(err.value.location.file).name, err.value.location.line) == (HERE, _line_of("# endless-call"))
    assert "recursed deeper than Python's limit" in err.value.message


@T.kernel(grid=1)
def too_long(x: T.Tensor((512,), "f32"), z: T.Tensor((512,), "f32")):
    ux = T.alloc((512,), "f32", "ub")
    T.copy(x, ux)
    for _ in T.pipelined(range(1 << 40)):  # huge-loop
        T.relu(ux, ux)
    T.copy(ux, z)


def test_simulator_refusal_is_a_located_error():
    with pytest.raises(T.CompileError) as err:
        T.simulate(too_long)
    where, _, message = str(err.value).partition(": error: ")
    file, line, _ = where.rsplit(":", 2)
    assert (Path(file).name, int(line)) == (HERE, _line_of("# huge-loop"))
    assert message.startswith("step limit")


def test_an_uncaught_dsl_error_ends_the_script_without_traceback(tmp_path):
    script = tmp_path / "kernel.py"
    script.write_text(textwrap.dedent("""\
        import ascend_mlir.frontend as T

        @T.kernel(grid=1)
        def k(x: T.Tensor((512,), "f32"), z: T.Tensor((512,), "f32")):
            ux = T.alloc((512,), "f32", "ub")
            T.copy(x, ux)
            T.copy(ux, z[0:256])

        k.build()
        """))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("kernel.py:7:")
    assert ": error: " in run.stderr


@pytest.mark.parametrize("annotation, message", [
    ('T.Tensor((512,), "f99")', "unknown dtype 'f99'"),
    ('T.Tensor((0,), "f32")', "a shape is a non-empty tuple of positive ints, got (0,)"),
])
def test_a_bad_tensor_annotation_is_located_at_itself(tmp_path, annotation, message):
    """A dtype or shape a GM tensor cannot have is refused where the annotation is
    written. It was found when the kernel was built, where no frame of the user's file is
    left: ascend-opt and ascend-sim put it at their own console script
    (`bin/ascend-opt:8:14: error: unknown dtype 'f99'`)."""
    from ascend_mlir.user_modules import UserModuleError, run_module

    path = tmp_path / "bad_annotation.py"
    header = "import ascend_mlir.frontend as T\n\n\n@T.kernel(grid=1)\n"
    path.write_text(header + f"def k(x: T.Tensor((512,), \"f32\"), z: {annotation}):\n    T.copy(x, z)\n")
    with pytest.raises(UserModuleError) as err:
        run_module(str(path), "bad_annotation")
    assert err.value.message.startswith(message)
    assert (err.value.line, err.value.column) == (5, len('def k(x: T.Tensor((512,), "f32"), z: ') + 1)


def test_api_arguments_of_the_wrong_type_are_reported_not_crashed_on():
    """Arguments of the wrong type ended in AttributeError or TypeError inside the
    compiler, the simulator's binding or the reference (found by fuzzing the API)."""
    import numpy as np

    with pytest.raises(T.DSLError, match="name must be an identifier"):
        T.kernel(grid=1, name=3)  # type: ignore[arg-type]
    with pytest.raises(T.DSLError, match="chip must be a chip name"):
        T.kernel(grid=1, chip=3)  # type: ignore[arg-type]

    @T.kernel(grid=1)
    def fills(z: T.Tensor((128,), "f32")):
        uz = T.alloc((128,), "f32", "ub")
        T.fill(uz, "a")  # type: ignore[arg-type]
        T.copy(uz, z)

    with pytest.raises(T.DSLError, match="a scalar operand is an int or a float, got 'a'"):
        fills.build()

    @T.kernel(grid=1)
    def copies(x: T.Tensor((128,), "f32"), z: T.Tensor((128,), "f32")):
        ux = T.alloc((128,), "f32", "ub")
        T.copy(x, ux)
        T.copy(ux, z)

    with pytest.raises(T.DSLError, match="bind is a mapping"):
        T.simulate(copies, bind=3)  # type: ignore[arg-type]
    with pytest.raises(T.DSLError, match="input x: an array of numbers"):
        T.simulate(copies, {"x": np.array([object()] * 128)})


def test_compile_takes_a_schedule_string_as_the_compile_option():
    """T.compile's schedule= was the report's flag alone: schedule="program-order" compiled
    the modulo schedule, silently, where T.simulate takes it as ascend-compile's option."""

    @T.kernel(grid=1)
    def streams(x: T.Tensor((1024,), "f32"), z: T.Tensor((1024,), "f32")):
        ux = T.alloc((128,), "f32", "ub")
        for i in T.pipelined(range(8), num_stages=2):
            T.copy(x[i * 128:i * 128 + 128], ux)
            T.relu(ux, ux)
            T.copy(ux, z[i * 128:i * 128 + 128])

    compiled = T.compile(streams, schedule="program-order", simulate=False)
    assert 'schedule="program-order"' in compiled.report.compile_mode
    assert compiled.report.loops == [] and T.compile(streams, simulate=False).report.loops
    with pytest.raises(T.CompileError, match="unknown schedule=bogus"):
        T.compile(streams, schedule="bogus", simulate=False)
    with pytest.raises(T.DSLError, match="schedule is ascend-compile's option"):
        T.compile(streams, schedule=3, simulate=False)  # type: ignore[arg-type]
