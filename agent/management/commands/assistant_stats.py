"""Print how the assistant was used since a moment (agent/run/usage.py computes the figures)."""
from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agent.run.usage import since_moment, usage_since
from pm_assistant.errors import InvalidInput


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"


class Command(BaseCommand):
    help = "How the assistant was used: routes, fast-path share, model calls and tokens, cards, undo, alerts, run time."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", default="7d", help='A span ("7d", "24h", "90m") or a date; default 7d.')
        parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            since = since_moment(options["since"])
        except InvalidInput as error:
            raise CommandError(f"--{error.message}") from None
        figures = usage_since(since)
        if options["json"]:
            self.stdout.write(json.dumps(figures, indent=2))
            return
        out = self.stdout.write
        out(f"Runs since {figures['since']}: {figures['runs']}")
        out("Routes: " + ", ".join(f"{route.replace('_', ' ')} {row['runs']} ({_pct(row['share'])})"
                                   for route, row in figures["routes"].items()))
        for key in ("page", "capability"):
            out(f"By {key}: {'runs':>6} {'fast path':>10} {'model calls':>12} {'prompt tok':>11} {'compl tok':>10}")
            for row in figures[f"by_{key}"]:
                out(f"  {row[key] or '-':<16} {row['runs']:>6} {_pct(row['fast_path_share']):>10} "
                    f"{row['llm_calls']:>12} {row['prompt_tokens']:>11} {row['completion_tokens']:>10}")
        model, cards, undo = figures["model"], figures["cards"], figures["undo"]
        out(f"Model: {model['llm_calls']} calls, {model['prompt_tokens']} prompt and "
            f"{model['completion_tokens']} completion tokens")
        out(f"Cards: {cards['shown']} shown, approved {_pct(cards['approved_share'])}, rejected "
            f"{_pct(cards['rejected_share'])}, expired {_pct(cards['expired_share'])}, {cards['pending']} pending")
        out(f"Undo: {undo['undone']} of {undo['undoable']} undoable runs ({_pct(undo['share'])})")
        feedback = figures["feedback"]
        out(f"Feedback: {feedback['given']} answers rated ({_pct(feedback['runs_share'])} of runs), "
            f"{_pct(feedback['up_share'])} up, {feedback['with_reason']} with a reason")
        out("Alerts: " + (", ".join(f"{kind} {count}" for kind, count in figures["alerts"].items()) or "none"))
        audit = figures["audit"]
        out(f"Audit: {audit['passed']} of {audit['audited']} audited runs passed ({_pct(audit['share'])})")
        took = figures["run_time_ms"]
        out(f"Run time over {took['runs']} finished runs: p50 {took['p50']} ms, p95 {took['p95']} ms")
