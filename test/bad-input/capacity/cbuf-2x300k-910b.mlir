// Bad input (capacity): two 300 KiB L1 buffers on a 512 KiB L1.
// ERROR: the 2 cbuf buffers live here need 614400 bytes (%a 307200 + %b 307200), but ascend910b
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k(%g: memref<153600xf16, #hivm.address_space<gm>>) {
    %a = memref.alloc() : memref<153600xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<153600xf16, #hivm.address_space<cbuf>>
    hivm.hir.nd2nz ins(%g : memref<153600xf16, #hivm.address_space<gm>>) outs(%a : memref<153600xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz ins(%g : memref<153600xf16, #hivm.address_space<gm>>) outs(%b : memref<153600xf16, #hivm.address_space<cbuf>>)
    return
  }
}
