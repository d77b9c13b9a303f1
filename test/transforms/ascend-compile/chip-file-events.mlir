// RUN: ascend-opt %examples/flash_attention.mlir -p 'ascend-compile{chip-file="%S/../ascend-insert-sync/Inputs/four-events.toml"}' 2>&1 | filecheck %s

// The chip file's events_per_pipe_pair reaches sync insertion: flash attention, which
// uses EVENT_ID0..7 on the Ascend 950, keeps to EVENT_ID0..3 on a chip with four (and
// falls back to barriers, said in remarks, where four do not do).

// CHECK: remark: ascend-insert-sync: no free event id for {{.*}} (needs {{[0-9]+}} of 4)
// CHECK: hivm.hir.set_flag
// CHECK-NOT: EVENT_ID{{[4-7]}}
