"""The tile dialect's Python API, convert-tile-to-hivm and the npuir target from Python."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    bf16,
    f16,
    f32,
    i1,
)
from xdsl.ir import Block
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects import hivm, tile
from ascend_mlir.dialects.hivm import address_space
from ascend_mlir.targets.npuir import NpuirTarget, spelled_for_bishengir
from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def memref(shape: list[int], element=f32, scope: str = "ub") -> MemRefType:
    return MemRefType(element, shape, memory_space=address_space(scope))


def values(*types):
    """Block arguments of the given types (an easy source of SSA values)."""
    return Block(arg_types=types).args


def context() -> Context:
    from ascend_mlir.dialects import register_dialects

    return register_dialects(Context())


# ----- ops built from Python -----------------------------------------------------------


def test_copy_scopes_ins_outs_and_dual():
    g, u, acc, half = values(memref([32, 16], scope="gm"), memref([32, 16]), memref([32, 16], scope="cc"), memref([16, 16]))
    load = tile.CopyOp(g, u)
    load.verify()
    assert load.scopes == ("gm", "ub")
    assert load.ins == (g,) and load.outs == (u,)
    assert not load.is_dual()
    dual = tile.CopyOp(acc, half)
    dual.verify()
    assert dual.is_dual()
    with pytest.raises(VerifyException, match="has no DMA path from ub to cc"):
        tile.CopyOp(u, acc).verify()


@pytest.mark.parametrize("op_class", tile.ELEMENTWISE_BINARY)
def test_binary_ops_take_memref_or_scalar(op_class):
    u, v, w, s = values(memref([8, 64]), memref([8, 64]), memref([8, 64]), f32)
    op = op_class(u, v, w)
    op.verify()
    assert op.ins == (u, v) and op.outs == (w,) and not op.rhs_is_scalar()
    scalar = op_class(u, s, w)
    scalar.verify()
    assert scalar.rhs_is_scalar()


@pytest.mark.parametrize("op_class", tile.ELEMENTWISE_UNARY)
def test_unary_ops_need_matching_types(op_class):
    u, w, h = values(memref([8, 64]), memref([8, 64]), memref([8, 64], f16))
    op_class(u, w).verify()
    with pytest.raises(VerifyException, match="element types differ"):
        op_class(u, h).verify()


def test_cast_fill_reduce_broadcast():
    u, h, r, s = values(memref([8, 64]), memref([8, 64], f16), memref([8, 1]), f32)
    tile.CastOp(u, h).verify()
    with pytest.raises(VerifyException, match="must differ"):
        tile.CastOp(u, u).verify()
    tile.FillOp(s, u).verify()
    reduce = tile.ReduceOp("max", u, r, [1])
    reduce.verify()
    assert reduce.kind.data == tile.ReduceKind.MAX and reduce.reduce_dims == (1,)
    brc = tile.BroadcastOp(r, u, [1])
    brc.verify()
    assert brc.broadcast_dims == (1,)
    with pytest.raises(VerifyException, match="dest shape must be 1x64"):
        tile.ReduceOp("sum", u, r, [0]).verify()


def test_matmul_shapes_and_transpose():
    a, b, bt, c, init = values(
        memref([64, 32], bf16, "cbuf"),
        memref([32, 16], bf16, "cbuf"),
        memref([16, 32], bf16, "cbuf"),
        memref([64, 16], f32, "cc"),
        i1,
    )
    mm = tile.MatmulOp(a, b, c, init)
    mm.verify()
    assert mm.mkn() == (64, 32, 16) and not mm.is_transpose_b
    assert mm.ins == (a, b, init) and mm.outs == (c,)
    mmt = tile.MatmulOp(a, bt, c, init, transpose_b=True)
    mmt.verify()
    assert mmt.mkn() == (64, 32, 16) and mmt.is_transpose_b
    with pytest.raises(VerifyException, match="K of a"):
        tile.MatmulOp(a, bt, c, init).verify()


# ----- conversion and printing from Python ----------------------------------------------


def parse(text: str) -> ModuleOp:
    return Parser(context(), text).parse_module()


def test_pass_converts_every_example_and_keeps_no_tile_op():
    for path in sorted(EXAMPLES.glob("*.mlir")):
        module = parse(path.read_text())
        ConvertTileToHivmPass().apply(context(), module)
        module.verify()
        assert not [op for op in module.walk() if op.dialect_name() == "tile"], path.name
        kernels = [op for op in module.walk() if isinstance(op, func.FuncOp) and "hacc.entry" in op.attributes]
        assert kernels and all("ascend.grid" in k.attributes for k in kernels), path.name
        assert "hacc.target" in module.attributes


def test_core_types_of_examples():
    expected = {"vecadd": "AIV", "softmax": "AIV", "gemm": "AIC", "gemm_910b": "AIC", "gemm_relu": "MIX"}
    for name, core in expected.items():
        module = parse((EXAMPLES / f"{name}.mlir").read_text())
        ConvertTileToHivmPass().apply(context(), module)
        kernel = next(op for op in module.walk() if isinstance(op, func.FuncOp))
        assert kernel.attributes["hivm.func_core_type"] == hivm.FuncCoreTypeAttr(hivm.FuncCoreType(core))


def test_npuir_target_leaves_input_alone_and_mix_is_split():
    from ascend_mlir.transforms.insert_barrier_sync import InsertBarrierSyncPass
    from ascend_mlir.transforms.peel_mmad_init import PeelMmadInitPass
    from ascend_mlir.transforms.split_mix_kernel import SplitMixKernelPass

    module = parse((EXAMPLES / "gemm_relu.mlir").read_text())
    ConvertTileToHivmPass().apply(context(), module)
    InsertBarrierSyncPass(intra_core=False).apply(context(), module)
    PeelMmadInitPass().apply(context(), module)
    SplitMixKernelPass().apply(context(), module)
    before = str(module)
    out = StringIO()
    NpuirTarget().emit(context(), module, out)
    assert str(module) == before  # the printer works on a copy
    text = out.getvalue()
    assert "@gemm_relu_mix_aic" in text and "@gemm_relu_mix_aiv" in text
    assert "ascend." not in text and "tile." not in text
    assert NpuirTarget.name == "npuir"
    # the cube part has no vector op, the vector part no cube op
    npuir = spelled_for_bishengir(module)
    parts = {op.sym_name.data: op for op in npuir.walk() if isinstance(op, func.FuncOp)}
    aic_cores = {op.core_type() for op in parts["gemm_relu_mix_aic"].walk() if isinstance(op, hivm.HivmPipeOp)}
    aiv_cores = {op.core_type() for op in parts["gemm_relu_mix_aiv"].walk() if isinstance(op, hivm.HivmPipeOp)}
    assert "VECTOR" not in aic_cores and "CUBE" not in aiv_cores
    sets = [op for op in npuir.walk() if isinstance(op, hivm.SyncBlockSetOp)]
    waits = [op for op in npuir.walk() if isinstance(op, hivm.SyncBlockWaitOp)]
    assert [s.flag_id for s in sets] == [w.flag_id for w in waits] == [0]


def test_peeled_kernel_has_constant_inits_only():
    from ascend_mlir.transforms.peel_mmad_init import PeelMmadInitPass

    module = parse((EXAMPLES / "gemm.mlir").read_text())
    ConvertTileToHivmPass().apply(context(), module)
    PeelMmadInitPass().apply(context(), module)
    npuir = spelled_for_bishengir(module)
    inits = [op.init_is_constant() for op in npuir.walk() if isinstance(op, hivm.MmadL1Op)]
    assert inits == [True, False]
    assert not [op for op in npuir.walk() if isinstance(op, arith.CmpiOp)]


def test_trip_count_is_preserved_by_peeling():
    """Peeling runs iteration lb once and the loop from lb + step: same iterations."""
    text = """
    func.func @k() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
      %lb = arith.constant 2 : index
      %ub = arith.constant 7 : index
      %st = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
      %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
      scf.for %k = %lb to %ub step %st {
        %first = arith.cmpi eq, %k, %lb : index
        hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
      }
      func.return
    }
    """
    from ascend_mlir.transforms.peel_mmad_init import PeelMmadInitPass

    npuir = parse(text)
    PeelMmadInitPass().apply(context(), npuir)
    loop = next(op for op in npuir.walk() if isinstance(op, scf.ForOp))
    assert isinstance(loop.lb.owner, arith.ConstantOp) and loop.lb.owner.value.value.data == 5
    mmads = [op for op in npuir.walk() if isinstance(op, hivm.MmadL1Op)]
    assert [m.init_is_constant() for m in mmads] == [True, False]
    assert mmads[0].parent_op() is not loop and mmads[1].parent_op() is loop


def test_npuir_rejects_ops_bishengir_does_not_know():
    from xdsl.dialects.test import TestOp

    from ascend_mlir.diagnostics import OpError

    module = parse(
        'func.func @k() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {\n'
        "  func.return\n}"
    )
    kernel = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    kernel.body.block.insert_op_before(TestOp(), kernel.body.block.first_op)
    with pytest.raises(OpError, match="not part of AscendNPU IR"):
        spelled_for_bishengir(module)


def test_index_queries_lower_keeping_their_line():
    """tile.block_idx and tile.sub_block_idx become their hivm query and an index cast, both
    at the tile op's line (a later diagnostic about them names the user's line)."""
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import location_of, parse_module

    text = """func.func @k(%g: memref<32x16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %b = tile.block_idx : index
  %s = tile.sub_block_idx : index
  return
}
"""
    module = parse_module(make_context(), text, "queries.mlir")
    ConvertTileToHivmPass().apply(Context(), module)
    ops = [op for op in module.walk() if isinstance(op, hivm.GetBlockIdxOp | hivm.GetSubBlockIdxOp | arith.IndexCastOp)]
    assert [type(op) for op in ops] == [hivm.GetBlockIdxOp, arith.IndexCastOp, hivm.GetSubBlockIdxOp, arith.IndexCastOp]
    lines = [location_of(op).line for op in ops]  # type: ignore[union-attr]
    assert lines == [2, 2, 3, 3]
    assert [op.results[0].name_hint for op in ops[::2]] == ["b_i64", "s_i64"]
