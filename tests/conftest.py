"""Shared test configuration.

* ``--run-slow`` runs the tests marked ``slow`` (long soak/fuzz runs).  Without it they are skipped;
  every slow test has a bounded sibling that CI runs.
* Hypothesis profiles: ``ci`` (default: bounded and derandomized, so a CI run is repeatable — the
  same examples every time) and ``long`` (``HYPOTHESIS_PROFILE=long``: many more, freshly random
  examples; ``make test-all``).
* ``--table PATH`` points the hardware-in-the-loop tests at a real Pico.
"""
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="run the long soak/fuzz tests")
    parser.addoption("--table", default=None, help="serial path of a real Pico for hardware-in-the-loop tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow (a bounded version runs by default)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def table_path(request):
    path = request.config.getoption("--table")
    if not path:
        pytest.skip("no real table given (--table PATH)")
    return path
