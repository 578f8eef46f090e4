"""The weekly report and risk answers in a real Chromium, at the phone and the desktop size.

Which week an answer reports is said on it, the week still going says "now", a finished week says
when later deletions changed its figures, the report page and the answer cards pass axe, and the
risk chart has a legend, an axis title and each bar's score, and shows the points of each factor.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create, task_delete, task_update
from tests.reports.fixture import clock_at

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def last_week(monkeypatch: pytest.MonkeyPatch, alice: User, carol: User, website: Project) -> list[Task]:
    """Last week's work: tasks completed and created, short and long titles, so list lines wrap on a phone."""
    then = timezone.now() - timedelta(days=7)
    today = timezone.localdate()
    with clock_at(monkeypatch, then):
        # A short title is a short link in a line of key and assignee: it must stand out by more than colour.
        done = [task_create(actor=alice, project=website, assignee=carol, title=title)
                for title in ("QA pass", "Rewrite the onboarding checklist for the new support hires", "Proofread")]
        for task in done:
            task_update(actor=alice, task=task, status="done")
        late = task_create(actor=alice, project=website, assignee=alice, due_date=today - timedelta(days=12),
                           title="Review the data retention policy with the legal team before the audit")
    return [*done, late]


def _ask(page: Page, text: str) -> Any:
    open_assistant(page)
    page.fill("#assistant-message", text)
    page.click("#assistant .assistant-form button[type=submit]")
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-reply")).to_be_visible()
    return run


def test_the_report_button_and_the_typed_request_each_say_which_week(
        page: Page, live_server: Any, width: str, alice: User, last_week: list[Task]) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    button = page.locator("#assistant [data-assistant-action=weekly_report]")
    expect(button).to_have_text("Last week's report")
    button.click()
    run = page.locator("#assistant-transcript .run-done").last
    # Said once: the answer names the week, so the card under it does not again.
    expect(run.locator(".run-reply")).to_contain_text("Last week, ")
    expect(run.locator("[data-report-week]")).to_have_count(0)
    assert run.inner_text().count("Last week, ") == 1
    expect(run.locator(".run-reply")).to_contain_text("At the end of the week")
    assert_accessible(page)
    shot(page, f"report-last-week-{width}")

    run = _ask(page, "本周周报")
    expect(run.locator(".run-reply")).to_contain_text("本周截至目前，")
    assert run.inner_text().count("本周截至目前") == 1
    # Asked in Chinese, answered in Chinese: "目前有" (now), never "周末时" (at the end of the week).
    expect(run.locator(".run-reply")).not_to_contain_text("周末时")
    expect(run.locator(".run-reply")).to_contain_text("目前有 1 个任务未完成")
    assert_accessible(page)
    shot(page, f"report-this-week-{width}")
    run.locator("[data-report-link]").click()
    expect(page.locator("main [data-report-week]")).to_contain_text("This week so far")
    expect(page.locator("#h-overdue")).to_have_text("Overdue now")
    expect(page.locator(".report-text")).not_to_contain_text("At the end of the week")
    expect(page.locator(".report-text")).to_contain_text("Now ")


def test_a_finished_week_says_its_figures_changed_after_a_later_deletion_and_passes_axe(
        page: Page, live_server: Any, width: str, alice: User, last_week: list[Task]) -> None:
    log_in(page, live_server.url, "alice", "/reports/weekly/")
    expect(page.locator("main [data-report-week]")).to_contain_text("Last week, ")
    expect(page.locator("main [data-report-recomputed]")).to_have_count(0)
    expect(page.locator("#list-completed li")).to_have_count(3)
    # The task lines wrap on a phone: their links must stand out by more than colour.
    assert_accessible(page)

    task_delete(actor=alice, task=last_week[0])
    today = timezone.localdate().isoformat()
    page.reload()
    note = page.locator("main [data-report-recomputed]")
    expect(note).to_contain_text("Recomputed after later deletions: 1 task was deleted after the week ended")
    expect(note).to_contain_text(f"the last on {today}")
    expect(page.locator("#list-completed li")).to_have_count(2)
    assert_accessible(page)
    shot(page, f"report-recomputed-{width}")

    open_assistant(page)
    page.click("#assistant [data-assistant-action=weekly_report]")
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-reply")).to_contain_text("1 task was deleted after the week ended")
    # Said once: the answer carries the note, so the card under it does not repeat it.
    expect(run.locator("[data-report-recomputed]")).to_have_count(0)
    assert run.inner_text().count("deleted after the week ended") == 1
    shot(page, f"sidebar-report-said-once-{width}")
    assert_accessible(page)


