"""Run the seed's four-point checklist on stored runs; exit non-zero when any run fails (CI: make audit-runs)."""
from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agent.models import Run
from agent.run.audit import run_audit


class Command(BaseCommand):
    help = "Audit a run (or every run with --all): ids by binding, one form per ref, exact previews, server facts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("run_ids", nargs="*", help="Run ids to audit.")
        parser.add_argument("--all", action="store_true", help="Audit every stored run.")
        parser.add_argument("--json", action="store_true", help="Print the reports as JSON.")
        parser.add_argument("--failures", action="store_true",
                            help="Print only the runs that fail (and the count of all); for CI over many runs.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            runs = list(Run.objects.order_by("created_at"))
        elif options["run_ids"]:
            runs = []
            for run_id in options["run_ids"]:
                try:
                    runs.append(Run.objects.get(pk=run_id))
                except (Run.DoesNotExist, ValueError, ValidationError):
                    raise CommandError(f"run_id: {run_id!r} was not found.") from None
        else:
            raise CommandError("Name a run id, or pass --all.")
        reports = [run_audit(run) for run in runs]
        if options["json"]:
            self.stdout.write(json.dumps([r.as_dict() for r in reports], indent=2))
        else:
            for report in reports:
                if not (options["failures"] and report.passed):
                    self._print(report.as_dict())
            failed = sum(not r.passed for r in reports)
            self.stdout.write(f"{len(reports)} runs audited: {len(reports) - failed} passed, {failed} failed")
        if any(not r.passed for r in reports):
            raise CommandError("audit failed")

    def _print(self, report: dict[str, Any]) -> None:
        self.stdout.write(f"Run {report['run_id']}: {'PASS' if report['passed'] else 'FAIL'}")
        for point in report["points"]:
            mark = self.style.SUCCESS("pass") if point["passed"] else self.style.ERROR("FAIL")
            self.stdout.write(f"  {point['point']}. {mark}  {point['title']}")
            for finding in point["findings"]:
                self.stdout.write(f"       - {finding}")
        intent = report.get("intent")
        if intent:
            self.stdout.write(f"  intent check: {intent['verdict']} (the model asked for: "
                              f"{intent.get('model_kind') or 'no write'}; the user's words: "
                              f"{intent.get('rules_kind') or 'no write'})")
