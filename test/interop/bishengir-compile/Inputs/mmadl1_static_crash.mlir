// bishengir-opt 1.2.0 --convert-hfusion-to-hivm segfaults on this one memref-form
// mmadL1 of static L1/L0C allocs and constant sizes (no dynamic shape, no flag, no loop):
// the crash gemm_dyn and gemm_910b meet is bishengir's, not our output's
// (../mmadl1-heap-ub.mlir says why). Used by ../gemm-dyn-910b.mlir.
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %true = arith.constant true
    %m = arith.constant 128 : index
    %k = arith.constant 64 : index
    %n = arith.constant 128 : index
    %a = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    hivm.hir.mmadL1 ins(%a, %b, %true, %m, %k, %n : memref<128x64xbf16, #hivm.address_space<cbuf>>, memref<64x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<128x128xf32, #hivm.address_space<cc>>)
    return
  }
}
