"""The one map every per-process cache is kept in: bounded, the least recently used entry out
first, every operation under one lock.

A web process serves requests on several threads (gunicorn gthread, 8 a worker in production;
`make run`'s threaded server), and the caches are shared by all of them: the folded streams
(`games.eventstore.memo`), the checked tokens and roles (`accounts.credentials`), the rendered
tournament reads (`tournaments.api.conditional`), the matches' deck letters
(`games.matches.execution`). An `OrderedDict` is not safe there: one thread's `move_to_end` or
`popitem` after another's `pop` raises `KeyError`, and a check-then-write (keep the newer
state) lets an older value overwrite a newer one. So each check and write happens under the
map's lock, in one call: `get` may drop an entry its caller finds stale, and `put` may keep the
entry already there. Those tests run under the lock: they must be quick and must not use the
map again (the lock is not reentrant).

Standard library only (a contract in pyproject keeps it so).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def one(_value: object) -> int:
    return 1


class LeastRecentlyUsed(Generic[K, V]):
    """Key -> value, at most `capacity` in all (each value weighing `weight(value)`, 1 by
    default); thread-safe."""

    def __init__(self, capacity: int, *, weight: Callable[[V], int] = one) -> None:
        self.capacity = capacity
        self.weight = weight
        self.size = 0
        """The weight of the values kept."""
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, *, stale: Callable[[V], bool] | None = None) -> V | None:
        """The value kept for `key`, now the most recently used; None when there is none, or
        when `stale(value)` says it must not be used any more (it is dropped)."""
        with self._lock:
            value = self._entries.get(key)
            if value is None:
                return None
            if stale is not None and stale(value):
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V, *, keep: Callable[[V], bool] | None = None) -> bool:
        """Keep `value` for `key`, the least recently used ones out past the capacity; unless
        `keep(value kept)` says the value already there stays (then nothing changes). Whether
        `value` was kept."""
        with self._lock:
            old = self._entries.get(key)
            if old is not None:
                if keep is not None and keep(old):
                    return False
                self._drop(key)
            return self._add(key, value)

    def swap(self, key: K, expected: V, value: V) -> bool:
        """Keep `value` for `key` in place of `expected` (the very object), if that is still
        what is kept; whether it was."""
        with self._lock:
            if self._entries.get(key) is not expected:
                return False
            self._drop(key)
            return self._add(key, value)

    def pop(self, key: K) -> V | None:
        """Forget `key`; the value it had, or None."""
        with self._lock:
            return self._drop(key) if key in self._entries else None

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.size = 0

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[K]:
        """The keys, the least recently used first (a copy: the map may change meanwhile)."""
        with self._lock:
            return list(self._entries)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())

    def _add(self, key: K, value: V) -> bool:
        self._entries[key] = value
        self.size += self.weight(value)
        while self.size > self.capacity and self._entries:
            self._drop(next(iter(self._entries)))
        return key in self._entries

    def _drop(self, key: K) -> V:
        value = self._entries.pop(key)
        self.size -= self.weight(value)
        return value
