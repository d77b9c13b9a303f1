// REQUIRES: bishengir
// vpad, vinterleave, vdeinterleave, gather_load, scatter_store and batchMmadL1 against the
// real bishengir-opt 1.2.0: our custom and generic output parses there and its output
// parses back here, and both printers give the same text for every hivm line, in custom
// and in generic form (SSA names normalised). load_scale is the a5 build's
// (hivm-rare-ops-a5.mlir); multi_buffer_counter neither build knows (test/dialects/hivm/rare-ops.mlir).
// RUN: ascend-opt %s | %bishengir_opt | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | %bishengir_opt --mlir-print-op-generic | ascend-opt | filecheck %s
// RUN: %bishengir_opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: %bishengir_opt %s --mlir-print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.bishengir-generic %t.ascend-generic

// CHECK-LABEL: func.func @pad_interleave
// CHECK: hivm.hir.vpad ins({{.*}} : memref<2x16xf16>) outs({{.*}} : memref<2x32xf16>) low[0, {{.*}}] high[0, 8] pad_value {{.*}} : f16
// CHECK: hivm.hir.vpad {hivm.tcore_type = #hivm.tcore_type<VECTOR>} ins({{.*}}) outs({{.*}}) low[1] high[1] pad_value {{.*}} : f16
// CHECK: hivm.hir.vpad ins({{.*}} : tensor<2x16xf32>) outs({{.*}} : tensor<?x16xf32>) low[{{.*}}, 0] high[{{.*}}, 0] pad_value {{.*}} : f32 -> tensor<?x16xf32>
// CHECK: hivm.hir.vinterleave ins({{.*}}, {{.*}} : memref<2x16xf16>, memref<2x16xf16>) outs({{.*}} : memref<2x32xf16>) interleave_channel_nums = 2 temp_buffer({{.*}} : memref<64xf16>)
// CHECK: hivm.hir.vinterleave ins({{.*}}) outs({{.*}} : tensor<2x32xf16>) interleave_channel_nums = 2 -> tensor<2x32xf16>
// CHECK: hivm.hir.vdeinterleave ins({{.*}} : memref<2x32xf16>) outs({{.*}}, {{.*}} : memref<2x16xf16>, memref<2x16xf16>){{$}}
// CHECK: hivm.hir.vdeinterleave ins({{.*}}) outs({{.*}}) channel_num = 2{{$}}
// CHECK: hivm.hir.vdeinterleave ins({{.*}}) outs({{.*}} : memref<2x16xf16>) index_mode = <CHANNEL_1>
// CHECK: hivm.hir.vdeinterleave ins({{.*}}) outs({{.*}}) channel_num = 2 index_mode = <CHANNEL_0>
// CHECK: hivm.hir.vdeinterleave ins({{.*}}) outs({{.*}}) index_mode = <ALL_CHANNELS>
func.func @pad_interleave(%a: memref<2x16xf16>, %b: memref<2x16xf16>, %c: memref<2x32xf16>, %tb: memref<64xf16>,
                          %p: f16, %lo: index, %v: memref<10xf16>, %w: memref<12xf16>,
                          %ts: tensor<2x16xf32>, %td: tensor<?x16xf32>, %tp: f32, %th: index,
                          %te: tensor<2x16xf16>, %to: tensor<2x16xf16>, %ti: tensor<2x32xf16>) {
  hivm.hir.vpad ins(%a : memref<2x16xf16>) outs(%c : memref<2x32xf16>) low[0, %lo] high[0, 8] pad_value %p : f16
  hivm.hir.vpad {hivm.tcore_type = #hivm.tcore_type<VECTOR>} ins(%v : memref<10xf16>) outs(%w : memref<12xf16>) low[1] high[1] pad_value %p : f16
  %0 = hivm.hir.vpad ins(%ts : tensor<2x16xf32>) outs(%td : tensor<?x16xf32>) low[%th, 0] high[%lo, 0] pad_value %tp : f32 -> tensor<?x16xf32>
  hivm.hir.vinterleave ins(%a, %b : memref<2x16xf16>, memref<2x16xf16>) outs(%c : memref<2x32xf16>) interleave_channel_nums = 2 temp_buffer(%tb : memref<64xf16>)
  %1 = hivm.hir.vinterleave ins(%te, %to : tensor<2x16xf16>, tensor<2x16xf16>) outs(%ti : tensor<2x32xf16>) interleave_channel_nums = 2 -> tensor<2x32xf16>
  hivm.hir.vdeinterleave ins(%c : memref<2x32xf16>) outs(%a, %b : memref<2x16xf16>, memref<2x16xf16>)
  hivm.hir.vdeinterleave ins(%c : memref<2x32xf16>) outs(%a, %b : memref<2x16xf16>, memref<2x16xf16>) channel_num = 2
  hivm.hir.vdeinterleave ins(%c : memref<2x32xf16>) outs(%a : memref<2x16xf16>) index_mode = <CHANNEL_1>
  hivm.hir.vdeinterleave {channel_num = 2} ins(%c : memref<2x32xf16>) outs(%b : memref<2x16xf16>) index_mode = <CHANNEL_0>
  hivm.hir.vdeinterleave ins(%c : memref<2x32xf16>) outs(%a, %b : memref<2x16xf16>, memref<2x16xf16>) index_mode = <ALL_CHANNELS>
  return
}

// CHECK-LABEL: func.func @indexed
// CHECK: hivm.hir.gather_load ins({{.*}} : memref<?xf32>, {{.*}} : tensor<16x4xi32>, {{.*}} : i64) outs({{.*}} : tensor<16x4xf32>) -> tensor<16x4xf32>
// CHECK: hivm.hir.gather_load ins({{.*}} : memref<?xf32>, {{.*}} : tensor<16x4xi64>, {{.*}} : i32, {{.*}} : tensor<16x4xi1>, {{.*}} : tensor<16x4xf32>) outs({{.*}} : tensor<16x4xf32>) {cache = #hivm.cache_modifier<none>, evict = #hivm.eviction_policy<EvictLast>, isVolatile = false} -> tensor<16x4xf32>
// CHECK: hivm.hir.gather_load ins({{.*}}) outs({{.*}} : memref<16x4xf32>){{$}}
// CHECK: hivm.hir.scatter_store ins({{.*}} : tensor<16x4xi32>, {{.*}} : tensor<16x4xf32>, {{.*}} : i64) outs({{.*}} : memref<?xf32>){{$}}
// CHECK: hivm.hir.scatter_store ins({{.*}}, {{.*}} : tensor<16x4xi1>) outs({{.*}} : tensor<?xf32>) {cache = #hivm.cache_modifier<cg>, evict = #hivm.eviction_policy<EvictFirst>} -> tensor<?xf32>
func.func @indexed(%base: memref<?xf32>, %idx: tensor<16x4xi32>, %idx64: tensor<16x4xi64>, %mask: tensor<16x4xi1>,
                   %other: tensor<16x4xf32>, %data: tensor<16x4xf32>, %m: memref<16x4xf32>, %t: tensor<?xf32>, %b32: i32) {
  %c1 = arith.constant 1 : i64
  %init = tensor.empty() : tensor<16x4xf32>
  %0 = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16x4xi32>, %c1 : i64) outs(%init : tensor<16x4xf32>) -> tensor<16x4xf32>
  %1 = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx64 : tensor<16x4xi64>, %b32 : i32, %mask : tensor<16x4xi1>, %other : tensor<16x4xf32>) outs(%init : tensor<16x4xf32>) {isVolatile = false, evict = #hivm.eviction_policy<EvictLast>, cache = #hivm.cache_modifier<none>} -> tensor<16x4xf32>
  hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16x4xi32>, %c1 : i64, %mask : tensor<16x4xi1>, %other : tensor<16x4xf32>) outs(%m : memref<16x4xf32>)
  hivm.hir.scatter_store ins(%idx : tensor<16x4xi32>, %data : tensor<16x4xf32>, %c1 : i64) outs(%base : memref<?xf32>)
  %2 = hivm.hir.scatter_store ins(%idx : tensor<16x4xi32>, %data : tensor<16x4xf32>, %c1 : i64, %mask : tensor<16x4xi1>) outs(%t : tensor<?xf32>) {cache = #hivm.cache_modifier<cg>, evict = #hivm.eviction_policy<EvictFirst>} -> tensor<?xf32>
  return
}

