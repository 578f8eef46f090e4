"""Data-layer fixtures: each test stores its artifacts in a directory of its own."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def artifact_root(settings: Any, tmp_path: Path) -> Path:
    """Store this test's artifacts in its own directory."""
    root = tmp_path / "artifacts"
    settings.STORAGES = {**settings.STORAGES, "artifacts": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": str(root)}}}
    return root
