"""A circuit breaker for the model endpoint, kept in Django's cache so every worker shares it.

After LLM_BREAKER_FAILURES provider failures (timeouts, refused connections, 5xx answers)
within LLM_BREAKER_COOLDOWN_SECONDS, calls are refused at once for the cool-down: a model
outage then costs a request nothing instead of a worker for the whole deadline. The first
call after the cool-down goes through; one more failure opens the breaker again.
"""
from __future__ import annotations

import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


class CircuitBreaker:
    def __init__(self, endpoint: str) -> None:
        key = hashlib.sha256(endpoint.encode()).hexdigest()[:16]
        self._failures = f"llm-breaker:{key}:failures"
        self._open_until = f"llm-breaker:{key}:open-until"

    def is_open(self) -> bool:
        """Tell whether calls are refused right now."""
        try:
            until = cache.get(self._open_until)
        except Exception:  # a cache outage must not add a second outage: fail closed (calls go through)
            logger.warning("circuit breaker: the cache did not answer", exc_info=True)
            return False
        return until is not None and float(until) > time.time()

    def record_failure(self) -> None:
        """Count one provider failure; open the breaker when the count reaches the threshold."""
        cooldown = settings.LLM_BREAKER_COOLDOWN_SECONDS
        try:
            cache.add(self._failures, 0, timeout=cooldown)
            failures = cache.incr(self._failures)
            if failures >= settings.LLM_BREAKER_FAILURES:
                cache.set(self._open_until, time.time() + cooldown, timeout=cooldown)
                logger.warning("circuit breaker open for %ss after %s model failures", cooldown, failures)
        except Exception:
            logger.warning("circuit breaker: the cache did not answer", exc_info=True)

    def record_success(self) -> None:
        """Forget past failures: the endpoint answers again."""
        try:
            cache.delete_many([self._failures, self._open_until])
        except Exception:
            logger.warning("circuit breaker: the cache did not answer", exc_info=True)
