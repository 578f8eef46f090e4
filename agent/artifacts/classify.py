"""Classify a tool result: inline when small, else an Artifact with a bounded summary (seed 000).

"Characters" are measured on the canonical serialization (``refs.canonical_json``: compact,
sorted keys, non-ASCII kept): ``len()`` of that string, i.e. Unicode code points. "Items" are
the length of the result's item list (a bare list, or the list under "items"); a result
without one has zero items. A result is inline when it has at most
settings.ARTIFACT_INLINE_MAX_CHARS characters AND at most settings.ARTIFACT_INLINE_MAX_ITEMS
items; otherwise it is stored and only its summary may enter a prompt.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from agent.models import Artifact
from agent.prompting.messages import ChatRole, PromptPart

from .encode import items_of, result_encode
from .index import index_build
from .preview import Preview
from .refs import ArtifactRef, canonical_json, inline_ref, jsonable, sha256_hex
from .store import artifact_create
from .summary import summary_build


@dataclass(frozen=True)
class Classified:
    """One form of one tool result: the full data inline, or a summary and the artifact's ref.

    An externalized result carries no data at all, so the rows and their summary can never be
    taken from the same value and put side by side in a prompt.
    """

    form: Literal["full", "summary"]
    ref: str
    text: str
    data: Any = None
    artifact: ArtifactRef | None = None
    previews: tuple[Preview, ...] = ()
    # The stored row itself, for the ToolRunner that classified it (never for a prompt): its owner
    # and scope were checked moments ago, so binding from it in the same run needs no second read.
    stored: Artifact | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.form == "summary" and (self.data is not None or self.artifact is None):
            raise ValueError("a summary carries its artifact ref and no data")
        if self.form == "full" and (self.artifact is not None or self.previews):
            raise ValueError("an inline result has no artifact and no previews")

    @property
    def externalized(self) -> bool:
        return self.form == "summary"

    def as_prompt_part(self, *, role: ChatRole = "user", heading: str = "") -> PromptPart:
        """Return the prompt part for this result, tagged with its ref and form."""
        return PromptPart(ref=self.ref, form=self.form, role=role, text=self.text, heading=heading)


def result_measure(result: Any) -> tuple[int, int]:
    """Return (characters of the canonical JSON, number of items) as the thresholds count them."""
    items = items_of(result)
    return len(canonical_json(result)), len(items) if items is not None else 0


def _fits(chars: int, items: int) -> bool:
    max_chars: int = settings.ARTIFACT_INLINE_MAX_CHARS
    max_items: int = settings.ARTIFACT_INLINE_MAX_ITEMS
    return chars <= max_chars and items <= max_items


def _flag(result: object, key: str) -> bool:
    if not isinstance(result, dict):
        return False
    return result.get(key) is True


def result_classify(*, owner: User, tool: str, arguments: dict[str, Any], result: Any,
                    project_ids: Iterable[int], run_id: UUID | None = None,
                    source_version: int | None = None) -> Classified:
    """Keep a small result inline; store a large one as an Artifact and return its ref and summary.

    A stored result of task rows gets its index at once (artifacts.index), tied to ``source_version``,
    the task log's revision the read saw (tasks/revision.py). Flags come from the result: "truncated"
    (or a "count" larger than the items), "incomplete" and "is_summary" set to true by the tool.
    """
    canonical = canonical_json(result)
    items = items_of(result)
    if _fits(len(canonical), len(items) if items is not None else 0):
        return Classified(form="full", ref=inline_ref(tool=tool, sha256=sha256_hex(canonical)), text=canonical,
                          data=result)
    count = result.get("count") if isinstance(result, dict) else None
    truncated = _flag(result, "truncated") or (
        isinstance(count, int) and not isinstance(count, bool) and items is not None and count > len(items))
    encoded = result_encode(result)
    # A node that runs again after a confirmation fetches the same result again: one run keeps one
    # artifact per content, so a re-run leaves no orphan behind. One expired or archived meanwhile (a
    # card decided the next day) is not reused: its rows could no longer be bound.
    scope = sorted({int(p) for p in project_ids})
    again = Artifact.objects.filter(
        run_id=run_id, source_tool=tool, owner=owner, sha256=sha256_hex(encoded.text.encode("utf-8")),
        archived_at=None, expires_at__gt=timezone.now()).first() if run_id else None
    if again is not None and (again.project_ids != scope or again.meta != jsonable(encoded.meta)):
        # The same rows with another scope or other figures beside them: stored afresh (and the
        # scope's membership checked), so a reused artifact always says what this read returned.
        again = None
    artifact = again
    if artifact is None:
        artifact = artifact_create(owner=owner, tool=tool, arguments=arguments, encoded=encoded,
                                   project_ids=scope, run_id=run_id, source_version=source_version,
                                   is_summary=_flag(result, "is_summary"), truncated=truncated,
                                   incomplete=_flag(result, "incomplete"))
        index_build(artifact, encoded)
    ref = ArtifactRef.from_artifact(artifact)
    summary = summary_build(artifact=ref, encoded=encoded, raw_sha256=artifact.sha256)
    return Classified(form="summary", ref=artifact.ref, text=summary.text, artifact=ref, previews=summary.previews,
                      stored=artifact)
