"""Persistent GEMM with fp16 inputs and fp32 output (twin of gemm_fp16.mlir); the kernel is
gemm_persistent.make_gemm, see there."""

from gemm_persistent import make_gemm

gemm_fp16 = make_gemm("f16", "gemm_fp16")

if __name__ == "__main__":
    print(gemm_fp16.to_mlir(), end="")
