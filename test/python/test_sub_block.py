"""`tile.sub_block_idx`: the two vector cores fed by a dual copy write different GM rows.

A MIX tile kernel: the cube computes a 32x16 tile, the dual copy hands rows [0, 16) to
vector core 0 and rows [16, 32) to vector core 1, each applies relu and stores its half
at rows sub_block_idx * 16. Through ascend-compile (both sync modes) the simulator runs
the cube and both vector cores: no race, and C matches the reference interpreter."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.parser import Parser

from ascend_mlir.dialects import hivm, register_dialects
from ascend_mlir.sim import simulate
from ascend_mlir.sim.reference import run_reference
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

GM = "#hivm.address_space<gm>"
KERNEL = f"""
func.func @mm_relu_dual(%a: memref<32x16xf16, {GM}>, %b: memref<16x16xf16, {GM}>, %c: memref<32x16xf32, {GM}>)
    attributes {{tile.kernel, tile.grid = 1 : i64}} {{
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %la = memref.alloc() : memref<32x16xf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<32x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  %r = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  tile.copy ins(%a : memref<32x16xf16, {GM}>) outs(%la : memref<32x16xf16, #hivm.address_space<cbuf>>)
  tile.copy ins(%b : memref<16x16xf16, {GM}>) outs(%lb : memref<16x16xf16, #hivm.address_space<cbuf>>)
  tile.matmul ins(%la, %lb : memref<32x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>) outs(%acc : memref<32x16xf32, #hivm.address_space<cc>>) init(%true : i1)
  tile.copy ins(%acc : memref<32x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  tile.relu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x16xf32, #hivm.address_space<ub>>)
  %sub = tile.sub_block_idx : index
  %row = arith.muli %sub, %c16 : index
  %cs = memref.subview %c[%row, 0] [16, 16] [1, 1] : memref<32x16xf32, {GM}> to memref<16x16xf32, strided<[16, 1], offset: ?>, {GM}>
  tile.copy ins(%r : memref<16x16xf32, #hivm.address_space<ub>>) outs(%cs : memref<16x16xf32, strided<[16, 1], offset: ?>, {GM}>)
  return
}}
"""


def parse(text: str):
    return Parser(register_dialects(Context()), text).parse_module()


@pytest.mark.parametrize("sync", ["barrier-all", "solver"])
def test_dual_copy_halves_go_to_their_rows(sync):
    module = parse(KERNEL)
    rng = np.random.default_rng(0)
    inputs = {
        "arg0": rng.standard_normal((32, 16)).astype(np.float16),
        "arg1": rng.standard_normal((16, 16)).astype(np.float16),
        "arg2": np.zeros((32, 16), np.float32),
    }
    expected = run_reference(module, inputs)
    a, b = inputs["arg0"].astype(np.float32), inputs["arg1"].astype(np.float32)
    np.testing.assert_allclose(expected["arg2"], np.maximum(a @ b, 0), rtol=1e-3, atol=1e-3)

    compiled = module.clone()
    AscendCompilePass(sync=sync).apply(Context(), compiled)
    assert any(isinstance(op, hivm.GetSubBlockIdxOp) for op in compiled.walk())
    result = simulate(compiled, inputs)
    assert not result.races and not result.deadlock and not result.unbalanced_flags, str(compiled)
    np.testing.assert_allclose(result.outputs["arg2"], expected["arg2"], rtol=1e-6, atol=1e-6)
