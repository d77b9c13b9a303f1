// Fast tier: bishengir-compile/gemm_910b.mlir (a cube kernel through bishengir-compile) and
// runtime-shapes.mlir (a runtime-shape kernel) stand in.
// UNSUPPORTED: fast-tier
// The runtime-shape GEMM (examples/gemm_dyn.mlir: runtime M, N, K, partial tiles on all
// three) keeps our sync and buffers through bishengir-compile on Ascend 910B to the
// missing hivmc step, its dynamic memrefs and index arguments still there. What in our
// output stopped it: the K loop's two L1 versions picked by arith.select (its trip count
// is runtime, so alloc-planned-buffers did not unroll it; bishengir: "Cannot find root
// memref.alloc for mA"); it is now unrolled by its versions with the leftover iteration
// under an scf.if (test/transforms/alloc-planned-buffers/runtime-trip-unroll.mlir). The
// segfault itself is bishengir's (ConvertHFusionToHIVM reads a result memref-form
// mmadL1 does not have: mmadl1-heap-ub.mlir): as for gemm_910b, the run takes
// --disable-hivm-tensor-compile=true and the zero-guard allocator, and the same
// bishengir crash on one static mmadL1 is Inputs/mmadl1_static_crash.mlir.
// REQUIRES: bishengir, zero-guard
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/gemm_dyn.mlir -p 'ascend-compile{chip=ascend910b},alloc-planned-buffers' -t npuir -o %t/g.npuir.mlir
// RUN: filecheck %s --check-prefix=NPUIR --input-file %t/g.npuir.mlir
// RUN: %bishengir_opt %t/g.npuir.mlir -o /dev/null
// RUN: env LD_PRELOAD=%zero_guard %bishengir_compile %t/g.npuir.mlir -o %t/g.o --target=Ascend910B1 --disable-hivm-tensor-compile=true --disable-hivm-auto-inject-sync --save-temps=%t/gt > %t/glog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/glog
// RUN: filecheck %s --check-prefix=GEMM --input-file %t/gt/module.hivm.opt.mlir
// RUN: sh -c 'MALLOC_PERTURB_=165 %bishengir_opt %S/Inputs/mmadl1_static_crash.mlir --convert-hfusion-to-hivm -o /dev/null > %t/crash.log 2>&1; test $? -eq 139'

// NPUIR: func.func @gemm_dyn(%a: memref<?x?xbf16, #hivm.address_space<gm>>
// NPUIR-NOT: hivm.hir.pointer_cast
// NPUIR-NOT: arith.select
// NPUIR: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %true,
// NPUIR: scf.for %{{.*}} = %c1 to %{{.*}} step %c2
// NPUIR-COUNT-2: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %false,
// NPUIR: scf.if
// NPUIR: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %false,
// NPUIR: hivm.hir.fixpipe
// LOG-NOT: Stack dump
// LOG-NOT: Cannot find root memref.alloc
// LOG: External hivmc run fails
// GEMM: func.func @gemm_dyn(%arg0: memref<?x?xbf16, #hivm.address_space<gm>>, %arg1: memref<?x?xbf16, #hivm.address_space<gm>>, %arg2: memref<?x?xf32, #hivm.address_space<gm>>, %arg3: index, %arg4: index, %arg5: index)
// GEMM: hivm.hir.set_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
// GEMM: call @mma_tile_bfloat16_t_to_float
