"""The hivm dialect's Python API: the pipe interface every pass and the simulator use,
the scope/pipe helpers, the builders, and the verifiers' hardware rules."""

from __future__ import annotations

import subprocess

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    f16,
    f32,
    i1,
    i64,
)
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir import hardware
from ascend_mlir.dialects import hivm
from ascend_mlir.dialects.annotation import Annotation, MarkOp
from ascend_mlir.dialects.hacc import HACC, FunctionKind, FunctionKindAttr, TargetAttr
from ascend_mlir.dialects.hivm import (
    HIVM,
    AddressSpaceAttr,
    CopyOp,
    EventAttr,
    FixpipeDMAMode,
    FixpipeDualDstMode,
    FixpipeOp,
    GetBlockIdxOp,
    GetBlockNumOp,
    GetSubBlockIdxOp,
    HivmPipeOp,
    LoadOp,
    MmadL1Op,
    Nd2NzOp,
    PipeAttr,
    PipeBarrierOp,
    PointerCastOp,
    ReduceOpKind,
    RoundMode,
    SetFlagOp,
    StoreOp,
    SyncBlockSetOp,
    SyncBlockWaitOp,
    VAddOp,
    VBrcOp,
    VCastOp,
    VExpOp,
    VMulOp,
    VReduceOp,
    WaitFlagOp,
    address_space,
    op_pipes,
    pipe_attr,
    scope_of,
)
from ascend_mlir.testing import require_tool


def mem(shape: list[int], scope: str, element=f32) -> MemRefType:
    return MemRefType(element, shape, memory_space=address_space(scope))


class Kernel:
    """A function body to build ops into; values come from block arguments."""

    def __init__(self, *types):
        self.block = Block(arg_types=types)
        self.args = self.block.args

    def add(self, *ops):
        for op in ops:
            self.block.add_op(op)
        return ops[-1] if len(ops) == 1 else ops

    def module(self, target: str | None = None) -> ModuleOp:
        self.block.add_op(func.ReturnOp())
        f = func.FuncOp("k", ([a.type for a in self.args], []), Region(self.block))
        attrs = {"hacc.target": TargetAttr(target)} if target else {}
        return ModuleOp([f], attributes=attrs)


def context() -> Context:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith, memref.MemRef, scf.Scf, HIVM, HACC, Annotation):
        ctx.load_dialect(dialect)
    return ctx


def print_op(op) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def parse(text: str) -> ModuleOp:
    return Parser(context(), text).parse_module()


# ----- helpers ------------------------------------------------------------------------


def test_scope_and_pipe_helpers():
    assert scope_of(mem([4], "ub")) == "ub"
    assert scope_of(mem([4], "cc")) == "cc"
    assert scope_of(MemRefType(f32, [4])) is None
    assert scope_of(f32) is None
    assert address_space("cbuf") == AddressSpaceAttr(hivm.AddressSpace.CBUF)
    with pytest.raises(ValueError, match="unknown hivm address space"):
        address_space("l2")
    assert pipe_attr("MTE2") == PipeAttr(hivm.Pipe.PIPE_MTE2)
    assert pipe_attr("PIPE_FIX") == pipe_attr("FIX")
    for name in hardware.PIPES:
        assert pipe_attr(name).pipe_name == name
    assert PipeAttr(hivm.Pipe.PIPE_ALL).pipe_name == "ALL"
    with pytest.raises(ValueError, match="unknown pipe name"):
        pipe_attr("MTE9")
    assert EventAttr(5).index == 5


def test_attribute_spelling():
    assert str(address_space("gm")) == "#hivm.address_space<gm>"
    assert str(pipe_attr("MTE2")) == "#hivm.pipe<PIPE_MTE2>"
    assert str(EventAttr(3)) == "#hivm.event<EVENT_ID3>"
    assert str(TargetAttr("Ascend950PR_9599")) == '#hacc.target<"Ascend950PR_9599">'
    assert str(FunctionKindAttr(FunctionKind.DEVICE)) == "#hacc.function_kind<DEVICE>"
    assert str(hivm.FuncCoreTypeAttr(hivm.FuncCoreType.MIX)) == "#hivm.func_core_type<MIX>"
    assert str(hivm.ModuleCoreTypeAttr(hivm.ModuleCoreType.AIC)) == "#hivm.module_core_type<AIC>"
    assert str(hivm.TCoreTypeAttr(hivm.TCoreType.CUBE)) == "#hivm.tcore_type<CUBE>"
    from ascend_mlir.dialects.hacc import ArgTypeAttr

    assert str(ArgTypeAttr("ffts_base_address")) == "#hacc.arg_type<ffts_base_address>"
    with pytest.raises(VerifyException, match="unknown hacc.arg_type"):
        ArgTypeAttr("scratch")


