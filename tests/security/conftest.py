"""One stub server for the whole corpus and the models' settings (tests/conftest.py prints the figures)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.llm_stub import LLMStub


@pytest.fixture(scope="module")
def corpus_stub() -> Iterator[LLMStub]:
    with LLMStub() as stub:
        yield stub


@pytest.fixture
def corpus_model(settings: Any, corpus_stub: LLMStub) -> Iterator[LLMStub]:
    """Point the openai provider at the shared stub; each case sets the stub's responder."""
    settings.LLM_PROVIDER = "openai"
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_BASE_URL = corpus_stub.base_url
    settings.LLM_TIMEOUT_SECONDS = 5.0
    settings.LLM_MAX_RETRIES = 0
    corpus_stub.reset()
    yield corpus_stub
    corpus_stub.responder = None

