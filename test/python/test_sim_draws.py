"""The simulator's fast paths give what the plain computations give, bit for bit.

* input drawing (`reference._uniform_stored`): `rng.random` then `low + (high - low) * u`
  in numpy against `rng.uniform(low, high)`, values and the generator's state after;
* `Ref.view`: one numpy view per core, the same bytes as a fresh one, writes seen through
  both;
* `replay.stream_signature`: its per-access keys kept on the accesses give the signature
  a fresh computation gives, and blocks with another aliasing get another signature."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type

from ascend_mlir.sim import reference
from ascend_mlir.sim.engine import OP, Access, Core, Instr
from ascend_mlir.sim.memory import Buffer, Ref, row_major
from ascend_mlir.sim.numerics import elem_type
from ascend_mlir.sim.reference_numerics import to_storage
from ascend_mlir.sim.replay import stream_signature


@pytest.mark.parametrize("low, high", [(-1.0, 1.0), (0.5, 2.0), (-3.25, 7.0), (1e-3, 1e3)])
@pytest.mark.parametrize("element_type", [BFloat16Type(), Float16Type(), Float32Type()], ids=str)
@pytest.mark.parametrize("size", [1, 1000, reference._DRAW_CHUNK + 17, 2 * reference._DRAW_CHUNK])
def test_uniform_stored_is_uniform(low, high, element_type, size):
    fast, plain = np.random.default_rng(11), np.random.default_rng(11)
    got = reference._uniform_stored(fast, low, high, (size,), element_type)
    want = to_storage(plain.uniform(low, high, size=size), element_type)
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()
    # the draws that follow (the next argument's) are the same too
    assert fast.bit_generator.state == plain.bit_generator.state
    assert fast.integers(0, 1 << 30) == plain.integers(0, 1 << 30)


def test_ref_view_is_shared_and_live():
    et = elem_type(Float32Type())
    buf = Buffer("%x", "ub", 4096, shared=False)
    ref = Ref(buf, 256, (4, 8), row_major((4, 8)), et)
    first = ref.view(0)
    assert ref.view(0) is first  # kept per core
    fresh = np.ndarray((4, 8), dtype=np.float32, buffer=buf.memory(0), offset=256)
    first[...] = np.arange(32, dtype=np.float32).reshape(4, 8)
    assert np.array_equal(fresh, first)
    buf.clear()  # in place: the kept view sees it
    assert not ref.view(0).any()
    assert ref.view(1) is not first and not np.shares_memory(ref.view(1), first)
    # an equal Ref (same fields) is equal whatever views either holds
    assert Ref(buf, 256, (4, 8), row_major((4, 8)), et) == ref


def _core(buf: Buffer, offsets: list[int]) -> Core:
    et = elem_type(Float32Type())
    instrs = []
    for i, offset in enumerate(offsets):
        ref = Ref(buf, offset, (2, 4), row_major((2, 4)), et)
        acc = Access(buf.label(0, "vector"), ref.view(0), write=i % 2 == 0, origin="here")
        instrs.append(Instr(OP, ("V",), 5, 2, accesses=(acc,), name="vadd", static_id=i))
    return Core("vector", "VECTOR", instrs)


def _fresh_signature(cores: list[Core]) -> object:
    for core in cores:
        for ins in core.instrs:
            for acc in ins.accesses:
                acc.signature_key = None
    return stream_signature(cores)


def test_signature_kept_keys_and_aliasing():
    a = Buffer("%a", "ub", 4096, shared=False)
    base = [_core(a, [0, 64, 128])]
    signature = stream_signature(base)
    assert stream_signature(base) == signature == _fresh_signature(base)
    # the same pattern shifted as a whole in its memory (another block's tile): the same run
    assert stream_signature([_core(a, [512, 576, 640])]) == signature
    # another spacing (the second access now overlaps the first): another run
    assert stream_signature([_core(a, [0, 16, 128])]) != signature
    # the same offsets in another memory: another label
    b = Buffer("%b", "ub", 4096, shared=False)
    assert stream_signature([_core(b, [0, 64, 128])]) != signature
