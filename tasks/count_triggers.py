"""The triggers that keep tasks_taskcount (tasks.models.TaskCount) in step with tasks_task.

PostgreSQL: one trigger per event, once per statement, over the statement's transition tables, so a
bulk write of 50 000 tasks moves each counter once. SQLite: the same per row. Either way the counters
move inside the statement that writes the tasks, whoever sends it.

A task leaving a key only ever decrements an existing counter (never inserts one): when a project is
deleted its counters may go before its tasks, and a flush may empty the counters first.

Migration 0007 installs them; after every ``migrate`` (tasks.apps) ``counters_ensure`` installs them
again where they are missing and recounts: a database built from the models without migrations, or
a SQLite table remade by a later migration (which drops its triggers), is counted all the same.
"""
# ruff: noqa: S608 - every statement here is built from the constants of this module, never from input
from __future__ import annotations

from typing import Any

TRIGGERS = ("tasks_count_insert", "tasks_count_delete", "tasks_count_update")
KEY = "project_id, status, assignee_key, top_level"
# A task's key in the counters: nobody is assignee 0 (a key column is never null).
ROW_KEY = "project_id, status, COALESCE(assignee_id, 0) AS assignee_key, parent_id IS NULL AS top_level"
MATCH = ("c.project_id = d.project_id AND c.status = d.status AND c.assignee_key = d.assignee_key "
         "AND c.top_level = d.top_level")
ADD = f"ON CONFLICT ({KEY}) DO UPDATE SET tasks = tasks_taskcount.tasks + EXCLUDED.tasks"
RECOUNT = f"INSERT INTO tasks_taskcount ({KEY}, tasks) SELECT {ROW_KEY}, COUNT(*) FROM tasks_task GROUP BY 1, 2, 3, 4"

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

SQLITE_ADD = (f"INSERT INTO tasks_taskcount ({KEY}, tasks) VALUES (NEW.project_id, NEW.status, "
              f"COALESCE(NEW.assignee_id, 0), NEW.parent_id IS NULL, 1) "
              f"ON CONFLICT ({KEY}) DO UPDATE SET tasks = tasks + 1;")
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


def _statements(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [statement for event, body in PG_FUNCTIONS.items() for statement in (
            f"CREATE OR REPLACE FUNCTION tasks_count_{event}() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ BEGIN {body} RETURN NULL; END $$;",
            f"DROP TRIGGER IF EXISTS tasks_count_{event} ON tasks_task;",
            f"CREATE TRIGGER tasks_count_{event} AFTER {event.upper()} ON tasks_task REFERENCING "
            f"{PG_REFERENCING[event]} FOR EACH STATEMENT EXECUTE FUNCTION tasks_count_{event}();")]
    if vendor == "sqlite":
        return [statement for event, body in SQLITE_TRIGGERS.items() for statement in (
            f"DROP TRIGGER IF EXISTS tasks_count_{event};", f"CREATE TRIGGER tasks_count_{event} {body};")]
    raise NotImplementedError(f"task counters need PostgreSQL or SQLite, not {vendor}")


def counters_install(connection: Any) -> None:
    """Create (or replace) the triggers and count every task again, in one transaction."""
    from django.db import transaction

    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("LOCK TABLE tasks_task IN SHARE ROW EXCLUSIVE MODE")  # no write slips between
        for statement in _statements(connection.vendor):
            cursor.execute(statement)
        cursor.execute("DELETE FROM tasks_taskcount")
        cursor.execute(RECOUNT)


def counters_installed(connection: Any) -> set[str]:
    """The names of the counters' triggers present on tasks_task."""
    query = {"postgresql": "SELECT tgname FROM pg_trigger WHERE tgrelid = 'tasks_task'::regclass",
             "sqlite": "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'tasks_task'"}
    with connection.cursor() as cursor:
        cursor.execute(query[connection.vendor])
        return {name for (name,) in cursor.fetchall()} & set(TRIGGERS)


def counters_ensure(connection: Any) -> bool:
    """Install the triggers and recount where any is missing (after a migrate); True when it did."""
    tables = set(connection.introspection.table_names())
    if not {"tasks_task", "tasks_taskcount"} <= tables or counters_installed(connection) == set(TRIGGERS):
        return False
    counters_install(connection)
    return True


def counters_uninstall(connection: Any) -> None:
    """Drop the triggers (and PostgreSQL's functions behind them)."""
    with connection.cursor() as cursor:
        for name in TRIGGERS:
            if connection.vendor == "postgresql":
                cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON tasks_task;")
                cursor.execute(f"DROP FUNCTION IF EXISTS {name}();")
            else:
                cursor.execute(f"DROP TRIGGER IF EXISTS {name};")