# ----- the pipe interface ----------------------------------------------------------------


def build_everything():
    """One kernel using every op, built with the Python constructors."""
    k = Kernel(mem([16, 64], "gm", f16), mem([64, 64], "gm"), f32, i1, i64)
    g16, g32, scalar, init, dyn = k.args
    u = k.add(memref.AllocOp([], [], mem([16, 64], "ub", f16)))
    v = k.add(memref.AllocOp([], [], mem([16, 64], "ub", f16)))
    uf = k.add(memref.AllocOp([], [], mem([16, 64], "ub")))
    r = k.add(memref.AllocOp([], [], mem([16, 1], "ub")))
    l1 = k.add(memref.AllocOp([], [], mem([16, 64], "cbuf", f16)))
    a = k.add(memref.AllocOp([], [], mem([64, 32], "cbuf", f16)))
    b = k.add(memref.AllocOp([], [], mem([32, 64], "cbuf", f16)))
    c = k.add(memref.AllocOp([], [], mem([64, 64], "cc")))
    half = k.add(memref.AllocOp([], [], mem([32, 64], "ub")))
    true = k.add(arith.ConstantOp(IntegerAttr(1, i1)))
    false = k.add(arith.ConstantOp(IntegerAttr(0, i1)))
    c64 = k.add(arith.ConstantOp(IntegerAttr(64, IndexType())))
    c32 = k.add(arith.ConstantOp(IntegerAttr(32, IndexType())))
    addr = k.add(arith.ConstantOp(IntegerAttr(0, i64)))
    g32_tile = k.add(memref.AllocOp([], [], mem([16, 64], "gm")))
    ops = {
        "load": LoadOp(g16, u),
        "store": StoreOp(u, g16),
        "copy_ub": CopyOp(u, v),
        "copy_cbuf": CopyOp(u, l1),
        "nd2nz": Nd2NzOp(g16, l1, dst_continuous=True),
        "mmad_init": MmadL1Op(a, b, true, c64, c32, c64, c),
        "mmad_acc": MmadL1Op(a, b, false, c64, c32, c64, c),
        "mmad_dynamic": MmadL1Op(a, b, init, c64, c32, c64, c),
        "fixpipe": FixpipeOp(c, g32, dma_mode=FixpipeDMAMode.NZ2ND),
        "fixpipe_dual": FixpipeOp(c, half, dma_mode=FixpipeDMAMode.NZ2ND, dual_dst_mode=FixpipeDualDstMode.ROW_SPLIT),
        "vadd": VAddOp(uf, uf, uf),
        "vmul_scalar": VMulOp(uf, scalar, uf),
        "vadd_brc": VAddOp(uf, r, uf, broadcast=[1]),
        "vexp": VExpOp(uf, uf),
        "vcast": VCastOp(uf, u, round_mode=RoundMode.FLOOR),
        "vbrc": VBrcOp(r, uf, broadcast_dims=[1]),
        "vbrc_scalar": VBrcOp(scalar, uf),
        "vreduce": VReduceOp(ReduceOpKind.sum, uf, r, [1]),
        "set": SetFlagOp("MTE2", "V", 0),
        "wait": WaitFlagOp("MTE2", "V", 0),
        "set_dyn": SetFlagOp("M", "FIX", dyn),
        "barrier": PipeBarrierOp("MTE2"),
        "barrier_all": PipeBarrierOp("ALL"),
        "block_set": SyncBlockSetOp("CUBE", "FIX", "V", 1),
        "block_wait": SyncBlockWaitOp("VECTOR", "FIX", "V", 1),
        "block_idx": GetBlockIdxOp(),
        "block_num": GetBlockNumOp(),
        "sub_block": GetSubBlockIdxOp(),
        "pointer_cast": PointerCastOp([addr], mem([16, 64], "ub")),
        "ffts": hivm.SetFftsBaseAddrOp(dyn),
    }
    ops["atomic_store"] = StoreOp(uf, g32_tile, atomic_kind=hivm.AtomicKindAttr(hivm.AtomicKind.ADD))
    k.add(*ops.values())
    ops["mark"] = k.add(MarkOp(ops["pointer_cast"], {"hivm.multi_buffer": IntegerAttr(2, 32)}))
    values = dict(g16=g16, g32=g32, u=u.results[0], v=v.results[0], uf=uf.results[0], r=r.results[0],
                  l1=l1.results[0], a=a.results[0], b=b.results[0], c=c.results[0], half=half.results[0],
                  scalar=scalar)
    return k.module(), ops, values


