"""Runtime shapes (issue 17): argument binding (`ascend-sim --bind`, sim.binding), a
kernel compiled once and run at many sizes, and ascend-verify-sync on loops whose trip
count is known only at run time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import scf

import ascend_mlir.frontend as T
from ascend_mlir.dialects import ascend, hivm
from ascend_mlir.sim import simulate
from ascend_mlir.sim.binding import DEFAULT_INT, BindError, bind_arguments, parse_bind_options
from ascend_mlir.sim.reference import ReferenceError, kernel_function, make_inputs, run_reference
from ascend_mlir.transforms.ascend_compile import AscendCompilePass
from ascend_mlir.transforms.verify_sync import VerifySyncPass, covering_trip_counts, trip_count_bounds

from test_reference import parse

ROOT = Path(__file__).resolve().parents[2]
VECADD_DYN = ROOT / "test" / "sim" / "Inputs" / "vecadd_dyn.mlir"
TILE = 512


@pytest.fixture(scope="module")
def tile_module():
    return parse(VECADD_DYN.read_text())


@pytest.fixture(scope="module")
def compiled(tile_module):
    module = tile_module.clone()
    AscendCompilePass().apply(Context(), module)
    module.verify()
    return module


@pytest.fixture(scope="module")
def one_copy(tile_module):
    """The kernel compiled with its loop as written (unroll=1)."""
    module = tile_module.clone()
    AscendCompilePass(unroll=1).apply(Context(), module)
    return module


# ----------------------------------------------------------------------------- binding


def test_parse_bind_options():
    assert parse_bind_options(["n=5", "%x=3x4", " y = 7 "]) == {"n": "5", "x": "3x4", "y": "7"}
    for bad in (["n"], ["=3"], ["n="], ["3n=1"]):
        with pytest.raises(BindError, match="expected NAME=VALUE"):
            parse_bind_options(bad)
    with pytest.raises(BindError, match="bound twice"):
        parse_bind_options(["n=1", "n=2"])


def test_defaults_follow_the_integer_scalars(tile_module):
    f = kernel_function(tile_module)
    binding = bind_arguments(f)
    assert binding.scalars == {"arg3": DEFAULT_INT}
    assert binding.shapes == {"arg0": (DEFAULT_INT,), "arg1": (DEFAULT_INT,), "arg2": (DEFAULT_INT,)}
    binding = bind_arguments(f, {"n": "70", "y": "80"})
    assert binding.scalars == {"arg3": 70}
    assert binding.shapes == {"arg0": (70,), "arg1": (80,), "arg2": (70,)}
    # by position too
    assert bind_arguments(f, {"arg3": "9"}).scalars == {"arg3": 9}


@pytest.mark.parametrize(("binds", "message"), [
    ({"n": "1.5"}, "argument %n is index: expected an integer"),
    ({"n": "99999999999999999999"}, "out of the range of index"),
    ({"q": "1"}, "has no argument named 'q' \\(its arguments: x, y, z, n\\)"),
    ({"x": "4x4"}, "of rank 1"),
    ({"x": "-4"}, "a size is never negative"),
    ({"x": "four"}, "expected its shape"),
    ({"n": "3", "arg3": "4"}, "bound twice"),
    # x, y and z would default to -5 elements: refused, not run empty and called a match
    ({"n": "-5"}, "x, y, z default to .*n=-5.*a size is never negative"),
    ({"n": "-5", "x": "8", "y": "8"}, "z default to"),
])
def test_bad_binds_name_the_kernel(tile_module, binds, message):
    f = kernel_function(tile_module)
    with pytest.raises(BindError, match=message) as info:
        bind_arguments(f, binds)
    assert info.value.func_op is f


def test_scalar_types_and_static_dimensions():
    module = parse("""
