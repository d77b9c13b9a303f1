// A pipe that hands data (or a freed buffer) to another pipe sets a flag every
// iteration; the set runs once the pipe's earlier ops have completed and later ops of
// the pipe queue behind it, so the pipe idles from its last producer's ii to that
// producer's completion. The scheduler reserves that drain per publishing pipe.
// vecadd: store (latency 198, ii 18) on MTE3 frees uz for the next vadd: MTE3 busy
// 18 + drain 180 = 198; the loads on MTE2 (111, 21) publish to V: 2 * 21 + 90 = 132.
// (unroll=1: the one-tile loop; unrolled twice, the two stores share one drain, unroll.mlir)
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{unroll=1}' | filecheck %s
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{flag-drains=false unroll=1}' | filecheck %s --check-prefix=PURE
// The simulator then measures the scheduled II (bench/e2e: store 198 -> 200).

// CHECK: ascend.loop = #ascend.loop<ii = 198, mii = 198, status = "optimal", res_mii = {MTE2 = 132, MTE3 = 198, V = 16}, rec_mii = {{[0-9]+}}, binding = "MTE3">
// PURE:  ascend.loop = #ascend.loop<ii = 107, mii = 107, status = "optimal", res_mii = {MTE2 = 42, MTE3 = 18, V = 16}, rec_mii = 107, binding = "recurrence">
