// The softmax example (reduce, broadcast, sub, exp, div on ub) is accepted by
// bishengir-compile; it stops at the missing `hivmc`, which is expected.
// Compiled for Ascend 910B (chip=ascend910b), the default build's own target.
// REQUIRES: bishengir
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/softmax.mlir -p 'convert-tile-to-hivm{chip=ascend910b},ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir -o %t/softmax.npuir.mlir
// RUN: %bishengir_compile %t/softmax.npuir.mlir -o %t/softmax.o --target=Ascend910B1 --save-temps=%t/temps > %t/log 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/log
// RUN: test -f %t/temps/module.hivm.opt.mlir
// RUN: filecheck %s --input-file %t/temps/module.hivm.opt.mlir

// LOG: Cannot find hivmc
// CHECK: func.func @softmax(
// CHECK: hivm.hir.set_flag
// The 910B's V pipe does not keep dependent vector ops in order: bishengir fences them
// (docs/same-pipe-rule.md; softmax-950-a5.mlir has none for the 950).
// CHECK-COUNT-6: pipe_barrier[<PIPE_V>]
