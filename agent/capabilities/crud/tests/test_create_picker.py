"""Create with no project in view: the reply asks which project, listing the user's own as choices."""
from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from projects.models import Project
from tasks.models import Task
from tests.helpers import post_request

pytestmark = pytest.mark.django_db
MESSAGE = "create task 'Write release notes' P1"
HOME = {"page": "home", "origin": "sidebar"}


def test_create_from_home_asks_for_the_project_with_the_users_projects(alice: User, website: Project,
                                                                       mobile: Project, platform: Project) -> None:
    body = post_request(alice, HOME, message=MESSAGE)
    assert body["status"] == "needs_clarification"
    assert "Which project should “Write release notes” go in?" in body["reply"]
    choices = body["data"]["project_choices"]
    assert [c["key"] for c in choices] == [mobile.key, website.key]  # by name; not bob's Data Platform
    assert not Task.objects.filter(title="Write release notes").exists()

    picked = post_request(alice, {**HOME, "selectedEntity": {"type": "project", "id": website.pk}}, message=MESSAGE)
    assert picked["status"] == "done", picked
    task = Task.objects.get(title="Write release notes")
    assert (task.project_id, task.priority) == (website.pk, "P1")


def test_a_viewer_only_user_is_told_no_project_takes_tasks(dave: User, website: Project) -> None:
    body = post_request(dave, HOME, message=MESSAGE)
    assert body["status"] == "error" and body["error_code"] == "forbidden"


def test_the_sidebar_renders_the_picker_as_buttons_that_send_the_message_again(alice: User,
                                                                               website: Project) -> None:
    client = Client()
    client.force_login(alice)
    html = client.post("/assistant/request/", {"message": MESSAGE, "page_context": '{"page": "home", '
                                               '"origin": "sidebar"}'}).content.decode()
    assert 'class="assistant-quick project-picker"' in html
    assert f"""data-selected-entity='{{"type":"project","id":{website.pk}}}'""" in html
    assert "hx-vals='{&quot;message&quot;: &quot;create task &#x27;Write release notes&#x27; P1&quot;}'" in html


def test_the_picker_shows_closed_once_its_message_was_sent_again_in_any_browser(
        alice: User, website: Project, mobile: Project) -> None:
    def sidebar(client: Client, message: str, page_context: str) -> str:
        return client.post("/assistant/request/", {"message": message, "page_context": page_context}).content.decode()

    def pickers(client: Client) -> list[str]:
        html = client.get("/").content.decode()
        return re.findall(r'<div class="assistant-quick project-picker".*?</div>', html, re.S)

    client = Client()
    client.force_login(alice)
    sidebar(client, MESSAGE, '{"page": "home", "origin": "sidebar"}')
    sidebar(client, "what is overdue?", '{"page": "home", "origin": "sidebar"}')  # another message: still open
    [picker] = pickers(client)
    assert "data-answered" not in picker and "disabled" not in picker
    sidebar(client, MESSAGE, json.dumps({"page": "home", "origin": "sidebar",
                                         "selectedEntity": {"type": "project", "id": website.pk}}))
    assert Task.objects.filter(title="Write release notes").count() == 1
    [picker] = pickers(client)  # a reload, or another browser with the same conversation
    assert "data-answered" in picker and picker.count(" disabled") == 2
