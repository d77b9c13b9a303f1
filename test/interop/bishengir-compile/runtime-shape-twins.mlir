// Fast tier: bishengir-compile/runtime-shapes.mlir stands in (vecadd_dyn through both
// bishengir-compile builds).
// UNSUPPORTED: fast-tier
// The runtime-shape row kernels (softmax_dyn, rmsnorm_dyn, layernorm_dyn: runtime rows and
// row length, partial tiles as subviews of static ub buffers with dynamic sizes) keep our
// schedule, sync and buffers through bishengir-compile on Ascend 910B and (a5 build) Ascend
// 950, up to the missing closed-source hivmc step: module.hivm.opt.mlir is the proof of
// acceptance, with the kernel's dynamic memrefs and index arguments still there: x and y
// of a runtime row pitch (memref<?x?xf32>, views strided<[?, 1]>) included.
// REQUIRES: bishengir, bishengir-a5
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/softmax_dyn.mlir -p 'ascend-compile{chip=ascend910b},alloc-planned-buffers' -t npuir -o %t/s.npuir.mlir
// RUN: %bishengir_opt %t/s.npuir.mlir -o /dev/null
// RUN: %bishengir_compile %t/s.npuir.mlir -o %t/s.o --target=Ascend910B1 --disable-hivm-auto-inject-sync --save-temps=%t/st > %t/slog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG910 --input-file %t/slog
// RUN: filecheck %s --check-prefix=SOFTMAX --input-file %t/st/module.hivm.opt.mlir
// RUN: ascend-opt %examples/softmax_dyn.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/sa5.npuir.mlir
// RUN: %bishengir_opt_a5 %t/sa5.npuir.mlir -o /dev/null
// RUN: %bishengir_compile_a5 %t/sa5.npuir.mlir -o %t/sa5.o --target=Ascend950PR_9599 --disable-hivm-auto-inject-sync --save-temps=%t/sat > %t/salog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOGA5 --input-file %t/salog
// RUN: filecheck %s --check-prefix=SOFTMAX --input-file %t/sat/module.hivm.opt.mlir
// RUN: ascend-opt %examples/rmsnorm_dyn.mlir -p 'ascend-compile{chip=ascend910b},alloc-planned-buffers' -t npuir -o %t/r.npuir.mlir
// RUN: %bishengir_compile %t/r.npuir.mlir -o %t/r.o --target=Ascend910B1 --disable-hivm-auto-inject-sync --save-temps=%t/rt > %t/rlog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG910 --input-file %t/rlog
// RUN: filecheck %s --check-prefix=RMSNORM --input-file %t/rt/module.hivm.opt.mlir
// RUN: ascend-opt %examples/rmsnorm_dyn.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/ra5.npuir.mlir
// RUN: %bishengir_compile_a5 %t/ra5.npuir.mlir -o %t/ra5.o --target=Ascend950PR_9599 --disable-hivm-auto-inject-sync --save-temps=%t/rat > %t/ralog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOGA5 --input-file %t/ralog
// RUN: filecheck %s --check-prefix=RMSNORM --input-file %t/rat/module.hivm.opt.mlir
// RUN: ascend-opt %examples/layernorm_dyn.mlir -p 'ascend-compile{chip=ascend910b},alloc-planned-buffers' -t npuir -o %t/l.npuir.mlir
// RUN: %bishengir_compile %t/l.npuir.mlir -o %t/l.o --target=Ascend910B1 --disable-hivm-auto-inject-sync --save-temps=%t/lt > %t/llog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG910 --input-file %t/llog
// RUN: filecheck %s --check-prefix=LAYERNORM --input-file %t/lt/module.hivm.opt.mlir
// RUN: ascend-opt %examples/layernorm_dyn.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/la5.npuir.mlir
// RUN: %bishengir_compile_a5 %t/la5.npuir.mlir -o %t/la5.o --target=Ascend950PR_9599 --disable-hivm-auto-inject-sync --save-temps=%t/lat > %t/lalog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOGA5 --input-file %t/lalog
// RUN: filecheck %s --check-prefix=LAYERNORM --input-file %t/lat/module.hivm.opt.mlir

// LOG910: External hivmc run fails
// LOGA5: Cannot find hivmc-a5
// SOFTMAX: func.func @softmax_dyn(%arg0: memref<?x?xf32, #hivm.address_space<gm>>, %arg1: memref<?x?xf32, #hivm.address_space<gm>>, %arg2: index, %arg3: index)
// SOFTMAX: strided<[?, 1], offset: ?>
// SOFTMAX: hivm.hir.wait_flag
// RMSNORM: func.func @rmsnorm_dyn(%arg0: memref<?x?xf32, #hivm.address_space<gm>>, %arg1: memref<1x256xf32, #hivm.address_space<gm>>, %arg2: memref<?x?xf32, #hivm.address_space<gm>>, %arg3: index, %arg4: index)
// RMSNORM: hivm.hir.wait_flag
// LAYERNORM: func.func @layernorm_dyn(%arg0: memref<?x?xf32, #hivm.address_space<gm>>, %arg1: memref<1x256xf32, #hivm.address_space<gm>>, %arg2: memref<1x256xf32, #hivm.address_space<gm>>, %arg3: memref<?x?xf32, #hivm.address_space<gm>>, %arg4: index, %arg5: index)
// LAYERNORM: hivm.hir.wait_flag
