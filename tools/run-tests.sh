#!/usr/bin/env bash
# The whole test suite: ruff and pyright, lit (IR transformations, CLI, interop with
# bishengir and mlir-opt) and pytest (Python APIs). Set ASCEND_MLIR_REQUIRE_TOOLS=1 to make
# missing external tools an error instead of UNSUPPORTED/skipped (CI does).
#   --fast   the inner-loop tier (CONTRIBUTING.md says what it leaves out and what stands in):
#            pytest deselects the cases marked `slow` and runs the random property tests at
#            their small budget (pytest --fast), lit leaves out the tests marked
#            `UNSUPPORTED: fast-tier` (lit --param tier=fast); ruff as always, pyright not
#            (64 CPU s of one process, half the tier's budget): run `pyright FILES` on what
#            you touched before landing, or `--fast --pyright` to have it here.
#   --pyright  with --fast: run pyright too (the default tier always does).
# ruff + pyright and lit run beside pytest, their output shown when they end: each of the
# three leaves cores idle on its own (pyright is one process; lit and pytest-xdist wait for
# their longest test or file at the end), idle time that added up when they ran one after
# another. pytest runs on every core with pytest-xdist (a test extra) when it is installed.
set -uo pipefail
cd "$(dirname "$0")/.."
pytest_args=(-q -rs)
lit_args=(-sv --order=lexical)
fast=0 with_pyright=0
for arg in "$@"; do
  case "$arg" in
    --fast) fast=1; pytest_args+=(--fast); lit_args+=(--param tier=fast) ;;
    --pyright) with_pyright=1 ;;
    *) echo "run-tests: error: unknown option '$arg' (known: --fast, --pyright)" >&2; exit 2 ;;
  esac
done
run_pyright=1
if [ "$fast" = 1 ] && [ "$with_pyright" = 0 ]; then
  run_pyright=0
fi
if python3 -c "import xdist" 2>/dev/null; then
  # one file per worker: a module-scoped fixture (a compiled library, a simulated grid) is built once;
  # the files in collection order (conftest puts the costliest first), not xdist's default of
  # the most tests first, which handed out last the few-test costly files (test_docs,
  # test_compile_random) while the other worker had nothing left
  pytest_args+=(-n auto --dist loadfile --no-loadscope-reorder)
else
  echo "run-tests: pytest-xdist is not installed (./tools/setup.sh installs it): pytest on one core" >&2
fi
logs=$(mktemp -d "${TMPDIR:-/tmp}/run-tests.XXXXXX")
# Every Python process of the run (pytest's workers, the tools that lit and test_docs start,
# ascend-tune's pool) reads and writes its bytecode in one cache outside the tree:
# PYTHONDONTWRITEBYTECODE=1 (CI sets it to keep the clone clean) made each of them
# compile ascend_mlir's sources again, 0.1-0.2 CPU s a start. The cache outlives the run
# (ASCEND_MLIR_PYCACHE, else the user's cache directory): a pytest worker's collection
# rewrote and compiled every test file again on each run, 5.5 CPU s a worker where a
# warm cache takes 1.6 (a file's entry is checked against its mtime and size, so an edit
# is compiled again and nothing stale is read).
export PYTHONPYCACHEPREFIX="${ASCEND_MLIR_PYCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ascend-mlir/pycache}"
unset PYTHONDONTWRITEBYTECODE
# One compile of an input per run, shared by the test files that opt in (SHARE_COMPILES in
# test/python/conftest.py) across both pytest workers: flash_attention_dyn's compile and
# re-check took 18-36 CPU s each, in four files
export ASCEND_MLIR_TEST_COMPILE_CACHE="$logs/compile-cache"
pyright_pid="" lit_pid=""
# an interrupted run (Ctrl-C in pytest) stops what it started in the background too
trap '[ -n "$pyright_pid" ] && kill "$pyright_pid" 2>/dev/null; [ -n "$lit_pid" ] && kill "$lit_pid" 2>/dev/null; rm -rf "$logs"' EXIT
status=0
# lint and types (configured in pyproject.toml); ruff takes a fraction of a second
ruff check . || status=1
if [ "$run_pyright" = 1 ]; then
  pyright >"$logs/pyright" 2>&1 &
  pyright_pid=$!
fi
lit "${lit_args[@]}" test/ >"$logs/lit" 2>&1 &
lit_pid=$!
python3 -m pytest "${pytest_args[@]}" test/python || status=1
if [ "$run_pyright" = 1 ]; then
  wait "$pyright_pid" || status=1
  pyright_pid=""
  echo "== pyright =="
  cat "$logs/pyright"
else
  echo "== pyright: not run in the fast tier (pass --pyright, or run pyright on the files you touched) =="
fi
wait "$lit_pid" || status=1
lit_pid=""
echo "== lit =="
cat "$logs/lit"
# -o must write through devices: a suite run as root once left /dev/null a regular file
if [ ! -c /dev/null ]; then
  echo "run-tests: error: /dev/null is no longer a character device" >&2
  status=1
fi
exit $status