func.func @k(%a: memref<?x16xf32, #hivm.address_space<gm>>, %s: f16, %m: i32, %b: i1) attributes {tile.kernel} {
  return
}""")
    f = kernel_function(module)
    binding = bind_arguments(f)
    assert binding.scalars == {"arg1": 0.5, "arg2": DEFAULT_INT, "arg3": 1}
    assert binding.shapes == {"arg0": (DEFAULT_INT, 16)}
    binding = bind_arguments(f, {"a": "3x16", "s": "2", "m": "-7", "b": "false"})
    assert binding.scalars == {"arg1": 2.0, "arg2": -7, "arg3": 0}
    assert binding.shapes["arg0"] == (3, 16)
    with pytest.raises(BindError, match="dimension 1 of %a is 16"):
        bind_arguments(f, {"a": "3x15"})
    with pytest.raises(BindError, match="out of the range of i32"):
        bind_arguments(f, {"m": str(1 << 31)})
    with pytest.raises(BindError, match="expected a number"):
        bind_arguments(f, {"s": "x"})
    with pytest.raises(BindError, match="out of the range of i1"):
        bind_arguments(f, {"b": "2"})


# ----------------------------------------------------------------------------- compile once, run at many sizes


@pytest.mark.parametrize("n", [0, 1, TILE - 1, TILE, TILE + 1, 2 * TILE + 3, 8 * TILE * 3 + 17])
def test_compiled_once_matches_the_reference_at_every_size(tile_module, compiled, n):
    f = kernel_function(tile_module)
    inputs = make_inputs(f, seed=n, binding=bind_arguments(f, {"n": str(n)}))
    expected = run_reference(tile_module, inputs)
    for perturb in (None, n + 1):
        result = simulate(compiled, inputs, perturb=perturb)
        assert not result.races and not result.deadlock and not result.unbalanced_flags
        for name, want in expected.items():
            np.testing.assert_array_equal(result.outputs[name], want)
    # z is x + y on the first n elements and untouched beyond
    assert np.array_equal(expected["arg2"][:n], inputs["arg0"][:n] + inputs["arg1"][:n])


def test_reference_reports_an_access_beyond_a_gm_extent(tile_module):
    f = kernel_function(tile_module)
    inputs = make_inputs(f, 0, bind_arguments(f, {"n": "3000", "x": "2900"}))
    with pytest.raises(ReferenceError, match="out of bounds in dim 0: offset 2560, size 440") as info:
        run_reference(tile_module, inputs)
    assert info.value.op is not None and info.value.op.name == "memref.subview"


def test_reference_rejects_a_negative_size():
    module = parse("""