def test_built_kernel_verifies_and_round_trips():
    module, _, _ = build_everything()
    module.verify()
    text = print_op(module)
    reparsed = parse(text)
    reparsed.verify()
    assert print_op(reparsed) == text


def test_pipes_and_core_types():
    _, ops, _ = build_everything()
    expected = {
        "load": (("MTE2",), "VECTOR"),
        "store": (("MTE3",), "VECTOR"),
        "copy_ub": (("V",), "VECTOR"),
        "copy_cbuf": (("MTE3",), "VECTOR"),
        "nd2nz": (("MTE2",), "CUBE"),
        "mmad_init": (("MTE1", "M"), "CUBE"),
        "fixpipe": (("FIX",), "CUBE"),
        "vadd": (("V",), "VECTOR"),
        "vcast": (("V",), "VECTOR"),
        "vbrc": (("V",), "VECTOR"),
        "vreduce": (("V",), "VECTOR"),
        "set": (("MTE2",), "VECTOR"),
        "wait": (("V",), "VECTOR"),
        "set_dyn": (("M",), "CUBE"),
        "barrier": (("MTE2",), "SCALAR"),
        "barrier_all": (hardware.PIPES, "SCALAR"),
        "block_set": (("FIX",), "CUBE"),
        "block_wait": (("V",), "VECTOR"),
        "block_idx": (("S",), "SCALAR"),
        "block_num": (("S",), "SCALAR"),
        "sub_block": (("S",), "SCALAR"),
        "ffts": (("S",), "SCALAR"),
    }
    for name, (pipes, core) in expected.items():
        op = ops[name]
        assert isinstance(op, HivmPipeOp), name
        assert op.pipes() == pipes, name
        assert op_pipes(op) == pipes, name
        assert op.core_type() == core, name
    # pointer_cast and annotation.mark issue to no pipe
    assert op_pipes(ops["pointer_cast"]) == ()
    assert op_pipes(ops["mark"]) == ()
    assert op_pipes(arith.ConstantOp(IntegerAttr(0, i64))) == ()


def test_barrier_all_is_one_question():
    _, ops, _ = build_everything()
    assert hivm.is_barrier_all(ops["barrier_all"]) and ops["barrier_all"].drains_all
    assert not hivm.is_barrier_all(ops["barrier"])
    # other sync ops on every pipe are not barriers
    assert not any(hivm.is_barrier_all(ops[n]) for n in ("set", "wait", "block_set", "ffts"))
    # PIPE_S stalls issue as PIPE_ALL does, but it is not a PIPE_ALL barrier
    s_barrier = hivm.PipeBarrierOp("S")
    assert s_barrier.stalls_issue and not s_barrier.drains_all and not hivm.is_barrier_all(s_barrier)
    assert ops["barrier_all"].stalls_issue and not ops["barrier"].stalls_issue


def test_dual_fixpipe_and_vector_cores_are_one_question():
    # a half-height ub destination, or a dual_dst_mode other than NO_DUAL, splits the
    # result between the two vector cores; NO_DUAL on a full-size destination does not
    k = Kernel(mem([32, 16], "cc"), mem([16, 16], "ub"), mem([32, 16], "ub"))
    cc, half, full = k.args
    halved = FixpipeOp(cc, half)
    no_dual = FixpipeOp(cc, full, dual_dst_mode=FixpipeDualDstMode.NO_DUAL)
    row_split = FixpipeOp(cc, full, dual_dst_mode=FixpipeDualDstMode.ROW_SPLIT)
    assert halved.is_dual and row_split.is_dual and not no_dual.is_dual
    k.add(no_dual)
    assert not hivm.uses_both_vector_cores([k.module()])
    for make in (lambda c, h, f: FixpipeOp(c, h), lambda c, h, f: GetSubBlockIdxOp(),
                 lambda c, h, f: FixpipeOp(c, f, dual_dst_mode=FixpipeDualDstMode.ROW_SPLIT)):
        k = Kernel(mem([32, 16], "cc"), mem([16, 16], "ub"), mem([32, 16], "ub"))
        k.add(make(*k.args))
        assert hivm.uses_both_vector_cores([None, k.module()])


