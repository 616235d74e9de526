"""Recently checked API tokens and role grants, kept per process so that a scorer's next card
looks neither its token nor its roles up again (issue 13 §2, decision 0032).

An entry is good for `AUTH_TOKEN_CACHE_SECONDS` (10 by default; 0 turns the caches off) and only
while the shared cache's *credentials generation* is the one it was stored under. Whatever can
withdraw a token or a role sets a new generation (`accounts.signals`): a device token revoked,
changed or deleted, a user token deleted, a user saved (deactivated, erased, a new password) or
deleted, a role granted or revoked. So a withdrawal takes effect in every process at the next
request, at the cost of one Redis GET per request (read once, when the request authenticates)
instead of PostgreSQL queries. An expired device token is refused from the entry itself (its
expiry is in it). When the shared cache cannot be read, nothing is served from here: every
request looks its token and roles up as before. If Redis is down while a token is revoked, the
bump is lost; an entry stored before then lives at most its 10 seconds.

Token entries hold copies: a request may change the user or token it is handed without the next
request seeing it. Every thread of the process shares the entries (a
`common.lru.LeastRecentlyUsed`), and an entry is never changed once kept: what a request
writes back to its token is kept in a new entry (`update_auth`), so a copy is never taken of a
row another thread is changing.
"""

from __future__ import annotations

import copy
import logging
import time
import uuid
from collections.abc import Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

from common.lru import LeastRecentlyUsed

logger = logging.getLogger(__name__)

GENERATION_KEY = "accounts:credentials-generation"
MOST_ENTRIES = 4096

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass
class Entry(Generic[V]):
    value: V
    generation: str
    until: float


class Recent(Generic[K, V]):
    """Key -> what was checked for it, under a generation; bounded, least recently used out."""

    def __init__(self, most: int = MOST_ENTRIES) -> None:
        self.entries: LeastRecentlyUsed[K, Entry[V]] = LeastRecentlyUsed(most)

    def get(self, key: K, generation: str) -> V | None:
        now = time.monotonic()
        entry = self.entries.get(
            key, stale=lambda entry: entry.generation != generation or entry.until < now
        )
        return None if entry is None else entry.value

    def put(self, key: K, value: V, generation: str) -> None:
        seconds = lifetime()
        if seconds <= 0:
            return
        self.entries.put(key, Entry(value, generation, time.monotonic() + seconds))

    def clear(self) -> None:
        self.entries.clear()


class RecentTokens(Recent[str, tuple[Any, Any]]):
    """Token key -> the user and token row it authenticated, handed out as copies."""

    def get(self, key: str, generation: str) -> tuple[Any, Any] | None:
        found = super().get(key, generation)
        return None if found is None else copies(*found)

    def put(self, key: str, value: tuple[Any, Any], generation: str) -> None:
        super().put(key, copies(*value), generation)

    def update_auth(self, key: str, **changes: Any) -> None:
        """Keep what a request wrote back to its token (when it was last used) in the entry:
        a new entry with changed copies, in place of the one they were made from unless
        another thread replaced or dropped that meanwhile."""
        entry = self.entries.get(key)
        if entry is None:
            return
        user, auth = copies(*entry.value)
        for name, value in changes.items():
            setattr(auth, name, value)
        changed = Entry((user, auth), entry.generation, entry.until)
        self.entries.swap(key, entry, changed)


def copies(user: Any, auth: Any) -> tuple[Any, Any]:
    """Copies of a user and their token row, the row's `user` being the copied user."""
    user, auth = copy.copy(user), copy.copy(auth)
    if getattr(auth, "user_id", None) == getattr(user, "pk", None):
        auth.user = user
    return user, auth


recent = RecentTokens()
"""This process's token entries (every thread's)."""

standings: Recent[tuple[int, Any, Any], Any] = Recent()
"""This process's role entries: (user, tournament, club) -> `accounts.permissions.Standing`."""

_seen: ContextVar[str | None] = ContextVar("credentials_generation", default=None)
"""The generation this request read (once, when it authenticated)."""


def lifetime() -> float:
    return float(settings.AUTH_TOKEN_CACHE_SECONDS)


def current_generation() -> str | None:
    """The shared credentials generation, read once per request; None (use no entry) when the
    caches are off or the shared cache is unreadable. A missing generation (Redis restarted, or
    never set) is replaced by a fresh one, which no entry was stored under."""
    if lifetime() <= 0:
        return None
    seen = _seen.get()
    if seen is not None:
        return seen
    try:
        generation = cache.get(GENERATION_KEY)
        if generation is None:
            cache.add(GENERATION_KEY, uuid.uuid4().hex, timeout=None)
            generation = cache.get(GENERATION_KEY)
    except RedisError:
        return None
    if not isinstance(generation, str):
        return None
    _seen.set(generation)
    return generation


def forget_request(**_signal: Any) -> None:
    """A new request reads the generation afresh."""
    _seen.set(None)


def withdraw_all() -> None:
    """A token or a role may have been withdrawn: no process uses what it checked before now."""
    forget()
    try:
        cache.set(GENERATION_KEY, uuid.uuid4().hex, timeout=None)
    except RedisError as error:
        logger.warning("could not bump the credentials generation (%s)", error)


def forget() -> None:
    """This process forgets every entry, and the generation its request read."""
    recent.clear()
    standings.clear()
    _seen.set(None)
