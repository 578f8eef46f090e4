"""The composer's "#" references: the user's own tasks and projects only; bad input refused naming the field."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from projects.models import Project
from tasks.services import task_create


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_references_are_the_users_own_by_title_key_or_number(alice: User, bob: User, website: Project,
                                                            platform: Project) -> None:
    mine = task_create(actor=alice, project=website, title="Fix the login page")
    theirs = task_create(actor=bob, project=platform, title="Login service")
    client = _client(alice)
    by_title = client.get("/assistant/mentions/", {"q": "login"}).content.decode()
    assert mine.key in by_title and theirs.key not in by_title and "Login service" not in by_title
    for typed in (mine.key, mine.key.lower(), str(mine.pk)):
        assert f'data-insert="{mine.key}"' in client.get("/assistant/mentions/", {"q": typed}).content.decode()
    assert "Login service" not in client.get("/assistant/mentions/", {"q": str(theirs.pk)}).content.decode()
    assert f'data-insert="{website.name}"' in client.get("/assistant/mentions/", {"q": "web"}).content.decode()
    assert platform.name not in client.get("/assistant/mentions/", {"q": "plat"}).content.decode()


def test_a_bad_reference_query_is_refused_naming_the_field(alice: User) -> None:
    client = _client(alice)
    for query in ({"q": "x" * 61}, {"q": "a\x00"}, {"qq": "x"}, {}):
        response = client.get("/assistant/mentions/", query)
        assert response.status_code == 400, query
        assert response.content.decode().split(":")[0] in ("q", "qq")
    # A number past any id is no key: it is looked for in titles, and nothing is found (no 500).
    for number in ("9" * 19, "9" * 30):
        response = client.get("/assistant/mentions/", {"q": number})
        assert response.status_code == 200 and b"No task or project of yours matches." in response.content


def test_anonymous_callers_are_sent_to_log_in(db: object) -> None:
    assert Client().get("/assistant/mentions/", {"q": "x"}).status_code == 302
