"""List the alerts of a recent period, grouped by kind, each with the address of its run's trace."""
from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from agent.run.alerts import alerts_grouped, run_trace_url, since_parse
from pm_assistant.errors import InvalidInput


class Command(BaseCommand):
    help = 'Alerts since a time ("24h", "7d"), grouped by kind, with the trace of each run.'

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", default="24h", help='How far back: hours or days, e.g. "24h" or "7d".')

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            since = since_parse(options["since"])
        except InvalidInput as exc:
            raise CommandError(exc.message) from None
        groups = alerts_grouped(since=timezone.now() - since)
        total = sum(g.count for g in groups)
        self.stdout.write(f"{total} alerts since {options['since']} ago, {len(groups)} kinds")
        for group in groups:
            self.stdout.write(f"\n{group.kind}: {group.count} ({group.label})")
            for alert in group.latest:
                self.stdout.write(f"  {alert.created_at:%Y-%m-%d %H:%M}  {alert.message[:160]}")
                self.stdout.write(f"      trace: {run_trace_url(alert)}")
            if group.count > len(group.latest):
                self.stdout.write(f"  … and {group.count - len(group.latest)} more")
