// RUN: ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{chip-file="%S/Inputs/small-l1.toml"}' | filecheck %s
// RUN: ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule | filecheck %s --check-prefix=FULL
// RUN: ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{chip-file="%S/Inputs/small-l1.toml"}' -t 'schedule-json{chip-file="%S/Inputs/small-l1.toml"}' | filecheck %s --check-prefix=JSON

// The same gemm on a chip description whose L1 holds only 128 KiB: the 64 KiB A tile and
// 56 KiB B tile fit once each but no second version of either, so the load issued first
// keeps its tile busy 574 + 846 + 488 = 1908 cycles and the II grows from 1792 to 1908.
// CHECK: %la = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// CHECK: %lb = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// CHECK: ascend.loop = #ascend.loop<ii = 1908, mii = 1792, status = "optimal"
// The targets take the same chip options (bytes follow the chip's alignments).
// JSON: "ii": 1908,
// JSON: "versions": 1
// JSON: "versions": 1
// FULL: %la = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// FULL: %lb = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>}
// FULL: ascend.loop = #ascend.loop<ii = 1792, mii = 1792, status = "optimal"

// With 64 KiB of L1 not even one version of both tiles fits: an error at the loop.
// RUN: not ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{chip-file="%S/Inputs/tiny-l1.toml"}' 2>&1 | filecheck %s --check-prefix=TINY
// TINY: gemm.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'scf.for' op cannot schedule loop gemm.k: scope 'cbuf' needs 122880 bytes for one version of each buffer (la, lb) but its capacity is 65536 bytes