func.func @k(%x: memref<?xf32, #hivm.address_space<gm>>, %n: index) attributes {tile.kernel} {
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  %v = memref.subview %u[0] [%n] [1] : memref<16xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
  %xs = memref.subview %x[0] [%n] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1]>, #hivm.address_space<gm>>
  tile.copy ins(%xs : memref<?xf32, strided<[1]>, #hivm.address_space<gm>>) outs(%v : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
  return
}""")
    f = kernel_function(module)
    with pytest.raises(ReferenceError, match="negative size -3"):
        run_reference(module, make_inputs(f, 0, bind_arguments(f, {"n": "-3", "x": "16"})))


# ----------------------------------------------------------------------------- sync for every trip count


def _dynamic_loop(module) -> scf.ForOp:
    return next(op for op in module.walk() if isinstance(op, scf.ForOp))


def _loops(module) -> list[scf.ForOp]:
    return [op for op in module.walk() if isinstance(op, scf.ForOp)]


def test_runtime_bounded_loop_is_verified_over_its_covering_trip_counts(one_copy, compiled):
    # as written (unroll=1): one stage, buffer versions 2: trip counts 0..4 stand for all
    assert [covering_trip_counts(loop) for loop in _loops(one_copy)] == [range(0, 5)]
    VerifySyncPass().apply(Context(), one_copy.clone())  # no error, no "cannot evaluate"
    # the default unrolls by 2: the unrolled loop has two stages and each copy one version
    # of its tiles (period 1): 0..3; the remainder loop (at most one pass) is program order
    # with barriers, one version of each buffer (small_trips.remainder_barriers): 0..2
    unrolled, remainder = _loops(compiled)
    assert unrolled.attributes["ascend.unroll"].value.data == 2  # type: ignore[union-attr]
    assert covering_trip_counts(unrolled) == range(0, 4)
    assert ascend.is_barrier_sync(remainder)
    assert covering_trip_counts(remainder) == range(0, 3)
    VerifySyncPass().apply(Context(), compiled.clone())


def test_a_missing_wait_in_a_runtime_bounded_loop_is_caught(one_copy):
    # the loop as written: its waits take the event id of the buffer version at run time
    mutant = one_copy.clone()
    loop = _dynamic_loop(mutant)
    wait = next(op for op in loop.body.walk() if isinstance(op, hivm.WaitFlagOp) and op.dynamic_event_id is not None)
    wait.detach()
    wait.erase()
    with pytest.raises(Exception, match="ascend-verify-sync"):
        VerifySyncPass().apply(Context(), mutant)


# ----------------------------------------------------------------------------- the Python DSL


def _dsl_vecadd_dyn():
    import importlib.util

    spec = importlib.util.spec_from_file_location("vecadd_dyn_example", ROOT / "examples" / "vecadd_dyn.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.vecadd_dyn


def test_dsl_symbol_compiles_once_and_simulates_at_many_sizes():
    kernel = _dsl_vecadd_dyn()
    sizes = [0, 1, TILE - 1, TILE + 1, 2 * TILE + 3]
    reports = T.simulate_sizes(kernel, [{"n": n} for n in sizes])
    for n, report in zip(sizes, reports, strict=True):
        assert report.ok, (n, report)
        assert report.outputs["z"].shape == (n,)
    # a tensor bound longer than n: the tail beyond n is left as it was
    report = T.simulate(kernel, bind={"n": 5, "z": (9,)})
    assert report.ok and report.outputs["z"].shape == (9,)


def test_dsl_symbol_misuse_is_a_dsl_error():
    with pytest.raises(T.DSLError, match="no argument named 'm'"):
        T.simulate(_dsl_vecadd_dyn(), bind={"m": 3})
    with pytest.raises(T.DSLError, match="identifier"):
        T.symbol("1x")
    with pytest.raises(T.DSLError, match="runtime dimension needs its stop"):
        _open_slice.build()


def test_dsl_slice_of_runtime_size_is_a_partial_view():
    """A slice whose size is not a constant (it was an error before runtime shapes) is a
    view of runtime size, bounded by its source."""
    from xdsl.dialects import memref

    module = _runtime_slice.build()
    view = next(op for op in module.walk() if isinstance(op, memref.SubviewOp))
    assert len(view.sizes) == 1 and str(view.result.type).startswith("memref<?xf32")


@T.kernel()
def _runtime_slice(x: T.Tensor((256,), "f32")):  # pyright: ignore[reportInvalidTypeForm]
    u = T.alloc((256,), "f32", "ub")
    T.copy(x[T.block_idx():T.block_idx() + 4], u[0:4])


M = T.symbol("M")


@T.kernel()
def _open_slice(x: T.Tensor((M,), "f32"), m: M):  # pyright: ignore[reportInvalidTypeForm]
    u = T.alloc((16,), "f32", "ub")
    T.copy(x[0:], u)


# ----------------------------------------------------------------------------- reductions over partial rows

ROWMAX_DYN = ROOT / "test" / "sim" / "Inputs" / "rowmax_dyn.mlir"


@pytest.mark.parametrize(("m", "c"), [(0, 5), (1, 1), (15, 255), (16, 256), (17, 100), (35, 0), (70, 3)])
def test_reduction_over_partial_rows_and_columns(m, c):
    tile_module = parse(ROWMAX_DYN.read_text())
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)
    f = kernel_function(tile_module)
    inputs = make_inputs(f, m + c, bind_arguments(f, {"m": str(m), "c": str(c), "x": f"{m}x{c}"}))
    expected = run_reference(tile_module, inputs)
    if m:
        want = inputs["arg0"].max(axis=1, keepdims=True) if c else np.full((m, 1), -np.inf, np.float32)
        np.testing.assert_array_equal(expected["arg1"][:m], want)
    result = simulate(compiled, inputs, perturb=m + 1)
    assert not result.races and not result.deadlock and not result.unbalanced_flags
    np.testing.assert_array_equal(result.outputs["arg1"], expected["arg1"])


# ----------------------------------------------------------------------------- a pipelined loop of runtime trip count


def test_runtime_k_steps_take_the_guarded_pipelined_loop():
    """examples/gemm.mlir with its K loop bound a runtime argument: the stage-skewed K
    loop gets its prologue/epilogue behind a trip-count guard (the start-order loop
    otherwise); ascend-verify-sync passes over the covering trip counts and the
    simulator matches the reference at every count the kernel means (>= 1)."""
    text = (ROOT / "examples" / "gemm.mlir").read_text()
    text = text.replace("%c: memref<256x448xf32, #hivm.address_space<gm>>)",
                        "%c: memref<256x448xf32, #hivm.address_space<gm>>, %ksteps: index)")
    text = text.replace("scf.for %k = %c0 to %c4 step %c1 {", "scf.for %k = %c0 to %ksteps step %c1 {")
    tile_module = parse(text)
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)  # verifies the sync for every trip count
    assert any(isinstance(op, scf.IfOp) for op in compiled.walk())
    f = kernel_function(tile_module)
    for k in (1, 2, 3, 4):
        inputs = make_inputs(f, k, bind_arguments(f, {"ksteps": str(k)}))
        expected = run_reference(tile_module, inputs)
        result = simulate(compiled, inputs, perturb=k)
        assert not result.races and not result.deadlock and not result.unbalanced_flags
        np.testing.assert_allclose(result.outputs["arg2"], expected["arg2"], rtol=1e-4, atol=1e-4)


def _loop_with_upper_bound(ub_ops: str):
    module = parse(f"""
