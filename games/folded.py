"""A per-process memo of folded match states, so a command folds only the events it has not
folded before instead of its whole stream.

Events never change, so a state folded up to version V of a stream stays right for ever; newer
events are read after V. A state is remembered only once its transaction has committed (a
rolled-back read or write never enters the memo), and it is trusted only when the event at V is
still the one it was folded from (same global position), so a log rebuilt under a running process
is refolded rather than believed.

Checking that takes a read of the stream, unless the request already knows where the stream
stands: every match request first finds the match's place (`games.access.match_place`), whose
query also reads the match row's version and last position (written in the same transaction
as each append). That head is noted for the request (`note_head`), and a command of the same
request that finds the memo at exactly that head folds nothing and reads nothing (`take_head`).
A write that lands between the two is caught: by the append's expected-version check, under the
stream's lock (the command is refused as a version conflict, or retried after a real read when
its caller gave no expected version), and, for a command the stale state refused, by deciding
again on a state read afresh (`was_loaded_unread`, `games.eventstore.pipeline.Reload`). Heads
are request-scoped: forgotten when the request finishes, and each is used once.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.conf import settings

from games.eventstore.api import RecordedEvent
from games.eventstore.memo import Folded, StreamMemo
from games.matches.stream import MatchAggregate

__all__ = [
    "CAPACITY",
    "EMPTY_STREAM",
    "Folded",
    "Head",
    "forget_all",
    "forget_heads",
    "loaded_unread",
    "memo",
    "note_head",
    "recall",
    "remember_on_commit",
    "take_head",
    "was_loaded_unread",
]

CAPACITY: int = settings.MATCH_MEMO_CAPACITY
"""Matches remembered per process (2,048 unless the settings say otherwise); a club evening has
a few hundred."""

memo: StreamMemo[MatchAggregate] = StreamMemo(CAPACITY)
recall = memo.recall
remember_on_commit = memo.remember_on_commit
forget_all = memo.forget_all


@dataclass(frozen=True)
class Head:
    """Where a match's stream stood when the request found the match's place; with the events
    from `from_version` on (the memo's version, or 1), read in the same round trip, for a
    command."""

    version: int
    position: int
    events: tuple[RecordedEvent, ...] | None = None
    from_version: int = 1

    @property
    def at(self) -> tuple[int, int]:
        return self.version, self.position


_heads: ContextVar[dict[UUID, Head] | None] = ContextVar("match_heads", default=None)

EMPTY_STREAM = Head(0, 0)
"""The head of a stream with no events (an id the request has just drawn)."""


def note_head(match_id: UUID, head: Head) -> None:
    """This request saw the match's stream at `head`."""
    heads = _heads.get()
    if heads is None:
        heads = {}
        _heads.set(heads)
    heads[match_id] = head


def take_head(match_id: UUID) -> Head | None:
    """The head this request saw, once."""
    heads = _heads.get()
    return None if heads is None else heads.pop(match_id, None)


def forget_heads(**_signal: Any) -> None:
    heads = _heads.get()
    if heads:
        heads.clear()
    _unread.set(None)


_unread: ContextVar[UUID | None] = ContextVar("match_decided_unread", default=None)


def loaded_unread(match_id: UUID | None) -> None:
    """The last load of a match (by id) in this context answered from the memo at the request's
    head without reading the stream; None: the last load read it."""
    _unread.set(match_id)


def was_loaded_unread(match_id: UUID) -> bool:
    """Whether a refusal of a command on this match may come from a write landed since."""
    return _unread.get() == match_id
