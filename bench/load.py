"""Load test: the Dockerfile's gunicorn on loopback under a fixed mix of pages and quick buttons.

Seeds a fresh database (PostgreSQL next to DATABASE_URL, else SQLite in a temp dir) with one user,
two projects and `--tasks` tasks, starts gunicorn with the command line of the Dockerfile's CMD
(bound to a free loopback port), warms it up, then lets `--clients` clients loop over the mix
for `--seconds` and prints throughput, p50/p95/p99, the errors (any non-2xx; 0 required) and how
the timed requests spread over the workers (from gunicorn's access log: a worker's pid per line).

The mix, per client round: home, task list, a deep task-list page, a project page, a task page,
the "my overdue" quick button and the Done row button on the next todo task (round again
when all are done).

    .venv/bin/python bench/load.py [--seconds 30] [--clients 8] [--tasks 1000] [--workers 3] [--threads 4]

To choose workers and threads, `--compare 3x4 5x2 …` serves every setting side by side and drives
them in turn, `--seconds` each, for `--rounds` rounds, then prints each one's figures and its median
per-round ratios (throughput, p99) to the first.

    .venv/bin/python bench/load.py --compare 3x4 5x2 6x1 --seconds 20 --rounds 3
"""
from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.outage import database, logged_in  # noqa: E402
from tests.gunicorn_server import free_port, manage, server_env  # noqa: E402

SEED = """
from datetime import timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token
from projects.models import Membership, Project
from tasks.models import Task
alice = User.objects.create_user("alice", password="demo")
today = timezone.localdate()
projects = []
for name, key in (("Website Redesign", "WEB"), ("Mobile App", "MOB")):
    p = Project.objects.create(owner=alice, name=name, key=key)
    Membership.objects.create(user=alice, project=p, role="owner")
    projects.append(p)
statuses = ("todo", "in_progress", "blocked", "done")
Task.objects.bulk_create([Task(project=projects[i % 2], title=f"Task {{i}}", status=statuses[i % 4],
    priority=f"P{{i % 4}}", assignee=alice if i % 3 else None, due_date=today + timedelta(days=(i % 41) - 20),
    created_by=alice) for i in range({tasks})], batch_size=5000)
from django.db import connection
if connection.vendor == "postgresql":
    # As autovacuum leaves tables within a minute of a bulk load: statistics and the visibility map.
    # Without them the planner takes the tables for empty and sorts every row of a list page.
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
print(Token.objects.create(user=alice).key, projects[0].pk,
      *Task.objects.filter(status="todo").order_by("pk").values_list("pk", flat=True))
"""


