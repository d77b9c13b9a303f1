"""The Python DSL (ascend_mlir.frontend): IR it builds, locations, misuse errors,
compile and simulate."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.printer import Printer

import ascend_mlir.frontend as T
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import register_dialects

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
THIS_FILE = Path(__file__).name


def _example_kernel(name: str) -> T.Kernel:
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    return getattr(importlib.import_module(name), name)


def _anonymous_text(module: ModuleOp) -> str:
    """The module printed without SSA names (they are the only freedom twins have)."""
    for op in module.walk():
        for result in op.results:
            result.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.name_hint = None
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


def _parse(path: Path) -> ModuleOp:
    from xdsl.context import Context

    ctx = Context()
    register_dialects(ctx)
    return parse_module(ctx, path.read_text(), str(path))


TWINS = sorted(p.stem for p in EXAMPLES.glob("*.mlir"))


def test_every_example_has_a_python_twin():
    assert TWINS, "no examples found"
    missing = [name for name in TWINS if not (EXAMPLES / f"{name}.py").exists()]
    assert not missing


@pytest.mark.parametrize("name", TWINS)
def test_python_twin_builds_the_same_ir(name: str):
    built = _example_kernel(name).build()
    assert _anonymous_text(built) == _anonymous_text(_parse(EXAMPLES / f"{name}.mlir"))


# ----------------------------------------------------------------------------- locations


@T.kernel(grid=2)
def _scaled(x: T.Tensor((2, 256), "f32"), y: T.Tensor((2, 256), "f32")):
    row = T.block_idx()
    u = T.alloc((1, 256), "f32", "ub")
    T.copy(x[row:row + 1, :], u)
    T.mul(u, 2.0, u)
    T.copy(u, y[row:row + 1, :])


def test_every_op_carries_the_python_line():
    module = _scaled.build()
    source = Path(__file__).read_text().split("\n")
    for op in module.walk():
        if op is module:
            continue
        loc = op.location
        assert isinstance(loc, FileLineColLoc), op.name
        assert loc.filename.data.endswith(THIS_FILE)
        line = source[loc.line.data - 1]
        if op.name == "tile.copy":
            assert "T.copy(" in line
        if op.name == "tile.mul":
            assert "T.mul(u, 2.0, u)" in line
            assert line[loc.column.data - 1:].startswith("T.mul")


def test_ir_names_follow_python_names():
    text = _scaled.to_mlir()
    assert "%x: memref<2x256xf32, #hivm.address_space<gm>>" in text
    assert "%row = tile.block_idx : index" in text
    assert "%u = memref.alloc()" in text
    assert "tile.mul ins(%u, %cst : " in text


def test_locations_survive_compilation():
    from ascend_mlir.diagnostics import location_of
    from ascend_mlir.frontend.driver import _run_passes

    module = _scaled.build()
    _run_passes(module, "ascend-compile")
    vmul = next(op for op in module.walk() if op.name == "hivm.hir.vmul")
    loc = location_of(vmul)
    assert loc is not None and loc.file.endswith(THIS_FILE)
    assert "T.mul(u, 2.0, u)" in Path(__file__).read_text().split("\n")[loc.line - 1]


def test_printing_with_locations():
    text = _scaled.to_mlir(locations=True)
    assert 'loc("' in text and THIS_FILE in text


# ----------------------------------------------------------------------------- misuse


def _error_of(fn) -> T.DSLError:
    with pytest.raises(T.DSLError) as info:
        fn.build()
    return info.value


def _line_of(marker: str) -> int:
    lines = Path(__file__).read_text().split("\n")
    return next(i + 1 for i, line in enumerate(lines) if marker in line and "_line_of" not in line)


def test_shape_mismatch_names_the_line():
    @T.kernel()
    def bad(x: T.Tensor((64,), "f32")):
        a = T.alloc((64,), "f32", "ub")
        b = T.alloc((32,), "f32", "ub")
        T.add(a, b, a)  # MARK-shape

    err = _error_of(bad)
    assert err.location is not None and err.location.line == _line_of("MARK-shape")
    assert err.location.file.endswith(THIS_FILE)
    assert "lhs and rhs shapes differ: 64 vs 32" in str(err)
    assert str(err).startswith(f"{err.location}: error: tile.add:")


def test_wrong_scope_names_the_line():
    @T.kernel()
    def bad(x: T.Tensor((16, 16), "bf16")):
        a = T.alloc((16, 16), "bf16", "ub")
        c = T.alloc((16, 16), "f32", "cc")
        T.matmul(a, a, c, init=True)  # MARK-scope

    err = _error_of(bad)
    assert err.location.line == _line_of("MARK-scope")
    assert "a must be in cbuf, got ub" in err.message


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (lambda x: T.alloc((16,), "f33", "ub"), "unknown dtype 'f33'"),
        (lambda x: T.alloc((16,), "f32", "l2"), "unknown memory scope 'l2'"),
        (lambda x: T.alloc((0, 4), "f32", "ub"), "a shape is a non-empty tuple of positive ints"),
        (lambda x: T.alloc((16,), "f32", "gm"), "alloc makes on-chip buffers"),
        (lambda x: x[0:300], "slice 0 [0:300] is out of bounds for size 256"),
        (lambda x: x[::2], "only unit steps"),
        (lambda x: x[3], "indexing every dimension leaves no tile"),
        (lambda x: x[0:4, 0:4], "2 indices for a tile of rank 1"),
        (lambda x: T.copy(x, 3), "copy dest must be a tile"),
        (lambda x: T.copy(x, T.alloc((256,), "f16", "ub")), "element types differ"),
        (lambda x: T.copy(x, T.alloc((256,), "f32", "cc")), "has no DMA path from gm to cc"),
        (lambda x: T.reduce_sum(T.alloc((4, 8), "f32", "ub"), T.alloc((4, 8), "f32", "ub")),
         "cannot infer dims"),
        (lambda x: list(T.pipelined(range(0))), "has no iterations"),
        (lambda x: list(T.pipelined(range(4), num_stages=0)), "num_stages must be a positive int"),
        (lambda x: bool(T.block_idx() == 0), "no Python truth value"),
        (lambda x: range(T.block_idx()), "cannot be used as a Python int"),
        (lambda x: T.block_idx() // 0, "needs a positive divisor"),
    ],
)
def test_misuse_is_a_located_dsl_error(body, message):
    @T.kernel()
    def bad(x: T.Tensor((256,), "f32")):
        body(x)

    err = _error_of(bad)
    assert message in err.message
    # the user's frame: the lambda of the parametrize list, in this file
    assert err.location is not None and err.location.file.endswith(THIS_FILE)
    # no compiler exception is chained to it (the report is the user's line only)
    assert err.__cause__ is None and (err.__context__ is None or err.__suppress_context__)


def test_parameters_need_tensor_annotations():
    @T.kernel()
    def bad(x):
        pass

    assert "needs a Tensor annotation" in _error_of(bad).message


def test_break_out_of_a_pipelined_loop_is_an_error():
    @T.kernel()
    def bad(x: T.Tensor((256,), "f32")):
        for _ in T.pipelined(range(4)):
            break

    assert "left early" in _error_of(bad).message


def test_an_error_inside_a_loop_leaves_the_builder_clean():
    @T.kernel()
    def bad(x: T.Tensor((256,), "f32")):
        u = T.alloc((256,), "f32", "ub")
        for _ in T.pipelined(range(4), num_stages=2):
            T.copy(x, u)
            T.exp(u, T.alloc((128,), "f32", "ub"))

    _error_of(bad)
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr, i32

    # no implicit builder is left active: a new op is not inserted anywhere
    assert arith.ConstantOp(IntegerAttr(1, i32)).parent is None
    assert "tile.copy" in _scaled.to_mlir()


def test_dsl_ops_outside_a_kernel():
    with pytest.raises(T.DSLError, match="only be used inside a @kernel"):
        T.alloc((4,), "f32", "ub")


def test_kernels_are_not_called_directly():
    with pytest.raises(TypeError, match="compile"):
        _scaled()


def test_sub_block_idx_only_when_the_dialect_has_it():
    @T.kernel()
    def k(x: T.Tensor((256,), "f32")):
        T.sub_block_idx()

    from ascend_mlir.dialects import tile

    if hasattr(tile, "SubBlockIdxOp"):
        assert "tile.sub_block_idx" in k.to_mlir()
    else:
        assert "tile.sub_block_idx op" in _error_of(k).message


# ----------------------------------------------------------------------------- compile, simulate


def test_compile_to_mlir_and_npuir_with_report():
    vecadd = _example_kernel("vecadd")
    text, report = T.compile(vecadd, target="npuir")
    assert "hivm.hir.load" in text and "hivm.hir.vadd" in text
    assert 'hacc.target = #hacc.target<"Ascend950PR_9599">' in text
    assert "ascend." not in text  # the npuir printer strips our attributes
    assert report.compile_mode == "ascend-compile"
    [loop] = report.loops
    assert loop.ii >= loop.mii > 0
    assert set(loop.versions) and all(1 <= v <= 2 for v in loop.versions.values())
    assert report.cycles is not None and report.bound is not None
    assert report.cycles >= report.bound == max(report.pipe_busy.values())
    assert report.ratio == report.cycles / report.bound
    assert report.races == 0
    assert "pipe-busy bound" in report.summary()
    compiled = T.compile(vecadd, target="mlir", simulate=False, schedule=False)
    assert "hivm.hir.pipe_barrier" in compiled.text and compiled.report.cycles is None


def _scheduled_on_a_copy(kernel: T.Kernel) -> dict[str, dict[str, int]]:
    """Loop name -> buffer versions as the frontend used to compute them: the schedule of
    an unpipelined copy (ascend-compile's passes up to ascend-modulo-schedule)."""
    from xdsl.context import Context
    from xdsl.passes import PassPipeline

    from ascend_mlir.targets.schedule_json import named_schedule_report
    from ascend_mlir.transforms import get_all_passes

    ctx = Context()
    register_dialects(ctx)
    module = kernel.build()
    spec = "convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule"
    PassPipeline.parse_spec(get_all_passes(), spec).apply(ctx, module)
    data, names = named_schedule_report(module, "test")
    return {name: {b["name"]: b["versions"] for b in loop["buffers"]}
            for function, loop_names in zip(data["functions"], names, strict=True)
            for loop, name in zip(function["loops"], loop_names, strict=True)}


@pytest.mark.parametrize("name", ["vecadd", "rmsnorm", "flash_attention", "gemm_bf16", "gemm_relu"])
def test_compile_schedules_once_and_reads_the_compiled_module(name, monkeypatch):
    """The report comes from the compiled module (the pointer_casts keep #ascend.buffer,
    multi-buffers their version views), so compile() runs the scheduler once; the
    versions are those of the schedule (as computed on an unpipelined copy before). A
    MIX kernel's loop, in both of its parts, is one report."""
    from ascend_mlir.transforms.modulo_schedule import ModuloSchedulePass

    kernel = _example_kernel(name)
    expected = _scheduled_on_a_copy(kernel)
    calls = []
    original = ModuloSchedulePass.apply

    def counting(self, ctx, op):
        calls.append(self)
        return original(self, ctx, op)

    monkeypatch.setattr(ModuloSchedulePass, "apply", counting)
    report = T.compile(kernel, simulate=False).report
    assert len(calls) == 1
    assert {loop.name: loop.versions for loop in report.loops} == expected
    # the case has a multi-buffer to read back, except flash_attention's and vecadd's loops
    # (vecadd is unrolled twice: each copy of the body has its own one-version buffers)
    assert any(v > 1 for vs in expected.values() for v in vs.values()) or name in ("flash_attention", "vecadd")
    assert report.schedule_source == "ascend-compile"


def test_report_of_a_compile_mode_without_schedule_has_no_loops():
    """schedule=program-order: nothing to read, and nothing is scheduled for the report."""
    from ascend_mlir.frontend import driver

    module = _example_kernel("vecadd").build()
    driver._run_passes(module, 'ascend-compile{schedule="program-order"}')
    loops, source = driver._schedule(module, None)
    assert loops == [] and "does not schedule" in source


def test_compile_cce_when_the_backend_exists():
    from ascend_mlir.targets import get_all_targets

    vecadd = _example_kernel("vecadd")
    if "cce" in get_all_targets():
        text, _ = T.compile(vecadd, target="cce", simulate=False, schedule=False)
        assert text.strip()
    else:
        with pytest.raises(T.CompileError, match="target 'cce' is not available"):
            T.compile(vecadd, target="cce", simulate=False, schedule=False)


def test_compiler_diagnostics_name_the_python_line():
    @T.kernel(chip="Ascend910B1")
    def to_l1(x: T.Tensor((256,), "f16")):
        u = T.alloc((256,), "f16", "ub")
        l1 = T.alloc((256,), "f16", "cbuf")
        T.copy(x, u)
        T.copy(u, l1)  # MARK-no-path

    with pytest.raises(T.CompileError) as info:
        T.compile(to_l1, simulate=False)
    message = str(info.value)
    assert f"{THIS_FILE}:{_line_of('MARK-no-path')}:" in message
    assert "has no hardware path on ascend910b" in message


def test_simulate_vecadd_on_given_inputs():
    vecadd = _example_kernel("vecadd")
    rng = np.random.default_rng(3)
    x = rng.standard_normal(32768).astype(np.float32)
    y = rng.standard_normal(32768).astype(np.float32)
    result = T.simulate(vecadd, {"x": x, "y": y})
    assert result.ok, (result.races, result.mismatches)
    np.testing.assert_array_equal(result.outputs["z"], x + y)
    np.testing.assert_array_equal(result.expected["z"], x + y)
    assert result.cycles > 0


def test_simulate_reports_a_wrong_input_name():
    with pytest.raises(ValueError, match="unknown inputs"):
        T.simulate(_example_kernel("vecadd"), {"w": np.zeros(4)})


def _bf16(values: np.ndarray) -> np.ndarray:
    bits = values.astype(np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.view(np.float32)


def test_flash_attention_computes_attention():
    fa = _example_kernel("flash_attention")
    rng = np.random.default_rng(0)
    q, k, v = (_bf16(rng.uniform(-1, 1, size=s)) for s in ((128, 64), (256, 64), (256, 64)))
    result = T.simulate(fa, {"q": q, "kt": np.ascontiguousarray(k.T), "v": v})
    assert result.ok, (result.races, result.mismatches)
    scores = (q.astype(np.float64) @ k.T.astype(np.float64)) / 8.0
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    attention = (weights / weights.sum(axis=1, keepdims=True)) @ v
    # P goes to the cube as bf16: about 3 significant digits
    np.testing.assert_allclose(result.outputs["o"], attention, rtol=0, atol=2e-2)


def test_norms_compute_what_they_say():
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, size=(256, 256)).astype(np.float32)
    w = rng.uniform(0.5, 2, size=(1, 256)).astype(np.float32)
    rms = T.simulate(_example_kernel("rmsnorm"), {"x": x, "w": w})
    assert rms.ok
    expected = x / np.sqrt((x.astype(np.float64) ** 2).mean(axis=1, keepdims=True) + 1e-6) * w
    np.testing.assert_allclose(rms.outputs["y"], expected, rtol=1e-4, atol=1e-5)
    b = rng.uniform(-1, 1, size=(1, 256)).astype(np.float32)
    ln = T.simulate(_example_kernel("layernorm"), {"x": x, "gamma": w, "beta": b})
    assert ln.ok
    mean = x.mean(axis=1, keepdims=True)
    expected = (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(ln.outputs["y"], expected, rtol=1e-4, atol=1e-4)


@T.kernel(grid=1)
def _allocs_on_one_line(x: T.Tensor((1024,), "f32"), y: T.Tensor((1024,), "f32"), z: T.Tensor((1024,), "f32")):
    ux = T.alloc((128,), "f32", "ub"); uy = T.alloc((128,), "f32", "ub"); uz = T.alloc((128,), "f32", "ub")  # noqa: E702
    for i in T.pipelined(range(8), num_stages=2):
        T.copy(x[i * 128:i * 128 + 128], ux)
        T.copy(y[i * 128:i * 128 + 128], uy)
        T.add(ux, uy, uz)
        T.copy(uz, z[i * 128:i * 128 + 128])


def test_statements_on_one_line_name_their_own_values_and_compile():
    """Three allocs on one line, separated by semicolons: the last was named %ux and the
    other two left unnamed, and the unrolled loop's copies of unnamed buffers were all
    `buf_u1`, which the scheduler refused ("buffer 'buf_u1' is declared twice")."""
    text = _allocs_on_one_line.to_mlir()
    assert all(f"%{name} = memref.alloc()" in text for name in ("ux", "uy", "uz")), text
    compiled = T.compile(_allocs_on_one_line)
    assert compiled.report.cycles > 0
