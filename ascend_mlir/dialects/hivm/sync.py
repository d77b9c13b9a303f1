"""Synchronisation: set/wait flags, pipe barriers, cross-core block flags, the FFTS base address."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    IntegerAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from ascend_mlir import hardware
from ascend_mlir.dialects.hivm.attrs import (
    EventAttr,
    PipeAttr,
    SyncBlockInstrModeAttr,
    TCoreType,
    TCoreTypeAttr,
    pipe_attr,
)
from ascend_mlir.dialects.hivm.interface import (
    core_of_pipes,
)
from ascend_mlir.dialects.hivm.syntax import (
    EventOrValue,
    HivmOp,
    IntOrValue,
    ShortEnum,
)

# ---------------------------------------------------------------------------
# Synchronisation
# ---------------------------------------------------------------------------


class _FlagOp(HivmOp, ABC):
    """`[<set pipe>, <wait pipe>, <EVENT_IDn> | %dynamic] attr-dict`."""

    dynamic_event_id = opt_operand_def(I64)
    set_pipe = prop_def(PipeAttr)
    wait_pipe = prop_def(PipeAttr)
    static_event_id = opt_prop_def(EventAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("set_pipe", "wait_pipe", "static_event_id")

    def __init__(self, set_pipe: str | PipeAttr, wait_pipe: str | PipeAttr, event: int | SSAValue | Operation):
        props: dict[str, Attribute] = {
            "set_pipe": set_pipe if isinstance(set_pipe, PipeAttr) else pipe_attr(set_pipe),
            "wait_pipe": wait_pipe if isinstance(wait_pipe, PipeAttr) else pipe_attr(wait_pipe),
        }
        operands: list[SSAValue | Operation | list[SSAValue]] = [[]]
        if isinstance(event, int):
            props["static_event_id"] = EventAttr(event)
        else:
            operands = [event]
        super().__init__(operands=operands, properties=props)

    def core_type(self) -> str:
        """The core of the pipe pair (a flag between a cube and a shared pipe is the cube's)."""
        return core_of_pipes((self.set_pipe.pipe_name, self.wait_pipe.pipe_name))

    @property
    def event_id(self) -> int | None:
        """The static event id, None when the id is dynamic."""
        return self.static_event_id.index if self.static_event_id is not None else None

    def verify_(self) -> None:
        if (self.static_event_id is None) == (self.dynamic_event_id is None):
            raise VerifyException("needs exactly one of a static event id or a dynamic i64 event id")
        if self.set_pipe == self.wait_pipe:
            raise VerifyException(
                f"set and wait pipes must differ, got {self.set_pipe.data.value} twice (same-pipe order needs pipe_barrier, not a flag)"
            )
        for role, pipe in (("set", self.set_pipe), ("wait", self.wait_pipe)):
            if pipe.pipe_name not in hardware.PIPES:
                raise VerifyException(f"{role} pipe must be a single hardware pipe, got {pipe.data.value}")
        if self.static_event_id is not None and not 0 <= self.static_event_id.index < hardware.EVENTS_PER_PIPE_PAIR:
            raise VerifyException(
                f"static event id EVENT_ID{self.static_event_id.index} is out of range "
                f"(EVENT_ID0..EVENT_ID{hardware.EVENTS_PER_PIPE_PAIR - 1}, {hardware.EVENTS_PER_PIPE_PAIR} per pipe pair)"
            )

    assembly_format = (
        "`[` custom<ShortEnum>($set_pipe) `,` custom<ShortEnum>($wait_pipe) `,` "
        "custom<EventOrValue>($static_event_id, $dynamic_event_id) `]` attr-dict"
    )
    custom_directives = (ShortEnum, EventOrValue)


@irdl_op_definition
class SetFlagOp(_FlagOp):
    """Runs on the producer (set) pipe once its earlier ops completed; raises the flag."""

    name = "hivm.hir.set_flag"

    def pipes(self) -> tuple[str, ...]:
        return (self.set_pipe.pipe_name,)


@irdl_op_definition
class WaitFlagOp(_FlagOp):
    """Blocks the consumer (wait) pipe until the flag is raised, then clears it."""

    name = "hivm.hir.wait_flag"

    def pipes(self) -> tuple[str, ...]:
        return (self.wait_pipe.pipe_name,)


@irdl_op_definition
class PipeBarrierOp(HivmOp):
    """`pipe_barrier[<PIPE_X>]`: orders ops of one pipe; PIPE_ALL drains every pipe."""

    name = "hivm.hir.pipe_barrier"

    pipe = prop_def(PipeAttr)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("pipe",)

    def __init__(self, pipe: str | PipeAttr):
        super().__init__(properties={"pipe": pipe if isinstance(pipe, PipeAttr) else pipe_attr(pipe)})

    @property
    def drains_all(self) -> bool:
        """PIPE_ALL: every pipe of the core has drained when the barrier completes."""
        return self.pipe.pipe_name == "ALL"

    @property
    def stalls_issue(self) -> bool:
        """PIPE_ALL or PIPE_S (the scalar unit's own pipe): the core issues nothing more
        until every pipe drained, so everything issued before is ordered before everything
        issued after. The CCE API spells both `asc_sync()` (reference/cce-api.md); a
        barrier on S alone would order nothing, S being in order (reference/hivm-syntax.md,
        same-pipe rule). The one answer the simulator, the CCE printer, ascend-verify-sync
        and sync insertion ask for."""
        return self.drains_all or self.pipe.pipe_name == "S"

    def pipes(self) -> tuple[str, ...]:
        return hardware.PIPES if self.drains_all else (self.pipe.pipe_name,)

    def core_type(self) -> str:
        if self.drains_all:
            return "SCALAR"
        return core_of_pipes(self.pipes())

    def verify_(self) -> None:
        if not self.drains_all and self.pipe.pipe_name not in hardware.PIPES:
            raise VerifyException(f"pipe must be a hardware pipe or PIPE_ALL, got {self.pipe.data.value}")

    # bishengir's `[` custom<PipeAttr>($pipe) `]` attr-dict
    assembly_format = "`[` custom<ShortEnum>($pipe) `]` attr-dict"
    custom_directives = (ShortEnum,)


def is_barrier_all(op: Operation) -> bool:
    """Whether `op` is pipe_barrier[<PIPE_ALL>] (the question sync insertion, the MIX
    split, the simulator and the printers ask of arbitrary ops)."""
    return isinstance(op, PipeBarrierOp) and op.drains_all


class _SyncBlockOp(HivmOp, ABC):
    """`attr-dict [<core>, <set pipe>, <wait pipe>] flag = N | %v ...`: cross-core flags.

    `tcore_type` is the core the op runs on, `tpipe` the producer pipe (on the setting
    core) and `pipe` the consumer pipe (on the waiting core); a set/wait pair carries
    the same two pipes.
    """

    tcore_type = prop_def(TCoreTypeAttr)
    tpipe = prop_def(PipeAttr)
    pipe = prop_def(PipeAttr)
    static_flag_id = opt_prop_def(IntegerAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("tcore_type", "tpipe", "pipe", "static_flag_id", "tsync_instr_mode")
    # sync_block_set only: an `ffts_base_addr` operand and a `sync_instr_mode`.
    HAS_FFTS: ClassVar[bool] = False

    def __init__(self, core: str | TCoreTypeAttr, tpipe: str | PipeAttr, pipe: str | PipeAttr, flag: int | SSAValue | Operation):
        props: dict[str, Attribute] = {
            "tcore_type": core if isinstance(core, TCoreTypeAttr) else TCoreTypeAttr(TCoreType(core)),
            "tpipe": tpipe if isinstance(tpipe, PipeAttr) else pipe_attr(tpipe),
            "pipe": pipe if isinstance(pipe, PipeAttr) else pipe_attr(pipe),
        }
        dynamic: list[SSAValue | Operation] = []
        if isinstance(flag, int):
            props["static_flag_id"] = IntegerAttr(flag, i64)
        else:
            dynamic = [flag]
        operands: list[list[SSAValue | Operation]] = [dynamic, []] if self.HAS_FFTS else [dynamic]
        super().__init__(operands=operands, properties=props)

    @property
    def flag_id(self) -> int | None:
        return self.static_flag_id.value.data if self.static_flag_id is not None else None

    def dynamic_flag(self) -> SSAValue | None:
        """The dynamic flag id operand (each subclass declares its own `dynamic_flag_id`)."""
        raise NotImplementedError

    def core_type(self) -> str:
        return "CUBE" if self.tcore_type.data == TCoreType.CUBE else "VECTOR"

    def verify_(self) -> None:
        dynamic = self.dynamic_flag()
        if (self.static_flag_id is None) == (dynamic is None):
            raise VerifyException("needs exactly one of a static flag id or a dynamic i64 flag id")
        if self.tcore_type.data not in (TCoreType.CUBE, TCoreType.VECTOR):
            raise VerifyException(f"core type must be CUBE or VECTOR, got {self.tcore_type.data.value}")
        for role, pipe in (("producer", self.tpipe), ("consumer", self.pipe)):
            if pipe.pipe_name not in hardware.PIPES:
                raise VerifyException(f"{role} pipe must be a single hardware pipe, got {pipe.data.value}")
        flag = self.flag_id
        if flag is not None and not 0 <= flag < hardware.CROSS_CORE_FLAGS:
            raise VerifyException(f"flag id {flag} is out of range (0..{hardware.CROSS_CORE_FLAGS - 1})")

@irdl_op_definition
class SyncBlockSetOp(_SyncBlockOp):
    name = "hivm.hir.sync_block_set"

    dynamic_flag_id = opt_operand_def(I64)
    ffts_base_addr = opt_operand_def(I64)
    tsync_instr_mode = opt_prop_def(SyncBlockInstrModeAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    HAS_FFTS: ClassVar[bool] = True

    assembly_format = (
        "attr-dict `[` custom<ShortEnum>($tcore_type) `,` custom<ShortEnum>($tpipe) `,` custom<ShortEnum>($pipe) `]` "
        "`flag` `=` custom<IntOrValue>($static_flag_id, $dynamic_flag_id) "
        "(`ffts_base_addr` `=` $ffts_base_addr^)? "
        "(`sync_instr_mode` `=` custom<ShortEnum>($tsync_instr_mode)^)?"
    )
    custom_directives = (ShortEnum, IntOrValue)

    def dynamic_flag(self) -> SSAValue | None:
        return self.dynamic_flag_id

    def pipes(self) -> tuple[str, ...]:
        return (self.tpipe.pipe_name,)


@irdl_op_definition
class SyncBlockWaitOp(_SyncBlockOp):
    name = "hivm.hir.sync_block_wait"

    dynamic_flag_id = opt_operand_def(I64)

    def dynamic_flag(self) -> SSAValue | None:
        return self.dynamic_flag_id

    def pipes(self) -> tuple[str, ...]:
        return (self.pipe.pipe_name,)

    assembly_format = (
        "attr-dict `[` custom<ShortEnum>($tcore_type) `,` custom<ShortEnum>($tpipe) `,` custom<ShortEnum>($pipe) `]` "
        "`flag` `=` custom<IntOrValue>($static_flag_id, $dynamic_flag_id)"
    )
    custom_directives = (ShortEnum, IntOrValue)


@irdl_op_definition
class SetFftsBaseAddrOp(HivmOp):
    """`hivm.hir.set_ffts_base_addr %addr`: where the cross-core (FFTS) flags of
    sync_block_set/wait live; a MIX kernel sets it on entry from its first argument."""

    name = "hivm.hir.set_ffts_base_addr"

    ffts_base_addr = operand_def(I64)

    def __init__(self, ffts_base_addr: SSAValue | Operation):
        super().__init__(operands=[ffts_base_addr])

    def pipes(self) -> tuple[str, ...]:
        return ("S",)

    assembly_format = "attr-dict $ffts_base_addr"


@irdl_op_definition
class SetMaskNormOp(HivmOp):
    """`hivm.hir.set_mask_norm`: puts the vector mask in normal mode (every lane on);
    bishengir-compile emits it at kernel entry. No memory effect."""

    name = "hivm.hir.set_mask_norm"

    def pipes(self) -> tuple[str, ...]:
        return ("S",)

    assembly_format = "attr-dict"
