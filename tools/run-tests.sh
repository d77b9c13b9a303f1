#!/usr/bin/env bash
# The whole test suite: lit (IR transformations, CLI, interop with bishengir and mlir-opt)
# then pytest (Python APIs), after ruff and pyright. Set ASCEND_MLIR_REQUIRE_TOOLS=1 to make missing external
# tools an error instead of UNSUPPORTED/skipped (CI does).
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
# lint and types first: cheap, and the configuration is in pyproject.toml
ruff check . || status=1
pyright || status=1
lit -sv --order=lexical test/ || status=1
python3 -m pytest -q -rs test/python || status=1
exit $status
