"""pytest options of the suite: `--slow` runs the property tests with their long budget."""


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="long property-test budgets (e.g. 500 random kernels instead of 60)")
