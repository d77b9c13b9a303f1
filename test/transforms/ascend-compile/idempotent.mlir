// ascend-compile on its own output changes nothing (issue 9): the sync passes recognise
// the barriers and the cross-core hand-off that are already there.

// RUN: ascend-opt %examples/gemm_relu.mlir -p ascend-compile > %t.1.mlir
// RUN: ascend-opt %t.1.mlir -p ascend-compile > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: ascend-opt %examples/softmax.mlir -p ascend-compile > %t.3.mlir
// RUN: ascend-opt %t.3.mlir -p ascend-compile > %t.4.mlir
// RUN: diff %t.3.mlir %t.4.mlir
// RUN: filecheck %s --input-file %t.2.mlir --check-prefix=MIX
// MIX-COUNT-1: hivm.hir.sync_block_set
// MIX-NOT: hivm.hir.sync_block_set
