// RUN: ascend-opt %s -p ascend-plan-memory | filecheck %s --check-prefix=REUSE
// RUN: not ascend-opt %s -p 'ascend-plan-memory{reuse=false}' 2>&1 | filecheck %s --check-prefix=OWN

// %a is dead once %b is loaded. The two (160 KiB each) do not fit the 950's 248 KiB of
// UB side by side: by default %b reuses %a's bytes; with reuse=false (IR already synced,
// whose flags cannot know of a reuse) every buffer has bytes of its own, which UB cannot
// hold: a located error naming them.
// REUSE:      %a = hivm.hir.pointer_cast(%c0_i64)
// REUSE:      %b = hivm.hir.pointer_cast(%c0_i64{{.*}})
// OWN:        no-reuse.mlir:12:3: error: 'memref.alloc' op ub overflow: the buffers need 327680 bytes, capacity 253952: %a 163840 B x 1 version, %b 163840 B x 1 version
func.func @sequential(%x: memref<40960xf32, #hivm.address_space<gm>>, %y: memref<40960xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %a = memref.alloc() : memref<40960xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<40960xf32, #hivm.address_space<gm>>) outs(%a : memref<40960xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%a : memref<40960xf32, #hivm.address_space<ub>>) outs(%y : memref<40960xf32, #hivm.address_space<gm>>)
  %b = memref.alloc() : memref<40960xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<40960xf32, #hivm.address_space<gm>>) outs(%b : memref<40960xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%b : memref<40960xf32, #hivm.address_space<ub>>) outs(%y : memref<40960xf32, #hivm.address_space<gm>>)
  return
}