def test_memref_reads_and_writes():
    _, ops, v = build_everything()

    def same(values, expected):
        return list(values) == list(expected)

    assert same(ops["load"].memref_reads(), [v["g16"]]) and same(ops["load"].memref_writes(), [v["u"]])
    assert same(ops["store"].memref_reads(), [v["u"]]) and same(ops["store"].memref_writes(), [v["g16"]])
    atomic = ops["atomic_store"]
    assert same(atomic.memref_reads(), [atomic.src, atomic.dst])
    assert same(ops["nd2nz"].memref_writes(), [v["l1"]])
    # mmadL1 reads C unless its init condition is the constant true
    assert same(ops["mmad_init"].memref_reads(), [v["a"], v["b"]])
    assert same(ops["mmad_acc"].memref_reads(), [v["a"], v["b"], v["c"]])
    assert same(ops["mmad_dynamic"].memref_reads(), [v["a"], v["b"], v["c"]])
    assert same(ops["mmad_init"].memref_writes(), [v["c"]])
    assert ops["mmad_init"].init_is_constant() is True
    assert ops["mmad_acc"].init_is_constant() is False
    assert ops["mmad_dynamic"].init_is_constant() is None
    assert same(ops["fixpipe"].memref_reads(), [v["c"]]) and same(ops["fixpipe"].memref_writes(), [v["g32"]])
    # a scalar operand is in .ins but is no memref read
    assert same(ops["vmul_scalar"].ins, [v["uf"], v["scalar"]])
    assert same(ops["vmul_scalar"].memref_reads(), [v["uf"]])
    assert same(ops["vadd_brc"].memref_reads(), [v["uf"], v["r"]])
    assert same(ops["vbrc_scalar"].memref_reads(), [])
    assert same(ops["vbrc_scalar"].memref_writes(), [v["uf"]])
    assert same(ops["vreduce"].memref_reads(), [v["uf"]]) and same(ops["vreduce"].memref_writes(), [v["r"]])
    for name in ("set", "wait", "barrier", "block_set", "block_idx"):
        assert ops[name].memref_reads() == () and ops[name].memref_writes() == (), name


def test_ins_outs_accessors():
    _, ops, v = build_everything()
    mmad = ops["mmad_init"]
    assert list(mmad.ins)[:2] == [v["a"], v["b"]] and list(mmad.outs) == [v["c"]]
    assert len(mmad.ins) == 6
    assert list(ops["copy_ub"].ins) == [v["u"]] and list(ops["copy_ub"].outs) == [v["v"]]
    assert ops["set"].event_id == 0 and ops["set_dyn"].event_id is None
    assert ops["block_set"].flag_id == 1


def test_pipe_interface_on_parsed_ir():
    module = parse(
        """
        func.func @f(%e: i64) {
          hivm.hir.set_flag[<PIPE_FIX>, <PIPE_MTE2>, %e]
          hivm.hir.wait_flag[#hivm.pipe<PIPE_MTE1>, #hivm.pipe<PIPE_M>, #hivm.event<EVENT_ID2>]
          hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE1>] flag = 3
          return
        }
        """
    )
    ops = [op for op in module.walk() if isinstance(op, HivmPipeOp)]
    assert [op.pipes() for op in ops] == [("FIX",), ("M",), ("MTE1",)]
    assert [op.core_type() for op in ops] == ["CUBE", "CUBE", "CUBE"]
    assert ops[1].event_id == 2


# ----- verifiers --------------------------------------------------------------------------


def verify_error(op) -> str:
    with pytest.raises(VerifyException) as info:
        op.verify()
    return str(info.value)


def test_dma_scope_rules():
    k = Kernel(mem([16], "gm"), mem([16], "ub"), mem([16], "cbuf"), mem([16], "cc"))
    gm, ub, l1, cc = k.args
    legal = [LoadOp(gm, ub), StoreOp(ub, gm), Nd2NzOp(gm, l1), FixpipeOp(cc, gm), FixpipeOp(cc, l1), FixpipeOp(cc, ub), CopyOp(ub, ub), CopyOp(ub, l1)]
    for op in legal:
        op.verify()
    assert "source must be in gm, got ub" in verify_error(LoadOp(ub, ub))
    assert "destination must be in gm, got cbuf" in verify_error(StoreOp(ub, l1))
    assert "destination must be in cbuf, got ub" in verify_error(Nd2NzOp(gm, ub))
    assert "source must be in cc, got cbuf" in verify_error(FixpipeOp(l1, gm))
    assert "destination must be in ub or cbuf, got gm" in verify_error(CopyOp(ub, gm))


