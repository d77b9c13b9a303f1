"""One home for the kernel's layout (issue 19): analysis.kernel_layout answers kind, the
function of each core, vector cores and grid, and the CCE printer, the simulator, the
emulation harness, ascend-verify-sync and split-mix-kernel ask it (same answers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.parser import Parser

from ascend_mlir.analysis import kernel_layout
from ascend_mlir.context import make_context
from ascend_mlir.sim.layout import core_specs, find_kernel
from ascend_mlir.targets.cce import find_kernels
from ascend_mlir.transforms import split_mix_kernel, verify_sync

ROOT = Path(__file__).resolve().parents[2]

VECTOR = """
func.func @v(%a: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%a : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}
"""

# declared AIC although it holds a vector op: the declaration wins, for every asker
DECLARED = VECTOR.replace("attributes {hacc.entry}", "attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>}")


def parse(text: str):
    return Parser(make_context(), text).parse_module()


def answers(module) -> list[tuple]:
    return [(k.name, k.kind, k.aic is not None, k.aiv is not None, k.split, k.n_vector, k.n_cube, k.n_vector_cores)
            for k in kernel_layout.kernel_layouts(module)]


@pytest.mark.parametrize("source, expected", [
    ("test/targets/cce/mix-split.mlir", [("mm_relu", "mix", True, True, True, 2, 1, 2)]),
    ("test/targets/cce/mix.mlir", None),
    ("test/targets/cce/cube.mlir", None),
    (VECTOR, [("v", "vector", False, True, False, 1, 0, 1)]),
    (DECLARED, [("v", "cube", True, False, False, 0, 1, 0)]),
])
def test_every_asker_gets_the_layouts_answer(source, expected):
    text = (ROOT / source).read_text() if source.endswith(".mlir") else source
    module = parse(text)
    layouts = kernel_layout.kernel_layouts(module)
    assert layouts
    if expected is not None:
        assert answers(module) == expected
    # the cce printer's kernels (and so the emulation's launch shape) are the layouts
    assert [(k.name, k.kind, k.n_vector, k.grid) for k in find_kernels(module)] == \
        [(k.name, k.kind, k.n_vector, k.grid) for k in layouts]
    # the simulator's kernel: same functions per core, vector cores and grid
    first = layouts[0]
    sim = find_kernel(module)
    assert (sim.aic, sim.aiv, sim.mix, sim.vector_cores, sim.grid) == \
        (first.aic, first.aiv, first.kind == "mix", first.n_vector, first.grid)
    assert sum(spec.kind == "VECTOR" for spec in core_specs(sim)) == first.n_vector_cores
    # ascend-verify-sync checks a split pair together, with the same vector cores
    groups = verify_sync._kernels(module)
    for layout in layouts:
        if layout.split:
            assert layout.functions in groups
        assert len(verify_sync._vector_cores(layout.functions)) == max(1, layout.n_vector)


def test_split_mix_kernel_declares_the_layouts_kind():
    module = parse(VECTOR)
    split_mix_kernel.ensure_core_types(module)
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    assert kernel_layout.declared_kind(f) == "vector" == kernel_layout.function_kind(f)


def test_the_sync_passes_take_the_scalar_core_from_the_layout():
    """ascend-insert-sync and ascend-insert-barrier-sync ask kernel_layout.scalar_core for
    the core of a function's scalar work: the declaration wins, else the cube only for
    a function of cube ops only."""
    from ascend_mlir.transforms import insert_barrier_sync, sync_requirements

    vector, declared = (next(o for o in parse(t).walk() if isinstance(o, func.FuncOp)) for t in (VECTOR, DECLARED))
    assert kernel_layout.scalar_core(vector) == "VECTOR"
    assert kernel_layout.scalar_core(declared) == "CUBE"
    assert sync_requirements.scalar_core is kernel_layout.scalar_core  # insert-sync's _Planner
    assert insert_barrier_sync.scalar_core is kernel_layout.scalar_core


def test_a_mix_halfs_partner_is_named_by_the_layout():
    assert kernel_layout.mix_partner("k_mix_aic") == "k_mix_aiv"
    assert kernel_layout.mix_partner("k_mix_aiv") == "k_mix_aic"
    assert kernel_layout.mix_partner("k_mix") is None


MIX = """
func.func @m(%a: memref<16x16xf16, #hivm.address_space<cbuf>>, %b: memref<16x16xf16, #hivm.address_space<cbuf>>,
             %c: memref<16x16xf32, #hivm.address_space<cc>>, %g: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry} {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}
"""


def _function(text: str) -> func.FuncOp:
    return next(o for o in parse(text).walk() if isinstance(o, func.FuncOp))


@pytest.mark.parametrize("text, inferred, sides", [
    (VECTOR, "vector", {"VECTOR"}),
    (DECLARED, "vector", {"VECTOR"}),  # the ops say vector whatever the declaration
    (MIX, "mix", {"CUBE", "VECTOR"}),
])
def test_the_kind_from_the_ops_is_the_layouts(text, inferred, sides):
    """convert-tile-to-hivm declares the kind kernel_layout infers from the ops, and
    ascend-verify-sync runs a function on the sides the layout says."""
    f = _function(text)
    assert kernel_layout.inferred_kind(f) == inferred
    assert kernel_layout.sides_run(f) == sides
    vector_cores = ("VEC0", "VEC1")
    expected = ({"CUBE"} & sides) | (set(vector_cores) if "VECTOR" in sides else set())
    assert verify_sync._function_cores(f, vector_cores) == expected
    assert kernel_layout.declared_kind(f) in (None, "cube")
    f.attributes[kernel_layout.FUNC_CORE_TYPE] = kernel_layout.core_type_attr(inferred)
    assert kernel_layout.declared_kind(f) == inferred == kernel_layout.function_kind(f)


def test_split_mix_kernel_asks_the_layout_which_entry_is_mix():
    mix, vector = _function(MIX), _function(VECTOR)
    split_mix_kernel.ensure_core_types(mix.parent_op())  # type: ignore[arg-type]
    assert kernel_layout.declared_kind(mix) == "mix"
    assert split_mix_kernel.is_mix_entry(mix) and kernel_layout.declares_mix(mix)
    assert not split_mix_kernel.is_mix_entry(vector)
    aic = split_mix_kernel.core_part(mix, "CUBE")
    assert kernel_layout.declared_kind(aic) == "cube"
    assert kernel_layout.sides_run(aic) == {"CUBE"}
