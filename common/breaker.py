"""A circuit breaker for the calls a request makes to Redis, which must never hold it up.

Closed, calls go through. A call that fails (Redis stopped, frozen past its socket timeout)
opens it for a pause, during which callers skip Redis at once and do without (a wake-up left to
beat's catch-up, a throttle that lets the request through). The first call after the pause tries
again. Per process; see docs/decisions/0021-wake-ups-never-wait-on-redis.md.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Breaker:
    open_until: float = float("-inf")
    """When (on the `monotonic` clock) calls may be tried again."""
    skipped: int = 0
    """Calls skipped since it last opened."""

    def is_open(self, now: float) -> bool:
        return now < self.open_until

    def trip(self, now: float, pause: float) -> None:
        self.open_until = now + pause
        self.skipped = 0

    def close(self) -> None:
        self.open_until = float("-inf")
