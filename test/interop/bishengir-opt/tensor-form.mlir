// REQUIRES: bishengir
// The hivm tensor form (destination-passing style: each op's tensor `outs` give its
// results, `-> type` at the end; bishengir bufferizes it later) against the real
// bishengir-opt 1.2.0: our custom and generic output parses there and its output parses
// back here, and both printers give the same text for every hivm/tensor line
// (SSA names normalised, since each tool picks its own).
// RUN: ascend-opt %s | %bishengir_opt | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | %bishengir_opt --mlir-print-op-generic | ascend-opt | filecheck %s
// RUN: %bishengir_opt %s | grep -E "hivm\.hir\.|tensor\.|func\.func" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "hivm\.hir\.|tensor\.|func\.func" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: %bishengir_opt %s --mlir-print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.bishengir-generic %t.ascend-generic

// CHECK-LABEL: func.func @gemm_tile
// CHECK: tensor.empty() : tensor<64x32xf16>
// CHECK: tensor.extract_slice
// CHECK: hivm.hir.nd2nz ins({{.*}} : tensor<64x32xf16>) outs({{.*}} : tensor<64x32xf16>) -> tensor<64x32xf16>
// CHECK: scf.for {{.*}} iter_args
// CHECK: hivm.hir.mmadL1 ins({{.*}} : tensor<64x32xf16>, tensor<32x64xf16>, i1, index, index, index) outs({{.*}} : tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_quant = #hivm.fixpipe_pre_quant_mode<F322F16>} ins({{.*}} : tensor<64x64xf32>) outs({{.*}} : tensor<64x64xf16>) -> tensor<64x64xf16>
func.func @gemm_tile(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %out: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %l1a = tensor.empty() : tensor<64x32xf16>
  %rows = tensor.extract_slice %a[0, 0] [64, 32] [1, 1] : tensor<128x32xf16> to tensor<64x32xf16>
  %a1 = hivm.hir.nd2nz ins(%rows : tensor<64x32xf16>) outs(%l1a : tensor<64x32xf16>) -> tensor<64x32xf16>
  %l1b = tensor.empty() : tensor<32x64xf16>
  %b1 = hivm.hir.nd2nz {dst_continuous} ins(%b : tensor<32x64xf16>) outs(%l1b : tensor<32x64xf16>) -> tensor<32x64xf16>
  %acc0 = tensor.empty() : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %acc0) -> (tensor<64x64xf32>) {
    %first = arith.cmpi eq, %k, %c0 : index
    %next = hivm.hir.mmadL1 ins(%a1, %b1, %first, %c64, %c32, %c64 : tensor<64x32xf16>, tensor<32x64xf16>, i1, index, index, index)
                            outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %res = hivm.hir.fixpipe {enable_nz2nd, pre_quant = #hivm.fixpipe_pre_quant_mode<F322F16>}
         ins(%acc : tensor<64x64xf32>) outs(%out : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %res : tensor<64x64xf16>
}

// CHECK-LABEL: func.func @vector_tile
// CHECK: hivm.hir.load ins({{.*}} : tensor<16x64xf16>) outs({{.*}} : tensor<16x64xf16>) -> tensor<16x64xf16>
// CHECK: hivm.hir.vadd ins({{.*}} : tensor<16x64xf16>, tensor<16x64xf16>) outs({{.*}} : tensor<16x64xf16>) -> tensor<16x64xf16>
// CHECK: hivm.hir.vmul ins({{.*}} : tensor<16x64xf16>, f16) outs({{.*}} : tensor<16x64xf16>) -> tensor<16x64xf16>
// CHECK: hivm.hir.vcast ins({{.*}} : tensor<16x64xf16>) outs({{.*}} : tensor<16x64xf32>) round_mode = <round> -> tensor<16x64xf32>
// CHECK: hivm.hir.vreduce <max> ins({{.*}} : tensor<16x64xf32>) outs({{.*}} : tensor<16x1xf32>) reduce_dims = [1] -> tensor<16x1xf32>
// CHECK: hivm.hir.vbrc ins({{.*}} : tensor<16x1xf32>) outs({{.*}} : tensor<16x64xf32>) broadcast_dims = [1] -> tensor<16x64xf32>
// CHECK: hivm.hir.vbrc ins({{.*}} : f32) outs({{.*}} : tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: hivm.hir.vexp ins({{.*}} : tensor<16x64xf32>) outs({{.*}} : tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: hivm.hir.store ins({{.*}} : tensor<16x64xf32>) outs({{.*}} : tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: hivm.hir.copy ins({{.*}} : tensor<16x64xf32>) outs({{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
// CHECK: hivm.hir.copy ins({{.*}} : tensor<16x64xf32>) outs({{.*}} : tensor<16x64xf32>) -> tensor<16x64xf32>
func.func @vector_tile(%x: tensor<16x64xf16>, %y: tensor<16x64xf16>, %z: tensor<16x64xf32>, %s: f16, %f: f32,
                       %buf: memref<16x64xf32, #hivm.address_space<ub>>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %t0 = tensor.empty() : tensor<16x64xf16>
  %xl = hivm.hir.load ins(%x : tensor<16x64xf16>) outs(%t0 : tensor<16x64xf16>) -> tensor<16x64xf16>
  %t1 = tensor.empty() : tensor<16x64xf16>
  %sum = hivm.hir.vadd ins(%xl, %y : tensor<16x64xf16>, tensor<16x64xf16>) outs(%t1 : tensor<16x64xf16>) -> tensor<16x64xf16>
  %scaled = hivm.hir.vmul ins(%sum, %s : tensor<16x64xf16>, f16) outs(%t1 : tensor<16x64xf16>) -> tensor<16x64xf16>
  %t2 = tensor.empty() : tensor<16x64xf32>
  %wide = hivm.hir.vcast ins(%scaled : tensor<16x64xf16>) outs(%t2 : tensor<16x64xf32>) round_mode = <round> -> tensor<16x64xf32>
  %t3 = tensor.empty() : tensor<16x1xf32>
  %max = hivm.hir.vreduce <max> ins(%wide : tensor<16x64xf32>) outs(%t3 : tensor<16x1xf32>) reduce_dims = [1] -> tensor<16x1xf32>
  %t4 = tensor.empty() : tensor<16x64xf32>
  %rows = hivm.hir.vbrc ins(%max : tensor<16x1xf32>) outs(%t4 : tensor<16x64xf32>) broadcast_dims = [1] -> tensor<16x64xf32>
  %fill = hivm.hir.vbrc ins(%f : f32) outs(%t4 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e = hivm.hir.vexp ins(%rows : tensor<16x64xf32>) outs(%fill : tensor<16x64xf32>) -> tensor<16x64xf32>
  %stored = hivm.hir.store ins(%e : tensor<16x64xf32>) outs(%z : tensor<16x64xf32>) -> tensor<16x64xf32>
  hivm.hir.copy ins(%e : tensor<16x64xf32>) outs(%buf : memref<16x64xf32, #hivm.address_space<ub>>)
  %t5 = tensor.empty() : tensor<16x64xf32>
  %copied = hivm.hir.copy ins(%e : tensor<16x64xf32>) outs(%t5 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %stored, %copied : tensor<16x64xf32>, tensor<16x64xf32>
}
