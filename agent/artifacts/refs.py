"""Artifact references and the one serialization that thresholds and hashes are measured on."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.models import Artifact

REF_PREFIX = "art_"
REF_PATTERN = re.compile(r"^art_[0-9a-f]{12}$")


def canonical_json(value: Any) -> str:
    """Serialize a JSON value one way only: compact, keys sorted, non-ASCII kept as characters."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def sha256_hex(data: str | bytes) -> str:
    """Return the sha256 of the UTF-8 bytes of a text (or of bytes)."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def artifact_ref_new() -> str:
    """Return a fresh public artifact id: "art_" and 12 random hex digits."""
    return REF_PREFIX + secrets.token_hex(6)


def is_artifact_ref(value: object) -> bool:
    return isinstance(value, str) and REF_PATTERN.match(value) is not None


def inline_ref(*, tool: str, sha256: str) -> str:
    """Return the stable ref of an inline result: same tool and same content give the same ref."""
    return f"tool:{tool}:{sha256[:12]}"


def jsonable(value: Any) -> Any:
    """Turn tool arguments (dataclasses, dates, tuples, pydantic models) into JSON values."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [jsonable(v) for v in value]
        return sorted(items, key=canonical_json) if isinstance(value, (set, frozenset)) else items
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if hasattr(value, "model_dump"):
        return jsonable(value.model_dump(mode="json"))
    return str(value)


@dataclass(frozen=True)
class ArtifactRef:
    """What a prompt, a trace or a later step may hold of an artifact: its id and its shape."""

    ref: str
    tool: str
    item_count: int
    size_bytes: int
    content_type: str
    is_summary: bool
    truncated: bool
    incomplete: bool
    expires_at: datetime

    @classmethod
    def from_artifact(cls, artifact: Artifact) -> ArtifactRef:
        return cls(ref=artifact.ref, tool=artifact.source_tool, item_count=artifact.item_count,
                   size_bytes=artifact.size_bytes, content_type=artifact.content_type,
                   is_summary=artifact.is_summary, truncated=artifact.truncated, incomplete=artifact.incomplete,
                   expires_at=artifact.expires_at)

    def as_dict(self) -> dict[str, Any]:
        return {"ref": self.ref, "tool": self.tool, "item_count": self.item_count, "size_bytes": self.size_bytes,
                "content_type": self.content_type, "is_summary": self.is_summary, "truncated": self.truncated,
                "incomplete": self.incomplete, "expires_at": self.expires_at.isoformat()}
