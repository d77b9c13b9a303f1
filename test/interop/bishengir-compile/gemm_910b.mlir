// The 910B cube example is accepted by bishengir-compile with
// --disable-hivm-tensor-compile=true (without it bishengir crashes in
// ConvertHFusionToHIVM on memref-form cube IR). peel-mmad-init peels the first K
// iteration so mmadL1's init is a constant (a computed init crashes bishengir-compile
// 1.2.0) and hoist-constants hands it the constants at the entry; bishengir syncs
// within the core itself (our barrier-all sync inside a K loop crashes it).
// bishengir-compile 1.2.0 reads heap bytes in front of each mmadL1 (mmadl1-heap-ub.mlir):
// this module crashed in none of 100 threaded runs here, but gemm_relu-mix.mlir's did
// (about 1 in 30; CI saw one), so this run too gets zeros there from the zero-guard
// allocator, as own-plan-cube-mix.mlir does.
// REQUIRES: bishengir, zero-guard
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/gemm_910b.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir -o %t/gemm_910b.npuir.mlir
// RUN: filecheck %s --check-prefix=NPUIR --input-file %t/gemm_910b.npuir.mlir
// RUN: env LD_PRELOAD=%zero_guard %bishengir_compile %t/gemm_910b.npuir.mlir -o %t/gemm_910b.o --target=Ascend910B1 --disable-hivm-tensor-compile=true --save-temps=%t/temps > %t/log 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/log
// RUN: test -f %t/temps/module.hivm.opt.mlir
// RUN: filecheck %s --input-file %t/temps/module.hivm.opt.mlir

// NPUIR: hacc.target = #hacc.target<"Ascend910B1">
// NPUIR: hivm.func_core_type = #hivm.func_core_type<AIC>
// NPUIR: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %true,
// NPUIR: scf.for
// NPUIR: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %false,
// NPUIR-NOT: arith.cmpi
// LOG: Cannot find hivmc
// LOG-NOT: Stack dump
// CHECK: func.func @gemm_910b(
// CHECK: hivm.hir.set_flag
