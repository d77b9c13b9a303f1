// Input the printer cannot make bishengir-ready is a located diagnostic.
// RUN: ascend-opt %s -t npuir --split-input-file --verify-diagnostics

func.func @tile_level(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{is tile-level: run -p convert-tile-to-hivm before -t npuir}}
  tile.copy ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @init_not_peelable() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c1 : index
    // expected-error @+1 {{init is computed inside a loop; bishengir-compile 1.2.0 crashes on that}}
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  func.return
}
