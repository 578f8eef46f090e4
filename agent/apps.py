from django.apps import AppConfig


class AgentConfig(AppConfig):
    name = "agent"
    verbose_name = "Assistant"

    def ready(self) -> None:
        # Register the jobs in every process, not only in workers: the service enqueues them by name.
        from agent import jobs  # noqa: F401