def test_unassigned_scopes_verify_but_written_scopes_must_be_legal():
    """Memrefs without a memory space (before bishengir's scope inference) are accepted."""
    k = Kernel(MemRefType(f16, [16]), MemRefType(f16, [16]), mem([16], "cbuf", f16), MemRefType(f16, [16], memory_space=IntegerAttr(1, i64)))
    plain_src, plain_dst, l1, numeric = k.args
    assert hivm.scope_unassigned(plain_src) and not hivm.scope_unassigned(l1)
    assert not hivm.scope_unassigned(numeric)
    LoadOp(plain_src, plain_dst).verify()
    VExpOp(plain_src, plain_dst).verify()
    assert "destination must be in ub, got cbuf" in verify_error(LoadOp(plain_src, l1))
    assert "source must be in gm, got no hivm address space" in verify_error(LoadOp(numeric, plain_dst))
    assert "on-chip scope" in verify_error(PointerCastOp([k.add(arith.ConstantOp(IntegerAttr(0, i64)))], MemRefType(f16, [16])))


def test_chip_dependent_paths(monkeypatch):
    from ascend_mlir import chips
    from ascend_mlir.analysis.hardware_checks import chip_limit_errors
    from ascend_mlir.chips import load_chip

    k = Kernel(mem([16], "ub"), mem([16], "cbuf"), mem([16], "cc"))
    ub, l1, cc = k.args
    k.add(CopyOp(ub, l1), FixpipeOp(cc, ub))
    module = k.module(target="Ascend910B1")
    copy, fixpipe = [op for op in module.walk() if isinstance(op, (CopyOp, FixpipeOp))]
    # the op verifiers check scopes only (they load no chip file) ...
    with monkeypatch.context() as patched:
        for name in ("load_chip", "chip_for_target", "resolve_chip"):
            patched.setattr(chips, name, lambda *a, **k: pytest.fail("a verifier loaded a chip"))
        module.verify()
    assert copy.copy_path() == hardware.COPY_PATHS[("ub", "cbuf")]
    # ... the chip's own check, which knows the chip, refuses the 910B's missing paths
    errors = [str(e) for e in chip_limit_errors(module, load_chip("ascend910b"))]
    assert any("copy ub -> cbuf needs a chip with that path (ascend950), the module targets Ascend910B1 "
               "(ascend910b)" in e for e in errors)
    assert any("fixpipe cc -> ub needs a chip with that path (ascend950)" in e for e in errors)
    assert hivm.target_name(copy) == "Ascend910B1"
    for target in ("Ascend950PR_9599", None):  # the 950 has them, and it is the default chip
        k = Kernel(mem([16], "ub"), mem([16], "cbuf"), mem([16], "cc"))
        ub, l1, cc = k.args
        k.add(CopyOp(ub, l1), FixpipeOp(cc, ub))
        module = k.module(target=target)
        module.verify()
        assert not chip_limit_errors(module, load_chip("ascend950"))


def test_mmad_rules():
    k = Kernel(i1, IndexType())
    init, n = k.args

    def mmad(a_shape, b_shape, c_shape, a_t=f16, b_t=f16, c_t=f32, **kw):
        a = k.add(memref.AllocOp([], [], mem(a_shape, "cbuf", a_t)))
        b = k.add(memref.AllocOp([], [], mem(b_shape, "cbuf", b_t)))
        c = k.add(memref.AllocOp([], [], mem(c_shape, "cc", c_t)))
        return MmadL1Op(a, b, init, n, n, n, c, **kw)

    mmad([64, 32], [32, 16], [64, 16]).verify()
    mmad([32, 64], [32, 16], [64, 16], a_transpose=True).verify()
    mmad([64, 32], [16, 32], [64, 16], b_transpose=True).verify()
    mmad([64, 32], [32, 16], [64, 16], a_t=builtin.i8, b_t=builtin.i8, c_t=builtin.i32).verify()
    mmad([64, 32], [32, 16], [64, 16], a_t=f32, b_t=f32, enable_hf32=True).verify()
    assert "K of A (32) and K of B (16) differ" in verify_error(mmad([64, 32], [16, 32], [64, 16]))
    assert "C is 64x32 but A x B is 64x16" in verify_error(mmad([64, 32], [32, 16], [64, 32]))
    assert "accumulates in f32, but C is f16" in verify_error(mmad([64, 32], [32, 16], [64, 16], c_t=f16))
    assert "unsupported element types" in verify_error(mmad([64, 32], [32, 16], [64, 16], b_t=f32))


