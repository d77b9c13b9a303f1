// A scalar broadcast into cbuf (L1) is bishengir's zero fill of a masked load's L1 tile
// (triton's matmul on A3): accepted, and it issues on the cube core's PIPE_MTE2, so
// estimate-latency prices it as a GM -> L1 write of the tile, not as a vector op.
// RUN: ascend-opt %s -p 'ascend-estimate-latency{chip=ascend910b}' | filecheck %s
// CHECK: hivm.hir.vbrc {{.*}}#ascend.task<latency = {{[0-9]+}}, ii = {{[0-9]+}}>
func.func @fill_l1(%l1: memref<4096xf16, #hivm.address_space<cbuf>>) {
  %zero = arith.constant 0.0 : f16
  hivm.hir.vbrc ins(%zero : f16) outs(%l1 : memref<4096xf16, #hivm.address_space<cbuf>>)
  return
}
