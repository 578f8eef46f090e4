"""Text a user types into the page: control characters are refused, not stored."""
from __future__ import annotations

import unicodedata

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError


def control_character_reason(value: str, *, allow: str = "") -> str | None:
    """Return why the text is refused when it holds a control character (Unicode Cc), else None."""
    for index, char in enumerate(value):
        if unicodedata.category(char) == "Cc" and char not in allow:
            # NUL in particular: PostgreSQL rejects it in text and jsonb, so it must stop here and not at the database.
            return f"must not contain control characters (U+{ord(char):04X} at position {index})"
    return None


def _no_control_characters(value: str) -> str:
    reason = control_character_reason(value)
    if reason is not None:
        raise PydanticCustomError("control_character", reason)
    return value


NoControlCharacters = AfterValidator(_no_control_characters)
