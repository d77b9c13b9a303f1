// UNSUPPORTED: fast-tier
// The schedule-json target prints the same bytes run to run: one run in lit's worker, one
// in a new process (another hash seed, cold caches; a few CPU seconds to start).
// Fast tier: scheduled.mlir checks the output in-process, and test_scheduling.py's two-hash-seed
// test keeps the schedule's determinism in.
// RUN: ascend-opt %S/scheduled.mlir -t schedule-json > %t.1 && %in_new_process ascend-opt %S/scheduled.mlir -t schedule-json > %t.2 && diff %t.1 %t.2
