"""A long list shows its first lines (by id) and says how many more it counts, on the page and in the download."""
from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client

from reports.figures import LIST_LINES
from reports.narrative import REPORT_TEXTS
from reports.pipeline import weekly_report_build
from reports.scope import ReportWindows, scope_for_user
from reports.week import IsoWeek
from tasks.models import Task
from tasks.services import task_create, task_update

from .fixture import EXPECTED_W47, EXPECTED_W48, NOW, Seeded, clock_at, local

pytestmark = pytest.mark.django_db
DUE = date(2026, 11, 25)


def _blocked_without_history(seeded: Seeded, alice: User, count: int) -> list[int]:
    """`count` tasks blocked since W47, due within W48, with no history: counted in SQL, not replayed."""
    made = Task.objects.bulk_create(Task(project=seeded.website, title=f"stuck {n}", status="blocked", due_date=DUE,
                                         created_by=alice, assignee=alice) for n in range(count))
    Task.objects.filter(pk__in=[t.pk for t in made]).update(created_at=local(11, 17))
    return [t.pk for t in made]


@pytest.fixture
def long_lists(seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[int]]:
    """Blocked tasks without history on both sides (by id) of one blocked within W48 and unblocked after."""
    first = _blocked_without_history(seeded, alice, 30)
    with clock_at(monkeypatch, local(11, 17)):
        middle = task_create(actor=alice, project=seeded.website, title="middle", due_date=DUE, assignee=alice)
    with clock_at(monkeypatch, local(11, 26)):
        task_update(actor=alice, task=middle, status="blocked")
    with clock_at(monkeypatch, local(12, 1)):
        task_update(actor=alice, task=middle, status="in_progress")
    last = _blocked_without_history(seeded, alice, 30)
    return {"w48": sorted([*seeded.ids(*EXPECTED_W48["blocked"]), *first, middle.pk, *last]),
            "w47": sorted([*seeded.ids(*EXPECTED_W47["blocked"]), *first, *last]),
            "overdue": sorted([*seeded.ids(*EXPECTED_W48["overdue"]), *first, middle.pk, *last])}


def test_a_list_holds_its_first_lines_by_id_and_counts_every_task(long_lists: dict[str, list[int]],
                                                                   seeded: Seeded, alice: User) -> None:
    scope = scope_for_user(user=alice, project_id=seeded.website.pk)
    report = weekly_report_build(scope=scope, windows=ReportWindows.for_week(IsoWeek(2026, 48), now=NOW))

    blocked, overdue = long_lists["w48"], long_lists["overdue"]
    assert report.current.blocked == tuple(blocked[:LIST_LINES])
    assert report.current.counts()["blocked"] == len(blocked) == 62
    assert report.more("blocked") == len(blocked) - LIST_LINES
    assert report.current.overdue == tuple(overdue[:LIST_LINES])
    assert report.current.counts()["overdue"] == len(overdue)
    assert report.previous.blocked == tuple(long_lists["w47"][:LIST_LINES])
    assert report.previous.counts()["blocked"] == len(long_lists["w47"])
    assert [t.id for t in report.lines("blocked")] == blocked[:LIST_LINES]
    # The paragraphs state the counts, not the lengths of the listed lines.
    assert f"{len(blocked)} blocked and {len(overdue)} overdue" in REPORT_TEXTS["en"](report)
    assert f"{len(blocked)} 个受阻，{len(overdue)} 个逾期" in REPORT_TEXTS["zh"](report)


def test_the_page_and_the_download_show_the_first_lines_and_how_many_more(
        long_lists: dict[str, list[int]], seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    client.force_login(alice)
    url = f"/projects/{seeded.website.pk}/reports/weekly/?week=2026-W48"
    with clock_at(monkeypatch, NOW):
        page = client.get(url).content.decode()
        markdown = client.get(url + "&format=md").content.decode()

    blocked, more = long_lists["w48"], len(long_lists["w48"]) - LIST_LINES
    section = page.split('id="list-blocked"')[1].split("</section>")[0]
    assert [int(i) for i in re.findall(r'href="/tasks/(\d+)/"', section)] == blocked[:LIST_LINES]
    assert f'<span class="count">{len(blocked)}</span>' in section
    assert f"… and {more} more" in section
    listed = markdown.split(f"## Blocked at week end ({len(blocked)})")[1].split("## ")[0]
    assert len(re.findall(r"^- \[", listed, flags=re.M)) == LIST_LINES
    assert f"- … and {more} more" in listed
    assert f"| blocked | {len(blocked)} |" in markdown
