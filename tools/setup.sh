#!/usr/bin/env bash
# Installs everything ascend-mlir needs on a fresh machine (idempotent):
# upstream mlir-opt 22 (Debian mlir-22-tools), the package with its test extras and the
# real AscendNPU IR toolchain (PyPI ascendnpu-ir: bishengir-opt, bishengir-compile), and
# ascend-tune's optional executors and searches (Ray, Optuna) so that their tests run.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi

if [ ! -x /usr/lib/llvm-22/bin/mlir-opt ]; then
  echo "setup: installing mlir-22-tools (upstream mlir-opt 22)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq mlir-22-tools >/dev/null
fi

echo "setup: installing ascend-mlir with extras test,npuir,ray,tpe"
python3 -m pip install -q --disable-pip-version-check -e '.[test,npuir,ray,tpe]'
python3 -c "import ascendnpuir" 2>/dev/null || echo "setup: warning: ascendnpu-ir is not installable here (it ships x86_64 CPython 3.11 wheels); npuir interop tests will be UNSUPPORTED"
echo "setup: done (bishengir-opt, bishengir-compile, mlir-opt on PATH: export PATH=\"\$(python -m ascend_mlir.testing):\$PATH\")"
