"""Keep tasks_taskcount (tasks.models.TaskCount) in step with tasks_task, in the database.

PostgreSQL: one trigger per event, once per statement, over the statement's transition tables, so a
bulk write of 50 000 tasks moves each counter once. SQLite: the same per row. Either way the counters
move inside the statement that writes the tasks, whoever sends it.

A task leaving a key only ever decrements an existing counter (never inserts one): when a project is
deleted its counters may go before its tasks, and a flush may empty the counters first.
SQLite remakes a table to alter it, dropping its triggers: a later migration that alters tasks_task
there must create these again (tests/data_layer/test_task_counts.py fails without them).
"""
import django.db.models.deletion
from django.db import migrations, models

KEY = "project_id, status, assignee_key, top_level"
# A task's key in the counters: nobody is assignee 0 (a key column is never null).
ROW_KEY = "project_id, status, COALESCE(assignee_id, 0) AS assignee_key, parent_id IS NULL AS top_level"
MATCH = ("c.project_id = d.project_id AND c.status = d.status AND c.assignee_key = d.assignee_key "
         "AND c.top_level = d.top_level")
ADD = f"ON CONFLICT ({KEY}) DO UPDATE SET tasks = tasks_taskcount.tasks + EXCLUDED.tasks"

BACKFILL = f"INSERT INTO tasks_taskcount ({KEY}, tasks) SELECT {ROW_KEY}, COUNT(*) FROM tasks_task GROUP BY 1, 2, 3, 4"

PG_FUNCTIONS = {
    "insert": f"INSERT INTO tasks_taskcount ({KEY}, tasks) SELECT {ROW_KEY}, COUNT(*) FROM new_rows "
              f"GROUP BY 1, 2, 3, 4 {ADD};",
    "delete": f"UPDATE tasks_taskcount c SET tasks = c.tasks - d.n FROM (SELECT {ROW_KEY}, COUNT(*) AS n "
              f"FROM old_rows GROUP BY 1, 2, 3, 4) d WHERE {MATCH};",
    # Only the keys whose number changed: an edit of a title moves no counter.
    "update": f"""WITH d AS (
        SELECT {KEY}, SUM(n) AS n FROM (
            SELECT {ROW_KEY}, 1 AS n FROM new_rows UNION ALL SELECT {ROW_KEY}, -1 AS n FROM old_rows
        ) AS moved GROUP BY 1, 2, 3, 4 HAVING SUM(n) <> 0
    ), taken AS (
        UPDATE tasks_taskcount c SET tasks = c.tasks + d.n FROM d WHERE {MATCH} AND d.n < 0
    )
    INSERT INTO tasks_taskcount ({KEY}, tasks) SELECT {KEY}, n FROM d WHERE n > 0 {ADD};""",
}
PG_REFERENCING = {"insert": "NEW TABLE AS new_rows", "delete": "OLD TABLE AS old_rows",
                  "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows"}

SQLITE_ADD = ("INSERT INTO tasks_taskcount ({key}, tasks) VALUES (NEW.project_id, NEW.status, "
              "COALESCE(NEW.assignee_id, 0), NEW.parent_id IS NULL, 1) "
              "ON CONFLICT ({key}) DO UPDATE SET tasks = tasks + 1;").format(key=KEY)
SQLITE_TAKE = ("UPDATE tasks_taskcount SET tasks = tasks - 1 WHERE project_id = OLD.project_id "
               "AND status = OLD.status AND assignee_key = COALESCE(OLD.assignee_id, 0) "
               "AND top_level = (OLD.parent_id IS NULL);")
SQLITE_TRIGGERS = {
    "insert": f"AFTER INSERT ON tasks_task BEGIN {SQLITE_ADD} END",
    "delete": f"AFTER DELETE ON tasks_task BEGIN {SQLITE_TAKE} END",
    "update": "AFTER UPDATE OF project_id, status, assignee_id, parent_id ON tasks_task "
              "WHEN OLD.project_id IS NOT NEW.project_id OR OLD.status IS NOT NEW.status "
              "OR OLD.assignee_id IS NOT NEW.assignee_id OR (OLD.parent_id IS NULL) IS NOT (NEW.parent_id IS NULL) "
              f"BEGIN {SQLITE_TAKE} {SQLITE_ADD} END",
}


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        for event, body in PG_FUNCTIONS.items():
            schema_editor.execute(f"CREATE FUNCTION tasks_count_{event}() RETURNS trigger LANGUAGE plpgsql "
                                  f"AS $$ BEGIN {body} RETURN NULL; END $$;")
            schema_editor.execute(f"CREATE TRIGGER tasks_count_{event} AFTER {event.upper()} ON tasks_task "
                                  f"REFERENCING {PG_REFERENCING[event]} FOR EACH STATEMENT "
                                  f"EXECUTE FUNCTION tasks_count_{event}();")
    elif vendor == "sqlite":
        for event, body in SQLITE_TRIGGERS.items():
            schema_editor.execute(f"CREATE TRIGGER tasks_count_{event} {body};")
    else:
        raise NotImplementedError(f"task counters need PostgreSQL or SQLite, not {vendor}")
    schema_editor.execute(BACKFILL)


def backward(apps, schema_editor):
    for event in PG_FUNCTIONS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS tasks_count_{event}"
                              + (" ON tasks_task;" if schema_editor.connection.vendor == "postgresql" else ";"))
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"DROP FUNCTION IF EXISTS tasks_count_{event}();")


class Migration(migrations.Migration):

    dependencies = [
        ('projects', '0001_initial'),
        ('tasks', '0006_activity_deleted_task_id'),
    ]

    operations = [
        migrations.CreateModel(
            name='TaskCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(max_length=12)),
                ('assignee_key', models.BigIntegerField()),
                ('top_level', models.BooleanField()),
                ('tasks', models.IntegerField()),
                ('project', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+',
                                              to='projects.project')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('project', 'status', 'assignee_key', 'top_level'),
                                                        name='taskcount_key')],
            },
        ),
        migrations.RunPython(forward, backward),
    ]
