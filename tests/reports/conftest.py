"""The seeded week, in a non-UTC zone, for every report test."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from projects.models import Project
from tasks.models import Task

from .fixture import Seeded, seed_week, team_week


@pytest.fixture
def shanghai(settings: Any) -> None:
    settings.TIME_ZONE = "Asia/Shanghai"


@pytest.fixture
def seeded(shanghai: None, monkeypatch: pytest.MonkeyPatch, alice: User, bob: User, carol: User,
           website: Project, mobile: Project, platform: Project) -> Seeded:
    return seed_week(monkeypatch, alice=alice, carol=carol, website=website, mobile=mobile, platform=platform,
                     bob=bob)


@pytest.fixture
def team(shanghai: None, monkeypatch: pytest.MonkeyPatch, alice: User, carol: User, website: Project,
         mobile: Project) -> dict[str, Task]:
    return team_week(monkeypatch, alice=alice, carol=carol, website=website, mobile=mobile)
