"""The CCE emulation's memories have the capacities of the chip it builds for (the chip
file's [capacity], passed by the harness), not the 950's for every chip: a kernel whose
UB plan fits the 950 (248 KiB) but not the 910B (192 KiB) runs when built for the 950 and
fails, naming the overflowing access, when built for the 910B."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir.chips import chip_for_arch, load_chip
from ascend_mlir.diagnostics import OpError, parse_module
from ascend_mlir.dialects import register_dialects
from ascend_mlir.sim import via_cce
from ascend_mlir.targets.cce import CcePrinter, find_kernels
from ascend_mlir.testing import tools_required

if via_cce.compiler() is None:
    if tools_required():
        raise RuntimeError("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
    pytest.skip("g++ not found: the CCE emulation cannot be built", allow_module_level=True)

# 57344 f32 = 229376 bytes of UB: within the 950's 253952, beyond the 910B's 196608
ELEMENTS = 57344
KERNEL = f"""
func.func @big(%x: memref<{ELEMENTS}xf32, #hivm.address_space<gm>>, %z: memref<{ELEMENTS}xf32, #hivm.address_space<gm>>)
    attributes {{hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 1 : i64}} {{
  %c0 = arith.constant 0 : i64
  %u = hivm.hir.pointer_cast(%c0) : memref<{ELEMENTS}xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<{ELEMENTS}xf32, #hivm.address_space<gm>>) outs(%u : memref<{ELEMENTS}xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%u : memref<{ELEMENTS}xf32, #hivm.address_space<ub>>) outs(%z : memref<{ELEMENTS}xf32, #hivm.address_space<gm>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  func.return
}}
"""


def test_capacities_follow_the_chip_built_for():
    assert ELEMENTS * 4 <= load_chip("ascend950").capacity["ub"]
    assert ELEMENTS * 4 > load_chip("ascend910b").capacity["ub"]
    ctx = Context()
    register_dialects(ctx)
    module = parse_module(ctx, KERNEL, "big.mlir")
    units = {"dav-3510": via_cce.unit_of(module, "dav-3510", "big_dav_3510")}
    # the printer refuses this plan for the 910B (chip limits): printed past that check,
    # the emulation itself must still refuse it
    with pytest.raises(OpError, match=r"pointer_cast.*ub|ub.*196608"):
        via_cce.unit_of(module, "dav-c220", "refused")
    c220 = chip_for_arch("dav-c220")
    source = CcePrinter("dav-c220", module, c220).print_module()
    units["dav-c220"] = via_cce.Unit(source, tuple(find_kernels(module)), "big_dav_c220",
                                     tuple((scope, c220.capacity[scope]) for scope in via_cce.EMU_SCOPES))
    for arch, unit in units.items():
        assert dict(unit.capacity or ())["ub"] == chip_for_arch(arch).capacity["ub"]
    lib = via_cce.build(list(units.values()))
    x = np.arange(ELEMENTS, dtype=np.float32)
    inputs = {"arg0": x, "arg1": np.zeros_like(x)}
    fits = via_cce.run_kernel(lib, units["dav-3510"], units["dav-3510"].kernels[0], inputs)
    assert fits.error is None
    np.testing.assert_array_equal(fits.outputs["arg1"], x)
    overflows = via_cce.run_kernel(lib, units["dav-c220"], units["dav-c220"].kernels[0], inputs)
    assert overflows.error is not None and "ub" in overflows.error
