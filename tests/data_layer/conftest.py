"""The clean scenario suite, run once per test module: its runs are read by every test that asks.

The runs are made inside one transaction that stays open for the module (each test's own
transaction nests in it as a savepoint) and is rolled back when the module ends, so nothing
leaks into other modules. They use their own users and projects, an LLM stub of their own and
their own artifact store, which each test that reads them is pointed at.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import override_settings

from projects.services import membership_set, project_create
from tests.llm_stub import LLMStub

from .scenarios import run_scenarios


@pytest.fixture(scope="module")
def _suite_once(django_db_setup: Any, django_db_blocker: Any,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    from django.conf import settings

    root = tmp_path_factory.mktemp("suite")
    storages = {**settings.STORAGES, "artifacts": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": str(root / "artifacts")}}}
    with django_db_blocker.unblock(), LLMStub() as stub, override_settings(
            LLM_PROVIDER="openai", OPENAI_API_KEY="test-key", OPENAI_BASE_URL=stub.base_url,
            LLM_TIMEOUT_SECONDS=2.0, LLM_MAX_RETRIES=2, STORAGES=storages, AGENT_FROZEN_VIEWS_RAISE=True,
            AGENT_CHECKPOINT_SQLITE_PATH=root / "checkpoints.sqlite",
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        with transaction.atomic():
            owner = User.objects.create_user(username="suite-owner", password="demo")
            member = User.objects.create_user(username="suite-member", password="demo")
            website = project_create(owner=owner, name="Suite Website", key="SWEB")
            membership_set(actor=owner, project=website, user=member, role="member")
            mobile = project_create(owner=owner, name="Suite Mobile", key="SMOB")
            yield run_scenarios(stub, owner, website, mobile), storages
            transaction.set_rollback(True)


@pytest.fixture
def suite(_suite_once: tuple[dict[str, str], dict[str, Any]], db: Any, settings: Any) -> dict[str, str]:
    """The module's scenario runs by name; the test reads their artifacts from the suite's store."""
    runs, storages = _suite_once
    settings.STORAGES = storages
    return runs