def test_vector_rules():
    k = Kernel(mem([16, 64], "ub"), mem([16, 1], "ub"), mem([16, 64], "gm"), f32, f16)
    x, r, g, s32, s16 = k.args
    VAddOp(x, x, x).verify()
    VMulOp(x, s32, x).verify()
    VAddOp(x, r, x, broadcast=[1]).verify()
    assert "vector input must be in ub, got gm" in verify_error(VAddOp(g, x, x))
    assert "not compatible with the output shape" in verify_error(VAddOp(x, r, x))
    assert "scalar operand type f16 differs" in verify_error(VMulOp(x, s16, x))
    assert "first input must be a memref" in verify_error(VMulOp(s32, x, x))
    assert "source size on broadcast dim 0 must be 1, got 16" in verify_error(VBrcOp(r, x, broadcast_dims=[0, 1]))
    assert "reduce dim 2 is out of range" in verify_error(VReduceOp(ReduceOpKind.max, x, r, [2]))
    assert "destination size on dim 1 must be 1, got 64" in verify_error(VReduceOp(ReduceOpKind.max, x, x, [1]))


def test_sync_rules():
    SetFlagOp("MTE2", "V", 7).verify()
    assert "set and wait pipes must differ" in verify_error(SetFlagOp("V", "V", 0))
    assert "EVENT_ID8 is out of range" in verify_error(WaitFlagOp("MTE2", "V", 8))
    assert "single hardware pipe" in verify_error(SetFlagOp("ALL", "V", 0))
    assert "flag id 16 is out of range" in verify_error(SyncBlockSetOp("CUBE", "FIX", "V", 16))


def test_pointer_cast_rules():
    k = Kernel(i64)
    (addr,) = k.args
    PointerCastOp([addr], mem([16], "ub")).verify()
    PointerCastOp([addr, addr], mem([16], "cbuf")).verify()
    assert "on-chip scope" in verify_error(PointerCastOp([addr], mem([16], "gm")))


def test_generic_property_names_match_bishengir():
    """Properties carry bishengir's names, so generic IR flows both ways."""
    _, ops, _ = build_everything()
    assert set(ops["set"].properties) == {"set_pipe", "wait_pipe", "static_event_id"}
    assert set(ops["vadd"].properties) == {"broadcast", "transpose", "operandSegmentSizes"}
    assert set(ops["vcast"].properties) == {"broadcast", "transpose", "round_mode", "cast", "operandSegmentSizes"}
    assert set(ops["fixpipe_dual"].properties) == {"dma_mode", "dual_dst_mode", "operandSegmentSizes"}
    assert set(ops["block_set"].properties) == {"tcore_type", "tpipe", "pipe", "static_flag_id", "operandSegmentSizes"}
    assert set(ops["vreduce"].properties) == {"arith", "reduce_dims", "operandSegmentSizes"}
    # MLIR prints properties sorted by name; so do we
    for op in ops.values():
        assert list(op.properties) == sorted(op.properties), op.name


