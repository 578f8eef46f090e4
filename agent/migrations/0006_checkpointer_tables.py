"""Create LangGraph's Postgres checkpointer tables at migrate time, so no request ever runs DDL."""
from typing import Any

from django.db import migrations


def create_checkpointer_tables(apps: Any, schema_editor: Any) -> None:
    """Run the saver's own setup on PostgreSQL; SQLite's saver creates its file by itself."""
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    from agent.graph.checkpointer import postgres_checkpointer_setup

    postgres_checkpointer_setup(connection.settings_dict)


class Migration(migrations.Migration):
    # Some of the saver's steps create indexes CONCURRENTLY, which cannot run in a transaction.
    atomic = False

    dependencies = [
        ("agent", "0005_plan_alert_kinds"),
    ]

    operations = [
        # Reversing keeps the tables: they hold paused runs, and setup is idempotent on the way back up.
        migrations.RunPython(create_checkpointer_tables, migrations.RunPython.noop, elidable=False),
    ]
