"""Benchmark the explanation prompt of "all my tasks" over 100 000 tasks: externalized versus inlined.

Builds a SQLite database seeded by ``seed_demo --tasks 100000`` in a temporary directory (or
reuses the one named by --db, seeding it only when it has no demo data yet) and prints how long
seeding took. Then it sends "show me all my tasks" as alice through the run service, with the
openai provider pointed at the scripted OpenAI-compatible stub (tests/llm_stub.py) running
in-process, and counts the o200k_base tokens of the messages the explanation request really
carried: the result is an artifact, so the prompt holds its ref and bounded summary. For
comparison it assembles the same prompt with the result inlined as words
(``agent.capabilities.query.node.row_words`` over every matching row) and counts that.

    .venv/bin/python bench/prompt_tokens_100k.py [--tasks 100000] [--db PATH]
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MESSAGE = "show me all my tasks"
PAGE = {"page": "home", "origin": "sidebar"}


def empty_route() -> dict[str, Any]:
    """The router's answer "query, no narrowing": every slot of the strict schema present and empty."""
    from agent.routing.decision import ROUTE_SCHEMA

    slots: dict[str, Any] = ROUTE_SCHEMA["properties"]["slots"]["properties"]  # type: ignore[index]
    empty: dict[str, Any] = {name: [] if spec["type"] == "array" else False if spec["type"] == "boolean" else None
             for name, spec in slots.items()}
    return {"capability": "query", "confidence": 0.95, "slots": empty}


# The tokenizer refuses a single text of a million characters or 200 000 tokens: long texts are
# counted in pieces cut just after a newline, where no token spans the cut (checked in main()).
PIECE_CHARS = 100_000
CHECK_ROWS = 1_500


def long_token_count(text: str) -> int:
    from agent.context.tokens import token_count

    total, start = 0, 0
    while start < len(text):
        end = min(len(text), start + PIECE_CHARS)
        if end < len(text):
            cut = text.rfind("\n", start, end)
            end = cut + 1 if cut >= start else end
        total += token_count(text[start:end])
        start = end
    return total


def prompt_tokens(messages: list[dict[str, str]]) -> int:
    return sum(long_token_count(m["content"]) for m in messages)


def seed(tasks: int) -> None:
    """Seed the demo data plus `tasks` more, unless the database already has them; print the time taken."""
    from django.core.management import call_command

    from tasks.models import Task

    present = Task.objects.count()
    if present >= tasks:
        print(f"Reusing the database: {present} tasks already there (no seeding).")
        return
    out = io.StringIO()
    start = time.perf_counter()
    call_command("seed_demo", tasks=tasks, stdout=out)
    elapsed = time.perf_counter() - start
    print(f"Seeded with seed_demo --tasks {tasks} in {elapsed:.1f} s:")
    for line in out.getvalue().splitlines():
        if line.startswith(("Added", "Demo data")):
            print(f"  {line}")


def matching_rows(user: Any) -> list[dict[str, Any]]:
    """Every task the query matches (the tool itself stops at QUERY_MAX_ROWS), as the tool's rows."""
    from agent.capabilities.query.node import query_filters
    from agent.routing.decision import Slots
    from agent.tools.task_tools import task_row
    from tasks.selectors import task_list_for_user

    filters = query_filters(explain_context(user).exec, Slots())
    return [task_row(t) for t in task_list_for_user(user=user, filters=filters).iterator(chunk_size=5000)]


def explain_context(user: Any) -> Any:
    from agent.context.assemble import context_assemble
    from agent.page_context.names import entity_names_for
    from agent.page_context.parse import page_context_read

    context = page_context_read(data=PAGE, user=user).context
    return context_assemble(context=context, user_id=user.pk, names=entity_names_for(context=context, user=user))


