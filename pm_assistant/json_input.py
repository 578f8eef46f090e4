"""Parse JSON from outside with bounds: size, nesting depth, and no RecursionError ever escaping.

Python's decoder recurses once per nesting level, so a body of 50 000 ``[`` raises
RecursionError, which nothing upstream expects. Every JSON entry point (the API parser, the
sidebar's form fields, a model's tool arguments) goes through ``json_loads_bounded``.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JSONInputError(ValueError):
    """The text is not JSON this application accepts; the message says why."""


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Tell whether containers nest deeper than `limit` (iteratively, so any depth is safe)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    # 1e999 is valid JSON but no float holds it: Python would read it as infinity, which no column stores.
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range for a number")
    return value


# A \uXXXX escape of a UTF-16 surrogate (or, in a str, a surrogate itself): only where one appears can a
# decoded string hold a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE_IN_TEXT = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}|[\ud800-\udfff]")


def _lone_surrogate(value: Any) -> str | None:
    """The first string (value or key) holding a lone surrogate, which is not text and cannot be encoded."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and any("\ud800" <= ch <= "\udfff" for ch in item):
            return item
    return None


def json_loads_bounded(text: str | bytes, *, max_depth: int | None = None) -> Any:
    """Decode JSON, refusing invalid text and nesting deeper than `max_depth` with JSONInputError."""
    limit = settings.JSON_MAX_DEPTH if max_depth is None else max_depth
    try:
        # NaN and Infinity are not JSON (Python accepts them by default; DRF's strict parser does not).
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise JSONInputError(f"JSON nested deeper than {limit} levels.") from None
    except ValueError as exc:  # JSONDecodeError, and UnicodeDecodeError for bytes
        raise JSONInputError(f"JSON parse error - {exc}") from None
    if json_depth_exceeds(value, limit):
        raise JSONInputError(f"JSON nested deeper than {limit} levels.")
    return value


def json_refuse_lone_surrogates(text: str | bytes, value: Any) -> None:
    """Refuse a request body whose strings hold a lone surrogate, with JSONInputError.

    JSON allows "\\ud800" on its own; no text does: a request's value could be neither stored nor
    echoed back in an error. (A model's answer is not refused for it: its text is cleaned for storage.)
    """
    suspect = _SURROGATE_IN_TEXT.search(text) if isinstance(text, str) else _SURROGATE_ESCAPE.search(text)
    if suspect and _lone_surrogate(value) is not None:
        raise JSONInputError("JSON parse error - a string holds a lone UTF-16 surrogate (\\uD800-\\uDFFF), "
                             "which is not a character.")


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a size limit (413) and a nesting limit (400) instead of a 500."""

    def parse(self, stream: IO[bytes], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        limit = settings.REQUEST_BODY_MAX_BYTES
        # Read one byte past the limit: the stream may be longer than any Content-Length it declared.
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            # Imported here: pm_assistant.errors imports DRF's views, which load this parser from settings.
            from .body_limit import body_too_large_error

            raise body_too_large_error()
        try:
            value = json_loads_bounded(raw)
            json_refuse_lone_surrogates(raw, value)
        except JSONInputError as exc:
            raise ParseError(str(exc)) from None
        return value
