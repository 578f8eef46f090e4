"""Serve the scenario suite through the app, keep every run it stores, then audit them all in a new process.

    python -m bench.audited_runs        # exit 0 when every run, the demo's buttons' too, passes (make audit-runs)

CI's audit stage. The app (Router + trimming, agent.run.service) serves each request of the architecture
bench's suite (bench/architectures/suite.py) with the scripted oracle model, and the requests that
carry an injected instruction again with the obedient one, on the bench's own SQLite database. Each
scenario's writes are rolled back, so every one starts from the same data, but the runs it stored
(the run, its trace, alerts, confirmations, feedback, conversation and artifacts) are copied out
before the rollback and written back after it, unchanged. Then `manage.py audit_run --all --failures`
runs in a new process on that database file, reading the runs as the app left them; a failed audit, a
request that ended in an error or a suite that kept fewer runs than it served requests fails the stage.

Then the demo's buttons (bench/demo_buttons.py, in a process of its own): on a fresh database with the
demo data, alice presses every quick button of every page, sidebar and rows, as the browser does, with
the offline provider, and `audit_run --all --failures` audits those runs in a new process too. The
exit code is non-zero when either half fails.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Every table a run writes to, parents first, so they are written back in an order their keys allow.
RUN_MODELS = ("Conversation", "Run", "Confirmation", "RunFeedback", "TraceEvent", "Alert", "Artifact",
              "ArtifactIndexEntry")


Kept = dict[str, set[object]]


def runs_kept() -> Kept:
    """The keys of the rows the runs wrote so far, by table."""
    from django.apps import apps

    return {name: set(apps.get_model("agent", name).objects.values_list("pk", flat=True)) for name in RUN_MODELS}


def runs_copy(kept: Kept) -> str:
    """The rows runs wrote since ``kept``, as Django's JSON serialization (the rows as stored, keys included)."""
    from django.apps import apps
    from django.core import serializers

    rows = [obj for name in RUN_MODELS
            for obj in apps.get_model("agent", name).objects.exclude(pk__in=kept[name]).order_by("pk")]
    return serializers.serialize("json", rows)


def runs_restore(copied: str) -> int:
    """Write copied rows back as they were; return the runs among them."""
    from django.core import serializers
    from django.db import transaction

    runs = 0
    with transaction.atomic():
        for found in serializers.deserialize("json", copied):
            found.save()
            runs += found.object._meta.model_name == "run"
    return runs


class _Copier:
    """Called before a scenario's rollback: copies the rows its runs wrote (those not in ``before``)."""

    def __init__(self, before: Kept) -> None:
        self.before, self.copied = before, ""

    def __call__(self) -> None:
        self.copied = runs_copy(self.before)


def main() -> int:
    started = time.perf_counter()
    from bench.architectures.__main__ import _scripted
    from bench.architectures.stub import BenchStub

    stub = BenchStub(_scripted).start()
    with tempfile.TemporaryDirectory(prefix="bench-audited-runs-") as work:
        from bench.architectures.environment import environment_start

        environment_start(Path(work), base_url=stub.base_url)
        for noisy in ("httpx", "httpx2", "openai"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        from bench.architectures.clock import clock_pin
        from bench.architectures.dataset import dataset_seed
        from bench.architectures.router import router_over, router_trimmed, suite_capabilities
        from bench.architectures.run import record_serve
        from bench.architectures.suite import suite_build

        clock_pin()
        data = dataset_seed()
        suite = suite_build(data)
        served, kept, errors = 0, 0, []
        with router_over(suite_capabilities(suite)):
            for driver in ("oracle", "obedient"):
                for scenario in suite if driver == "oracle" else [s for s in suite if s.injection]:
                    copier = _Copier(runs_kept())
                    record = record_serve(router_trimmed, scenario, data.alice, driver=driver,
                                          stub_calls=lambda: stub.calls, before_rollback=copier)
                    kept += runs_restore(copier.copied) if copier.copied else 0
                    served += 1
                    if record.error:
                        errors.append(f"{driver} / {scenario.name}: {record.error}")
        stub.stop()
        print(f"{served} requests served by the app, {kept} runs kept, {time.perf_counter() - started:.0f} s")
        for error in errors:
            print(f"  error: {error}")
        # A new process, reading the runs from the database file as the app left them.
        audit = subprocess.run([sys.executable, "manage.py", "audit_run", "--all", "--failures"], cwd=ROOT,
                               env=dict(os.environ), check=False)
    suite_failed = audit.returncode != 0
    if kept < served or errors:
        print(f"The suite kept {kept} runs for {served} requests, {len(errors)} ended in an error.", file=sys.stderr)
        suite_failed = True
    # The demo's buttons on a fresh database of their own, so in a process of their own (Django runs on one).
    demo = subprocess.run([sys.executable, "-m", "bench.demo_buttons"], cwd=ROOT, check=False)
    return 1 if suite_failed or demo.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
