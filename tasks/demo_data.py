"""Demo data: who works on what, realistic task titles, and a deterministic plan of tasks and history.

Pure functions (no database): ``seed_demo`` turns the plan into rows. Every choice comes from
the ``random.Random`` passed in, and every date is relative to the ``today``/``anchor`` passed in,
so the same seed on the same day gives the same data.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from pm_assistant.vocabulary import OPEN_STATUSES

USERS = ("alice", "bob", "carol")
DEMO_PASSWORD = "demo"  # noqa: S105 - the published demo login, printed by seed_demo
HISTORY_DAYS = 28  # the history ends at the start of today and reaches back at most this far


@dataclass(frozen=True)
class ProjectSpec:
    key: str
    name: str
    owner: str
    members: tuple[str, ...]
    description: str
    labels: tuple[str, ...]
    top_level: int
    with_subtasks: int
    objects: tuple[str, ...]
    templates: tuple[str, ...]
    context: tuple[str, ...]


PROJECTS = (
    ProjectSpec(
        key="WEB", name="Website Redesign", owner="alice", members=("carol",),
        description="New marketing site on the shared design system, faster and accessible.",
        labels=("frontend", "design", "seo", "accessibility", "content", "bug"),
        top_level=86, with_subtasks=10,
        objects=("homepage", "pricing page", "blog index", "checkout flow", "navigation menu", "footer",
                 "contact form", "search results page", "product detail page", "login page", "signup flow",
                 "404 page", "careers page", "about page", "newsletter signup", "cookie banner",
                 "case studies page", "docs landing page", "hero section", "testimonials carousel"),
        templates=("Design mockups for the {}", "Build responsive layout for the {}", "Write copy for the {}",
                   "Fix layout shift on the {}", "Run accessibility audit of the {}",
                   "Add analytics events to the {}", "Optimize images on the {}", "Review SEO metadata of the {}",
                   "QA the {} on Safari and Firefox", "Move the {} to the new design system"),
        context=("Lighthouse score on mobile is below 70 today.",
                 "Marketing needs this before the spring campaign.",
                 "Follow the tokens in the design system; no one-off colours.",
                 "Check keyboard navigation and screen-reader labels.",
                 "Coordinate copy changes with the content team.",
                 "Keep the old URLs working with redirects."),
    ),
    ProjectSpec(
        key="MOB", name="Mobile App", owner="alice", members=(),
        description="iOS and Android app: onboarding, offline mode and the 2.x releases.",
        labels=("ios", "android", "api", "ux", "release", "bug"),
        top_level=80, with_subtasks=9,
        objects=("onboarding flow", "push notifications", "offline mode", "profile screen", "settings screen",
                 "in-app purchases", "deep links", "dark mode", "biometric login", "crash reporting", "home feed",
                 "search screen", "image upload", "app store listing", "chat screen", "location permissions",
                 "analytics SDK", "release 2.4 checklist"),
        templates=("Build the {}", "Fix crash in the {} on Android 14", "Polish animations in the {}",
                   "Write UI tests for the {}", "Connect the {} to the v2 API", "Profile memory use of the {}",
                   "Review the {} with design", "Handle network errors in the {}", "Localize the {}",
                   "Measure adoption of the {}"),
        context=("Crash-free sessions dropped to 98.7% last release.", "Must work offline on a flaky connection.",
                 "Needs sign-off from the App Store review checklist.", "Keep the bundle size under 40 MB.",
                 "Test on the oldest supported devices (iPhone 11, Pixel 5).", "Behind a remote feature flag."),
    ),
    ProjectSpec(
        key="DATA", name="Data Platform", owner="bob", members=("carol",),
        description="Warehouse migration, pipelines and dashboards for the analytics team.",
        labels=("etl", "warehouse", "dashboards", "infra", "data-quality", "bug"),
        top_level=72, with_subtasks=8,
        objects=("orders pipeline", "events ingestion", "customer dimension", "revenue dashboard",
                 "churn model features", "Airflow DAGs", "dbt models", "data catalog", "warehouse costs",
                 "Kafka consumers", "backfill jobs", "PII masking", "marketing attribution", "schema registry",
                 "daily snapshot job", "data quality checks"),
        templates=("Migrate the {} to the new warehouse", "Add tests for the {}", "Document the {}",
                   "Cut runtime of the {}", "Set up alerting for the {}", "Fix late-arriving data in the {}",
                   "Backfill the {} for last year", "Add lineage for the {}", "Review access to the {}",
                   "Partition the {} by date"),
        context=("Finance reads these numbers every Monday morning.",
                 "Runs nightly at 02:00 UTC; must finish by 06:00.",
                 "Contains personal data: mask before it leaves the raw zone.",
                 "The old cluster is switched off at the end of the quarter.",
                 "Row counts must match the source within 0.1%.", "Owners of downstream dashboards must be told."),
    ),
)

SUBTASK_STEPS = ("Write acceptance criteria", "Spike and estimate", "Implement the change", "Code review",
                 "QA pass", "Update documentation", "Deploy to staging", "Sign-off with stakeholders")
ESTIMATES = ("1", "2", "3", "4", "6", "8", "12", "16", "24")
STATUS_WEIGHTS = {"done": 30, "in_progress": 30, "todo": 28, "blocked": 12}
PRIORITY_WEIGHTS = {"P0": 6, "P1": 24, "P2": 50, "P3": 20}


@dataclass
class PlannedEvent:
    kind: str
    field: str
    from_value: str
    to_value: str
    at: datetime
    actor: str


@dataclass
class PlannedTask:
    title: str
    description: str
    status: str
    priority: str
    assignee: str | None
    labels: list[str]
    start_date: date | None
    due_date: date | None
    estimate_hours: Decimal | None
    progress: int
    created_by: str
    created_at: datetime
    updated_at: datetime
    completed_at: datetime | None
    events: list[PlannedEvent]
    subtasks: list[PlannedTask] = field(default_factory=list)


def _pick(rng: random.Random, weights: dict[str, int]) -> str:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _moments(rng: random.Random, start: datetime, end: datetime, count: int) -> list[datetime]:
    """Return ``count`` sorted moments between start and end, whole minutes, at most ``end``."""
    span = max(int((end - start).total_seconds() // 60), count + 1)
    return [start + timedelta(minutes=m) for m in sorted(rng.sample(range(1, span), count))]


def _title_pool(rng: random.Random, spec: ProjectSpec) -> list[str]:
    pool = [template.format(obj) for template in spec.templates for obj in spec.objects]
    rng.shuffle(pool)
    return pool


def plan_task(rng: random.Random, spec: ProjectSpec, *, title: str, today: date, anchor: datetime,
              slipping: bool = False, parent: PlannedTask | None = None) -> PlannedTask:
    """Plan one task and its history, ending no later than ``anchor`` (the start of today)."""
    people = (spec.owner, *spec.members)
    status = rng.choice([s for s in OPEN_STATUSES if s != "blocked"]) if slipping else _pick(rng, STATUS_WEIGHTS)
    if parent is not None and parent.status == "done":
        status = "done"
    if slipping:  # past due, little progress, nobody touched it for at least twelve days
        start = today - timedelta(days=rng.randint(26, 40))
        due: date | None = today - timedelta(days=rng.randint(2, 12))
        progress = 0 if status == "todo" else rng.randrange(5, 35, 5)
        created = anchor - timedelta(days=rng.uniform(24, HISTORY_DAYS - 1))
        last = anchor - timedelta(days=rng.uniform(12, 16))
    else:
        start = today + timedelta(days=rng.randint(-35, 21))
        due = start + timedelta(days=rng.randint(2, 28))
        if status != "done" and due < today and rng.random() < 0.75:
            # Most open work is still on schedule; the slipping share above carries the overdue story.
            length = due - start
            due = today + timedelta(days=rng.randint(0, 14))
            start = due - length
        progress = {"todo": 0, "in_progress": rng.randrange(10, 95, 5), "blocked": rng.randrange(10, 65, 5),
                    "done": 100}[status]
        created = anchor - timedelta(days=rng.uniform(2, HISTORY_DAYS - 1))
        last = anchor - timedelta(minutes=rng.randint(5, 2 * 24 * 60))
    if parent is not None:
        start, due = parent.start_date or start, parent.due_date or due
        created = max(created, parent.created_at + timedelta(minutes=30))
        last = max(last, created + timedelta(hours=2))
    undated = parent is None and not slipping and rng.random() < 0.05
    assignee = None if rng.random() < 0.08 else rng.choice(people)
    creator = rng.choice(people)
    worker = assignee or spec.owner
    steps = []  # (kind, field, from, to, actor) in order; times are drawn afterwards
    if assignee:
        steps.append(("assigned", "assignee", "", assignee, creator))
    progress_path = sorted(rng.sample(range(5, max(progress, 6), 5), min(2, max(0, progress // 5 - 1))))
    if status != "todo":
        steps.append(("status", "status", "todo", "in_progress", worker))
    previous = 0
    for value in [*progress_path, progress] if status != "done" else progress_path:
        if value != previous and value:
            steps.append(("progress", "progress", str(previous), str(value), worker))
            previous = value
    if not undated and rng.random() < 0.2:  # the plan slipped once: the due date moved out
        moved_from = due - timedelta(days=rng.randint(3, 10)) if due else None
        steps.append(("updated", "due_date", str(moved_from or ""), str(due or ""), spec.owner))
    if status == "blocked":
        steps.append(("status", "status", "in_progress", "blocked", worker))
    if status == "done":
        steps.append(("status", "status", "in_progress", "done", worker))
        if previous != 100:
            steps.append(("progress", "progress", str(previous), "100", worker))
    times = _moments(rng, created, last, len(steps)) if steps else []
    events = [PlannedEvent("created", "status", "", "todo", created, creator)]
    events += [
        PlannedEvent(kind, name, old, new, at, actor)
        for (kind, name, old, new, actor), at in zip(steps, times, strict=True)
    ]
    done_at = next((e.at for e in events if e.kind == "status" and e.to_value == "done"), None)
    return PlannedTask(
        title=title, description=_description(rng, spec, title if parent is None else parent.title), status=status,
        priority=_pick(rng, PRIORITY_WEIGHTS), assignee=assignee,
        labels=rng.sample(spec.labels, rng.choice((0, 1, 1, 2, 2, 3))),
        start_date=None if undated else start, due_date=None if undated else due,
        estimate_hours=None if rng.random() < 0.1 else Decimal(rng.choice(ESTIMATES)),
        progress=progress, created_by=creator, created_at=created, updated_at=events[-1].at,
        completed_at=done_at, events=events,
    )


def _description(rng: random.Random, spec: ProjectSpec, title: str) -> str:
    first, second = rng.sample(spec.context, 2)
    return f"Goal: {title[0].lower()}{title[1:]}. {first} {second}"


def plan_project(rng: random.Random, spec: ProjectSpec, *, today: date, anchor: datetime,
                 top_level: int | None = None, with_subtasks: int | None = None) -> list[PlannedTask]:
    """Plan the top-level tasks of a project, some of them slipping, some with subtasks."""
    count = spec.top_level if top_level is None else top_level
    parents = spec.with_subtasks if with_subtasks is None else with_subtasks
    pool = _title_pool(rng, spec)
    planned = []
    for index in range(count):
        title = pool[index % len(pool)]
        planned.append(plan_task(rng, spec, title=title, today=today, anchor=anchor, slipping=rng.random() < 0.1))
    for parent in rng.sample(planned, min(parents, len(planned))):
        for step in rng.sample(SUBTASK_STEPS, rng.randint(2, 3)):
            parent.subtasks.append(plan_task(rng, spec, title=step, today=today, anchor=anchor, parent=parent))
    return planned


def plan_batch(rng: random.Random, spec: ProjectSpec, *, count: int, today: date,
               anchor: datetime) -> list[PlannedTask]:
    """Plan exactly ``count`` tasks (about one in eight a subtask) for bulk loads."""
    subtasks = count // 8 if count >= 2 else 0
    pool = _title_pool(rng, spec)
    planned = [
        plan_task(rng, spec, title=pool[index % len(pool)], today=today, anchor=anchor, slipping=rng.random() < 0.1)
        for index in range(count - subtasks)
    ]
    for _ in range(subtasks):
        parent = rng.choice(planned)
        parent.subtasks.append(plan_task(rng, spec, title=rng.choice(SUBTASK_STEPS), today=today, anchor=anchor,
                                         parent=parent))
    return planned
