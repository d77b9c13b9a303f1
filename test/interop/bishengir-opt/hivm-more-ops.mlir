// REQUIRES: bishengir
// The bitwise, compare/select, transcendental, control, debug and cross-core lock ops
// against the real bishengir-opt 1.2.0: our custom and generic output parses there and
// its output parses back here, and both printers give the same text for every hivm line,
// in custom and in generic form (SSA names normalised, since each tool picks its own).
// RUN: ascend-opt %s | %bishengir_opt | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | %bishengir_opt --mlir-print-op-generic | ascend-opt | filecheck %s
// RUN: %bishengir_opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: %bishengir_opt %s --mlir-print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.bishengir-generic %t.ascend-generic

// CHECK: hivm.hir.vshr {{.*}} round : true
// CHECK: hivm.hir.vcmp {{.*}} outs({{.*}} : memref<16xi1>){{$}}
// CHECK: hivm.hir.vcmp {{.*}} compare_mode = <lt>
// CHECK: hivm.hir.vsel ins({{.*}} : memref<16xi1>, memref<16xf16>, memref<16xf16>) {{.*}} temp_buffer(
// CHECK: hivm.hir.bitcast {{.*}} : memref<16xf16> -> memref<16xi16>
// CHECK: hivm.hir.set_ctrl true at ctrl[60]
// CHECK: hivm.hir.debug {debugtype = "print", hex = false, prefix = "x"}
// CHECK: hivm.hir.sync_block[<ALL>, 1 : i16] tcube_pipe = <PIPE_M> tvector_pipe = <PIPE_V>
// CHECK: hivm.hir.create_sync_block_lock from {{.*}} : from memref<?xi8> to memref<1xi64>
// CHECK: hivm.hir.free_lock_var lock_var(
func.func @more_ops(%a: memref<16xi16>, %b: memref<16xi16>, %c: memref<16xi1>, %s: i16, %f: memref<16xf16>, %t: memref<16xf16>, %buf: memref<?xi8>, %ffts: i64, %fs: f16) {
  hivm.hir.vshr ins(%a, %s : memref<16xi16>, i16) outs(%b : memref<16xi16>) round: true
  hivm.hir.vshr ins(%a, %s : memref<16xi16>, i16) outs(%b : memref<16xi16>) round: false
  hivm.hir.vshr ins(%a, %s : memref<16xi16>, i16) outs(%b : memref<16xi16>)
  hivm.hir.vshl ins(%a, %s : memref<16xi16>, i16) outs(%b : memref<16xi16>)
  hivm.hir.vcmp ins(%a, %a : memref<16xi16>, memref<16xi16>) outs(%c : memref<16xi1>) compare_mode = #hivm.compare_mode<eq>
  hivm.hir.vcmp ins(%f, %fs : memref<16xf16>, f16) outs(%c : memref<16xi1>) compare_mode = #hivm.compare_mode<lt>
  hivm.hir.vsel ins(%c, %f, %f : memref<16xi1>, memref<16xf16>, memref<16xf16>) outs(%f : memref<16xf16>) temp_buffer(%t : memref<16xf16>)
  hivm.hir.vsel ins(%c, %fs, %f : memref<16xi1>, f16, memref<16xf16>) outs(%f : memref<16xf16>)
  hivm.hir.vnot ins(%c : memref<16xi1>) outs(%c : memref<16xi1>)
  hivm.hir.vand ins(%a, %a : memref<16xi16>, memref<16xi16>) outs(%b : memref<16xi16>)
  hivm.hir.vor ins(%a, %a : memref<16xi16>, memref<16xi16>) outs(%b : memref<16xi16>)
  hivm.hir.vxor ins(%a, %a : memref<16xi16>, memref<16xi16>) outs(%b : memref<16xi16>)
  %x = hivm.hir.bitcast %f : memref<16xf16> -> memref<16xi16>
  hivm.hir.set_ctrl true at ctrl[60]
  hivm.hir.set_ctrl false at ctrl[3]
  hivm.hir.init_debug
  hivm.hir.debug {debugtype = "print", hex = false, prefix = "x"} %s : i16
  hivm.hir.debug {debugtype = "print", hex = true, prefix = "Val: ", tcoretype = #hivm.tcore_type<CUBE_OR_VECTOR>} %f : memref<16xf16>
  hivm.hir.finish_debug
  hivm.hir.vsin ins(%f : memref<16xf16>) outs(%t : memref<16xf16>)
  hivm.hir.vcos ins(%f : memref<16xf16>) outs(%t : memref<16xf16>)
  hivm.hir.vtanh ins(%f : memref<16xf16>) outs(%t : memref<16xf16>)
  hivm.hir.verf ins(%f : memref<16xf16>) outs(%t : memref<16xf16>)
  hivm.hir.vcumsum ins(%f : memref<16xf16>) outs(%t : memref<16xf16>) cum_dims = [0] reverse = false
  hivm.hir.vcumprod ins(%f : memref<16xf16>) outs(%t : memref<16xf16>) cum_dims = [0] reverse = true
  hivm.hir.vmod ins(%a, %a : memref<16xi16>, memref<16xi16>) outs(%b : memref<16xi16>)
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL>, 1 : i16] tcube_pipe = #hivm.pipe<PIPE_M> tvector_pipe = #hivm.pipe<PIPE_V>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>, 2 : i16] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_FIX> tvector_pipe = #hivm.pipe<PIPE_MTE3>
  hivm.hir.sync_block[#hivm.sync_block_mode<BARRIER_VECTOR>]
  %l0 = hivm.hir.create_sync_block_lock : memref<1xi64>
  %l1 = hivm.hir.create_sync_block_lock from %buf : from memref<?xi8> to memref<1xi64>
  hivm.hir.sync_block_lock lock_var(%l1 : memref<1xi64>)
  hivm.hir.sync_block_unlock lock_var(%l1 : memref<1xi64>)
  hivm.hir.free_lock_var lock_var(%l0 : memref<1xi64>)
  return
}

// The a5 function attribute hw's route needs.
// CHECK: func.func @vf_mode_function() attributes {hivm.vf_mode = #hivm.vf_mode<SIMD>}
func.func @vf_mode_function() attributes {hivm.vf_mode = #hivm.vf_mode<SIMD>} {
  return
}
