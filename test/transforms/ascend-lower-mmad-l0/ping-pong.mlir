// ascend-lower-mmad-l0: an mmadL1 becomes its K-step loop on the two L0A/L0B halves,
// with the ping-pong's flags and event ids (the chip's last two MTE1 <-> M events) in IR;
// both halves are primed free at the start and drained before the return. The sync the
// IR had around the mmadL1 (MTE2 -> MTE1 before, M -> FIX after) stays around the loop.
// RUN: ascend-opt %s -p ascend-lower-mmad-l0 | filecheck %s
// RUN: ascend-opt %s -p ascend-lower-mmad-l0,ascend-verify-sync | filecheck %s --check-prefix=VERIFIED
// RUN: ascend-opt %s -p 'ascend-lower-mmad-l0{chip-file="%S/Inputs/four-events.toml"}' | filecheck %s --check-prefix=FOUR

// CHECK-LABEL: func.func @cube
// CHECK-NEXT:    hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID6>]
// CHECK-NEXT:    hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID7>]
// CHECK:         hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
// K = 256: 8 fractals per step fit half of L0A/L0B (128 x 128 bf16 = 32 KiB): 2 steps
// CHECK:         scf.for %kk = %{{.*}} to %[[STEPS:.*]] step
// CHECK:           %[[HALF:.*]] = arith.remui %kk, %{{.*}} : index
// CHECK-NEXT:      %[[EV:.*]] = arith.addi %[[HALF]], %{{.*}} : index
// CHECK-NEXT:      %[[EVI:.*]] = arith.index_cast %[[EV]] : index to i64
// CHECK:           %[[OFF:.*]] = arith.muli %[[HALF]], %{{.*}} : index
// CHECK:           %l0a = hivm.hir.pointer_cast(%{{.*}}) : memref<128x128xbf16, #hivm.address_space<ca>>
// CHECK-NEXT:      %l0b = hivm.hir.pointer_cast(%{{.*}}) : memref<128x128xbf16, #hivm.address_space<cb>>
// CHECK:           hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, %[[EVI]]]
// CHECK-NEXT:      cce.load_l0a %la[%{{.*}}], %l0a : memref<128x256xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<ca>>
// CHECK-NEXT:      cce.load_l0b %lb[%{{.*}}], %l0b : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cb>>
// CHECK-NEXT:      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_M>, %[[EVI]]]
// CHECK-NEXT:      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_M>, %[[EVI]]]
// the zero-C flag of the first step only
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %kk, %{{.*}} : index
// CHECK-NEXT:      %[[INIT:.*]] = arith.andi %first, %[[FIRST]] : i1
// CHECK:           cce.mmad %l0a, %l0b, %acc init %[[INIT]] sizes(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:      hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, %[[EVI]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK:         hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID6>]
// CHECK-NEXT:    hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID7>]
// CHECK-NEXT:    func.return
// CHECK-NOT:     hivm.hir.mmadL1

// the independent checker accepts the flags (it would fail on a missing one)
// VERIFIED: cce.mmad

// a chip with 4 events per pipe pair reserves its ids 2 and 3
// FOUR:          hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID2>]
// FOUR-NEXT:     hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID3>]

func.func @cube(%a: memref<128x256xbf16, #hivm.address_space<gm>>, %b: memref<256x128xbf16, #hivm.address_space<gm>>, %c: memref<128x128xf32, #hivm.address_space<gm>>, %first: i1) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %m = arith.constant 128 : index
  %k = arith.constant 256 : index
  %la = memref.alloc() : memref<128x256xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<256x128xbf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<128x256xbf16, #hivm.address_space<gm>>) outs(%la : memref<128x256xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<256x128xbf16, #hivm.address_space<gm>>) outs(%lb : memref<256x128xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  hivm.hir.mmadL1 ins(%la, %lb, %first, %m, %k, %m : memref<128x256xbf16, #hivm.address_space<cbuf>>, memref<256x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
  hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%c : memref<128x128xf32, #hivm.address_space<gm>>)
  return
}
