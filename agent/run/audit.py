"""The seed's four-point checklist, run on every run's trace when it stops (stored as ``Run.audit``)
and on demand (``manage.py audit_run``).

1. No id or array in a tool argument was copied from prompt text: each comes from a binding,
   the page (validated PageContext), or the user's own message. A bound argument must carry the
   value that an earlier binding event resolved, so a binding written by a model is checked too.
2. No source ref appears in two forms (or twice) in one LLM call.
3. Every preview is byte-identical to the slice of its source it claims to be.
4. Every policy fact a writing tool relied on came from the database or the server clock.
"""
from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from agent.artifacts.preview import Preview, preview_check
from agent.artifacts.store import artifact_open
from agent.models import Alert, Artifact, Run, TraceEvent
from agent.tools.facts import values_digest

from .trace import TraceRecorder

POLICY_TOOLS = frozenset({"update_task", "delete_task", "bulk_set_status",
                          "create_subtask", "set_due_date", "assign", "set_priority"})
TRUSTED_SOURCES = frozenset({"database", "server_clock"})
_ID_KEY = re.compile(r"(^|_)ids?$")
_NUMBER = re.compile(r"(?<![\w-])(\d+)(?![\w-])")
# A task key the user typed ("WEB-7") names task 7: its number is typed too.
_KEY_NUMBER = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]{0,9}-(\d+)(?![\w-])")
READ_CHUNK_BYTES = 64 * 1024
PreviewChecker = Callable[[dict[str, Any]], str | None]


@dataclass
class Point:
    number: int
    title: str
    passed: bool = True
    findings: list[str] = field(default_factory=list)

    def fail(self, finding: str) -> None:
        self.passed = False
        self.findings.append(finding)


