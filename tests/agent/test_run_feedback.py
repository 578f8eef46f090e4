"""Feedback on answers: the owner rates a finished answer up or down with an optional reason, once per run
(rating again replaces it); anyone else's run is not found; staff see it in the admin."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from agent.models import Run, RunFeedback
from agent.run.feedback import run_feedback_give


def _browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_owner_rates_an_answer_and_can_change_it(alice: User) -> None:
    run = Run.objects.create(user=alice, message="what is overdue?", status="done", reply="Nothing is.")
    url = f"/assistant/runs/{run.pk}/feedback/"

    response = _browser(alice).post(url, {"rating": "down"})
    assert response.status_code == 200 and "Thanks, noted." in response.content.decode()
    assert 'aria-pressed="true"' in response.content.decode()
    _browser(alice).post(url, {"rating": "down", "reason": "  It missed   WEB-3  "})
    feedback = RunFeedback.objects.get()
    assert (feedback.run_id, feedback.user, feedback.rating, feedback.reason) == (run.pk, alice, "down",
                                                                                  "It missed WEB-3")
    run_feedback_give(user=alice, run_id=run.pk, rating="up")
    assert RunFeedback.objects.get().rating == "up"


def test_bad_feedback_is_refused_naming_the_field_and_nothing_is_stored(alice: User, bob: User) -> None:
    run = Run.objects.create(user=alice, message="what is overdue?", status="done")
    url = f"/assistant/runs/{run.pk}/feedback/"
    refused = _browser(alice).post(url, {"rating": "sideways"})
    assert refused.status_code == 400 and "rating" in refused.content.decode()
    assert _browser(alice).post(url, {"rating": "up", "reason": "x" * 501}).status_code == 400
    assert _browser(bob).post(url, {"rating": "up"}).status_code == 404
    running = Run.objects.create(user=alice, message="still going", status="running")
    assert _browser(alice).post(f"/assistant/runs/{running.pk}/feedback/", {"rating": "up"}).status_code == 409
    assert not RunFeedback.objects.exists()


def test_a_chinese_answer_offers_feedback_in_chinese(alice: User) -> None:
    run = Run.objects.create(user=alice, message="我有哪些逾期任务？", status="done", reply="没有。")
    html = _browser(alice).post(f"/assistant/runs/{run.pk}/feedback/", {"rating": "up"}).content.decode()
    assert "谢谢，已记录。" in html and "有帮助" in html


def test_staff_see_the_feedback_in_the_admin(alice: User) -> None:
    staff = User.objects.create_superuser("root", "root@example.com", "pw")
    run = Run.objects.create(user=alice, message="what is overdue?", status="done")
    run_feedback_give(user=alice, run_id=run.pk, rating="down", reason="wrong week")
    listing = _browser(staff).get("/admin/agent/runfeedback/").content.decode()
    assert "wrong week" in listing
    assert "wrong week" in _browser(staff).get(f"/admin/agent/run/{run.pk}/change/").content.decode()
