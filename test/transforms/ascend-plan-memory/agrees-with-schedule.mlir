// The plan and the modulo scheduler's capacity constraint agree: on a chip whose L1 holds
// 128 KiB the scheduler gives both gemm tiles one version and the plan places them; on
// the full chip it doubles B and the plan places three tiles (64 + 2 x 56 KiB).
// RUN: ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{chip-file="%S/../ascend-modulo-schedule/Inputs/small-l1.toml"},ascend-plan-memory{chip-file="%S/../ascend-modulo-schedule/Inputs/small-l1.toml"}' | filecheck %s --check-prefix=SMALL
// RUN: ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-modulo-schedule,ascend-plan-memory | filecheck %s --check-prefix=FULL

// SMALL: %la = hivm.hir.pointer_cast(%c0_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<256x128xbf16, #hivm.address_space<cbuf>>
// SMALL: %lb = hivm.hir.pointer_cast(%c65536_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<128x224xbf16, #hivm.address_space<cbuf>>
// FULL: %la = hivm.hir.pointer_cast(%c0_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<256x128xbf16, #hivm.address_space<cbuf>>
// FULL: %lb = hivm.hir.pointer_cast(%c65536_i64, %c122880_i64) {ascend.buffer = #ascend.buffer<versions = 2>} : memref<128x224xbf16, #hivm.address_space<cbuf>>
// FULL: %acc = hivm.hir.pointer_cast(%c0_i64{{.*}}) : memref<256x224xf32, #hivm.address_space<cc>>
