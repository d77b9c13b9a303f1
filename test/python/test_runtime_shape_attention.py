"""The flash-attention twin with runtime sequence lengths (issue 17 item 9): compiled once
(its sync verified for every trip count of both runtime loops), then run at query and
key/value lengths around the 64-row tiles (0, 1, T-1, T, T+1, 2T+3, primes) on the
perturbed simulator and through the CCE emulation on dav-3510: no race, no deadlock, no
flag left set, no read of never-written memory, equal to the reference, and the
reference equal to softmax(Q K^T / 8) V computed by numpy (the last key/value block
partial: the softmax reduces over its valid columns only). dav-c220 has no L0C -> UB
path, so the 910B refuses it, as it refuses the static flash_attention."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir.diagnostics import OpError
from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.sim import simulate, via_cce
from ascend_mlir.sim.binding import bind_arguments
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.testing import tools_required
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

from test_reference import parse

ROOT = Path(__file__).resolve().parents[2]
T = 64  # query rows and key/value rows per tile
# (sq, sk): empty, one, T-1, T, T+1, 2T+3 and primes in each; sk = 0 gives zeros
SIZES = ((0, 5), (1, 1), (T - 1, T + 1), (T, T), (T + 1, 2 * T + 3), (2 * T + 3, T - 1), (97, 131), (T + 1, 0))


# one compile of flash_attention_dyn per run, shared with test_examples and test_irdl_route (conftest)
SHARE_COMPILES = True


@pytest.fixture(scope="module")
def attention():
    # located as ascend-sim and ascend-opt read it, so that the run's compile cache has one entry for them all
    tile_module = parse_module(make_context(), (ROOT / "examples" / "flash_attention_dyn.mlir").read_text(),
                               "examples/flash_attention_dyn.mlir")
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)  # verifies its sync for every trip count
    return tile_module, compiled


def _case(tile_module, sq: int, sk: int):
    f = kernel_function(tile_module)
    binds = {"sq": str(sq), "sk": str(sk), "q": f"{sq}x64", "kt": f"64x{sk}", "v": f"{sk}x64", "o": f"{sq}x64"}
    inputs = make_inputs(f, sq * 3 + sk, bind_arguments(f, binds))
    return inputs, run_reference(tile_module, inputs)


def _attention(q: np.ndarray, kt: np.ndarray, v: np.ndarray) -> np.ndarray:
    """softmax(Q K^T / sqrt(64)) V in fp32 (zeros without keys)."""
    if kt.shape[1] == 0:
        return np.zeros((q.shape[0], v.shape[1]), np.float32)
    s = q.astype(np.float32) @ kt.astype(np.float32) / 8.0
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v.astype(np.float32)


@pytest.mark.parametrize(("sq", "sk"), SIZES)
def test_attention_on_the_simulator(attention, sq, sk):
    tile_module, compiled = attention
    inputs, expected = _case(tile_module, sq, sk)
    # P is rounded to bf16 before P V, as the static kernel does: within bf16's precision
    np.testing.assert_allclose(expected["arg3"], _attention(inputs["arg0"], inputs["arg1"], inputs["arg2"]),
                               rtol=2e-2, atol=2e-3)
    result = simulate(compiled, inputs, perturb=sq + sk + 1)
    assert not result.races and not result.deadlock and not result.unbalanced_flags
    assert not result.uninitialized_reads
    np.testing.assert_allclose(result.outputs["arg3"], expected["arg3"], rtol=1e-5, atol=1e-6)


def test_the_partial_block_ignores_what_lies_past_the_keys(attention):
    """Keys and values past sk (in a longer GM tensor) change nothing: the softmax of the
    last, partial block reads only its valid columns."""
    tile_module, compiled = attention
    f = kernel_function(tile_module)
    sq, sk = 70, 100
    binds = {"sq": str(sq), "sk": str(sk), "q": f"{sq}x64", "kt": "64x128", "v": "128x64", "o": f"{sq}x64"}
    inputs = make_inputs(f, 7, bind_arguments(f, binds))
    inputs["arg1"][:, sk:] = 1e4  # scores past sk would dominate any row they entered
    inputs["arg2"][sk:, :] = np.nan
    result = simulate(compiled, inputs)
    want = _attention(inputs["arg0"], inputs["arg1"][:, :sk], inputs["arg2"][:sk])
    np.testing.assert_allclose(result.outputs["arg3"], want, rtol=2e-2, atol=2e-3)


def test_dynamic_timing_against_the_static_kernel(attention):
    """At the static kernel's size (128 x 256, whole tiles) within 1.05x of its cycles;
    a partial last key block costs less than the next multiple."""
    tile_module, compiled = attention
    static_tile = parse((ROOT / "examples" / "flash_attention.mlir").read_text())
    static = static_tile.clone()
    AscendCompilePass().apply(Context(), static)
    static_inputs = make_inputs(kernel_function(static_tile), 0)
    static_cycles = simulate(static, static_inputs).cycles
    at_size = simulate(compiled, _case(tile_module, 128, 256)[0]).cycles
    tail = simulate(compiled, _case(tile_module, 128, 200)[0]).cycles
    assert at_size <= 1.05 * static_cycles, (at_size, static_cycles)
    assert tail < at_size


@pytest.fixture(scope="module")
def attention_cce(attention):
    if via_cce.compiler() is None:
        if tools_required():
            raise RuntimeError("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
        pytest.skip("g++ not found: the CCE emulation cannot be built")
    _, compiled = attention
    unit = via_cce.unit_of(compiled, "dav-3510", "flash_attention_dyn_dav_3510")
    return via_cce.build([unit]), unit


def test_attention_through_the_cce_emulation(attention, attention_cce):
    """The printed C (dav-3510): partial UB -> L1 copies of P into the origin of its L1
    buffer, the partial cube path, runtime row pitch of K^T; equal to the reference within
    the oracle's f32 tolerance (its exp and the emulation's agree bit for bit: both compute
    in double and round to float, reference_numerics.in_double; with numpy's float32 exp,
    one last-bit difference moved a P value near a bf16 rounding boundary by one bf16 ulp,
    up to 8e-5 in O)."""
    lib, unit = attention_cce
    assert "int64_t sk, int64_t kt_stride0)" in unit.source
    # P's partial UB -> L1 copy: whole 32-byte column blocks of the kk valid columns, into
    # the NZ layout of the 64-row L1 buffer (column blocks 64 x 16 elements apart)
    assert re.search(r"for \(int32_t cb = 0; cb < \(kk\w* \+ 15\) / 16; \+\+cb\) \{[^\n]*\n\s*"
                     r"asc_copy_ub2l1\(vp_l1\w* \+ cb \* 1024, vp\w* \+ cb \* 16, rows, 1, 3, 0\);", unit.source)
    tile_module, _ = attention
    for sq, sk in SIZES:
        inputs, expected = _case(tile_module, sq, sk)
        result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
        assert result.error is None, ((sq, sk), result.error)
        np.testing.assert_allclose(result.outputs["arg3"], expected["arg3"], rtol=1e-4, atol=1e-5,
                                   err_msg=f"sq={sq} sk={sk}")


def test_the_910b_refuses_it_as_it_refuses_the_static_kernel():
    tile_module = parse((ROOT / "examples" / "flash_attention_dyn.mlir").read_text())
    with pytest.raises(OpError, match="from cc to ub has no hardware path on ascend910b"):
        AscendCompilePass(chip="ascend910b").apply(Context(), tile_module)


def test_attention_at_random_sizes(request, attention):
    """Under --slow: 60 random (sq, sk) from empty to past four tiles each, on the
    perturbed simulator and through the dav-3510 emulation (the fixed sizes above are the
    CI cases)."""
    import random

    if not request.config.getoption("--slow", default=False):
        pytest.skip("random sizes run with --slow (the fixed sizes above are the CI cases)")
    tile_module, compiled = attention
    unit = lib = None
    if via_cce.compiler() is not None:
        unit = via_cce.unit_of(compiled, "dav-3510", "rnd_flash_attention_dyn")
        lib = via_cce.build([unit])
    rng = random.Random(17)
    for i in range(60):
        sq, sk = rng.randint(0, 4 * T + 9), rng.randint(0, 4 * T + 9)
        inputs, expected = _case(tile_module, sq, sk)
        result = simulate(compiled, inputs, perturb=i + 1)
        assert not result.races and not result.deadlock and not result.unbalanced_flags, (sq, sk)
        np.testing.assert_allclose(result.outputs["arg3"], expected["arg3"], rtol=1e-5, atol=1e-6, err_msg=f"{sq} {sk}")
        if lib is not None and unit is not None:
            run = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
            assert run.error is None, ((sq, sk), run.error)
            np.testing.assert_allclose(run.outputs["arg3"], expected["arg3"], rtol=1e-4, atol=1e-5, err_msg=f"{sq} {sk}")


def _split_halves(compiled):
    from ascend_mlir.transforms import verify_sync

    (halves,) = [k for k in verify_sync._kernels(compiled) if len(k) == 2]
    return halves


def test_the_halves_runs_are_paired_and_reach_every_branch(attention):
    """The cube's and the vectors' loops over the same bounds take one trip count in a
    run (182 runs, where every combination of the halves' runs was 24024), and the key
    loop under the `else` branch (met only there) gets its covering counts, 0 among them."""
    from xdsl.dialects import scf

    from ascend_mlir.transforms import verify_sync

    _, compiled = attention
    halves = _split_halves(compiled)
    plan = verify_sync._run_plan(halves, verify_sync._vector_cores(halves))
    assert plan is not None and len(plan) <= verify_sync.MAX_TRIP_RUNS
    cube, vector = ([op for op in f.walk() if isinstance(op, scf.ForOp)] for f in halves)
    assert [loop.body.block.args[0].name_hint for loop in cube] == [loop.body.block.args[0].name_hint for loop in vector]
    for _, trips in plan:
        assert [trips.get(loop) for loop in cube] == [trips.get(loop) for loop in vector]
    def under_else(loop: scf.ForOp) -> bool:
        parent = loop.parent_op()
        return isinstance(parent, scf.IfOp) and loop.parent_region() is parent.regions[1]

    else_loops = [loop for loop in cube if under_else(loop)]
    assert else_loops and any(trips.get(else_loops[0]) == 0 for _, trips in plan)


@pytest.mark.slow
def test_the_split_kernel_verifies(attention):
    """verify-sync on the split output (as `-p ascend-verify-sync` or the CCE printer's
    re-check run it) proves it, within the budget (about 17 s CPU)."""
    from ascend_mlir.transforms.verify_sync import verify_functions

    _, compiled = attention
    assert verify_functions(_split_halves(compiled)) is True


def _without(compiled, doomed):
    from ascend_mlir.dialects import hivm

    mutant = compiled.clone()
    halves = _split_halves(mutant)
    for f in halves:
        for op in list(f.walk()):
            if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp) and doomed(op):
                op.detach()
                op.erase()
    return _split_halves(mutant)


@pytest.mark.parametrize("mutant", ["one wait", "a cross-core pair"])
def test_a_mutant_of_the_split_kernel_is_refused(attention, mutant):
    """Removing the vectors' wait for the cube's fixpipe into ub before the vadd that
    reads it (a cross-core flag), or that wait and the cube's set together, is refused
    (an unbalanced flag, or the race itself)."""
    from ascend_mlir.dialects import hivm
    from ascend_mlir.transforms.verify_sync import verify_functions

    _, compiled = attention
    # the vectors' wait right before a vadd (the one that reads the cube's P V tile)
    vector = _split_halves(compiled)[1]
    waits = [op.prev_op for op in vector.walk()
             if op.name == "hivm.hir.vadd" and isinstance(op.prev_op, hivm.SyncBlockWaitOp)]
    assert waits, "no cross-core wait right before a vadd: the test's mutant needs updating"
    flag = waits[0].flag_id  # type: ignore[union-attr]

    def doomed(op):
        if op.flag_id != flag:
            return False
        return isinstance(op, hivm.SyncBlockWaitOp) or mutant == "a cross-core pair"

    with pytest.raises(OpError, match="never waited for|nothing orders them" if mutant == "one wait" else "nothing orders"):
        verify_functions(_without(compiled, doomed))
