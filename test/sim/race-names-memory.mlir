// A race report names the memory the two accesses touch as the file writes it (a GM
// argument by its SSA name), the bytes of it they both touch ([lo, hi) from the
// memory's first byte) and, on chip, the allocations (alloc or pointer_cast) each access
// goes through: two pointer_casts at overlapping offsets are both named.
// RUN: not ascend-sim %s --func gm_round_trip 2>&1 | filecheck %s --check-prefix=GM
// RUN: not ascend-sim %s --func gm_round_trip --json | filecheck %s --check-prefix=GM-JSON
// RUN: not ascend-sim %s --func aliasing_casts 2>&1 | filecheck %s --check-prefix=ARENA
// RUN: not ascend-sim %s --func aliasing_casts --json | filecheck %s --check-prefix=ARENA-JSON

// The store of the second quarter of %out and the load that reads it back are not ordered
// (no MTE3 -> MTE2 flag): the race is on gm %out, bytes [256, 512).
// GM: error: race (write-read) on gm %out bytes [256, 512): store [vec] at {{.*}}race-names-memory.mlir:[[# @LINE + 13]]:3 and load [vec] at {{.*}}race-names-memory.mlir:[[# @LINE + 14]]:3 are not ordered
// GM-JSON: "memory": "gm %out", {{.*}}"bytes": [256, 512], "allocated": []
func.func @gm_round_trip(%in: memref<256xf32, #hivm.address_space<gm>>, %out: memref<256xf32, #hivm.address_space<gm>>)
    attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %c0 = arith.constant 0 : i64
  %c512 = arith.constant 512 : i64
  %u = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  %v = hivm.hir.pointer_cast(%c512) : memref<64xf32, #hivm.address_space<ub>>
  %src = memref.subview %in[0] [64] [1] : memref<256xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1]>, #hivm.address_space<gm>>
  %dst = memref.subview %out[64] [64] [1] : memref<256xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 64>, #hivm.address_space<gm>>
  hivm.hir.load ins(%src : memref<64xf32, strided<[1]>, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, strided<[1], offset: 64>, #hivm.address_space<gm>>)
  hivm.hir.load ins(%dst : memref<64xf32, strided<[1], offset: 64>, #hivm.address_space<gm>>) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

// Two pointer_casts at overlapping UB offsets (bytes 128..256 of the first are bytes
// 0..128 of the second): the vector op writing through the second races with the load
// filling the first; both allocations are named.
// ARENA: error: race (write-write) on ub arena of vec bytes [128, 256) (hivm.hir.pointer_cast at {{.*}}race-names-memory.mlir:[[# @LINE + 7]]:3 and hivm.hir.pointer_cast at {{.*}}race-names-memory.mlir:[[# @LINE + 8]]:3): load [vec] at {{.*}}:[[# @LINE + 9]]:3 and vbrc [vec] at {{.*}}:[[# @LINE + 10]]:3 are not ordered
// ARENA-JSON: "memory": "ub arena of vec", {{.*}}"bytes": [128, 256], "allocated": ["hivm.hir.pointer_cast at {{.*}}race-names-memory.mlir:[[# @LINE + 6]]:3", "hivm.hir.pointer_cast at {{.*}}race-names-memory.mlir:[[# @LINE + 7]]:3"]
func.func @aliasing_casts(%in: memref<64xf32, #hivm.address_space<gm>>)
    attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %c0 = arith.constant 0 : i64
  %c128 = arith.constant 128 : i64
  %zero = arith.constant 0.0 : f32
  %a = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%c128) : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%in : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vbrc ins(%zero : f32) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}
