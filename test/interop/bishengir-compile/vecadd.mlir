// Our npuir for the vecadd example goes through the whole bishengir-compile pipeline
// (memory planning, its own sync solver, library lowering). It then stops looking for
// the closed-source `hivmc`, which is expected: acceptance is module.hivm.opt.mlir.
// Compiled for Ascend 910B (chip=ascend910b), the default build's own target.
// REQUIRES: bishengir
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm{chip=ascend910b},ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir -o %t/vecadd.npuir.mlir
// RUN: %bishengir_compile %t/vecadd.npuir.mlir -o %t/vecadd.o --target=Ascend910B1 --save-temps=%t/temps > %t/log 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/log
// RUN: test -f %t/temps/module.hivm.opt.mlir
// RUN: filecheck %s --input-file %t/temps/module.hivm.opt.mlir

// LOG: Cannot find hivmc
// CHECK: func.func @vecadd(
// CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK: func.call @vadd_1d_float
