"""Concurrent decisions on one confirmation card, on a live gunicorn server and PostgreSQL: one decision, one effect."""
from __future__ import annotations

import random
from typing import Any

import httpx
import psycopg
import pytest

from tests.gunicorn_server import gunicorn, migrated_app_database, requests_at_once

pytestmark = pytest.mark.long  # a gunicorn server on a fresh PostgreSQL database

ROUNDS = 50


def _decide_at_once(base: str, headers: dict[str, str], run_id: str, decisions: list[str]) -> list[httpx.Response]:
    """Send every decision at the same moment, each on its own connection."""
    path = f"/api/assistant/runs/{run_id}/confirm/"
    return requests_at_once(base, headers, [("POST", path, {"decision": d}) for d in decisions])


def test_concurrent_decisions_on_one_card() -> None:
    chance = random.Random(7)
    with migrated_app_database("the race test runs on a live server with PostgreSQL", prefix="pm_race") as served:
        assert served is not None
        url, env, token = served
        headers = {"Authorization": f"Token {token}"}
        with gunicorn(env, workers=4, threads=4) as base, httpx.Client(base_url=base, headers=headers,
                                                                        timeout=60) as api, \
                psycopg.connect(url) as db:
            projects = api.get("/api/projects/").json()
            project = (projects["results"] if isinstance(projects, dict) else projects)[0]["id"]
            outcomes: list[tuple[int, str, Any]] = []
            for round_ in range(ROUNDS):
                task = api.post("/api/tasks/", json={"project": project, "title": f"Race {round_}"}).json()["id"]
                page = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task}}
                card = api.post("/api/assistant/requests/", json={"action": "delete_task", "page_context": page})
                assert card.json()["status"] == "needs_confirmation", card.text
                run_id = card.json()["run_id"]
                decisions = [chance.choice(["approve", "reject"]) for _ in range(chance.randint(2, 8))]

                responses = _decide_at_once(base, headers, run_id, decisions)

                statuses = sorted(r.status_code for r in responses)
                assert statuses == [200] + [409] * (len(decisions) - 1), [r.text[:200] for r in responses]
                winner = decisions[[r.status_code for r in responses].index(200)]
                decided = db.execute("SELECT decision FROM agent_confirmation WHERE run_id = %s "
                                     "AND decided_at IS NOT NULL", (run_id,)).fetchall()
                deleted = db.execute("SELECT count(*) FROM tasks_taskactivity WHERE kind = 'deleted' "
                                     "AND task_title = %s", (f"Race {round_}",)).fetchone()
                exists = api.get(f"/api/tasks/{task}/").status_code == 200
                outcomes.append((len(decisions), winner, (decided, deleted, exists)))
                assert decided == [(winner,)]
                assert (deleted, exists) == (((1,), False) if winner == "approve" else ((0,), True))
    assert len(outcomes) == ROUNDS
    assert {n for n, _, _ in outcomes} >= {2, 8} and {w for _, w, _ in outcomes} == {"approve", "reject"}
