"""Tags for the admin's pages: the week's alert count on the admin index."""
from __future__ import annotations

from django import template

from agent.run.alerts import alerts_this_week

register = template.Library()


@register.simple_tag
def weekly_alert_count() -> int:
    return alerts_this_week()