def inlined_messages(user: Any, rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The explanation prompt as the query capability builds it for an inline result, over these rows."""
    from agent.artifacts.classify import Classified
    from agent.artifacts.refs import canonical_json, inline_ref, sha256_hex
    from agent.capabilities.query.node import result_part
    from agent.capabilities.query.prompts import EXPLAIN_INSTRUCTIONS
    from agent.prompting.messages import PromptPart, prompt_assemble

    result = {"count": len(rows), "items": rows, "truncated": False}
    classified = Classified(form="full", ref=inline_ref(tool="query_tasks", sha256=sha256_hex(canonical_json(result))),
                            text="", data=result)
    prompt = prompt_assemble([
        PromptPart(ref="prompt:explain", form="instruction", role="system", text=EXPLAIN_INSTRUCTIONS),
        PromptPart(ref="model_summary", form="summary", role="system", text=explain_context(user).summary.text,
                   heading="The page:"),
        result_part(classified, rows, len(rows)),
        PromptPart(ref="user_message", form="full", role="user", text=MESSAGE, heading="The user asked:"),
    ])
    return prompt.messages


def main(work: Path, args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.llm_stub import LLMStub

    db = Path(args.db).resolve() if args.db else work / "bench.sqlite3"
    with LLMStub() as stub:
        os.environ.update({
            "DJANGO_SETTINGS_MODULE": "pm_assistant.settings",
            "DATABASE_URL": f"sqlite:///{db}",
            "ARTIFACT_ROOT": str(work / "artifacts"),
            "AGENT_CHECKPOINT_SQLITE_PATH": str(work / "checkpoints.sqlite"),
            "LLM_PROVIDER": "openai", "OPENAI_API_KEY": "bench", "OPENAI_BASE_URL": stub.base_url,
            "LOG_LEVEL": "WARNING",
        })
        import django

        django.setup()
        from django.contrib.auth.models import User
        from django.core.management import call_command

        from agent.context.tokens import token_count
        from agent.models import Artifact, TraceEvent
        from agent.run.service import run_request
        from agent.tools.task_tools import QUERY_MAX_ROWS

        call_command("migrate", verbosity=0)
        print(f"Database: {db}")
        seed(args.tasks)
        alice = User.objects.get(username="alice")

        stub.push_json(empty_route())
        stub.push_text("You have many tasks; most are still to do.")
        start = time.perf_counter()
        run = run_request(user=alice, page_context=PAGE, message=MESSAGE)
        elapsed = time.perf_counter() - start
        stub.assert_all_consumed()
        explain = stub.requests[1].body
        traced = TraceEvent.objects.get(run=run, kind="llm_call", name="explain")
        assert traced.payload["messages"] == explain["messages"], "the trace must record what was sent"
        artifact = Artifact.objects.get(ref=run.data["artifact"]["ref"])
        with_ext = prompt_tokens(explain["messages"])

        rows = matching_rows(alice)
        sample = "\n".join(m["content"] for m in inlined_messages(alice, rows[:CHECK_ROWS]))
        assert long_token_count(sample) == token_count(sample), "counting in pieces must equal counting whole"
        matching, capped = len(rows), min(len(rows), QUERY_MAX_ROWS)
        without = prompt_tokens(inlined_messages(alice, rows))
        without_capped = prompt_tokens(inlined_messages(alice, rows[:capped]))

    print(f'"{MESSAGE}" as alice: {matching:,} matching tasks; run {run.status} in {elapsed:.2f} s; '
          f"query_tasks stored {artifact.item_count} rows as {artifact.ref} "
          f"({artifact.size_bytes / 1024 / 1024:.1f} MB, truncated: {'yes' if artifact.truncated else 'no'})")
    counts = [("with externalization (the request the model received)", with_ext),
              (f"without: all {matching:,} matching rows inlined as words", without)]
    if capped < matching:
        counts.append((f"without: the first {capped:,} rows (the tool's cap) inlined", without_capped))
    width = max(len(label) for label, _ in counts)
    print("Explanation prompt tokens (o200k_base, over the message contents):")
    for label, count in counts:
        print(f"  {label:<{width}}  {count:>12,}")
    ratio = f"  ratio: {without / with_ext:,.0f}x with all rows inlined"
    print(ratio + (f", {without_capped / with_ext:,.0f}x with the tool's {capped:,}" if capped < matching else ""))

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=100_000, help="Tasks seed_demo adds (default 100000).")
    parser.add_argument("--db", help="SQLite file to build once and reuse on later runs (kept afterwards).")
    parsed = parser.parse_args()
    work_dir = Path(tempfile.mkdtemp(prefix="prompt-tokens-bench-"))
    try:
        main(work_dir, parsed)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
