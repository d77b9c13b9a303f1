// MIX kernels: the checker runs the vector code on two vector cores when the kernel
// splits work between them (dual fixpipe / get_sub_block_idx), each with its own ub,
// and orders cube and vector ops only through sync_block_set/wait.

// RUN: not ascend-opt %S/../../sim/mutant_sub_block_ignored.mlir -p ascend-verify-sync 2>&1 | filecheck %s --check-prefix=SUB
// SUB: mutant_sub_block_ignored.mlir:36:5: error: 'hivm.hir.store' op ascend-verify-sync: hivm.hir.store (VEC1 MTE3) may touch bytes that hivm.hir.store at {{.*}}mutant_sub_block_ignored.mlir:36:5 (VEC0 MTE3) wrote, and nothing orders them

// RUN: not ascend-opt %S/../../sim/mutant_block_wait_removed.mlir -p ascend-verify-sync 2>&1 | filecheck %s --check-prefix=WAIT
// WAIT: mutant_block_wait_removed.mlir:30:5: error: 'hivm.hir.vrelu' op ascend-verify-sync: hivm.hir.vrelu ({{VEC0 V|V}}) may touch bytes that hivm.hir.fixpipe at {{.*}}:28:5 (CUBE FIX) wrote, and nothing orders them

// The two parts of a split MIX kernel (@..._mix_aic, @..._mix_aiv) are checked side by
// side: ascend-compile's output passes, and without its cross-core set the vector part
// waits forever.
// RUN: ascend-opt %examples/gemm_relu.mlir -p ascend-compile > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: grep -v sync_block_set %t.mlir | not ascend-opt -p ascend-verify-sync 2>&1 | filecheck %s --check-prefix=SPLIT
// SPLIT: error: 'hivm.hir.sync_block_wait' op ascend-verify-sync: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = {{[0-9]+}} waits for a cross-core flag no core ever raises (deadlock)
