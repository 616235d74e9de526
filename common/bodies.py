"""Rendered answers kept per process, by everything they depend on: the tournament reads of the
API (tournaments/api/conditional.py, decision record 0010) and the live parts of the tournament
pages (tournaments/pages/views.py, decision record 0068).

When a followed tournament moves, every follower's page asks for the new live part within the
same second: a projector per room, and the phones of the players and their families. They all
ask for the same bytes, so one thread builds them and the others wait for that build
(`BodyCache.building`) instead of rendering the same page side by side, each slowing the
others and the scorers' cards in the same process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.http import HttpResponse

from common.lru import LeastRecentlyUsed

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Body:
    """A rendered answer, as kept: its bytes and the headers that say what they are."""

    content: bytes
    headers: tuple[tuple[str, str], ...]

    def response(self) -> HttpResponse:
        response = HttpResponse(self.content)
        for name, value in self.headers:
            response[name] = value
        return response


def body_of(response: HttpResponse, kept_headers: tuple[str, ...]) -> Body:
    """A rendered response's bytes, with the headers named (those it has)."""
    headers = tuple((name, response[name]) for name in kept_headers if response.has_header(name))
    return Body(response.content, headers)


@dataclass
class _Builders:
    """The lock of one key's build, and how many threads hold or wait for it."""

    lock: threading.Lock
    users: int = 0


class BodyCache(Generic[K]):
    """The least recently used bodies first out, bounded in bytes; thread-safe (the one map of
    `common.lru`)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.entries: LeastRecentlyUsed[K, Body] = LeastRecentlyUsed(
            max_bytes, weight=lambda body: len(body.content)
        )
        self._lock = threading.Lock()
        self._builders: dict[K, _Builders] = {}

    @property
    def size(self) -> int:
        """The bytes of the bodies kept."""
        return self.entries.size

    def get(self, key: K) -> Body | None:
        return self.entries.get(key)

    def put(self, key: K, body: Body) -> None:
        if len(body.content) > self.max_bytes // 4:
            return  # one body must not push out everything else
        self.entries.put(key, body)

    def clear(self) -> None:
        self.entries.clear()

    @contextmanager
    def building(self, key: K) -> Iterator[None]:
        """Build `key`'s body inside: one thread at a time for one key (others keys are built
        alongside), so the threads that wanted it meanwhile find it kept when their turn
        comes (they look again inside) instead of building it too."""
        with self._lock:
            builders = self._builders.setdefault(key, _Builders(threading.Lock()))
            builders.users += 1
        try:
            with builders.lock:
                yield
        finally:
            with self._lock:
                builders.users -= 1
                if not builders.users:
                    del self._builders[key]

    def kept_or_built(self, key: K, build: Callable[[], Body]) -> Body:
        """The body kept for `key`, or the one `build` makes (and keeps, unless it is too big
        to keep), built once however many threads ask for it at the same time."""
        body = self.get(key)
        if body is not None:
            return body
        with self.building(key):
            body = self.get(key)
            if body is None:
                body = build()
                self.put(key, body)
        return body
