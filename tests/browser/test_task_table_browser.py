"""The task table at phone and desktop widths: every row's cells and buttons in view, none overlapping."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from pm_assistant.vocabulary import STATUSES
from projects.models import Project
from tasks.services import task_create

from .shell import shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser

# Which cells of a row must not overlap one another (the phone card puts several on one line).
_CELLS = ("col-title", "col-project", "col-status", "col-priority", "col-assignee", "col-due", "col-progress",
          "col-actions")
_OVERLAPS = """(cells) => [...document.querySelectorAll('tr.task-row')].flatMap(row => {
  const boxes = cells.map(name => row.querySelector('.' + name)).filter(cell => cell && cell.offsetParent)
    .map(cell => [cell.className, [...cell.children].map(c => c.getBoundingClientRect())
      .reduce((a, r) => ({l: Math.min(a.l, r.left), r: Math.max(a.r, r.right), t: Math.min(a.t, r.top),
                          b: Math.max(a.b, r.bottom)}), {l: 1e9, r: -1e9, t: 1e9, b: -1e9})]);
  const found = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [n1, a] = boxes[i], [n2, b] = boxes[j];
    if (a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1) found.push(n1 + ' / ' + n2);
  }
  return found;
})"""


@pytest.mark.parametrize("viewport", [390, 1280, 1440])
def test_rows_fit_their_table_and_their_cells_do_not_overlap(page: Page, live_server: Any, viewport: int,
                                                              alice: User, website: Project) -> None:
    page.set_viewport_size({"width": viewport, "height": 900})
    late = timezone.localdate() - timedelta(days=3)
    for n, status in enumerate(STATUSES):
        task_create(actor=alice, project=website, title=f"Check the overdue layout of row {n}", assignee=alice,
                    status=status, priority="P0", due_date=late)
    log_in(page, live_server.url, "alice", "/tasks/")
    expect(page.locator("tr.task-row")).to_have_count(4)
    assert page.evaluate(_OVERLAPS, list(_CELLS)) == []
    wrap = page.locator(".table-wrap")
    assert wrap.evaluate("w => w.scrollWidth - w.clientWidth") <= 1  # no sideways scrolling to reach a button
    for button in page.locator("tr.task-row .row-actions button").all():
        box, table = button.bounding_box(), wrap.bounding_box()
        assert box is not None and table is not None
        assert table["x"] <= box["x"] and box["x"] + box["width"] <= table["x"] + table["width"] + 1
    shot(page, f"task-table-{viewport}")
