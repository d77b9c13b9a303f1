// The softmax example for Ascend 950 (the default chip) goes through bishengir-compile-a5
// (what bishengir-compile --target=Ascend950PR_9599 hands over to); it then stops looking
// for the closed-source `hivmc-a5`, which is expected. `--target` is needed: without it
// bishengir-compile replaces the module's hacc.target by its default, Ascend910B1.
// bishengir's own sync for the 950 puts no pipe_barrier[<PIPE_V>] between the dependent
// vector ops (its V pipe keeps them in order: docs/same-pipe-rule.md); see
// softmax.mlir for the 910B, where it puts one between each.
// REQUIRES: bishengir-a5
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/softmax.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir -o %t/softmax.npuir.mlir
// RUN: %bishengir_compile_a5 %t/softmax.npuir.mlir -o %t/softmax.o --target=Ascend950PR_9599 --save-temps=%t/temps > %t/log 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/log
// RUN: test -f %t/temps/module.hivm.opt.mlir
// RUN: filecheck %s --input-file %t/temps/module.hivm.opt.mlir

// LOG: Cannot find hivmc-a5
// CHECK: #hacc.target<"Ascend950PR_9599">
// CHECK: func.func @softmax(
// CHECK-NOT: pipe_barrier[<PIPE_V>]
// CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>
// CHECK-NOT: pipe_barrier[<PIPE_V>]
// CHECK: call @vdiv_1d_float
// CHECK-NOT: pipe_barrier[<PIPE_V>]
// CHECK: {{^    return}}
