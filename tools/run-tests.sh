#!/usr/bin/env bash
# The whole test suite: lit (IR transformations, CLI, interop with bishengir and mlir-opt)
# then pytest (Python APIs), after ruff and pyright. Set ASCEND_MLIR_REQUIRE_TOOLS=1 to make missing external
# tools an error instead of UNSUPPORTED/skipped (CI does).
#   --fast   the inner-loop tier: pytest leaves out the cases marked `slow` (each has a
#            smaller equivalent that stays in); lit, ruff and pyright as always.
# pytest runs on every core with pytest-xdist (a test extra) when it is installed.
set -uo pipefail
cd "$(dirname "$0")/.."
pytest_args=(-q -rs)
for arg in "$@"; do
  case "$arg" in
    --fast) pytest_args+=(-m "not slow") ;;
    *) echo "run-tests: error: unknown option '$arg' (known: --fast)" >&2; exit 2 ;;
  esac
done
if python3 -c "import xdist" 2>/dev/null; then
  # one file per worker: a module-scoped fixture (a compiled library, a simulated grid) is built once
  pytest_args+=(-n auto --dist loadfile)
else
  echo "run-tests: pytest-xdist is not installed (./tools/setup.sh installs it): pytest on one core" >&2
fi
status=0
# lint and types first: cheap, and the configuration is in pyproject.toml
ruff check . || status=1
pyright || status=1
lit -sv --order=lexical test/ || status=1
python3 -m pytest "${pytest_args[@]}" test/python || status=1
# -o must write through devices: a suite run as root once left /dev/null a regular file
if [ ! -c /dev/null ]; then
  echo "run-tests: error: /dev/null is no longer a character device" >&2
  status=1
fi
exit $status
