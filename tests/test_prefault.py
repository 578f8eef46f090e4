"""A new worker copies, ahead of its first request, the shared pages that request writes (pm_assistant/prefault.py).

Each test forks: the page map tells a page the process shares with its parent from one it copied.
"""
from __future__ import annotations

import ctypes
import json
import mmap
import os
from collections.abc import Callable
from typing import Any

import pytest

from pm_assistant import prefault

pytestmark = pytest.mark.skipif(not os.path.exists(prefault.PAGEMAP), reason="needs Linux's /proc/self/pagemap")

PAGE = mmap.PAGESIZE
PAGES = 8


def _private_block() -> tuple[mmap.mmap, int]:
    """Eight private anonymous pages, each filled with its own number; and its first page's number."""
    block = mmap.mmap(-1, PAGES * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for page in range(PAGES):
        block[page * PAGE:(page + 1) * PAGE] = bytes([page + 1]) * PAGE
    address = ctypes.addressof(ctypes.c_char.from_buffer(block))
    return block, address // PAGE


def _in_child(work: Callable[[], Any]) -> Any:
    """Run work in a fork of this process and return what it returned (as JSON)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            with os.fdopen(write_end, "w") as out:
                json.dump(work(), out)
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as answer:
        text = answer.read()
    os.waitpid(pid, 0)
    return json.loads(text)


@pytest.fixture(autouse=True)
def _forget_learned(monkeypatch: Any) -> None:
    monkeypatch.setattr(prefault, "_learned", [])


def test_learn_finds_the_shared_pages_a_first_request_writes_and_changes_nothing_here() -> None:
    block, first = _private_block()

    def first_request() -> None:
        block[2 * PAGE] = 0
        block[5 * PAGE + 7] = 0
        block[6 * PAGE + PAGE - 1] = 0
        _ = block[7 * PAGE]  # read: the page stays shared

    total = prefault.learn(first_request)
    learned = {start // PAGE + page for start, length in prefault._learned for page in range(length // PAGE)}
    assert learned & set(range(first, first + PAGES)) == {first + 2, first + 5, first + 6}
    assert total == len(learned) >= 3
    # The probe wrote in its own copy: this process's pages are as they were.
    assert [block[page * PAGE] for page in range(PAGES)] == list(range(1, PAGES + 1))
    assert block[6 * PAGE + PAGE - 1] == 7


def test_a_new_worker_copies_the_learned_pages_without_changing_them_and_shares_the_rest() -> None:
    block, first = _private_block()

    def worker() -> dict[str, Any]:
        shared = prefault.shared_pages()
        done = prefault.populate([(first * PAGE + 2 * PAGE, 2 * PAGE), (first * PAGE + 6 * PAGE, PAGE)])
        copied = sorted(page - first for page in shared & prefault.own_pages() if first <= page < first + PAGES)
        return {"done": done, "copied": copied, "data": [block[page * PAGE] for page in range(PAGES)]}

    assert _in_child(worker) == {"done": 2, "copied": [2, 3, 6], "data": list(range(1, PAGES + 1))}


def test_start_copies_in_a_thread_of_its_own_what_learn_found() -> None:
    block, first = _private_block()
    prefault.learn(lambda: block.__setitem__(3 * PAGE, 0))

    def worker() -> dict[str, Any]:
        shared = prefault.shared_pages()
        thread = prefault.start()
        assert thread is not None
        thread.join(10)
        copied = sorted(page - first for page in shared & prefault.own_pages() if first <= page < first + PAGES)
        return {"thread": thread.name, "copied": copied, "page": block[3 * PAGE]}

    assert _in_child(worker) == {"thread": "prefault", "copied": [3], "page": 4}


def test_nothing_learned_nothing_started() -> None:
    assert prefault.start() is None


def test_a_probe_that_fails_before_it_answers_leaves_workers_as_they_were(caplog: Any) -> None:
    def broken() -> None:
        raise RuntimeError("no database")

    assert prefault.learn(broken) == 0
    assert prefault._learned == [] and prefault.start() is None
    assert "the page probe found nothing" in caplog.text


def test_without_a_page_map_nothing_is_forked(monkeypatch: Any, caplog: Any, tmp_path: Any) -> None:
    import logging

    monkeypatch.setattr(prefault, "PAGEMAP", str(tmp_path / "pagemap"))
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked without a page map"))
    with caplog.at_level(logging.INFO, logger="pm_assistant.prefault"):
        assert prefault.learn(lambda: None) == 0
    assert "no page map here" in caplog.text


def test_runs_of_pages_become_one_range_each() -> None:
    assert prefault.as_ranges({7, 3, 4, 5, 9}) == [(3 * PAGE, 3 * PAGE), (7 * PAGE, PAGE), (9 * PAGE, PAGE)]
    assert prefault.as_ranges(set()) == []