def dockerfile_command() -> list[str]:
    """The CMD of the Dockerfile, as an argv list."""
    for line in reversed((ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()):
        if line.startswith("CMD "):
            argv: list[str] = json.loads(line[4:])
            return argv
    raise RuntimeError("the Dockerfile has no CMD")


@contextmanager
def served(env: dict[str, str]) -> Iterator[tuple[str, Path]]:
    """Run the Dockerfile's gunicorn command on a free loopback port; yield its base URL and its access
    log, which names the worker (pid) of each request."""
    with tempfile.TemporaryDirectory(prefix="pm-load-") as folder:
        log = Path(folder) / "access.log"
        log.touch()
        logged = {**env, "GUNICORN_ACCESS_LOG": str(log), "GUNICORN_CMD_ARGS": "--access-logformat %(p)s"}
        with served_process(logged) as (base, _):
            yield base, log


def spread(log: Path, after: int) -> list[int]:
    """Requests per worker in the access log after its first `after` lines, most first."""
    lines = log.read_text().splitlines()[after:]
    return sorted(collections.Counter(lines).values(), reverse=True)


def lines_in(log: Path) -> int:
    return len(log.read_text().splitlines())


@contextmanager
def served_process(env: dict[str, str], config: str | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run the Dockerfile's gunicorn command on a free loopback port; yield its base URL and the master.
    `config` names another settings module in the Dockerfile's place (bench/worker_trace.py)."""

    port = free_port()
    argv = dockerfile_command()
    assert argv[0] == "gunicorn", argv
    if config is not None:
        argv[argv.index("--config") + 1] = f"python:{config}"
    # Loopback only, and no shared control socket (other servers may run on this machine).
    command = [sys.executable, "-m", "gunicorn", *argv[1:], "--no-control-socket"]
    env = {"GUNICORN_ACCESS_LOG": "/dev/null", **env, "GUNICORN_BIND": f"127.0.0.1:{port}"}
    # Our own interpreter with the Dockerfile's arguments.
    # The command is this interpreter plus the repository's own Dockerfile line: no outside input.
    process = subprocess.Popen(  # noqa: S603
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/login/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start: {' '.join(command)}")
            time.sleep(0.2)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def mix(client: httpx.Client, token: str, project_id: int, todo: Iterator[int],
        lock: threading.Lock) -> list[tuple[str, Callable[[], httpx.Response]]]:
    """The fixed round of requests one client sends, named for the error report."""
    # As the sidebar sends them: the session cookie and its CSRF token.
    api = {"X-CSRFToken": client.cookies.get("csrftoken") or ""}

    def button(body: dict[str, object]) -> httpx.Response:
        return client.post("/api/assistant/requests/", json=body, headers=api)

    def overdue() -> httpx.Response:
        return button({"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}})

    def done() -> httpx.Response:
        with lock:
            task_id = next(todo)
        return button({"action": "mark_done", "page_context": {
            "page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task_id}}})

    return [
        ("home", lambda: client.get("/")),
        ("task list", lambda: client.get("/tasks/")),
        ("task list page 10", lambda: client.get("/tasks/?page=10")),
        ("project page", lambda: client.get(f"/projects/{project_id}/")),
        ("task page", lambda: client.get("/tasks/1/")),
        ("my_overdue", overdue),
        ("mark_done", done),
    ]


def drive(clients: list[httpx.Client], token: str, project_id: int, todo: Iterator[int], *,
          seconds: float) -> tuple[list[tuple[str, float]], list[str], float]:
    """Run the clients for `seconds`; return every request's name and time in ms, the errors and the wall time."""
    times: list[float] = []
    names: list[str] = []
    errors: list[str] = []
    lock = threading.Lock()
    until = time.monotonic() + seconds

    def client_loop(client: httpx.Client) -> None:
        for name, request in itertools.cycle(mix(client, token, project_id, todo, lock)):
            if time.monotonic() >= until:
                return
            started = time.monotonic()
            try:
                response = request()
                failed = "" if response.is_success else f"{name}: HTTP {response.status_code}"
            except httpx.HTTPError as exc:
                failed = f"{name}: {type(exc).__name__}"
            with lock:
                times.append((time.monotonic() - started) * 1000)
                names.append(name)
                if failed:
                    errors.append(failed)

    started = time.monotonic()
    threads = [threading.Thread(target=client_loop, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return list(zip(names, times, strict=True)), errors, time.monotonic() - started


def report(timed: list[tuple[str, float]], wall: float, per_worker: list[int]) -> None:
    """Print throughput, p50/p95/p99, each request's p50/p99 and the requests each worker served."""
    times = [ms for _, ms in timed]
    cuts = statistics.quantiles(times, n=100)
    print(f"throughput {len(times) / wall:.1f} req/s ({len(times)} requests)   p50 {cuts[49]:.0f} ms   "
          f"p95 {cuts[94]:.0f} ms   p99 {cuts[98]:.0f} ms")
    for name in dict.fromkeys(n for n, _ in timed):
        own = sorted(ms for n, ms in timed if n == name)
        print(f"  {name:<18} {len(own):5} requests   p50 {own[len(own) // 2]:5.0f} ms   "
              f"p99 {own[min(len(own) - 1, len(own) * 99 // 100)]:5.0f} ms")
    print(f"  requests per worker {' · '.join(map(str, per_worker))}")


def settings_from(text: str) -> tuple[str, str]:
    """'5x2' -> ('5', '2'): workers and threads of one gunicorn setting to compare."""
    workers, _, threads = text.partition("x")
    if not (workers.isdigit() and threads.isdigit() and int(workers) > 0 and int(threads) > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not WORKERSxTHREADS, e.g. 5x2")
    return workers, threads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--workers", type=int, help="GUNICORN_WORKERS (default: the config's)")
    parser.add_argument("--threads", type=int, help="GUNICORN_THREADS (default: the config's)")
    parser.add_argument("--compare", type=settings_from, nargs="+", metavar="WxT",
                        help="serve each setting side by side and drive them in turn, --seconds each, --rounds times")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --compare")
    args = parser.parse_args()
    if args.compare:
        compare(args)
        return
    with database() as url:
        extra = {"GUNICORN_WORKERS": str(args.workers)} if args.workers else {}
        extra |= {"GUNICORN_THREADS": str(args.threads)} if args.threads else {}
        env, token, project, todo = seeded(url, args.tasks, extra)
        with served(env) as (base, log):
            # Logged in once (password hashing is slow on purpose), outside the timed part.
            clients = [logged_in(base) for _ in range(args.clients)]
            try:
                drive(clients, token, project, todo, seconds=3)  # every worker connects
                before = lines_in(log)
                timed, errors, wall = drive(clients, token, project, todo, seconds=args.seconds)
                per_worker = spread(log, before)
            finally:
                for client in clients:
                    client.close()
    workers = os.environ.get("GUNICORN_WORKERS", args.workers or "config")
    print(f"gunicorn ({' '.join(dockerfile_command()[1:])}; workers {workers}, threads {args.threads or 'config'}), "
          f"{args.clients} clients, {args.tasks} tasks, {args.seconds:.0f} s, database {url.split(':')[0]}")
    report(timed, wall, per_worker)
    exit_on(errors)


def seeded(url: str, tasks: int, extra: dict[str, str]) -> tuple[dict[str, str], str, int, Iterator[int]]:
    """Migrate and seed the database; return the server's environment, a token, a project and the todo ids."""
    env = server_env(DATABASE_URL=url, LLM_PROVIDER="offline", CELERY_TASK_ALWAYS_EAGER="1", **extra)
    manage(env, "migrate", "--noinput")
    # The last line: the shell may print a note of its own first.
    output = manage(env, "shell", "-c", SEED.format(tasks=tasks)).strip().splitlines()[-1]
    token, project, *todo_ids = output.split()
    # Once every todo task is done the Done button goes round again (an update that changes nothing).
    return env, token, int(project), itertools.cycle([int(pk) for pk in todo_ids])


def compare(args: argparse.Namespace) -> None:
    """Serve every setting at once (idle but for the one driven) and drive them in turn, round after round,
    so the machine's drift falls on all of them alike; print each one's figures and the median per-round
    ratios to the first setting."""
    names = [f"{w}x{t}" for w, t in args.compare]
    timed: dict[str, list[tuple[str, float]]] = {name: [] for name in names}
    walls: dict[str, float] = dict.fromkeys(names, 0.0)
    ratios: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    errors: list[str] = []
    with database() as url, ExitStack() as stack:
        env, token, project, todo = seeded(url, args.tasks, {})
        servers = {name: stack.enter_context(served({**env, "GUNICORN_WORKERS": w, "GUNICORN_THREADS": t}))
                   for name, (w, t) in zip(names, args.compare, strict=True)}
        clients = {name: [logged_in(base) for _ in range(args.clients)] for name, (base, _) in servers.items()}
        for group in clients.values():
            for client in group:
                stack.callback(client.close)
            drive(group, token, project, todo, seconds=3)  # every worker connects
        before = {name: lines_in(log) for name, (_, log) in servers.items()}
        for _ in range(args.rounds):
            this_round = {}
            for name in names:
                round_timed, round_errors, wall = drive(clients[name], token, project, todo, seconds=args.seconds)
                timed[name] += round_timed
                walls[name] += wall
                errors += [f"{name} {error}" for error in round_errors]
                this_round[name] = (len(round_timed) / wall,
                                    statistics.quantiles([ms for _, ms in round_timed], n=100)[98])
            for name in names:
                first = this_round[names[0]]
                ratios[name].append((this_round[name][0] / first[0], this_round[name][1] / first[1]))
        per_worker = {name: spread(log, before[name]) for name, (_, log) in servers.items()}
    print(f"gunicorn ({' '.join(dockerfile_command()[1:])}), {args.clients} clients, {args.tasks} tasks, "
          f"database {url.split(':')[0]}; {args.rounds} rounds of {args.seconds:.0f} s each, settings in turn")
    for name in names:
        print(f"== {name} (workers x threads)")
        report(timed[name], walls[name], per_worker[name])
        if name != names[0]:
            throughput, p99 = (statistics.median(r[i] for r in ratios[name]) for i in (0, 1))
            print(f"  ÷ {names[0]}, median per round: throughput {throughput:.2f}x, p99 {p99:.2f}x")
    exit_on(errors)


def exit_on(errors: list[str]) -> None:
    """Print the errors (0 required) and exit 1 when there were any."""
    print(f"errors {len(errors)}")
    for error in sorted(set(errors)):
        print(f"  error: {error} x{errors.count(error)}")
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
