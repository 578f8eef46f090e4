"""The reports' team week (tests/reports/conftest.py), for this capability's runs over it."""
from tests.reports.conftest import shanghai, team  # noqa: F401
