// Entries without hivm.func_core_type get it from the cores their ops use (and a
// function kind); a kernel of one core is not split. Non-entries are left alone.
// RUN: ascend-opt %s -p split-mix-kernel | filecheck %s

// CHECK:      builtin.module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>} {
// CHECK-NEXT:   func.func @vec() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, hacc.function_kind = #hacc.function_kind<DEVICE>} {
// CHECK:        func.func @cube() attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hacc.function_kind = #hacc.function_kind<DEVICE>} {
// CHECK:        func.func @mix_mix_aic(%{{.*}}: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.part_of_mix, mix_mode = "mix"} {
// CHECK:        func.func @mix_mix_aiv(
// CHECK-NOT:    func.func @mix(
// CHECK:        func.func @helper() {
builtin.module {
  func.func @vec() attributes {hacc.entry} {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    func.return
  }
  func.func @cube() attributes {hacc.entry} {
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %l1 = memref.alloc() : memref<16x16xf32, #hivm.address_space<cbuf>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%l1 : memref<16x16xf32, #hivm.address_space<cbuf>>)
    func.return
  }
  func.func @mix() attributes {hacc.entry} {
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    func.return
  }
  func.func @helper() {
    func.return
  }
}
