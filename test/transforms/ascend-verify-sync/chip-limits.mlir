// ascend-verify-sync checks flag ids against the chip: event ids within its
// events_per_pipe_pair (the module's hacc.target, or chip= / chip-file=), computed ids
// bounded over their loops' whole range (not only the iterations the check unrolls),
// and cross-core sets balanced by waits.
// RUN: ascend-opt %s -p ascend-verify-sync --split-input-file --verify-diagnostics
// RUN: not ascend-opt %s -p 'ascend-verify-sync{chip-file="%S/../ascend-insert-sync/Inputs/four-events.toml"}' --split-input-file 2>&1 | filecheck %s --check-prefix=FOUR

// A computed event id 9: out of the 8 ids per pipe pair.
func.func @event_nine(%u: memref<64xf32, #hivm.address_space<ub>>) {
  %e = arith.constant 9 : i64
  // expected-error @+2 {{ascend-verify-sync: computed event id takes values in 9..9 over its loops (ascend950 has 8 per pipe pair: 0..7)}}
  // FOUR: chip-limits.mlir:13:3: error: {{.*}} computed event id takes values in 9..9
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %e]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %e]
  return
}

// -----

// `i mod 16` over 32 iterations: ids 0..15, although the unrolled check would only see
// 0..11 and 12 + 32 mod 12 of them.
func.func @mod_sixteen(%u: memref<64xf32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %m = arith.remui %i, %c16 : index
    %e = arith.index_cast %m : index to i64
    // expected-error @+2 {{computed event id takes values in 0..15 over its loops (ascend950 has 8 per pipe pair: 0..7)}}
    // FOUR: chip-limits.mlir:32:5: error: {{.*}} computed event id takes values in 0..15
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %e]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %e]
  }
  return
}

// -----

// `i mod 16` over 6 iterations stays within 0..5: fine on the 950, not with 4 ids.
func.func @mod_sixteen_short(%u: memref<64xf32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c6 step %c1 {
    %m = arith.remui %i, %c16 : index
    %e = arith.index_cast %m : index to i64
    // FOUR: chip-limits.mlir:50:5: error: {{.*}} computed event id takes values in 0..5 over its loops (four-events has 4 per pipe pair: 0..3)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %e]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %e]
  }
  return
}

// -----

// A static EVENT_ID5 is legal hivm, but not on a chip with four ids per pipe pair.
func.func @event_five(%u: memref<64xf32, #hivm.address_space<ub>>) {
  // FOUR: chip-limits.mlir:61:3: error: {{.*}} event id 5 is out of range (four-events has 4 per pipe pair: 0..3)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID5>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID5>]
  return
}

// -----

// An id computed from a kernel argument has no static bound.
func.func @unbounded(%n: i64) {
  // expected-error @+1 {{cannot bound this computed event id statically (ascend950 has 8 per pipe pair: 0..7)}}
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %n]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %n]
  return
}

// -----

// A cross-core flag set twice and waited once.
func.func @block_unbalanced(%u: memref<64xf32, #hivm.address_space<ub>>) {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 1
  // expected-error @+1 {{is never waited for: cross-core flag 1 is set 1 more time(s) than VEC0 waits for it (unbalanced at kernel exit)}}
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 1
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 1
  return
}

// -----

// A computed cross-core flag id over 20 iterations: up to 19 of 16.
func.func @block_flag_computed(%u: memref<64xf32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  scf.for %i = %c0 to %c20 step %c1 {
    %f = arith.index_cast %i : index to i64
    // expected-error @+1 {{computed cross-core flag id takes values in 0..19 over its loops (the hardware has 16: 0..15)}}
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = %f
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = %f
  }
  return
}

// -----

// Balanced: set and waited once per iteration, ids within range (no diagnostic).
func.func @balanced(%u: memref<64xf32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c40 = arith.constant 40 : index
  scf.for %i = %c0 to %c40 step %c1 {
    %m = arith.remui %i, %c2 : index
    %e = arith.index_cast %m : index to i64
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = %e
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = %e
  }
  return
}
