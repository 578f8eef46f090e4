from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _counters_ensure(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    from django.db import connections

    from .count_triggers import counters_ensure

    counters_ensure(connections[using])


class TasksConfig(AppConfig):
    name = "tasks"

    def ready(self) -> None:
        # After every migrate, also of a database built from the models alone: the counters' triggers.
        post_migrate.connect(_counters_ensure, sender=self, dispatch_uid="tasks.counters_ensure")
