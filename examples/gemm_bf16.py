"""Persistent GEMM with bf16 inputs and fp32 output (twin of gemm_bf16.mlir); the kernel is
gemm_persistent.make_gemm, see there."""

from gemm_persistent import make_gemm

gemm_bf16 = make_gemm("bf16", "gemm_bf16")

if __name__ == "__main__":
    print(gemm_bf16.to_mlir(), end="")
