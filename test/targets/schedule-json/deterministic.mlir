// LIT-SUBPROCESS: two runs compared must be two processes (two hash seeds), as a user's are
// UNSUPPORTED: fast-tier
// The schedule-json target prints the same bytes run to run (two processes, a few CPU
// seconds each to start).
// Fast tier: scheduled.mlir checks the output in-process, and test_scheduling.py's two-hash-seed
// test keeps the schedule's determinism in.
// RUN: ascend-opt %S/scheduled.mlir -t schedule-json > %t.1 && ascend-opt %S/scheduled.mlir -t schedule-json > %t.2 && diff %t.1 %t.2
