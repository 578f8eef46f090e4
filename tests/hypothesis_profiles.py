"""Hypothesis profiles: a quick one while developing, the full one in CI (HYPOTHESIS_PROFILE=ci).

Tests that need more examples than the default ask for ``examples(full)``: the full count under
``ci``, scaled down with the profile's own ``max_examples`` under ``dev``.
"""
from __future__ import annotations

import os

from hypothesis import settings

FULL_EXAMPLES = 100  # Hypothesis's own default, which the ci profile keeps

settings.register_profile("ci", max_examples=FULL_EXAMPLES, print_blob=True)
settings.register_profile("dev", max_examples=10)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """Return the example count for a test that wants `full` under the full profile."""
    return max(1, -(-full * settings.default.max_examples // FULL_EXAMPLES))  # rounded up
