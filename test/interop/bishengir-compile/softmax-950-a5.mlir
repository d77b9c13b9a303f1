// The softmax example for Ascend 950 (the default chip) goes through bishengir-compile-a5
// (what bishengir-compile --target=Ascend950PR_9599 hands over to); it then stops looking
// for the closed-source `hivmc-a5`, which is expected.
// REQUIRES: bishengir-a5
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/softmax.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir -o %t/softmax.npuir.mlir
// RUN: %bishengir_compile_a5 %t/softmax.npuir.mlir -o %t/softmax.o --save-temps=%t/temps > %t/log 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/log
// RUN: test -f %t/temps/module.hivm.opt.mlir
// RUN: filecheck %s --input-file %t/temps/module.hivm.opt.mlir

// LOG: Cannot find hivmc-a5
// CHECK: func.func @softmax(
// CHECK: hivm.hir.set_flag
