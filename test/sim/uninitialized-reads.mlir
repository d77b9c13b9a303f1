// Reading on-chip memory that no op wrote is a simulator error naming the read and where
// the memory was allocated (the hardware's L0C/UB hold what ran before: the result is
// undefined, whatever the simulator's zero-filled memory gave), exit 1.

// RUN: not ascend-sim %S/Inputs/uninit/matmul-only-k-step-no-init.mlir | filecheck %s --check-prefix=L0C
// L0C: error: read of never-written memory: mmadL1 [cube] at {{.*}}matmul-only-k-step-no-init.mlir:15:5 reads cc %acc of cube, 4096 of its 4096 bytes never written (allocated by memref.alloc at {{.*}}matmul-only-k-step-no-init.mlir:10:5)
// L0C: FAILED

// RUN: not ascend-sim %S/Inputs/uninit/relu-of-unloaded-ub.mlir --json | filecheck %s --check-prefix=UB
// UB: "uninitialized_reads": [{"op": "vrelu", "loc": "{{.*}}relu-of-unloaded-ub.mlir:12:5", "core": "vec", "memory": "ub %unloaded of vec", "allocated": "memref.alloc at {{.*}}relu-of-unloaded-ub.mlir:7:5", "unwritten_bytes": 1024, "bytes": 1024
// UB-SAME: "ok": false

// Planned buffers: the never-written view of the UB arena is named by its pointer_cast.
// RUN: not ascend-sim %S/Inputs/uninit/pointer-cast-past-load.mlir | filecheck %s --check-prefix=ARENA
// ARENA: error: read of never-written memory: vadd [vec] at {{.*}}pointer-cast-past-load.mlir:16:5 reads ub arena of vec, 512 of its 512 bytes never written (allocated by hivm.hir.pointer_cast at {{.*}}pointer-cast-past-load.mlir:11:5)

// A tail tile: mmadL1 with m = 17 reads only the 17 loaded rows of its 32-row L1 operand.
// RUN: ascend-sim %S/Inputs/uninit/matmul-tail-m17.mlir --json | filecheck %s --check-prefix=TAIL
// TAIL: "uninitialized_reads": []
// TAIL-SAME: "ok": true