func.func @k(%k: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
{ub_ops}
  scf.for %i = %c0 to %ub step %c1 {{
  }}
  return
}}""")
    return _dynamic_loop(module)


def test_covering_trip_counts_keep_only_the_counts_a_loop_can_have():
    """The lowered L0 K loop of a partial tile runs max(ceil(min(k, 256) / 64), 1) times:
    1 to 4, so its covering set [0, D + 2P) = [0, 3) loses the count 0; a loop that runs
    at least 10 times is covered by the counts congruent mod P in [D + P, D + 2P)."""
    steps = _loop_with_upper_bound("""  %kk = arith.minsi %k, %c256 : index
  %a = arith.addi %kk, %c63 : index
  %t = arith.divui %a, %c64 : index
  %ub = arith.maxsi %t, %c1 : index""")
    assert trip_count_bounds(steps) == (1, 4)
    assert covering_trip_counts(steps) == range(1, 3)
    few = _loop_with_upper_bound("""  %kk = arith.minsi %k, %c64 : index
  %a = arith.addi %kk, %c63 : index
  %t = arith.divui %a, %c64 : index
  %ub = arith.maxsi %t, %c1 : index""")
    assert trip_count_bounds(few) == (1, 1) and covering_trip_counts(few) == range(1, 2)
    many = _loop_with_upper_bound("  %ub = arith.maxsi %k, %c10 : index")
    assert trip_count_bounds(many) == (10, None) and covering_trip_counts(many) == range(2, 3)
    unbounded = _loop_with_upper_bound("  %ub = arith.addi %k, %c0 : index")
    assert trip_count_bounds(unbounded) == (0, None) and covering_trip_counts(unbounded) == range(0, 3)


def test_a_nested_runtime_loop_is_checked_with_different_counts_per_parent_iteration():
    """A runtime-bounded loop inside another may run a different number of times in each
    parent iteration: besides one count for every run, verify-sync runs it with every
    ordered pair (a, b) of covering counts taken in turn by its parent's
    iterations, and its trip counts do change from one parent iteration to the
    next in those runs."""
    from ascend_mlir.transforms import verify_sync

    module = parse("""
