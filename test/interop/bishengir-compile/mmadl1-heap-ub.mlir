// Why cube kernels "segfault bishengir-compile 1.2.0" (issue 8): not a construct of
// ours and not a flag. Its ConvertHFusionToHIVM reads `op.getResult(0)` of every
// hivm.hir.mmadL1, which in memref form has NO result, so it takes the 16 bytes in
// front of the op's heap block for a value and walks its use list. Whether that crashes
// depends on what the heap left there: with freed memory filled (MALLOC_PERTURB_) this
// small correct kernel crashes, and the same run with those 16 bytes zeroed
// (Inputs/zero_guard_malloc.cpp, an LD_PRELOAD allocator) goes through the whole
// pipeline to the missing `hivmc`. No option of bishengir-compile skips that pass.
// REQUIRES: bishengir, zero-guard
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c 'MALLOC_PERTURB_=165 %bishengir_compile %S/Inputs/mmadl1_flag_before.mlir -o %t/k.o --target=Ascend910B1 --disable-hivm-tensor-compile=true --disable-hivm-auto-inject-sync > %t/crash.log 2>&1; test $? -eq 139'
// RUN: env MALLOC_PERTURB_=165 LD_PRELOAD=%zero_guard %bishengir_compile %S/Inputs/mmadl1_flag_before.mlir -o %t/k.o --target=Ascend910B1 --disable-hivm-tensor-compile=true --disable-hivm-auto-inject-sync --save-temps=%t/temps > %t/log 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/log
// RUN: filecheck %s --check-prefix=CRASH --input-file %t/crash.log
// RUN: filecheck %s --input-file %t/temps/module.hivm.opt.mlir

// CRASH: Stack dump
// LOG-NOT: Stack dump
// LOG: Cannot find hivmc
// CHECK: func.func @m(
// CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK: call @mma_tile
