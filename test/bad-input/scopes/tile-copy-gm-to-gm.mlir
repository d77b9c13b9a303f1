// Bad input (scopes): no DMA path gm -> gm.
// ARGS: -p convert-tile-to-hivm
// ERROR: has no DMA path from gm to gm (legal: gm->ub, ub->gm, gm->cbuf, cc->gm, cc->cbuf, cc->ub,
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
