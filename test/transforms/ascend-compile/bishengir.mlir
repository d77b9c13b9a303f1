// REQUIRES: bishengir-a5
// The barrier-synced output of ascend-compile goes through the real bishengir-compile
// pipeline for Ascend 950 (which stops only for lack of the closed-source hivmc): the
// optimized module it leaves behind still carries our barriers.

// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/vecadd.mlir -p "ascend-compile{schedule=program-order}" -t npuir -o %t/vecadd.mlir
// RUN: not %bishengir_compile_a5 %t/vecadd.mlir -o %t/out --save-temps=%t --disable-hivm-auto-inject-sync
// RUN: filecheck %s --input-file=%t/module.hivm.opt.mlir

// CHECK: func.func @vecadd
// CHECK: cf.cond_br
// CHECK: hivm.hir.pipe_barrier[<PIPE_ALL>]