@dataclass
class AuditReport:
    run_id: str
    points: list[Point]
    # The intent check's verdict on a model-routed run (None for a quick action): shown beside the points.
    intent: dict[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return all(p.passed for p in self.points)

    def as_dict(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "passed": self.passed,
                "points": [{"point": p.number, "title": p.title, "passed": p.passed, "findings": p.findings}
                           for p in self.points], "intent": self.intent}


def _page_ids(page_context: dict[str, Any]) -> dict[str, set[int]]:
    """The ids the page itself named, by kind: a task id on the page never vouches for a project id."""
    tasks: set[int] = set(page_context.get("visibleEntityIds") or [])
    projects: set[int] = set()
    selected = page_context.get("selectedEntity") or {}
    if selected.get("id"):
        (tasks if selected.get("type") == "task" else projects).add(selected["id"])
    route = page_context.get("routeParams") or {}
    if isinstance(route.get("taskId"), int):
        tasks.add(route["taskId"])
    if isinstance(route.get("projectId"), int):
        projects.add(route["projectId"])
    return {"task": tasks, "project": projects}


def _model_text(events: Iterable[TraceEvent]) -> str:
    return "\n".join(str(e.payload.get("reply", "")) for e in events if e.kind == TraceEvent.Kind.LLM_CALL)


def check_ids(run: Run, events: list[TraceEvent]) -> Point:
    """Point 1: ids and arrays in tool arguments come from bindings, the page or the user."""
    point = Point(1, "ids and arrays reach tools by binding, page or the user's message, never copied by the model")
    page_ids = _page_ids(run.page_context or {})
    typed = {int(n) for pattern in (_NUMBER, _KEY_NUMBER) for n in pattern.findall(run.message or "")}
    model_text = _model_text(events)
    resolved: set[tuple[str, str]] = set()
    for event in events:
        if event.kind == TraceEvent.Kind.BINDING:
            resolved.add((str(event.payload.get("binding")), str(event.payload.get("sha256"))))
        if event.kind != TraceEvent.Kind.TOOL_CALL:
            continue
        bound = event.payload.get("bound") or {}
        for arg, value in (event.payload.get("arguments") or {}).items():
            is_array = isinstance(value, list)
            if not (is_array or (_ID_KEY.search(arg) and isinstance(value, int))):
                continue
            where = f"{event.name}({arg}) at trace #{event.seq}"
            if arg in bound:
                claim = (str(bound[arg].get("binding")), str(bound[arg].get("sha256")))
                if claim[1] != values_digest(value):
                    point.fail(f"{where}: value differs from its binding {claim[0]}")
                elif claim not in resolved:
                    point.fail(f"{where}: no earlier binding event resolved {claim[0]} to this value")
                continue
            values = value if is_array else [value]
            on_page = page_ids["project" if "project" in arg else "task"]
            stray = [v for v in values if not (isinstance(v, int) and (v in on_page or v in typed))]
            if not stray:
                continue
            copied = [v for v in stray if re.search(rf"(?<![\w-]){re.escape(str(v))}(?![\w-])", model_text)]
            origin = "copied from model output" if copied else "of unknown origin"
            point.fail(f"{where}: {stray[:10]} {origin}; not bound, not on the page, not typed by the user")
    return point


def check_single_form(events: list[TraceEvent]) -> Point:
    """Point 2: one form per source ref in every LLM call."""
    point = Point(2, "no source in two forms in one LLM call")
    for event in (e for e in events if e.kind == TraceEvent.Kind.LLM_CALL):
        refs = Counter(part["ref"] for part in event.payload.get("parts") or [])
        for ref, count in refs.items():
            if count > 1:
                forms = [p["form"] for p in event.payload["parts"] if p["ref"] == ref]
                point.fail(f"LLM call {event.name!r} at trace #{event.seq}: {ref} appears as {', '.join(forms)}")
    return point


def check_previews(events: list[TraceEvent], checker: PreviewChecker) -> Point:
    """Point 3: previews are exact substrings of their source."""
    point = Point(3, "every preview is byte-identical to its source")
    for event in events:
        for preview in event.payload.get("previews") or []:
            problem = checker(preview)
            if problem:
                point.fail(f"trace #{event.seq} preview of {preview.get('ref')} "
                           f"[{preview.get('start')}:{preview.get('end')}]: {problem}")
    return point


def check_facts(events: list[TraceEvent]) -> Point:
    """Point 4: policy facts come from the database or the server clock."""
    point = Point(4, "policy facts used by writing tools come from the database")
    for event in (e for e in events if e.kind == TraceEvent.Kind.TOOL_CALL and e.name in POLICY_TOOLS):
        facts = event.payload.get("facts") or {}
        if not facts:
            point.fail(f"{event.name} at trace #{event.seq}: ran without recorded facts")
        for name, entry in facts.items():
            source = entry.get("source") if isinstance(entry, dict) else None
            if source not in TRUSTED_SOURCES:
                point.fail(f"{event.name} at trace #{event.seq}: fact {name!r} came from {source or 'nowhere'}")
    return point


def _text_up_to(handle: IO[bytes], end: int) -> str:
    """Decode the stored text until it holds `end` characters (or ends), never the whole file for an early preview."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    have = 0
    while have < end:
        chunk = handle.read(READ_CHUNK_BYTES)
        text = decoder.decode(chunk, final=not chunk)
        parts.append(text)
        have += len(text)
        if not chunk:
            break
    return "".join(parts)[:end]


def stored_preview_check(preview: dict[str, Any], known: dict[str, Artifact | None] | None = None) -> str | None:
    """Compare a recorded preview with the stored artifact it was cut from; None when exact.

    ``known`` keeps the artifacts already read by ref, so one audit reads each artifact's row once.
    """
    known = {} if known is None else known
    ref = str(preview.get("ref"))
    if ref not in known:
        known[ref] = Artifact.objects.filter(ref=ref).first()
    artifact = known[ref]
    if artifact is None:
        return "its source artifact no longer exists"
    unavailable = "could not be checked: its source content is unavailable (archived without content, or deleted)"
    if not artifact.content_path:
        return unavailable
    start = int(preview.get("start", -1))
    if start < 0:
        return "has no valid offset"
    try:
        with artifact_open(artifact) as handle:
            if preview.get("unit") == "bytes":
                # Inspection excerpts are addressed by byte offset: read just that slice.
                text = str(preview.get("text", "")).encode("utf-8")
                handle.seek(start)
                return None if handle.read(len(text)) == text else "differs from the stored bytes at that offset"
            head = _text_up_to(handle, max(start, int(preview.get("end", -1))))
    except OSError:
        return unavailable
    except UnicodeDecodeError:
        return "could not be checked: its source content is not valid UTF-8"
    # The text up to the preview's end decides: preview_check needs no more of the source than that.
    candidate = Preview(text=str(preview.get("text", "")), start=start,
                        end=int(preview.get("end", -1)), source_sha256=str(preview.get("source_sha256", "")))
    if not preview_check(head, candidate, raw_sha256=artifact.sha256):
        return "differs from the source text at those offsets"
    return None


def run_audit(run: Run, *, preview_checker: PreviewChecker | None = None,
              events: list[TraceEvent] | None = None) -> AuditReport:
    """Run the four checks on a stored run (on `events`, its whole trace in order, when the caller has it)."""
    events = list(run.events.order_by("seq")) if events is None else events
    known: dict[str, Artifact | None] = {}
    routed = next((e for e in events if e.kind == TraceEvent.Kind.NODE and e.name == "route"), None)
    return AuditReport(str(run.pk), [
        check_ids(run, events),
        check_single_form(events),
        check_previews(events, preview_checker or (lambda preview: stored_preview_check(preview, known))),
        check_facts(events),
    ], intent=routed.payload.get("intent") if routed else None)


def run_audit_at_end(run: Run, recorder: TraceRecorder) -> dict[str, Any]:
    """Audit a run whose trace was just flushed; a failed point is an ``audit_failed`` alert. Returns the report."""
    report = run_audit(run, events=recorder.events())
    if not report.passed:
        failed = [p for p in report.points if not p.passed]
        recorder.alert(Alert.Kind.AUDIT_FAILED,
                       "The run failed audit point " + ", ".join(str(p.number) for p in failed) + ": "
                       + "; ".join(p.findings[0] for p in failed if p.findings), key="audit",
                       points=[p.number for p in failed])
        recorder.flush()
    return report.as_dict()
