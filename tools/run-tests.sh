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
# -o must write through devices: a suite run as root once left /dev/null a regular file
if [ ! -c /dev/null ]; then
  echo "run-tests: error: /dev/null is no longer a character device" >&2
  status=1
fi
exit $status
