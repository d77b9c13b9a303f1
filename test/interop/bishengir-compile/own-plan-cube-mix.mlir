// ascend-compile's default output (schedule=modulo sync=solver) for the 910B cube
// example and the MIX example, with alloc-planned-buffers (per-version allocs; the K
// loop unrolled by its L1 versions so each mmadL1 operand is one alloc, which
// bishengir's InferHIVMMemScope requires), keeps OUR flags and OUR buffer versions
// through bishengir-compile --disable-hivm-auto-inject-sync to the missing `hivmc`.
// bishengir-compile 1.2.0 runs it only on a heap that happens to hold zeros in front
// of each mmadL1 (see mmadl1-heap-ub.mlir): the run gets them from the zero-guard
// allocator; without it the result is luck, on our IR as on bishengir's own route.
// REQUIRES: bishengir, zero-guard
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/gemm_910b.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/gemm.npuir.mlir
// RUN: filecheck %s --check-prefix=NPUIR --input-file %t/gemm.npuir.mlir
// RUN: env LD_PRELOAD=%zero_guard %bishengir_compile %t/gemm.npuir.mlir -o %t/gemm.o --target=Ascend910B1 --disable-hivm-tensor-compile=true --disable-hivm-auto-inject-sync --save-temps=%t/gt > %t/glog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/glog
// RUN: filecheck %s --check-prefix=GEMM --input-file %t/gt/module.hivm.opt.mlir
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/mix.npuir.mlir
// RUN: env LD_PRELOAD=%zero_guard %bishengir_compile %t/mix.npuir.mlir -o %t/mix.o --disable-hivm-tensor-compile=true --disable-hivm-auto-inject-sync --save-temps=%t/mt > %t/mlog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/mlog
// RUN: filecheck %s --check-prefix=MIX --input-file %t/mt/module.hivm.opt.mlir

// NPUIR-NOT: hivm.hir.pointer_cast
// NPUIR-NOT: arith.select
// NPUIR: scf.for %{{.*}} = %c1 to %{{.*}} step %c2
// NPUIR-COUNT-2: hivm.hir.mmadL1
// NPUIR: }
// NPUIR: hivm.hir.mmadL1
// LOG-NOT: Stack dump
// LOG: Cannot find hivmc
// Our two L1 versions of A at distinct addresses, B once, and our flags (bishengir
// injected none: the mma_tile calls get no event ids, -1); the peeled step's set is the
// K loop's first event (whichever id it took).
// GEMM: func.func @gemm_910b(
// GEMM-DAG: hivm.hir.pointer_cast(%c0_i64) : memref<8x8x16x16xbf16, #hivm.address_space<cbuf>>
// GEMM-DAG: hivm.hir.pointer_cast(%c32768_i64) : memref<8x8x16x16xbf16, #hivm.address_space<cbuf>>
// GEMM-DAG: hivm.hir.pointer_cast(%c65536_i64) : memref<8x8x16x16xbf16, #hivm.address_space<cbuf>>
// GEMM: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
// GEMM: call @mma_tile_bfloat16_t_to_float({{.*}}, %c-1_i64, %c-1_i64, %c-1_i64, %c-1_i64,
// GEMM: hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID[[B:[0-9]]]>]
// GEMM: hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID[[B]]>]
// GEMM: hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// MIX-DAG: func.func @gemm_relu_mix_aic(
// MIX-DAG: func.func @gemm_relu_mix_aiv(
// MIX-DAG: hivm.hir.sync_block_set
// MIX-DAG: hivm.hir.sync_block_wait
// MIX-DAG: call @mma_tile
