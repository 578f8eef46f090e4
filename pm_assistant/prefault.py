"""Copy in advance, in a new worker, the shared memory pages its first request would copy one fault at a time.

A forked gunicorn worker shares the master's memory until it writes to it; running Python writes to
almost every object it touches (reference counts, the interpreter's inline caches), so a worker's first
quick button copied about 3 000 pages, each on a page fault taken while it held the interpreter lock
(docs/PERFORMANCE.md). Which pages a request writes is the same in every worker: they are forked from
one master whose memory does not move after `gc.freeze()`.

`learn` finds them once, in the master: it forks a probe process, lists the pages the probe shares with
the master, runs a first request in the probe, and keeps the shared pages that became the probe's own
(the kernel's page map marks a page "exclusively mapped" once it was copied). `start` then copies those
pages in each new worker with one `madvise(MADV_POPULATE_WRITE)` call per run of pages, in a thread: the
kernel copies them (the data does not change) while the thread has released the interpreter lock, on
the other core, as the worker opens its database pool. The cost is the pages themselves, about 14 MB per
worker, which its first request would have copied anyway.

Linux only (5.14 or later for MADV_POPULATE_WRITE); anywhere else, or if the page map cannot be read,
`learn` logs why and finds nothing, and `start` does nothing: the worker copies pages as it goes.
"""
from __future__ import annotations

import array
import ctypes
import errno
import json
import logging
import mmap
import os
import threading
from collections.abc import Callable, Iterator

logger = logging.getLogger(__name__)

MADV_POPULATE_WRITE = 23  # <sys/mman.h>, Linux 5.14
PAGE = mmap.PAGESIZE
# /proc/self/pagemap: one 64-bit entry per virtual page (Documentation/admin-guide/mm/pagemap.rst).
_PRESENT = 1 << 63
_EXCLUSIVE = 1 << 56
MAPS = "/proc/self/maps"
PAGEMAP = "/proc/self/pagemap"

Ranges = list[tuple[int, int]]  # (start address, length in bytes), page-aligned

# The pages learned in this process (the master); forked workers inherit the list.
_learned: Ranges = []


def _private_writable_mappings() -> Iterator[tuple[int, int]]:
    """(start, end) of each private writable mapping: the heap, the arenas, the modules' data."""
    with open(MAPS) as maps:
        for line in maps:
            fields = line.split()
            if fields[1].startswith("rw") and fields[1][3] == "p":
                start, end = (int(address, 16) for address in fields[0].split("-"))
                yield start, end


def pages_where(mask: int, value: int) -> set[int]:
    """Numbers of this process's private writable pages whose page-map entry & mask == value."""
    found: set[int] = set()
    with open(PAGEMAP, "rb", buffering=0) as pagemap:
        for start, end in _private_writable_mappings():
            pagemap.seek(start // PAGE * 8)
            entries = array.array("Q")
            entries.frombytes(pagemap.read((end - start) // PAGE * 8))
            first = start // PAGE
            found.update(first + index for index, entry in enumerate(entries) if entry & mask == value)
    return found


def shared_pages() -> set[int]:
    """Pages in memory and mapped by another process too (in a fresh fork: the parent)."""
    return pages_where(_PRESENT | _EXCLUSIVE, _PRESENT)


def own_pages() -> set[int]:
    """Pages in memory that only this process maps (those it copied, or allocated itself)."""
    return pages_where(_PRESENT | _EXCLUSIVE, _PRESENT | _EXCLUSIVE)


def as_ranges(pages: set[int]) -> Ranges:
    """Runs of consecutive page numbers, as (address, length) for madvise."""
    runs: list[list[int]] = []
    for page in sorted(pages):
        if runs and runs[-1][1] == page:
            runs[-1][1] = page + 1
        else:
            runs.append([page, page + 1])
    return [(first * PAGE, (end - first) * PAGE) for first, end in runs]


def _probe(first_request: Callable[[], None], after: Callable[[], None], answer: int) -> None:
    """In the forked probe: run the request, write the pages it copied to `answer` as JSON, run `after`,
    never return."""
    status = 1
    try:
        before = shared_pages()
        first_request()
        copied = before & own_pages()
        with os.fdopen(answer, "w") as out:
            json.dump(as_ranges(copied), out)
        after()
        status = 0
    finally:
        os._exit(status)  # no atexit handlers, no flushing of the parent's buffers: the probe leaves nothing


def learn(first_request: Callable[[], None], after: Callable[[], None] = lambda: None) -> int:
    """Learn which shared pages `first_request` writes in a fresh fork of this process; return how many.

    Call it last before the process forks its workers (after gc.freeze), with no connection open: the
    probe is a fork like them. `first_request`, then `after` (closing what it opened), run in the probe
    only; what they do there is discarded.
    """
    global _learned
    _learned = []
    if not (os.path.exists(PAGEMAP) and hasattr(os, "fork")):
        logger.info("no page map here (%s): new workers copy their pages as they run", PAGEMAP)
        return 0
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _probe(first_request, after, write_end)
    os.close(write_end)
    with os.fdopen(read_end) as answer:
        text = answer.read()
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass  # gunicorn's SIGCHLD handler reaped it first
    try:
        _learned = [(int(start), int(length)) for start, length in json.loads(text)]
    except (ValueError, TypeError):
        logger.warning("the page probe found nothing (it failed before it answered): new workers copy "
                       "their pages as they run")
        return 0
    pages = sum(length for _, length in _learned) // PAGE
    logger.info("a first request copies %d shared pages; each new worker copies them as it starts", pages)
    return pages


def populate(ranges: Ranges) -> int:
    """Copy these pages into this process now; return how many ranges the kernel took.

    ctypes releases the interpreter lock for each call: other threads run Python meanwhile. A range no
    longer mapped is skipped; a kernel without MADV_POPULATE_WRITE (EINVAL) stops it at the first.
    """
    madvise = ctypes.CDLL(None, use_errno=True).madvise
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    madvise.restype = ctypes.c_int
    done = 0
    for start, length in ranges:
        if madvise(start, length, MADV_POPULATE_WRITE) == 0:
            done += 1
        elif ctypes.get_errno() == errno.EINVAL:
            logger.info("this kernel cannot populate pages ahead (MADV_POPULATE_WRITE)")
            break
    return done


def start() -> threading.Thread | None:
    """In a new worker: copy the learned pages in a thread of their own; None when nothing was learned."""
    if not _learned:
        return None
    thread = threading.Thread(target=populate, args=(_learned,), name="prefault", daemon=True)
    thread.start()
    return thread
