"""The `hivm` dialect: a faithful subset of AscendNPU IR's HIVM (bishengir-opt 1.2.0).

Op names, operand order, custom assembly and property names follow bishengir-opt
1.2.0, so IR printed here parses there and the reverse, in custom and generic form.
Only memref (buffer) semantics are modelled; the tensor results of the real ops are not.

Besides syntax, each op knows the hardware pipe(s) it issues to and which memrefs it
reads and writes (`HivmPipeOp`), the interface that scheduling, sync insertion and the
simulator build on. Verifiers encode the hardware rules (legal scope pair per DMA op,
operand scopes and shapes of mmadL1, flag pipes and event ids, vector operand scopes).
They are at least as strict as bishengir-opt's own; where the chip matters (the cc -> ub
and ub -> cbuf paths of Ascend 950) they read the module's `hacc.target`. A memref with
no memory space is "not assigned yet" (bishengir infers it later) and is accepted.
"""

from __future__ import annotations

from xdsl.ir import Dialect, Operation

from ascend_mlir.dialects.hivm.attrs import (
    AddressSpace,
    AddressSpaceAttr,
    AtomicKind,
    AtomicKindAttr,
    EventAttr,
    FixpipeDMAMode,
    FixpipeDMAModeAttr,
    FixpipeDualDstMode,
    FixpipeDualDstModeAttr,
    FixpipePreQuantMode,
    FixpipePreQuantModeAttr,
    FixpipePreReluMode,
    FixpipePreReluModeAttr,
    FuncCoreType,
    FuncCoreTypeAttr,
    ModuleCoreType,
    ModuleCoreTypeAttr,
    PadMode,
    PadModeAttr,
    PartOfMixAttr,
    Pipe,
    PipeAttr,
    ReduceOpAttr,
    ReduceOpKind,
    RoundMode,
    RoundModeAttr,
    SyncBlockInstrMode,
    SyncBlockInstrModeAttr,
    TCoreType,
    TCoreTypeAttr,
    TypeFn,
    TypeFnAttr,
    UnitFlag,
    UnitFlagAttr,
    address_space,
    event_attr,
    pipe_attr,
)
from ascend_mlir.dialects.hivm.cube import (
    MMAD_SYNC_RELATED_ARGS,
    MmadL1Op,
)
from ascend_mlir.dialects.hivm.dma import (
    CopyOp,
    FixpipeOp,
    LoadOp,
    Nd2NzOp,
    StoreOp,
)
from ascend_mlir.dialects.hivm.interface import (
    HivmPipeOp,
    op_pipes,
    scope_of,
    scope_unassigned,
    target_name,
)
from ascend_mlir.dialects.hivm.memory import (
    GetBlockIdxOp,
    GetBlockNumOp,
    GetSubBlockIdxOp,
    PointerCastOp,
)
from ascend_mlir.dialects.hivm.sync import (
    PipeBarrierOp,
    SetFftsBaseAddrOp,
    SetFlagOp,
    SetMaskNormOp,
    SyncBlockSetOp,
    SyncBlockWaitOp,
    WaitFlagOp,
)
from ascend_mlir.dialects.hivm.vector import (
    VAbsOp,
    VAddOp,
    VBrcOp,
    VCastOp,
    VDivOp,
    VExpOp,
    VLnOp,
    VMaxOp,
    VMinOp,
    VMulOp,
    VRecOp,
    VReduceOp,
    VReluOp,
    VRsqrtOp,
    VSqrtOp,
    VSubOp,
)

