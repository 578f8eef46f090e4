"""docs/USAGE.md's delay-risk table names every weight and its default, so the documented scoring cannot drift."""
from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

README = Path(__file__).resolve().parents[2] / "docs" / "USAGE.md"


def test_every_weight_is_documented_with_its_default() -> None:
    text = README.read_text()
    table = text.split("## Delay risk", 1)[1].split("Levels:", 1)[0]
    documented = set(re.findall(r'RISK_WEIGHTS\["(\w+)"\]', table))
    assert documented == set(settings.RISK_WEIGHTS)
    rows = {row.split("|")[1].strip(" `"): row for row in table.splitlines() if row.startswith("| `")}
    w = settings.RISK_WEIGHTS
    assert f"{w['overdue_per_day']} per day, at most {w['overdue_max']}" in rows["overdue"]
    assert f"{w['due_slip']} per slip, at most {w['due_slips_max']}" in rows["due_slips"]
    for name in ("due_soon_open_subtasks", "inactive", "blocked", "parent_at_risk", "assignee_load"):
        assert rows[name].rstrip().endswith(f"| {w[name]} |"), name
    assert f"({settings.RISK_DUE_SOON_DAYS})" in rows["due_soon_open_subtasks"]
    assert f"({settings.RISK_INACTIVE_DAYS})" in rows["inactive"]
    assert f"({settings.RISK_LOAD_RATIO:g})" in rows["assignee_load"]
