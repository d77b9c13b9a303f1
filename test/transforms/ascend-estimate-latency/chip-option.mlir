// RUN: ascend-opt %s -p 'ascend-estimate-latency{chip=ascend910b}' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-estimate-latency{chip=Ascend910B3}' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-estimate-latency{chip-file="%project/ascend_mlir/chips/ascend910b.toml"}' | filecheck %s
// RUN: ascend-opt %s -p ascend-estimate-latency | filecheck %s --check-prefix=DEFAULT

// chip= (or chip-file=) records the chip in the module, in bishengir's spelling.
// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">}
// DEFAULT: builtin.module {
// The latency table is the same on both chips today: only the data file would differ.
// CHECK: hivm.hir.nd2nz {ascend.task = #ascend.task<latency = 196, ii = 64>}
// DEFAULT: hivm.hir.nd2nz {ascend.task = #ascend.task<latency = 196, ii = 64>}
func.func @k(%g: memref<16x16xf16, #hivm.address_space<gm>>) {
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  hivm.hir.nd2nz ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
  return
}
