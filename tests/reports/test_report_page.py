"""The full report page and its Markdown download show the same verified figures."""
from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tasks.services import task_create, task_delete

from .fixture import NOW, Seeded, clock_at, local

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_links_every_listed_task_and_the_download_has_the_same_figures(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"/projects/{seeded.website.pk}/reports/weekly/?week=2026-W48"
    with clock_at(monkeypatch, NOW):
        page = _client(alice).get(url)
        markdown = _client(alice).get(url + "&format=md")

    assert page.status_code == 200
    html = page.content.decode()
    overdue = html.split('id="list-overdue"')[1].split("</section>")[0]
    assert sorted(int(i) for i in re.findall(r'href="/tasks/(\d+)/"', overdue)) == \
        seeded.ids("reopened", "blocked", "due_sunday")
    assert markdown["Content-Disposition"] == 'attachment; filename="weekly-report-WEB-2026-W48.md"'
    text = markdown.content.decode()
    assert "| completed | 2 | 2 |" in text and "| overdue | 3 | 1 |" in text and "| deleted | 1 | 0 |" in text
    assert "## Overdue at week end (3)" in text
    assert f"/tasks/{seeded.tasks['blocked'].pk}/" in text


def test_a_project_i_am_not_in_is_not_found_and_a_bad_week_is_named(
        seeded: Seeded, alice: User) -> None:
    other = seeded.tasks["hidden"].project_id
    assert _client(alice).get(f"/projects/{other}/reports/weekly/").status_code == 404
    bad = _client(alice).get("/reports/weekly/?week=2026-W60")
    assert bad.status_code == 400
    assert "week: 2026-W60 is not an ISO week." in bad.content.decode()


def test_a_title_cannot_break_the_markdown(seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    task = seeded.tasks["due_sunday"]
    task.title = "[click](http://evil.example) | # heading"
    task.save(update_fields=["title"])
    with clock_at(monkeypatch, NOW):
        text = _client(alice).get(f"/projects/{seeded.website.pk}/reports/weekly/?week=2026-W48&format=md")

    line = next(row for row in text.content.decode().splitlines() if f"/tasks/{task.pk}/" in row)
    assert line.endswith(r"\[click\](http://evil.example) \| \# heading")


def test_a_week_that_has_not_begun_is_named_and_the_last_full_week_shown(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        future = _client(alice).get("/reports/weekly/?week=2030-W01")
        this_week = _client(alice).get("/reports/weekly/?week=2026-W49")
    assert future.status_code == 400
    html = future.content.decode()
    assert "week: 2030-W01 has not begun yet; the latest is 2026-W49, this week." in html
    assert "Week 2026-W48" in html  # what is shown instead
    assert this_week.status_code == 200


def test_a_week_across_new_year_names_both_years(seeded: Seeded, alice: User,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        page = _client(alice).get("/reports/weekly/?week=2026-W01")
    assert "Mon 29 Dec 2025 – Sun 4 Jan 2026" in page.content.decode()


def test_the_current_week_links_no_week_after_it(seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        current = _client(alice).get("/reports/weekly/?week=2026-W49").content.decode()
        last = _client(alice).get("/reports/weekly/?week=2026-W48").content.decode()
    assert 'rel="next"' not in current and 'max="2026-W49"' in current
    assert 'href="/reports/weekly/?week=2026-W49" rel="next"' in last


def test_a_finished_week_says_its_figures_were_recomputed_after_a_later_deletion(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"/projects/{seeded.website.pk}/reports/weekly/?week=2026-W48"
    with clock_at(monkeypatch, NOW):
        before = _client(alice).get(url).content.decode()
    with clock_at(monkeypatch, local(12, 1, 15)):  # Tuesday of W49: W48 is over
        task_delete(actor=alice, task=seeded.tasks["slipped"])
    with clock_at(monkeypatch, NOW):
        after = html.unescape(_client(alice).get(url).content.decode())
        markdown = _client(alice).get(url + "&format=md").content.decode()

    assert "Recomputed" not in before
    assert "1 created" in before and "0 created" in after  # the deleted task was W48's one new task
    note = ("Recomputed after later deletions: 1 task was deleted after the week ended (the last on 2026-12-01); "
            "deleted tasks no longer count in this week's figures.")
    assert note in after and note in markdown
    assert "Last week, 2026-W48 (2026-11-23 to 2026-11-29)" in after


def test_the_week_still_going_is_reported_so_far_not_as_ended(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        page = _client(alice).get(f"/projects/{seeded.website.pk}/reports/weekly/?week=this").content.decode()

    assert "This week so far, 2026-W49 (from 2026-11-30)" in page
    assert re.search(r"Now \d+ tasks? (is|are) open", page)
    assert "At the end of the week" not in page and "Overdue now" in page and "Overdue at week end" not in page


def test_a_task_made_and_deleted_after_the_week_does_not_mark_it_recomputed(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"/projects/{seeded.website.pk}/reports/weekly/?week=2026-W48"
    with clock_at(monkeypatch, NOW):
        before = _client(alice).get(url).content.decode()
    with clock_at(monkeypatch, local(12, 1, 15)):  # W49: made after W48 ended, then deleted
        task_delete(actor=alice, task=task_create(actor=alice, project=seeded.website, title="Made later"))
    with clock_at(monkeypatch, NOW):
        after = html.unescape(_client(alice).get(url).content.decode())
    assert "Recomputed" not in after
    figures = re.compile(r'<section class="[^"]*report-figures.*?</section>', re.S)
    assert len(figures.findall(after)) == 1
    assert figures.findall(after) == figures.findall(html.unescape(before))