// CHECK-LABEL: func.func @batch_mmad
// CHECK: hivm.hir.batchMmadL1 ins({{.*}} : memref<2x64x32xf16, #hivm.address_space<cbuf>>, memref<2x32x48xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs({{.*}} : memref<2x64x48xf32, #hivm.address_space<cc>>){{$}}
// CHECK: hivm.hir.batchMmadL1 {a_transpose} ins({{.*}}) outs({{.*}}) sync_related_args({{.*}} : i64, i64, i64, i64, i64, i64, i64)
// CHECK: hivm.hir.batchMmadL1 ins({{.*}}) outs({{.*}} : tensor<2x64x48xf32>) -> tensor<2x64x48xf32>
func.func @batch_mmad(%a: memref<2x64x32xf16, #hivm.address_space<cbuf>>, %b: memref<2x32x48xf16, #hivm.address_space<cbuf>>,
                      %at: memref<2x32x64xf16, #hivm.address_space<cbuf>>,
                      %c: memref<2x64x48xf32, #hivm.address_space<cc>>, %init: i1, %e: i64,
                      %ta: tensor<2x64x32xf16>, %tb: tensor<2x32x48xf16>, %tc: tensor<2x64x48xf32>) {
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  hivm.hir.batchMmadL1 ins(%a, %b, %init, %c64, %c32, %c48 : memref<2x64x32xf16, #hivm.address_space<cbuf>>, memref<2x32x48xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<2x64x48xf32, #hivm.address_space<cc>>)
  hivm.hir.batchMmadL1 {a_transpose} ins(%at, %b, %init, %c64, %c32, %c48 : memref<2x32x64xf16, #hivm.address_space<cbuf>>, memref<2x32x48xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<2x64x48xf32, #hivm.address_space<cc>>) sync_related_args(%e, %e, %e, %e, %e, %e, %e : i64, i64, i64, i64, i64, i64, i64)
  %0 = hivm.hir.batchMmadL1 ins(%ta, %tb, %init, %c64, %c32, %c48 : tensor<2x64x32xf16>, tensor<2x32x48xf16>, i1, index, index, index) outs(%tc : tensor<2x64x48xf32>) -> tensor<2x64x48xf32>
  return
}
