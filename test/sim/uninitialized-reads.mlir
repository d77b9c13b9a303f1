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

// A copy without padding writes exactly its source's bytes: a runtime 10 of 16 rows
// leaves 6 rows (384 bytes) of its UB destination unwritten, and vrelu reads them all.
// RUN: not ascend-sim %S/Inputs/uninit/partial-load-no-pad.mlir --bind n=10 | filecheck %s --check-prefix=PART
// PART: error: read of never-written memory: vrelu [vec] at {{.*}}partial-load-no-pad.mlir:14:5 reads ub %in of vec, 384 of its 1024 bytes never written
// RUN: ascend-sim %S/Inputs/uninit/partial-load-no-pad.mlir --bind n=16 --json | filecheck %s --check-prefix=WHOLE
// WHOLE: "uninitialized_reads": []
// WHOLE-SAME: "ok": true

// A read racing with the write that fills its buffer is one race, not also a read of
// never-written memory (the same missing sync).
// RUN: not ascend-sim %S/Inputs/uninit/racing-read.mlir | filecheck %s --check-prefix=RACE
// RACE-NOT: never-written
// RACE: error: race (write-read) on ub %loaded of vec bytes [0, 1024) (memref.alloc at {{.*}}racing-read.mlir:6:5): load [vec] at {{.*}}racing-read.mlir:8:5 and vrelu [vec] at {{.*}}racing-read.mlir:9:5 are not ordered
// RACE-NOT: never-written
// RACE: FAILED
