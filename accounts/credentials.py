"""Recently checked API tokens, kept per process so that a scorer's next card does not look its
token up again (issue 13 §2, decision 0013 amended).

An entry is good for `AUTH_TOKEN_CACHE_SECONDS` (10 by default; 0 turns the cache off) and only
while the shared cache's *credentials generation* is the one it was stored under. Whatever can
withdraw a token bumps the generation: a device token revoked, changed or deleted, a user token
deleted, a user saved (deactivated, erased, a new password) or deleted. So a revocation takes
effect in every process at the next request, at the cost of one Redis GET per request instead
of a PostgreSQL query. An expired device token is refused from the entry itself (its expiry is
in it). When the shared cache cannot be read, nothing is served from here: every request looks
its token up as before. If Redis is down while a token is revoked, the bump is lost; an entry
stored before then lives at most its 10 seconds.

Entries hold copies: a request may change the user or token it is handed without the next
request seeing it.
"""

from __future__ import annotations

import copy
import logging
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

GENERATION_KEY = "accounts:credentials-generation"
MOST_ENTRIES = 4096


@dataclass
class Entry:
    user: Any
    auth: Any
    generation: str
    until: float


class RecentCredentials:
    """Token key -> the user and token row it authenticated, bounded, least recently used out."""

    def __init__(self, most: int = MOST_ENTRIES) -> None:
        self.most = most
        self.entries: OrderedDict[str, Entry] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str, generation: str) -> tuple[Any, Any] | None:
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            if entry.generation != generation or entry.until < time.monotonic():
                del self.entries[key]
                return None
            self.entries.move_to_end(key)
            return copies(entry.user, entry.auth)

    def put(self, key: str, user: Any, auth: Any, generation: str) -> None:
        seconds = lifetime()
        if seconds <= 0:
            return
        user, auth = copies(user, auth)
        entry = Entry(user, auth, generation, time.monotonic() + seconds)
        with self.lock:
            self.entries[key] = entry
            self.entries.move_to_end(key)
            while len(self.entries) > self.most:
                self.entries.popitem(last=False)

    def update_auth(self, key: str, **changes: Any) -> None:
        """Keep what a request wrote back to its token (when it was last used) in the entry."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                for name, value in changes.items():
                    setattr(entry.auth, name, value)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


def copies(user: Any, auth: Any) -> tuple[Any, Any]:
    """Copies of a user and their token row, the row's `user` being the copied user."""
    user, auth = copy.copy(user), copy.copy(auth)
    if getattr(auth, "user_id", None) == getattr(user, "pk", None):
        auth.user = user
    return user, auth


recent = RecentCredentials()
"""This process's entries (every thread's)."""


def lifetime() -> float:
    return float(getattr(settings, "AUTH_TOKEN_CACHE_SECONDS", 10))


def current_generation() -> str | None:
    """The shared credentials generation; None (use no entry) when the cache is off or
    unreadable. A missing generation (Redis restarted, or never set) is replaced by a fresh one,
    which no entry was stored under."""
    if lifetime() <= 0:
        return None
    try:
        generation = cache.get(GENERATION_KEY)
        if generation is None:
            fresh = uuid.uuid4().hex
            cache.add(GENERATION_KEY, fresh, timeout=None)
            generation = cache.get(GENERATION_KEY)
    except RedisError:
        return None
    return generation if isinstance(generation, str) else None


def withdraw_all() -> None:
    """A token may have been withdrawn: no process uses what it checked before now."""
    recent.clear()
    try:
        cache.set(GENERATION_KEY, uuid.uuid4().hex, timeout=None)
    except RedisError as error:
        logger.warning("could not bump the credentials generation (%s)", error)
