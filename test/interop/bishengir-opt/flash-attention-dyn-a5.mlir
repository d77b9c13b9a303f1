// The runtime-shape flash attention (examples/flash_attention_dyn.mlir: runtime query and
// key/value lengths, a runtime row pitch of K^T, partial tiles as subviews of static
// buffers, a MIX kernel) compiled for the Ascend 950 prints npuir that the a5 build of
// bishengir-opt parses and verifies, both halves of the MIX kernel with their dynamic
// memrefs and index arguments.
// (bishengir-compile-a5 on it stops at "Don't support the case when the root alloc is
// subview-ed and written to multiple times" for the L1 buffers of K^T and P, which the
// partial key/value block writes through a runtime-size subview; the static
// flash_attention aborts in bishengir-compile-a5 too: docs/runtime-shapes.md)
// Fast tier: interop/bishengir-compile/examples-parse-a5.mlir stands in (the a5 build of
// bishengir-opt parsing the 950 examples' npuir).
// UNSUPPORTED: fast-tier
// REQUIRES: bishengir-a5
// RUN: ascend-opt %examples/flash_attention_dyn.mlir -p ascend-compile -t npuir | %bishengir_opt_a5 | filecheck %s

// CHECK: func.func @flash_attention_dyn_mix_aic(%{{.*}}: memref<?x64xbf16, #hivm.address_space<gm>>, %{{.*}}: memref<64x?xbf16, #hivm.address_space<gm>>, %{{.*}}: memref<?x64xbf16, #hivm.address_space<gm>>, %{{.*}}: memref<?x64xf32, #hivm.address_space<gm>>, %{{.*}}: index, %{{.*}}: index
// CHECK: hivm.hir.mmadL1
// CHECK: func.func @flash_attention_dyn_mix_aiv(
// CHECK: hivm.hir.vreduce <max> {{.*}} memref<?x?xf32