def test_the_risk_chart_explains_its_colours_axis_and_values_and_adds_the_factors_points(
        page: Page, live_server: Any, width: str, alice: User, website: Project, last_week: list[Task]) -> None:
    blocked = task_create(actor=alice, project=website, title="Waiting on legal", status="blocked",
                          due_date=timezone.localdate() - timedelta(days=3))
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/")
    open_assistant(page)
    page.click("#assistant [data-assistant-action=risk_analysis]")
    run = page.locator("#assistant-transcript .run-done").last
    canvas = run.locator("canvas[data-rendered='1']")
    expect(canvas).to_have_count(1)
    chart = canvas.evaluate("""c => { const ch = Chart.getChart(c); return {
        legend: ch.options.plugins.legend.display, title: ch.options.scales.x.title.text,
        stacked: ch.options.scales.x.stacked, series: ch.data.datasets.map(d => d.label),
        plugins: ch.config.plugins.map(p => p.id), labels: ch.data.labels}; }""")
    assert chart["legend"] is True
    assert chart["title"] == ""  # the axis title is the figure's caption, not drawn in the canvas
    expect(run.locator("figure.risk-chart figcaption")).to_have_text("Risk score (0–100): points from each factor")
    assert chart["stacked"] is True and "scoreLabels" in chart["plugins"]
    assert set(chart["series"]) >= {"Overdue", "Blocked"}  # one series per factor, named in the legend
    assert any("Waiting on legal" in label for label in chart["labels"])  # not the key alone
    table = run.locator("figure.risk-chart table")
    row = table.locator("tbody tr", has_text="Waiting on legal")
    expect(row.locator("td").nth(2)).to_contain_text("Overdue +")
    expect(row.locator("td").nth(2)).to_contain_text("Blocked +")
    assert blocked.pk
    run.locator("figure.risk-chart").scroll_into_view_if_needed()
    assert_accessible(page)
    shot(page, f"risk-chart-{width}")


def test_the_sidebar_report_tiles_keep_each_label_whole(page: Page, live_server: Any, width: str, alice: User,
                                                        last_week: list[Task]) -> None:
    """"Completed" was split over two lines ("Complete/d") in the sidebar at the desktop size."""
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.click("#assistant [data-assistant-action=weekly_report]")
    tiles = page.locator("#assistant-transcript .run-done .run-figures dt")
    expect(tiles).to_have_count(4)
    lines = page.evaluate("""() => [...document.querySelectorAll('#assistant-transcript .run-figures dt')].map(dt => {
        const range = document.createRange(); range.selectNodeContents(dt);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        return {text: dt.textContent, lines: tops.size, fits: dt.scrollWidth <= dt.clientWidth + 1}; })""")
    assert all(tile["lines"] == 1 and tile["fits"] for tile in lines), lines
    shot(page, f"sidebar-report-tiles-{width}")
    assert_accessible(page)


# Each drawn chart: its tick labels as drawn (a label may be several lines), the widest line's width in the
# tick font, the room left of the plot for them, and whether the canvas draws an axis title.
CHART_LABELS = """c => { const ch = Chart.getChart(c), y = ch.scales.y, ctx = ch.ctx;
    ctx.save(); ctx.font = Chart.helpers.toFont(y.options.ticks.font).string;
    const drawn = y.ticks.map(t => [].concat(t.label));
    const widest = Math.max(...drawn.flat().map(line => ctx.measureText(line).width));
    ctx.restore();
    return {drawn, widest, room: y.width - y.options.ticks.padding, left: y.left, narrow: ch.width < 500,
            data: ch.data.labels, title: ch.options.scales.x.title.display}; }"""

# A caption whose text needs more room than it has is cut or squashed.
WHOLE = "el => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().height > 0"


def test_the_risk_charts_labels_and_caption_are_whole_on_the_page_and_in_the_sidebar(
        page: Page, live_server: Any, width: str, alice: User, website: Project, last_week: list[Task]) -> None:
    """At 1440 the sidebar's chart cut its labels and squashed its axis title into the plot's width."""
    task_create(actor=alice, project=website, title="Waiting on legal", status="blocked",
                due_date=timezone.localdate() - timedelta(days=3))
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/")
    open_assistant(page)
    page.click("#assistant [data-assistant-action=risk_analysis]")
    charts = page.locator("figure.risk-chart:has(canvas[data-rendered='1'])")
    expect(charts).to_have_count(2)  # the project page's panel and the sidebar's answer
    for chart in charts.all():
        chart.scroll_into_view_if_needed()
        caption = chart.locator("figcaption")
        expect(caption).to_have_text("Risk score (0–100): points from each factor")
        assert caption.evaluate(WHOLE)
        shown = chart.locator("canvas").evaluate(CHART_LABELS)
        assert shown["title"] is False
        assert shown["left"] >= 0 and shown["widest"] <= shown["room"] + 0.5, shown
        keys = [label.split(" ")[0] for label in shown["data"]]
        # Every label names its task's whole key; a narrow chart the key alone (the list above has the title).
        assert [lines[0].split(" ")[0] for lines in shown["drawn"]] == keys, shown
        if shown["narrow"]:
            assert shown["drawn"] == [[key] for key in keys], shown
        else:
            assert any(" ".join(lines).endswith("Waiting on legal") for lines in shown["drawn"]), shown
    shot(page, f"risk-charts-whole-{width}")
    assert_accessible(page)
