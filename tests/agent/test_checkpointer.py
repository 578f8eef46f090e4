"""The checkpointer: its connection settings, and what a paused run leaves in it."""
from __future__ import annotations

from typing import Any

import pytest
from psycopg.conninfo import conninfo_to_dict

from agent.graph.checkpointer import checkpointer, postgres_conninfo
from tasks.models import Task
from tasks.services import task_create
from tests.clients import api_client


def test_a_password_with_a_space_and_quotes_survives_the_connection_string() -> None:
    password = "pa ss'word\"\\ end"
    conninfo = postgres_conninfo({"NAME": "pm db", "USER": "pm", "PASSWORD": password, "HOST": "db.internal",
                                  "PORT": 5433})
    assert conninfo_to_dict(conninfo) == {"dbname": "pm db", "user": "pm", "password": password,
                                          "host": "db.internal", "port": "5433"}


def test_empty_settings_are_left_to_libpq_defaults() -> None:
    conninfo = postgres_conninfo({"NAME": "pm", "USER": "", "PASSWORD": "", "HOST": "", "PORT": ""})
    assert conninfo_to_dict(conninfo) == {"dbname": "pm"}


@pytest.mark.django_db
def test_a_paused_run_writes_one_checkpoint_and_resumes_from_it(alice: Any, website: Any) -> None:
    """Checkpoints are written when the run pauses, not after every step; the approval resumes from that one."""
    task = task_create(actor=alice, project=website, title="Old banner")
    client = api_client(alice)
    body = client.post("/api/assistant/requests/", {"action": "delete_task", "page_context": {
        "page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}},
        format="json").json()
    assert body["status"] == "needs_confirmation"
    with checkpointer() as saver:
        saved = list(saver.list({"configurable": {"thread_id": body["run_id"]}}))
    # The graph ran its steps (assemble, route, the capability) before pausing: one write, not one per step.
    assert len(saved) == 1 and saved[0].metadata["step"] >= 2, [c.metadata for c in saved]

    done = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/", {"decision": "approve"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "done"
    assert not Task.objects.filter(pk=task.pk).exists()
