"""A per-process memo of folded stream states, so that a load folds only the events its process
has not folded before instead of the whole stream (the match streams, `games.folded`, and the
tournament streams, `tournaments.folded`).

Events never change, so a state folded up to version V of a stream stays right for ever; newer
events are read after V. A state is remembered only once its transaction has committed (a
rolled-back read or write never enters the memo: its positions may be drawn again by another
append), and it is trusted only when the event at V is still the one it was folded from (same
global position), so a log rebuilt under a running process is folded again from the start.

Every thread of the process shares the memo: its entries are a `common.lru.LeastRecentlyUsed`,
and remembering keeps whichever of the two states is folded further, under its lock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar
from uuid import UUID

from django.db import transaction

from common.lru import LeastRecentlyUsed
from games.eventstore.records import RecordedEvent

S = TypeVar("S")


@dataclass(frozen=True)
class Folded(Generic[S]):
    state: S
    version: int
    position: int
    """Global position of the event at `version`."""


class StreamMemo(Generic[S]):
    """Stream id -> its state folded up to a version, the least recently used dropped first."""

    def __init__(self, capacity: int) -> None:
        self.entries: LeastRecentlyUsed[UUID, Folded[S]] = LeastRecentlyUsed(capacity)

    def recall(self, stream_id: UUID) -> Folded[S] | None:
        return self.entries.get(stream_id)

    def remember_on_commit(self, stream_id: UUID, folded: Folded[S]) -> None:
        transaction.on_commit(lambda: self.remember(stream_id, folded))

    def remember(self, stream_id: UUID, folded: Folded[S]) -> None:
        """Remember `folded`, unless the memo holds the stream folded further already."""
        self.entries.put(stream_id, folded, keep=lambda known: known.version > folded.version)

    def forget(self, stream_id: UUID) -> None:
        self.entries.pop(stream_id)

    def forget_all(self) -> None:
        self.entries.clear()

    def fold_read(
        self,
        stream_id: UUID,
        known: Folded[S] | None,
        events: Sequence[RecordedEvent],
        fold: Callable[[Sequence[RecordedEvent], S | None], S],
    ) -> tuple[S, int] | None:
        """The state after `events`, read from the memo's version on (`known`), or from the
        first when nothing is known, remembered once committed; None when they do not follow
        the memo (or there are none)."""
        if known is not None:
            if not events or events[0].global_position != known.position:
                return None
            newer = events[1:]
            if not newer:
                return known.state, known.version
            state = fold(newer, known.state)
        elif not events:
            return None
        else:
            state, newer = fold(events, None), events
        last = newer[-1]
        self.remember_on_commit(stream_id, Folded(state, last.stream_version, last.global_position))
        return state, last.stream_version
