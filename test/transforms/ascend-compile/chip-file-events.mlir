// Fast tier: ascend-insert-sync/out-of-events.mlir stands in (the same four-events chip file,
// synced and verified).
// UNSUPPORTED: fast-tier
// One compile: its remarks (all written before the module is printed) and then its
// output are what `2>&1` gave filecheck; the simulator runs the output.
// RUN: ascend-opt %examples/flash_attention.mlir -p 'ascend-compile{chip-file="%S/../ascend-insert-sync/Inputs/four-events.toml"}' 2> %t.err > %t.mlir
// RUN: cat %t.err %t.mlir | filecheck %s
// RUN: ascend-sim %t.mlir --json --perturb 3 | filecheck %s --check-prefix=SIM

// The chip file's events_per_pipe_pair reaches sync insertion: flash attention, which
// uses more ids on the Ascend 950, keeps to EVENT_ID0..3 on a chip with four. Flags of
// the loop body that take turns share an id, so four are enough: no barrier fallback.

// CHECK-NOT: no free event id
// CHECK: hivm.hir.set_flag
// CHECK-NOT: EVENT_ID{{[4-7]}}
// CHECK-NOT: no free event id

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
