"""Task writes racing each other on a live gunicorn server and PostgreSQL: no 500, no loop in the tree.

Every task write locks its project's row first (tasks.services.lock_projects_of), so writes to one
project's tasks take turns: a write to a task deleted meanwhile is a 404, a child attached to a parent
deleted meanwhile a 400, two deletes in one subtree never deadlock, and of two opposite parent changes
one is refused as a loop.
"""
from __future__ import annotations

import httpx
import psycopg
import pytest

from tests.gunicorn_server import gunicorn, migrated_app_database, requests_at_once

pytestmark = pytest.mark.long  # a gunicorn server on a fresh PostgreSQL database

ROUNDS = 12


def test_racing_task_writes_answer_in_words_and_keep_the_tree_whole() -> None:
    with migrated_app_database("the race test runs on a live server with PostgreSQL", prefix="pm_tree") as served:
        assert served is not None
        url, env, token = served
        headers = {"Authorization": f"Token {token}"}
        with gunicorn(env, workers=3, threads=4) as base, httpx.Client(base_url=base, headers=headers,
                                                                        timeout=60) as api, \
                psycopg.connect(url, autocommit=True) as db:
            projects = api.get("/api/projects/").json()
            project = (projects["results"] if isinstance(projects, dict) else projects)[0]["id"]

            def new(title: str, parent: int | None = None) -> int:
                made = api.post("/api/tasks/", json={"project": project, "title": title, "parent": parent})
                assert made.status_code == 201, made.text
                return int(made.json()["id"])

            seen: dict[str, set[tuple[int, ...]]] = {}
            for round_ in range(ROUNDS):
                # A change to a task another request deletes: the delete wins or comes second.
                doomed = new(f"Doomed {round_}")
                update, delete = requests_at_once(base, headers, [
                    ("PATCH", f"/api/tasks/{doomed}/", {"status": "done"}), ("DELETE", f"/api/tasks/{doomed}/", None)])
                seen.setdefault("update vs delete", set()).add((update.status_code, delete.status_code))
                assert update.status_code in (200, 404) and delete.status_code == 200, (update.text, delete.text)

                # A child attached to a parent another request deletes.
                parent, child = new(f"Parent {round_}"), new(f"Child {round_}")
                attach, create, delete = requests_at_once(base, headers, [
                    ("PATCH", f"/api/tasks/{child}/", {"parent": parent}),
                    ("POST", "/api/tasks/", {"project": project, "title": f"Kid {round_}", "parent": parent}),
                    ("DELETE", f"/api/tasks/{parent}/", None)])
                seen.setdefault("attach vs delete", set()).add((attach.status_code, create.status_code))
                assert attach.status_code in (200, 400, 404) and create.status_code in (201, 400), \
                    (attach.text, create.text)
                assert delete.status_code == 200, delete.text

                # Deleting a parent and its subtask at once.
                top = new(f"Top {round_}")
                sub = new(f"Sub {round_}", parent=top)
                first, second = requests_at_once(base, headers, [("DELETE", f"/api/tasks/{top}/", None),
                                                                 ("DELETE", f"/api/tasks/{sub}/", None)])
                assert first.status_code == 200 and second.status_code in (200, 404), (first.text, second.text)

                # Two opposite parent changes: one of them would close a loop.
                a, b = new(f"A {round_}"), new(f"B {round_}")
                one, two = requests_at_once(base, headers, [("PATCH", f"/api/tasks/{a}/", {"parent": b}),
                                                            ("PATCH", f"/api/tasks/{b}/", {"parent": a})])
                assert sorted([one.status_code, two.status_code]) == [200, 400], (one.text, two.text)
                refused = one if one.status_code == 400 else two
                assert "parent" in refused.json()["error"]["fields"]

            # No task is its own ancestor, however the races fell.
            loops = db.execute("""
                WITH RECURSIVE up(start, id, depth) AS (
                    SELECT id, parent_id, 1 FROM tasks_task WHERE parent_id IS NOT NULL
                    UNION ALL
                    SELECT up.start, t.parent_id, up.depth + 1 FROM up JOIN tasks_task t ON t.id = up.id
                    WHERE t.parent_id IS NOT NULL AND up.depth < 50)
                SELECT count(*) FROM up WHERE id = start""").fetchone()
            assert loops == (0,)
    assert seen["update vs delete"] and seen["attach vs delete"]
