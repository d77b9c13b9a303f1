// The mmadL1 expansion's L0 ping-pong flags (MTE1 <-> M) take the chip's last two event
// ids: 6 and 7 with eight per pipe pair, 2 and 3 on a chip file that allows four.
// RUN: ascend-opt %examples/gemm.mlir -p ascend-compile -t cce | filecheck %s --check-prefix=EIGHT
// RUN: ascend-opt %examples/gemm.mlir -p 'ascend-compile{chip-file="%S/../../transforms/ascend-insert-sync/Inputs/four-events.toml"}' -t 'cce{chip-file="%S/../../transforms/ascend-insert-sync/Inputs/four-events.toml"}' | filecheck %s --check-prefix=FOUR

// EIGHT: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)6);
// EIGHT: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)7);
// EIGHT: asc_sync_wait(PIPE_M, PIPE_MTE1, (event_t)(6 + l0_half));
// EIGHT: asc_sync_notify(PIPE_MTE1, PIPE_M, (event_t)(6 + l0_half));

// FOUR: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)2);
// FOUR: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)3);
// FOUR-NOT: (event_t){{[4-7]}}
// FOUR: asc_sync_wait(PIPE_M, PIPE_MTE1, (event_t)(2 + l0_half));
// FOUR: asc_sync_notify(PIPE_MTE1, PIPE_M, (event_t)(2 + l0_half));
// FOUR-NOT: (event_t){{[4-7]}}
// FOUR-NOT: (event_t)({{[4-7]}}
