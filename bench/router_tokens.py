"""Count the router's prompt tokens for a page with 0 and with 500 visible rows.

Builds the prompt through the real router (agent.routing.llm_router.llm_route) with a client that
records the assembled prompt instead of calling a model, counts o200k tokens, and prints them next
to what the raw page-context JSON alone would cost if it were pasted into the prompt. No database
and no network.

    .venv/bin/python bench/router_tokens.py [--ids 500]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MESSAGE = "which of these should I finish first?"


@dataclass
class RecordingClient:
    """Stands in for LLMClient: keeps the prompt, answers like a router that is unsure."""

    prompts: list[Any] = field(default_factory=list)

    def complete_json(self, *, purpose: str, role: str, prompt: Any, json_schema: dict[str, Any]) -> Any:
        self.prompts.append(prompt)
        return {"capability": "clarify", "confidence": 0.0, "slots": {}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", type=int, default=500)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from agent.context.assemble import context_assemble
    from agent.context.tokens import token_count
    from agent.page_context.names import EntityNames
    from agent.page_context.schema import PageContext
    from agent.routing.llm_router import llm_route

    rows = []
    for count in (0, args.ids):
        page = {
            "page": "task_list", "origin": "sidebar", "routeParams": {"projectId": 7}, "activeTab": "in_progress",
            # archcheck: allow ARCH005 a sample filter (the recorded figures depend on it)
            "viewMode": "list", "filters": {"status": ["todo", "in_progress"], "assignee": "me",
                                            "dueBefore": "2031-05-17", "labels": ["frontend", "billing"]},
            "visibleEntityIds": list(range(100_001, 100_001 + count)), "pagination": {"page": 1, "pageSize": 100},
        }
        views = context_assemble(context=PageContext.model_validate(page), user_id=1,
                                 names=EntityNames(project_name="Website Redesign"))
        client = RecordingClient()
        llm_route(ctx=views.router, message=MESSAGE, llm=client)  # type: ignore[arg-type]
        messages = client.prompts[0].messages
        rows.append((count, messages, sum(token_count(m["content"]) for m in messages),
                     token_count(json.dumps(page)), views.summary.tokens))

    for count, _, tokens, raw, summary in rows:
        print(f"{count:4d} visible ids: router prompt {tokens} tokens (o200k); ModelSummary {summary} tokens; "
              f"the raw page-context JSON alone would be {raw} tokens")
    same = rows[0][1] == rows[1][1]
    print(f"router prompt identical for 0 and {args.ids} visible ids: {same}")


if __name__ == "__main__":
    main()
