// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{unroll=1}' -t schedule-json > %t.scheduled.json
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{unroll=1},ascend-plan-memory' -t schedule-json > %t.planned.json
// RUN: diff %t.scheduled.json %t.planned.json
// RUN: %python %S/Inputs/buffer_versions.py < %t.scheduled.json > %t.scheduled.txt
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile{unroll=1}' -t schedule-json | %python %S/Inputs/buffer_versions.py > %t.compiled.txt
// RUN: ascend-opt %examples/vecadd.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json | %python %S/Inputs/buffer_versions.py > %t.unrolled.scheduled.txt
// RUN: ascend-opt %examples/vecadd.mlir -p ascend-compile -t schedule-json | %python %S/Inputs/buffer_versions.py > %t.unrolled.compiled.txt
// RUN: diff %t.unrolled.scheduled.txt %t.unrolled.compiled.txt
// RUN: filecheck %s --check-prefix=UNROLLED --input-file=%t.unrolled.compiled.txt
// RUN: diff %t.scheduled.txt %t.compiled.txt
// RUN: filecheck %s --input-file=%t.compiled.txt
// RUN: ascend-opt %examples/rmsnorm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json | %python %S/Inputs/buffer_versions.py > %t.rms.scheduled.txt
// RUN: ascend-opt %examples/rmsnorm.mlir -p ascend-compile -t schedule-json | %python %S/Inputs/buffer_versions.py > %t.rms.compiled.txt
// RUN: diff %t.rms.scheduled.txt %t.rms.compiled.txt
// RUN: ascend-opt %examples/gemm_relu.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json | %python %S/Inputs/buffer_versions.py > %t.mix.scheduled.txt
// RUN: ascend-opt %examples/gemm_relu.mlir -p ascend-compile -t schedule-json | %python %S/Inputs/buffer_versions.py > %t.mix.compiled.txt
// RUN: diff %t.mix.scheduled.txt %t.mix.compiled.txt
// RUN: ascend-opt %examples/vecadd.mlir -p ascend-compile -t npuir | filecheck %s --check-prefix=NPUIR

// The schedule is still readable after ascend-plan-memory (its pointer_casts keep
// #ascend.buffer: the same report as before planning) and in the compiled module (the
// same buffers and versions as the schedule; a MIX kernel's in its two parts), where a
// multi-buffer is the version view ascend-multi-buffer made inside the loop (address
// periodic in iv mod versions), and the copies of a loop's tasks peeled beside it
// (ascend-pipeline-loops' prologue and epilogue, peel-mmad-init's first K step) are not
// the loop's. vecadd has a multi-buffered one when it is not unrolled (unroll=1);
// unrolled twice, each copy of the body has its own buffers, one version each. The npuir target does not print our
// attributes.

// CHECK: {{^vecadd 0 u[xyz] 2$}}
// UNROLLED: {{^vecadd 0 ux 1$}}
// UNROLLED: {{^vecadd 0 ux_u1 1$}}

// NPUIR: hivm.hir.pointer_cast
// NPUIR-NOT: ascend.
