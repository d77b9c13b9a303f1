// A runtime-shape kernel (GM memrefs of dynamic length, an index argument for n, the last
// tile partial: subviews of static ub buffers with dynamic sizes) keeps our schedule,
// sync and buffers through bishengir-compile on Ascend 910B and (a5 build) Ascend 950,
// up to the missing closed-source hivmc step: module.hivm.opt.mlir is the proof of
// acceptance, with the dynamic memrefs and the index argument still there.
// REQUIRES: bishengir, bishengir-a5
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %S/../../sim/Inputs/vecadd_dyn.mlir -p 'ascend-compile{chip=ascend910b},alloc-planned-buffers' -t npuir -o %t/b.npuir.mlir
// RUN: filecheck %s --check-prefix=NPUIR --input-file %t/b.npuir.mlir
// RUN: %bishengir_opt %t/b.npuir.mlir -o /dev/null
// RUN: %bishengir_compile %t/b.npuir.mlir -o %t/b.o --target=Ascend910B1 --disable-hivm-auto-inject-sync --save-temps=%t/bt > %t/blog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG910 --input-file %t/blog
// RUN: filecheck %s --check-prefix=HIVM --input-file %t/bt/module.hivm.opt.mlir
// RUN: ascend-opt %S/../../sim/Inputs/vecadd_dyn.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/a5.npuir.mlir
// RUN: %bishengir_opt_a5 %t/a5.npuir.mlir -o /dev/null
// RUN: %bishengir_compile_a5 %t/a5.npuir.mlir -o %t/a5.o --disable-hivm-auto-inject-sync --save-temps=%t/at > %t/alog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOGA5 --input-file %t/alog
// RUN: filecheck %s --check-prefix=HIVM --input-file %t/at/module.hivm.opt.mlir

// NPUIR: func.func @vecadd_dyn(%x: memref<?xf32, #hivm.address_space<gm>>, %y: memref<?xf32, #hivm.address_space<gm>>, %z: memref<?xf32, #hivm.address_space<gm>>, %n: index)
// NPUIR: arith.minsi
// NPUIR: memref.subview {{.*}} to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
// NPUIR: hivm.hir.load ins({{.*}} : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs({{.*}} : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
// LOG910: External hivmc run fails
// LOGA5: Cannot find hivmc-a5
// HIVM: func.func @vecadd_dyn(%arg0: memref<?xf32, #hivm.address_space<gm>>, %arg1: memref<?xf32, #hivm.address_space<gm>>, %arg2: memref<?xf32, #hivm.address_space<gm>>, %arg3: index)
// HIVM: hivm.hir.wait_flag