def test_built_ir_parses_in_bishengir_opt():
    """IR built with the Python API (not only parsed text) is accepted by the real tool."""
    tool = require_tool("bishengir-opt")
    module, _, _ = build_everything()
    module.attributes["hacc.target"] = TargetAttr("Ascend950PR_9599")
    text = print_op(module)
    result = subprocess.run([tool], input=text, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    # and its output parses back to the same hivm ops
    back = parse(result.stdout)
    back.verify()
    ours = [op.name for op in module.walk() if op.name.startswith(("hivm.", "annotation."))]
    theirs = [op.name for op in back.walk() if op.name.startswith(("hivm.", "annotation."))]
    assert ours == theirs


# ----- randomised conformance with bishengir-opt --------------------------------------------

_UB = "memref<16x32xf32, #hivm.address_space<ub>>"
_UB1 = "memref<16x1xf32, #hivm.address_space<ub>>"
_UB16 = "memref<16x32xf16, #hivm.address_space<ub>>"
_GM = "memref<16x32xf32, #hivm.address_space<gm>>"


_PIPES = ["PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_M", "PIPE_V", "PIPE_FIX", "PIPE_S"]


def _enum(rng, short: str, long: str) -> str:
    """A hivm enum in either accepted spelling: `<X>` or `#hivm.long<X>`."""
    return rng.choice([f"<{short}>", f"#hivm.{long}<{short}>"])


def _random_load(rng) -> str:
    text = f"hivm.hir.load ins(%g : {_GM}) outs(%x : {_UB})"
    mode = rng.choice([None, "PadNull", "PadFirstElem", "PadValue"])
    if mode is not None:
        text += f" pad_mode = {_enum(rng, mode, 'padmode')}"
    if mode == "PadValue":
        text += " pad_value = %s : f32"
    if rng.random() < 0.3:
        text += " init_out_buffer = true"
    return text


def _random_store(rng) -> str:
    atomic = f" atomic = {_enum(rng, rng.choice(['add', 'max', 'min']), 'atomic_kind')}" if rng.random() < 0.5 else ""
    return f"hivm.hir.store ins(%x : {_UB}) outs(%g : {_GM}){atomic}"


def _random_binary(rng) -> str:
    name = rng.choice(["vadd", "vsub", "vmul", "vdiv", "vmax", "vmin"])
    choice = rng.random()
    if choice < 0.3:
        return f"hivm.hir.{name} ins(%x, %s : {_UB}, f32) outs(%y : {_UB})"
    if choice < 0.6:
        return f"hivm.hir.{name} ins(%x, %r : {_UB}, {_UB1}) outs(%y : {_UB}) broadcast = [1]"
    return f"hivm.hir.{name} ins(%x, %y : {_UB}, {_UB}) outs(%y : {_UB})"


def _random_unary(rng) -> str:
    name = rng.choice(["vexp", "vln", "vabs", "vrelu", "vsqrt", "vrsqrt", "vrec"])
    attrs = " {ascend.latency = 7 : i64}" if rng.random() < 0.3 else ""
    return f"hivm.hir.{name}{attrs} ins(%x : {_UB}) outs(%y : {_UB})"


def _random_vcast(rng) -> str:
    mode = rng.choice(["rint", "round", "floor", "ceil", "trunc", "odd"])
    return f"hivm.hir.vcast ins(%x : {_UB}) outs(%h : {_UB16}) round_mode = {_enum(rng, mode, 'round_mode')}"


def _random_vbrc(rng) -> str:
    if rng.random() < 0.5:
        return f"hivm.hir.vbrc ins(%s : f32) outs(%y : {_UB})"
    return f"hivm.hir.vbrc ins(%r : {_UB1}) outs(%y : {_UB}) broadcast_dims = [1]"


def _random_vreduce(rng) -> str:
    kind = _enum(rng, rng.choice(['sum', 'max', 'min', 'prod']), 'reduce_op')
    return f"hivm.hir.vreduce {kind} ins(%x : {_UB}) outs(%r : {_UB1}) reduce_dims = [1]"


def _random_flag(rng) -> str:
    set_pipe, wait_pipe = rng.sample(_PIPES, 2)
    event = "%e" if rng.random() < 0.3 else _enum(rng, f"EVENT_ID{rng.randrange(8)}", "event")
    op = rng.choice(["set_flag", "wait_flag"])
    return f"hivm.hir.{op}[{_enum(rng, set_pipe, 'pipe')}, {_enum(rng, wait_pipe, 'pipe')}, {event}]"


def _random_barrier(rng) -> str:
    return f"hivm.hir.pipe_barrier[{_enum(rng, rng.choice(_PIPES + ['PIPE_ALL']), 'pipe')}]"


def _random_block(rng) -> str:
    tpipe, pipe = rng.sample(_PIPES, 2)
    flag = "%e" if rng.random() < 0.3 else str(rng.randrange(16))
    op = rng.choice(["sync_block_set", "sync_block_wait"])
    core = _enum(rng, rng.choice(['CUBE', 'VECTOR']), 'tcore_type')
    return f"hivm.hir.{op}[{core}, {_enum(rng, tpipe, 'pipe')}, {_enum(rng, pipe, 'pipe')}] flag = {flag}"


def _random_fixpipe(rng) -> str:
    attrs = []
    if rng.random() < 0.7:
        attrs.append(f"dma_mode = #hivm.dma_mode<{rng.choice(['nz2nd', 'normal'])}>")
    if rng.random() < 0.3:
        attrs.append(f"pre_relu = #hivm.fixpipe_pre_relu_mode<{rng.choice(['NO_RELU', 'NORMAL_RELU'])}>")
    attr_dict = (" {" + ", ".join(attrs) + "}") if attrs else ""
    dst = rng.choice([("%g", _GM), ("%l1c", "memref<16x32xf32, #hivm.address_space<cbuf>>")])
    return f"hivm.hir.fixpipe{attr_dict} ins(%c : memref<16x32xf32, #hivm.address_space<cc>>) outs({dst[0]} : {dst[1]})"


def _random_mmad(rng) -> str:
    transpose = rng.random() < 0.5
    b_type = "memref<32x16xf16, #hivm.address_space<cbuf>>" if transpose else "memref<16x32xf16, #hivm.address_space<cbuf>>"
    b_name = "%bt" if transpose else "%b"
    attr = " {b_transpose}" if transpose else ""
    init = rng.choice(["%true", "%i"])
    return (
        f"hivm.hir.mmadL1{attr} ins(%a, {b_name}, {init}, %n16, %n16, %n32 : memref<16x16xf16, #hivm.address_space<cbuf>>, {b_type}, i1, index, index, index)"
        " outs(%c : memref<16x32xf32, #hivm.address_space<cc>>)"
    )


# op kind -> generator of one op of that kind (the order is the draw order of the kinds)
_RANDOM_OPS = {
    "load": _random_load, "store": _random_store, "binary": _random_binary, "unary": _random_unary,
    "vcast": _random_vcast, "vbrc": _random_vbrc, "vreduce": _random_vreduce, "flag": _random_flag,
    "barrier": _random_barrier, "block": _random_block, "fixpipe": _random_fixpipe, "mmad": _random_mmad,
}


def _random_op(rng) -> str:
    """One random hivm op (in any accepted spelling) over the values of `_random_module`."""
    return _RANDOM_OPS[rng.choice(list(_RANDOM_OPS))](rng)


def _random_module(seed: int, count: int) -> str:
    import random

    rng = random.Random(seed)
    body = "\n".join("    " + _random_op(rng) for _ in range(count))
    return f"""module attributes {{hacc.target = #hacc.target<"Ascend950PR_9599">}} {{
  func.func @random(%g: {_GM}, %s: f32, %e: i64, %i: i1) {{
    %x = memref.alloc() : {_UB}
    %y = memref.alloc() : {_UB}
    %r = memref.alloc() : {_UB1}
    %h = memref.alloc() : {_UB16}
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<16x32xf16, #hivm.address_space<cbuf>>
    %bt = memref.alloc() : memref<32x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x32xf32, #hivm.address_space<cc>>
    %l1c = memref.alloc() : memref<16x32xf32, #hivm.address_space<cbuf>>
    %true = arith.constant true
    %n16 = arith.constant 16 : index
    %n32 = arith.constant 32 : index
{body}
    return
  }}
}}
"""


def _hivm_lines(text: str) -> list[str]:
    import re

    return [re.sub(r"%[A-Za-z0-9_]+", "%v", line.strip()) for line in text.split("\n") if "hivm.hir." in line]


@pytest.mark.parametrize("seed", range(3))
def test_random_ops_print_like_bishengir(seed: int):
    """Random ops in random (long/short) spellings: ours verifies them, prints exactly what
    bishengir-opt prints, in custom and generic form, and our output re-parses to itself."""
    tool = require_tool("bishengir-opt")
    text = _random_module(seed, 60)
    ours = parse(text)
    ours.verify()
    printed = print_op(ours)
    assert print_op(parse(printed)) == printed
    theirs = subprocess.run([tool], input=text, capture_output=True, text=True, timeout=120)
    assert theirs.returncode == 0, theirs.stderr
    assert _hivm_lines(printed) == _hivm_lines(theirs.stdout)

    from io import StringIO

    generic = StringIO()
    Printer(stream=generic, print_generic_format=True).print_op(ours)
    theirs_generic = subprocess.run([tool, "--mlir-print-op-generic"], input=text, capture_output=True, text=True, timeout=120)
    assert theirs_generic.returncode == 0, theirs_generic.stderr
    assert _hivm_lines(generic.getvalue()) == _hivm_lines(theirs_generic.stdout)
