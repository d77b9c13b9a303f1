"""Sync of the cce printer: intra-core flags, barriers and cross-core flags, exactly as
the IR holds them (the L0 ping-pong's are IR too: transforms/lower_mmad_l0.py).
"""

from __future__ import annotations

from ascend_mlir import hardware
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hivm
from ascend_mlir.targets.cce.base import PrinterBase

class SyncPrinter(PrinterBase):
    def flag_call(self, kind: str, set_pipe: str, wait_pipe: str, event: str) -> str:
        if self.a5:
            name = "asc_sync_notify" if kind == "set" else "asc_sync_wait"
            return f"{name}(PIPE_{set_pipe}, PIPE_{wait_pipe}, (event_t)({event}));" if not event.isdigit() else \
                f"{name}(PIPE_{set_pipe}, PIPE_{wait_pipe}, (event_t){event});"
        name = "set_flag" if kind == "set" else "wait_flag"
        ev = f"EVENT_ID{event}" if event.isdigit() else f"(event_t)({event})"
        return f"{name}(PIPE_{set_pipe}, PIPE_{wait_pipe}, {ev});"

    def print_flag(self, op: hivm.SetFlagOp | hivm.WaitFlagOp) -> None:
        if op.static_event_id is not None:
            event = str(op.static_event_id.data)
        elif op.dynamic_event_id is not None:
            event = self.expr(op.dynamic_event_id)
        else:
            raise op_error(op, "a flag without an event id")
        kind = "set" if isinstance(op, hivm.SetFlagOp) else "wait"
        self.line(self.flag_call(kind, op.set_pipe.pipe_name, op.wait_pipe.pipe_name, event), op)

    def print_barrier(self, op: hivm.PipeBarrierOp) -> None:
        pipe = op.pipe.pipe_name
        if self.a5:
            self.line("asc_sync();" if op.stalls_issue else f"asc_sync_pipe(PIPE_{pipe});", op)
        else:
            self.line(f"pipe_barrier(PIPE_{pipe});", op)

    def print_sync_block(self, op: hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp) -> None:
        assert self.side is not None and self.kernel is not None
        flag = str(op.static_flag_id.value.data) if op.static_flag_id is not None else None
        if flag is None:
            dynamic = op.dynamic_flag_id
            if dynamic is None:
                raise op_error(op, "a cross-core flag without an id")
            flag = self.expr(dynamic)
        setting = isinstance(op, hivm.SyncBlockSetOp)
        pipe = (op.tpipe if setting else op.pipe).pipe_name
        if not self.a5:
            if setting:
                self.line(f"ffts_cross_core_sync(PIPE_{pipe}, 1 | (2 << 4) | (({flag}) << 8));", op)
            else:
                self.line(f"wait_flag_dev({flag});", op)
            return
        call = "asc_sync_intra_arrive" if setting else "asc_sync_intra_wait"
        ids = [flag]
        # the cube addresses the second vector core's flags past the first one's
        if self.side.core == "CUBE" and self.kernel.both_vector_cores:
            second = hardware.CROSS_CORE_FLAGS
            ids.append(f"{flag} + {second}" if not flag.isdigit() else str(int(flag) + second))
        for fid in ids:
            self.line(f"{call}(PIPE_{pipe}, {fid});", op)

    def print_ffts(self, op: hivm.SetFftsBaseAddrOp) -> None:
        self.line(f"{'asc_set_ffts_base_addr' if self.a5 else 'set_ffts_base_addr'}({self.expr(op.ffts_base_addr)});", op)
