"""ascend-mlir: a Z3 modulo-scheduling compiler for Ascend NPU tile kernels."""

__version__ = "0.1.0"
