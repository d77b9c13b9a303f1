// RUN: ascend-opt %s -p ascend-plan-memory | filecheck %s --check-prefix=REUSE
// RUN: ascend-opt %s -p 'ascend-plan-memory{reuse=false}' | filecheck %s --check-prefix=OWN

// %a is dead once %b is loaded: by default %b reuses its bytes; with reuse=false (IR
// already synced, whose flags cannot know of a reuse) every buffer has bytes of its own.
// REUSE:      %a = hivm.hir.pointer_cast(%c0_i64)
// REUSE:      %b = hivm.hir.pointer_cast(%c0_i64{{.*}})
// OWN:        %a = hivm.hir.pointer_cast(%c0_i64)
// OWN:        %c256_i64 = arith.constant 256 : i64
// OWN-NEXT:   %b = hivm.hir.pointer_cast(%c256_i64)
func.func @sequential(%x: memref<64xf32, #hivm.address_space<gm>>, %y: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %a = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<gm>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<gm>>)
  return
}
