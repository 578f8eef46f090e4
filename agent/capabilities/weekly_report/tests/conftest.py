"""The reports' seeded week (tests/reports/conftest.py), for this capability's runs over it."""
from tests.reports.conftest import seeded, shanghai  # noqa: F401
