"""Dates as every page shows them ("Nov 28, 2026"), so an answer says a date the way the page beside it does."""
from __future__ import annotations

from datetime import date

from django.template.defaultfilters import date as date_filter

DATE_SHOWN = "M j, Y"


def date_shown(value: date | str | None) -> str:
    """A date (or its ISO text) as the pages show it; anything that is not a date is returned as it is."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            shown = date.fromisoformat(value)
        except ValueError:
            return value
        return str(date_filter(shown, DATE_SHOWN))
    return str(date_filter(value, DATE_SHOWN))
