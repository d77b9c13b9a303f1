// RUN: ascend-opt %examples/vecadd.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json > %t.scheduled.json
// RUN: ascend-opt %examples/vecadd.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule,ascend-plan-memory -t schedule-json > %t.planned.json
// RUN: diff %t.scheduled.json %t.planned.json
// RUN: ascend-opt %examples/vecadd.mlir -p ascend-compile -t schedule-json | filecheck %s
// RUN: ascend-opt %examples/softmax.mlir -p ascend-compile -t schedule-json | filecheck %s --check-prefix=ONE
// RUN: ascend-opt %examples/vecadd.mlir -p ascend-compile -t npuir | filecheck %s --check-prefix=NPUIR

// The schedule is still readable after ascend-plan-memory (its pointer_casts keep
// #ascend.buffer: the same report as before planning) and in the compiled module, where
// a multi-buffer is the version view ascend-multi-buffer made inside the loop (address
// periodic in iv mod versions) and the copies ascend-pipeline-loops peeled out of the
// loop are not the loop's. The npuir target does not print our attributes.

// CHECK:      "buffers": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "ux",
// CHECK-NEXT:     "scope": "ub",
// CHECK-NEXT:     "bytes": 2048,
// CHECK-NEXT:     "versions": 2
// CHECK:          "name": "uy",
// CHECK:          "versions": 2
// CHECK:          "name": "uz",
// CHECK:          "versions": 2
// CHECK-NEXT:   }
// CHECK-NEXT: ]

// ONE:      "name": "ux",
// ONE-NEXT: "scope": "ub",
// ONE-NEXT: "bytes": 16384,
// ONE-NEXT: "versions": 1

// NPUIR: hivm.hir.pointer_cast
// NPUIR-NOT: ascend.