func.func @k(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %cnt = arith.minsi %i, %m : index
    scf.for %j = %c0 to %cnt step %c1 {
      hivm.hir.pipe_barrier[<PIPE_V>]
    }
  }
  return
}""")  # min(i, m): a count per row (a count over %m alone is fixed in a run: one per run)
    outer, inner = _loops(module)
    choices = list(verify_sync._trip_choices([[outer], [inner]]))  # each loop its own group
    uniform = [c for c in choices if all(isinstance(v, int) for v in c.values())]
    varying = [c for c in choices if isinstance(c[inner], tuple)]
    counts = covering_trip_counts(inner)
    assert len(uniform) == len(covering_trip_counts(outer)) * len(counts)
    assert sorted(c[inner] for c in varying) == [(a, b) for a in counts for b in counts]
    # the parent runs twice (the count of its covering set [0, 3) nearest 2): a -> b,
    # and b -> a in the run of the pair (b, a)
    assert covering_trip_counts(outer) == range(0, 3) and all(c[outer] == 2 for c in varying)
    func_op = next(op for op in module.walk() if op.name == "func.func")
    runner = verify_sync._Runner(func_op, {}, ("VEC0",), {outer: 3, inner: (1, 2)})  # type: ignore[arg-type]
    steps = runner.run()
    assert [s.tag[0] for s in steps] == [0, 1, 1, 2]  # 1, 2 and 1 barriers in the parent's 3 iterations
    assert verify_sync.verify_function(func_op)  # type: ignore[arg-type]


_TM, _TN = T.symbol("M"), T.symbol("N")


@T.kernel(grid=2)
def _triangle(x: T.Tensor((_TM, _TN), "f32"), y: T.Tensor((_TM, _TN), "f32"),  # pyright: ignore[reportInvalidTypeForm]
              m: _TM, n: _TN):  # pyright: ignore[reportInvalidTypeForm]
    """y[r, :r+1] = 2 x[r, :r+1]: the column loop of row r runs ceil(min(r + 1, n) / 16)
    times, a different count in every row, and 0 times when n = 0."""
    ux = T.alloc((1, 16), "f32", "ub")
    uy = T.alloc((1, 16), "f32", "ub")
    for r in T.pipelined((T.block_idx(), m, 2), num_stages=1):  # pyright: ignore[reportArgumentType]
        valid = T.min(r + 1, n)
        for t in T.pipelined((0, (valid + 15) // 16, 1), num_stages=2):  # pyright: ignore[reportArgumentType]
            c0 = t * 16
            cols = T.min(valid - c0, 16)
            T.copy(x[r:r + 1, c0:c0 + cols], ux[0:1, 0:cols])
            T.mul(ux[0:1, 0:cols], 2.0, uy[0:1, 0:cols])
            T.copy(uy[0:1, 0:cols], y[r:r + 1, c0:c0 + cols])


def test_a_triangular_loop_compiles_with_verified_sync():
    """When the column loop runs 0 times (n = 0), nothing but a credit around it orders
    MTE2's wait of the outer loop's V -> MTE2 flag before V sets that flag again at the end
    of the same outer iteration (the column loop's MTE2 -> V flags do it when it runs):
    insert-sync places them where the column loop's primes and drains do not order the
    flag, and verify-sync (in ascend-compile) proves
    the result for every trip count (test_zero_trip_sync.py runs more such shapes)."""
    module = _triangle.build()
    AscendCompilePass().apply(Context(), module)
    outer = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    nested = next(op for op in outer.body.block.ops if isinstance(op, scf.ForOp))
    after = []
    op = nested.next_op
    while isinstance(op, hivm.WaitFlagOp):
        after.append((op.set_pipe.pipe_name, op.wait_pipe.pipe_name))
        op = op.next_op
    # the two credits (the other two carried flags are ordered by the column loop's
    # primes and drains for every trip count), then the drains
    assert sorted(after[:2]) == [("MTE2", "V"), ("V", "MTE3")]