DMA_OPS: tuple[type[Operation], ...] = (LoadOp, StoreOp, Nd2NzOp, FixpipeOp, CopyOp)
BINARY_OPS: tuple[type[Operation], ...] = (VAddOp, VSubOp, VMulOp, VDivOp, VMaxOp, VMinOp)
UNARY_OPS: tuple[type[Operation], ...] = (VExpOp, VLnOp, VAbsOp, VReluOp, VSqrtOp, VRsqrtOp, VRecOp)
VECTOR_OPS: tuple[type[Operation], ...] = BINARY_OPS + UNARY_OPS + (VCastOp, VBrcOp, VReduceOp)
SYNC_OPS: tuple[type[Operation], ...] = (
    SetFlagOp,
    WaitFlagOp,
    PipeBarrierOp,
    SyncBlockSetOp,
    SyncBlockWaitOp,
    SetFftsBaseAddrOp,
    SetMaskNormOp,
)

HIVM = Dialect(
    "hivm",
    [
        *DMA_OPS,
        MmadL1Op,
        *VECTOR_OPS,
        *SYNC_OPS,
        PointerCastOp,
        GetBlockIdxOp,
        GetBlockNumOp,
        GetSubBlockIdxOp,
    ],
    [
        AddressSpaceAttr,
        PipeAttr,
        EventAttr,
        TCoreTypeAttr,
        FuncCoreTypeAttr,
        ModuleCoreTypeAttr,
        PartOfMixAttr,
        PadModeAttr,
        AtomicKindAttr,
        RoundModeAttr,
        TypeFnAttr,
        ReduceOpAttr,
        FixpipeDMAModeAttr,
        FixpipeDualDstModeAttr,
        FixpipePreQuantModeAttr,
        FixpipePreReluModeAttr,
        SyncBlockInstrModeAttr,
        UnitFlagAttr,
    ],
)


__all__ = [
    "AddressSpace",
    "AddressSpaceAttr",
    "AtomicKind",
    "AtomicKindAttr",
    "BINARY_OPS",
    "CopyOp",
    "DMA_OPS",
    "EventAttr",
    "FixpipeDMAMode",
    "FixpipeDMAModeAttr",
    "FixpipeDualDstMode",
    "FixpipeDualDstModeAttr",
    "FixpipeOp",
    "FixpipePreQuantMode",
    "FixpipePreQuantModeAttr",
    "FixpipePreReluMode",
    "FixpipePreReluModeAttr",
    "FuncCoreType",
    "FuncCoreTypeAttr",
    "GetBlockIdxOp",
    "GetBlockNumOp",
    "GetSubBlockIdxOp",
    "HIVM",
    "HivmPipeOp",
    "LoadOp",
    "MMAD_SYNC_RELATED_ARGS",
    "MmadL1Op",
    "ModuleCoreType",
    "ModuleCoreTypeAttr",
    "Nd2NzOp",
    "PadMode",
    "PadModeAttr",
    "PartOfMixAttr",
    "Pipe",
    "PipeAttr",
    "PipeBarrierOp",
    "PointerCastOp",
    "ReduceOpAttr",
    "ReduceOpKind",
    "RoundMode",
    "RoundModeAttr",
    "SYNC_OPS",
    "SetFftsBaseAddrOp",
    "SetMaskNormOp",
    "SetFlagOp",
    "StoreOp",
    "SyncBlockInstrMode",
    "SyncBlockInstrModeAttr",
    "SyncBlockSetOp",
    "SyncBlockWaitOp",
    "TCoreType",
    "TCoreTypeAttr",
    "TypeFn",
    "TypeFnAttr",
    "UNARY_OPS",
    "UnitFlag",
    "UnitFlagAttr",
    "VAbsOp",
    "VAddOp",
    "VBrcOp",
    "VCastOp",
    "VDivOp",
    "VECTOR_OPS",
    "VExpOp",
    "VLnOp",
    "VMaxOp",
    "VMinOp",
    "VMulOp",
    "VRecOp",
    "VReduceOp",
    "VReluOp",
    "VRsqrtOp",
    "VSqrtOp",
    "VSubOp",
    "WaitFlagOp",
    "address_space",
    "event_attr",
    "op_pipes",
    "pipe_attr",
    "scope_of",
    "scope_unassigned",
    "target_name",
]
