"""Benchmark the pages rendered by this checkout's templates against another revision's, in one process.

Template changes that only aim to be faster must render the same page: this script first renders each
page with both sets of templates and prints any difference (the per-request CSRF tokens aside), then
times them in alternating rounds A B A B … (A: the templates of `--against`, a git revision; B: the
working tree's), each round `--repeat` requests of the page, and prints each page's median times and
the median per-round ratio B/A. Python code is this checkout's for both: only the template folder
differs, so a template change is measured apart from everything else.

Creates a throwaway database (bench/throwaway_db.py) with alice, two projects and `--tasks` tasks
(as bench/pages_at_scale.py seeds them), logged in through django.test.Client.

    .venv/bin/python bench/template_ab.py --against HEAD [--rounds 15] [--repeat 4] [--tasks 1000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pm_bench .venv/bin/python bench/template_ab.py --against HEAD~1
"""
from __future__ import annotations

import argparse
import difflib
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pages_at_scale import seed  # noqa: E402
from bench.throwaway_db import throwaway_database  # noqa: E402

# A page's CSRF token is masked afresh for every response: equal pages differ only there.
CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def git(*args: str) -> bytes:
    """Run git in this checkout; return its output (a failure names the command and git's words)."""
    # A fixed command with its arguments as a list (no shell); git is found on PATH as a developer runs it.
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, check=False)  # noqa: S603, S607
    if done.returncode:
        sys.exit(f"git {' '.join(args)}: {done.stderr.decode().strip()}")
    return done.stdout


def templates_at(revision: str, into: Path) -> Path:
    """Extract the `templates/` folder of a git revision into a folder; return it."""
    # The revision is resolved to a commit first: whatever was typed reaches `git archive` as a hash.
    commit = git("rev-parse", "--verify", "--end-of-options", f"{revision}^{{commit}}").decode().strip()
    archive = git("archive", "--format=tar", commit, "templates")
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "templates"


def engine_for(folder: Path) -> Any:
    """The project's Django template engine (same options, tag libraries, context processors), reading `folder`."""
    from django.conf import settings
    from django.template.backends.django import DjangoTemplates

    config: dict[str, Any] = dict(settings.TEMPLATES[0])
    config.pop("BACKEND")
    return DjangoTemplates({**config, "NAME": "django", "DIRS": [folder]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the git revision whose templates are A")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=4, help="requests of a page per side per round")
    parser.add_argument("--tasks", type=int, default=1000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="template-ab-") as tmp, throwaway_database("template_ab"):
        from django.contrib.auth.models import User
        from django.db import connection
        from django.template import engines
        from django.test import Client

        from tasks.models import Task

        alice = User.objects.create_user("alice", first_name="Alice", last_name="Moreau")
        projects = seed(owner=alice, projects=[("Website Redesign", "WEB"), ("Mobile App", "MOB")],
                        count=args.tasks)
        client = Client()
        client.force_login(alice)
        first_task = Task.objects.order_by("pk").values_list("pk", flat=True).first()
        pages = ["/", "/tasks/", "/tasks/?page=10", f"/projects/{projects[0].pk}/", f"/tasks/{first_task}/"]
        sides = {"A": engine_for(templates_at(args.against, Path(tmp))), "B": engine_for(ROOT / "templates")}

        def get(side: str, url: str) -> bytes:
            # The engine cached under the alias every render() of the views reads (EngineHandler's own cache).
            engines._engines["django"] = sides[side]  # type: ignore[attr-defined]
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return CSRF.sub(rb"\1", response.content)

        differ = 0
        for url in pages:
            a, b = get("A", url), get("B", url)
            if a != b:
                differ += 1
                print(f"{url}: the pages differ")
                print("\n".join(list(difflib.unified_diff(a.decode().splitlines(), b.decode().splitlines(),
                                                          "A", "B", lineterm=""))[:40]))
        print(f"templates of {args.against} (A) against the working tree's (B); {args.tasks} tasks, "
              f"{args.rounds} rounds of {args.repeat} requests per side, database {connection.vendor}; "
              f"pages that differ: {differ}")
        for url in pages:
            times: dict[str, list[float]] = {"A": [], "B": []}
            ratios = []
            for i in range(args.rounds + 1):
                this_round = {}
                for side in ("AB" if i % 2 else "BA"):
                    start = time.perf_counter()
                    for _ in range(args.repeat):
                        get(side, url)
                    this_round[side] = (time.perf_counter() - start) * 1000 / args.repeat
                if i == 0:
                    continue  # both sides' first round parses and caches the templates
                for side, ms in this_round.items():
                    times[side].append(ms)
                ratios.append(this_round["B"] / this_round["A"])
            print(f"{url:<22} A {statistics.median(times['A']):6.1f} ms   B {statistics.median(times['B']):6.1f} ms   "
                  f"B/A {statistics.median(ratios):.3f}")
        if differ:
            sys.exit(1)


if __name__ == "__main__":
    main()
