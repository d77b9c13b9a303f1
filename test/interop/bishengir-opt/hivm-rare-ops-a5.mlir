// REQUIRES: bishengir-a5
// load_scale (the a5 build's op; bishengir-opt 1.2.0 for A3 does not know it) against the
// real bishengir-opt-a5 1.2.0: custom and generic text equal line for line (SSA names
// normalised), is_transposed elided at its default false and not materialised.
// RUN: ascend-opt %s | %bishengir_opt_a5 | ascend-opt | filecheck %s
// RUN: %bishengir_opt_a5 %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: %bishengir_opt_a5 %s --mlir-print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.bishengir-generic %t.ascend-generic

// CHECK: hivm.hir.load_scale ins({{.*}} : memref<16x4xi8, #hivm.address_space<gm>>) outs({{.*}} : memref<1x1x16x16xi8, #hivm.address_space<cbuf>>) is_transposed = true
// CHECK: hivm.hir.load_scale ins({{.*}}) outs({{.*}}){{$}}
// CHECK: hivm.hir.load_scale ins({{.*}}) outs({{.*}}){{$}}
// CHECK: hivm.hir.load_scale {hivm.tcore_type = #hivm.tcore_type<CUBE>} ins({{.*}} : memref<16x4xi8, #hivm.address_space<gm>>) outs({{.*}}){{$}}
// CHECK: hivm.hir.load_scale ins({{.*}} : tensor<16x4xi8>) outs({{.*}} : tensor<1x1x16x16xi8>) is_transposed = true -> tensor<1x1x16x16xi8>
func.func @load_scale(%src: memref<16x4xi8, #hivm.address_space<gm>>, %dst: memref<1x1x16x16xi8, #hivm.address_space<cbuf>>,
                      %t: tensor<16x4xi8>, %tt: tensor<1x1x16x16xi8>) {
  hivm.hir.load_scale {is_transposed = true} ins(%src : memref<16x4xi8, #hivm.address_space<gm>>) outs(%dst : memref<1x1x16x16xi8, #hivm.address_space<cbuf>>)
  hivm.hir.load_scale ins(%src : memref<16x4xi8, #hivm.address_space<gm>>) outs(%dst : memref<1x1x16x16xi8, #hivm.address_space<cbuf>>)
  hivm.hir.load_scale ins(%src : memref<16x4xi8, #hivm.address_space<gm>>) outs(%dst : memref<1x1x16x16xi8, #hivm.address_space<cbuf>>) is_transposed = false
  hivm.hir.load_scale {hivm.tcore_type = #hivm.tcore_type<CUBE>} ins(%src : memref<16x4xi8, #hivm.address_space<gm>>) outs(%dst : memref<1x1x16x16xi8, #hivm.address_space<cbuf>>)
  %0 = hivm.hir.load_scale ins(%t : tensor<16x4xi8>) outs(%tt : tensor<1x1x16x16xi8>) is_transposed = true -> tensor<1x1x16x16xi8>
  return
}
