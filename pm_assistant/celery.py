"""The Celery application; background jobs live in each app's ``jobs.py``."""
import os
from typing import Any

from celery import Celery
from celery.signals import celeryd_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")

app = Celery("pm_assistant")
app.config_from_object("django.conf:settings", namespace="CELERY")
# "tasks" is the name of the Task model's app, so jobs are discovered in jobs.py.
app.autodiscover_tasks(related_name="jobs")


@celeryd_init.connect
def _warm_up(**_: Any) -> None:
    """Import the graph, the tokenizer and the LLM SDK before the first job, not during it."""
    from pm_assistant.warmup import warm_up

    warm_up()
