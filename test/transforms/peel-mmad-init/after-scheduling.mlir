// Fast tier: the other peel-mmad-init tests stand in (the peel on its own), and
// test_examples.py compiles gemm_bf16.
// UNSUPPORTED: fast-tier
// ascend-compile peels the first K step after scheduling (so the L1 tiles, used only in
// the K loop, may get versions). The peeled step is part of the K loop as one task of
// the outer (tile) loop: its ops keep their cost and take the K loop's slot there, not
// the slots they had inside the K loop's own schedule (the mmadL1 was in stage 1 there),
// so the compiled module's schedule reads back consistently.
// RUN: ascend-opt %examples/gemm_bf16.mlir -p ascend-compile | filecheck %s
// RUN: ascend-opt %examples/gemm_bf16.mlir -p ascend-compile -t schedule-json | filecheck %s --check-prefix=JSON

// CHECK:      scf.for %t
// CHECK:      hivm.hir.nd2nz {{{.*}}ascend.task = #ascend.task<latency = 354, ii = 164, stage = [[S:[0-9]+]], start = [[T:[0-9]+]]>}
// CHECK:      hivm.hir.nd2nz {{{.*}}ascend.task = #ascend.task<latency = 354, ii = 164, stage = [[S]], start = [[T]]>}
// CHECK:      hivm.hir.mmadL1 {ascend.task = #ascend.task<latency = 398, ii = 256, stage = [[S]], start = [[T]]>}
// CHECK:      scf.for %k
// CHECK:      hivm.hir.mmadL1 {ascend.task = #ascend.task<latency = 398, ii = 256, stage = 1, start = {{[0-9]+}}>}
// CHECK:      } {{{.*}}ascend.task = #ascend.task<latency = {{[0-9]+}}, ii = {{[0-9]+}}, stage = [[S]], start = [[T]]>{{(, ascend.drains = #ascend.drains<.*>)?}}}

// JSON: "name": "gemm_bf16",
// JSON: "loops": [
