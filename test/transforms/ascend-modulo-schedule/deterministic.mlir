// Fast tier: test_scheduling.py's two-hash-seed test stands in (the solver's schedule
// byte-identical across processes).
// UNSUPPORTED: fast-tier
// The schedule holds no wall-clock time: two runs give the same bytes (IR and JSON),
// one in lit's worker and one in a new process (another hash seed, cold caches), as a
// user's two runs are; the solve time is a remark only when asked for.
// (cmp, not diff: lit's builtin diff drops PYTHONPATH for the RUN lines after it.)
// RUN: ascend-opt %examples/softmax.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule > %t.1
// RUN: %in_new_process ascend-opt %examples/softmax.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule > %t.2
// RUN: cmp %t.1 %t.2
// RUN: ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json > %t.3
// RUN: %in_new_process ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json > %t.4
// RUN: cmp %t.3 %t.4
// RUN: not grep -e solve_ms -e solve-ms %t.1 %t.3
// RUN: ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{report-solve-time=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: gemm.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: loop gemm.k: II = 1792 (optimal) solved in {{[0-9]+}} ms
