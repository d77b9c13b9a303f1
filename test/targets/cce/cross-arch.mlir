// The printer judges the IR by the chip it prints for. Synced for the 950 (whose vector
// pipe is ordered: no barrier between dependent V ops) and printed for dav-c220, the
// kernel lacks the 910B's pipe_barrier(PIPE_V): refused at the op that needs it, naming
// the pipeline that syncs it for the 910B. Compiled for the 910B it prints, with the
// barrier the IR holds; printed for the chip it was compiled for, both print.
// RUN: not ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-c220}' 2>&1 | filecheck %s --check-prefix=CROSS
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// The 910B's barriers are extra on the 950, never missing: that direction prints.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=BACK

func.func @chain(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %a = memref.alloc() : memref<1024xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<1024xf32, #hivm.address_space<ub>>
  %c = memref.alloc() : memref<1024xf32, #hivm.address_space<ub>>
  tile.copy ins(%x : memref<1024xf32, #hivm.address_space<gm>>) outs(%a : memref<1024xf32, #hivm.address_space<ub>>)
  tile.exp ins(%a : memref<1024xf32, #hivm.address_space<ub>>) outs(%b : memref<1024xf32, #hivm.address_space<ub>>)
  // CROSS: cross-arch.mlir:[[# @LINE + 1]]:3: error: 'hivm.hir.vabs' op is not synced for ascend910b (hivm.hir.vabs (V) may touch bytes that hivm.hir.vexp at {{.*}}): the IR was planned and synced for ascend950 (dav-3510): compile it for the chip printed for, run -p 'ascend-compile{target=cce chip=ascend910b}'
  tile.abs ins(%b : memref<1024xf32, #hivm.address_space<ub>>) outs(%c : memref<1024xf32, #hivm.address_space<ub>>)
  tile.copy ins(%c : memref<1024xf32, #hivm.address_space<ub>>) outs(%z : memref<1024xf32, #hivm.address_space<gm>>)
  return
}
// C220:      vexp(b, a, 1, 1, 1, 8, 8);
// C220-NEXT: pipe_barrier(PIPE_V);
// C220-NEXT: set_vector_mask(0, 1024);
// C220-NEXT: vabs(c, b, 1, 1, 1, 8, 8);
// A5:        vf_exp_f32(b, a, 1024);
// A5-NEXT:   vf_abs_f32(c, b, 1024);
// BACK:      vf_exp_f32(b, a, 1024);
// BACK-NEXT: asc_sync_pipe(PIPE_V);
// BACK-NEXT: vf_abs_f32(c, b, 1024);
