"""Single representation: one source ref in two forms (or twice) is refused before any model call."""
from __future__ import annotations

from itertools import product
from typing import Any, get_args

import pytest
from django.contrib.auth.models import User

from agent.artifacts.classify import Classified
from agent.models import Alert, Run
from agent.prompting.messages import Form, PromptPart, PromptRefused, prompt_assemble
from projects.models import Project
from tests.llm_stub import LLMStub

from .helpers import make_tasks, post_request, route_json, trace_of

FORMS: tuple[str, ...] = ("instruction", "full", "summary", "preview", "restatement", "truncated")
PAIRS = list(product(FORMS, FORMS))


def part(ref: str, form: Any, text: str = "some words") -> PromptPart:
    return PromptPart(ref=ref, form=form, role="user", text=text)


def test_the_forms_under_test_are_all_the_assembler_knows() -> None:
    assert set(FORMS) == set(get_args(Form))


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_one_ref_in_any_two_forms_is_refused(first: str, second: str) -> None:
    parts = [part("prompt:explain", "instruction", "Explain."), part("art_0123456789ab", first, "one"),
             part("user_message", "full", "what now?"), part("art_0123456789ab", second, "two")]
    with pytest.raises(PromptRefused) as refused:
        prompt_assemble(parts)
    assert refused.value.ref == "art_0123456789ab"
    assert refused.value.forms == [first, second]
    assert refused.value.code == "prompt_refused"
    assert f"as {first}, {second}" in str(refused.value)


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_two_refs_in_any_two_forms_are_assembled(first: str, second: str) -> None:
    prompt = prompt_assemble([part("art_0123456789ab", first, "one"), part("art_ba9876543210", second, "two")])
    assert prompt.manifest() == [{"ref": "art_0123456789ab", "form": first, "role": "user"},
                                 {"ref": "art_ba9876543210", "form": second, "role": "user"}]
    assert prompt.messages == [{"role": "user", "content": "one\n\ntwo"}]


# (ref the result part takes, its form, the forms in prompt order: the user's message comes after the result)
COLLISIONS = [*[pytest.param("model_summary", form, ["summary", form], id=f"model_summary-as-{form}")
                for form in FORMS],
              pytest.param("prompt:explain", "full", ["instruction", "full"], id="instruction-as-full"),
              pytest.param("user_message", "restatement", ["restatement", "full"], id="user-message-restated")]


@pytest.mark.parametrize(("ref", "form", "forms"), COLLISIONS)
def test_a_query_whose_result_repeats_a_ref_stops_before_the_explanation(
        monkeypatch: pytest.MonkeyPatch, openai_settings: LLMStub, alice: User, website: Project, ref: str,
        form: str, forms: list[str]) -> None:
    def colliding(classified: Classified, rows: list[dict[str, Any]], count: int) -> PromptPart:
        return PromptPart(ref=ref, form=form, role="user", text=f"{count} tasks found.")  # type: ignore[arg-type]

    monkeypatch.setattr("agent.capabilities.query.node.result_part", colliding)
    make_tasks(alice, website, 2, assignee=alice)
    openai_settings.push_json(route_json("query", assignee_me=True))
    body = post_request(alice, {"page": "home", "origin": "sidebar"}, message="what is on my plate?")

    assert body["status"] == "error"
    assert Run.objects.get(pk=body["run_id"]).error_code == "prompt_refused"
    assert "stopped before asking the model" in body["reply"]
    alert = Alert.objects.get(run_id=body["run_id"], kind=Alert.Kind.DUPLICATE_FORM)
    assert alert.details == {"ref": ref, "forms": forms}
    # The router's request is the only one the model ever saw: the explanation was never sent.
    (only,) = openai_settings.requests
    assert only.body["response_format"]["type"] == "json_schema"
    trace = trace_of(alice, body["run_id"])
    assert [call["name"] for call in trace["llm_calls"]] == ["route"]
    assert [a["kind"] for a in trace["alerts"]] == ["duplicate_form"]
    assert body["usage"]["llm_calls"] == 1
