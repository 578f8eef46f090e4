"""Make the database refuse a subtask whose parent is in another project.

PostgreSQL gets a composite foreign key (parent_id, project_id) -> (id, project_id);
SQLite cannot add constraints to an existing table, so it gets equivalent triggers.
"""
from django.db import migrations

PG_FORWARD = """
ALTER TABLE tasks_task ADD CONSTRAINT task_parent_same_project
    FOREIGN KEY (parent_id, project_id) REFERENCES tasks_task (id, project_id)
    ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
"""
PG_BACKWARD = "ALTER TABLE tasks_task DROP CONSTRAINT IF EXISTS task_parent_same_project;"

SQLITE_TRIGGER = """
CREATE TRIGGER task_parent_same_project_{event}
BEFORE {event_sql} ON tasks_task
WHEN NEW.parent_id IS NOT NULL
 AND NOT EXISTS (SELECT 1 FROM tasks_task p WHERE p.id = NEW.parent_id AND p.project_id = NEW.project_id)
BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: task_parent_same_project');
END;
"""
SQLITE_EVENTS = {"insert": "INSERT", "update": "UPDATE OF parent_id, project_id"}


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_FORWARD)
    elif schema_editor.connection.vendor == "sqlite":
        for event, event_sql in SQLITE_EVENTS.items():
            schema_editor.execute(SQLITE_TRIGGER.format(event=event, event_sql=event_sql))


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD)
    elif schema_editor.connection.vendor == "sqlite":
        for event in SQLITE_EVENTS:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS task_parent_same_project_{event};")


class Migration(migrations.Migration):
    dependencies = [("tasks", "0001_initial")]
    operations = [migrations.RunPython(forward, backward)]
