"""pytest options of the suite, the three tiers of it:

* `--fast`, the inner-loop tier (`./tools/run-tests.sh --fast`): deselects the cases
  marked `slow` (as `-m "not slow"` does) and runs the random property tests at their
  small budget (`tier_budget`'s `fast`);
* no option, the default tier (README's command, CI): every case, default budgets;
* `--slow`: the property tests with their long budget.

Hypothesis runs without its timing checks (no per-example deadline, no "input generation
is slow" health check) in every property test: they measure the machine's load, not our
code (one failed on a 2-core machine at load 19), and timed limits belong in bench/."""

import os

import pytest
from hypothesis import HealthCheck, settings

from ascend_mlir import compile_cache

settings.register_profile("ascend-mlir", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ascend-mlir")


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="long property-test budgets (e.g. 500 random kernels instead of 60)")
    parser.addoption("--fast", action="store_true", default=False,
                     help="the inner-loop tier: deselect the cases marked slow and run the random "
                          "property tests at their small budget (CONTRIBUTING.md)")


def tier_budget(config: pytest.Config, *, fast: int, default: int, slow: int) -> int:
    """How many random cases a property test draws in the tier this run is (--fast,
    default, --slow)."""
    if config.getoption("--slow", default=False):
        return slow
    return fast if config.getoption("--fast", default=False) else default


# The costliest files (CPU seconds of the default tier per file, session 21's per-test
# log, `--cpu-durations-log`, CONTRIBUTING.md), run first: run-tests.sh has pytest-xdist hand
# the files out in collection order (--dist loadfile --no-loadscope-reorder), so the
# longest go first and the short ones fill both workers' ends; xdist's own order, most
# tests first, handed out last the costly files of few tests (test_docs,
# test_compile_random), which kept one worker busy for a minute while the other had
# nothing left. test_docs first although its CPU column is lower than its cost: the
# processes its blocks start are a forked server's children, not the test's. test_tune
# and test_tune_ray first of all for their wall (the recycle test's 15 s timeout, the Ray
# cluster's start: 24 s a worker waits): lit and pyright run in the first minutes and use
# the core they leave (7th and 8th, they waited after lit and pyright had ended: the
# whole command 5:14, first 4:45 and 4:55).
# test_unseen_shapes (31.6 CPU s) was not named and came last: one worker ran it alone
# for the last 26 s. test_examples before the files that share flash_attention_dyn's compiles
# (SHARE_COMPILES: test_irdl_route, test_cce_flags, test_verify_sync_sequences wait on the
# first compile's lock). Only the order changes; a file not named keeps its place after these.
COSTLY_FIRST = ("test_tune_ray.py", "test_tune.py", "test_docs.py", "test_scheduled_ii.py", "test_examples.py",
                "test_unseen_shapes.py", "test_cce_random.py", "test_event_rings.py",
                "test_never_slower.py", "test_compile_random.py", "test_irdl_route.py", "test_cce_emulation.py",
                "test_triton_dumps.py", "test_verify_sync_shared.py", "test_cce_flags.py",
                "test_verify_sync_sequences.py", "test_sim_bishengir.py", "test_program_order.py", "test_unroll.py",
                "test_fuzz_bad_input.py", "test_dialect_docs.py")


def _costly_first(items: list[pytest.Item]) -> None:
    rank = {name: index for index, name in enumerate(COSTLY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(COSTLY_FIRST)))  # stable: in-file order kept


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _costly_first(items)
    if not config.getoption("--fast", default=False):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


@pytest.fixture(scope="module", autouse=True)
def shared_compiles(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A test file that says `SHARE_COMPILES = True` compiles (ascend-compile) and
    re-checks (-t cce) each input once per run: the first run's result is reused by every
    file that opts in, in every xdist worker (ascend_mlir/compile_cache.py). The cache
    lives in $ASCEND_MLIR_TEST_COMPILE_CACHE (run-tests.sh: one per run, removed at its
    end), else in this process's temp dir. A file that patches the compiler must not opt
    in (the cache sees the sources on disk, not a patch). A file that says
    `SHARE_SOLVES = True` shares only the modulo scheduler's solves of equal loops
    (compile_cache.sharing_solves: inputs that differ in a trip count pose the same
    loop; caching whole compiles would cost their printing and parsing for nothing)."""
    if not getattr(request.module, "SHARE_COMPILES", False):
        if getattr(request.module, "SHARE_SOLVES", False):
            with compile_cache.sharing_solves():
                yield
            return
        yield
        return
    directory = os.environ.get("ASCEND_MLIR_TEST_COMPILE_CACHE") or tmp_path_factory.getbasetemp() / "compile-cache"
    with compile_cache.caching(directory):
        yield
