"""pytest options of the suite: `--slow` runs the property tests with their long budget.

Hypothesis runs without its timing checks (no per-example deadline, no "input generation
is slow" health check) in every property test: they measure the machine's load, not our
code (one failed on a 2-core machine at load 19), and timed limits belong in bench/."""

from hypothesis import HealthCheck, settings

settings.register_profile("ascend-mlir", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ascend-mlir")


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="long property-test budgets (e.g. 500 random kernels instead of 60)")
