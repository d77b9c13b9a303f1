// The L0 ping-pong flags (MTE1 <-> M) of ascend-lower-mmad-l0 take the chip's last two
// event ids: 6 and 7 with eight per pipe pair, 2 and 3 on a chip file that allows four;
// a K step's event is the first of them plus the step's L0 half.
// RUN: ascend-opt %examples/gemm.mlir -p 'ascend-compile{target=cce}' -t cce | filecheck %s --check-prefix=EIGHT
// RUN: ascend-opt %examples/gemm.mlir -p 'ascend-compile{chip-file="%S/../../transforms/ascend-insert-sync/Inputs/four-events.toml" target=cce}' -t 'cce{chip-file="%S/../../transforms/ascend-insert-sync/Inputs/four-events.toml"}' | filecheck %s --check-prefix=FOUR

// EIGHT: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)6);
// EIGHT: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)7);
// EIGHT: const int64_t [[EV:v[_0-9]*]] = {{v[_0-9]*}} + 6;
// EIGHT: asc_sync_wait(PIPE_M, PIPE_MTE1, (event_t)([[EV]]));
// EIGHT: asc_sync_notify(PIPE_MTE1, PIPE_M, (event_t)([[EV]]));

// FOUR: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)2);
// FOUR: asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)3);
// FOUR-NOT: (event_t){{[4-7]}}
// FOUR: const int64_t [[EV:v[_0-9]*]] = {{v[_0-9]*}} + 2;
// FOUR-NOT: (event_t){{[4-7]}}
// FOUR: asc_sync_wait(PIPE_M, PIPE_MTE1, (event_t)([[EV]]));
// FOUR: asc_sync_notify(PIPE_MTE1, PIPE_M, (event_t)([[EV]]));
// FOUR-NOT: (event_t){{[4-7]}}
// FOUR-NOT: + {{[4-7]}};
