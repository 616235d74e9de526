"""A stream folded from the log, for every stream kind: from the start, up to a version, or from
what this process folded before (`games.eventstore.memo`), reading nothing when the caller
already knows where the stream stands (a `Head`).

A kind says how its events meet the store (its `common.events.EventCodec`: the type strings,
payloads and schema versions; records decode after the store's upcasters ran), how they fold
(`fold`), and which memo keeps its folded states; the loads below are the same for all.

A head is where a stream stood when a request found its place (a match request's permission
check reads the match row's version and last position, written in the same transaction as each
append, and, for a command, the events the memo lacks). The command that follows is handed that
head as a value (`games.eventstore.pipeline.run_command(head=...)`): when the memo is at exactly
that head it folds nothing and reads nothing. A write landed in between is caught by the append's
expected-version check, and a command that the state refused is decided again on a state read
afresh (`Loaded.unread`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar
from uuid import UUID

from common.events import EventCodec
from games.eventstore.memo import Folded, StreamMemo
from games.eventstore.reading import read_stream
from games.eventstore.records import RecordedEvent

S = TypeVar("S")
E = TypeVar("E")


@dataclass(frozen=True)
class Head:
    """Where a stream stood when the request found its place; with its events from
    `from_version` on (the memo's version, or 1) when they were read in the same round trip."""

    version: int
    position: int
    events: tuple[RecordedEvent, ...] | None = None
    from_version: int = 1

    @property
    def at(self) -> tuple[int, int]:
        return self.version, self.position


EMPTY_STREAM = Head(0, 0)
"""The head of a stream with no events (an id the request has just drawn)."""


@dataclass(frozen=True)
class Loaded(Generic[S]):
    """A stream's state and version (None and 0 before its first event); `unread` when the state
    came from the memo at the caller's head without reading the log."""

    state: S | None
    version: int
    unread: bool = False


@dataclass(frozen=True, kw_only=True)
class StreamFolding(Generic[S, E]):
    """How one kind of stream folds: its stored type, its events' codec, how they fold, and the
    process's memo of its folded states."""

    stream_type: str
    codec: EventCodec[E]
    fold: Callable[[Iterable[E], S | None], S]
    memo: StreamMemo[S]

    def fold_records(self, records: Sequence[RecordedEvent], state: S | None) -> S:
        return self.fold(map(self.codec.decode_recorded, records), state)


def load_latest(
    folding: StreamFolding[S, E], stream_id: UUID, *, head: Head | None = None
) -> Loaded[S]:
    """The stream as it stands, folding only what this process has not folded before, and
    reading nothing when the memo is at `head` (or `head` carries the events it lacks)."""
    known = folding.memo.recall(stream_id)
    if head is not None:
        if known is not None and head.at == (known.version, known.position):
            return Loaded(known.state, known.version, unread=True)
        if known is None and head == EMPTY_STREAM:
            # An id the request just drew: no stream has it (were it taken, the append, which
            # expects an empty stream, would be refused and the command retried after a read).
            return Loaded(None, 0, unread=True)
        if head.events is not None and head.from_version == (known.version if known else 1):
            folded = _fold_read(folding, stream_id, known, head.events)
            if folded is not None:
                return Loaded(*folded, unread=True)
    if known is not None:
        folded = _fold_read(
            folding, stream_id, known, read_stream(stream_id=stream_id, from_version=known.version)
        )
        if folded is not None:
            return Loaded(*folded)
    # Nothing known, or the log changed under the memo (rebuilt): fold it all.
    folded = _fold_read(folding, stream_id, None, read_stream(stream_id=stream_id))
    return Loaded(None, 0) if folded is None else Loaded(*folded)


def load_to(folding: StreamFolding[S, E], stream_id: UUID, to_version: int) -> tuple[S | None, int]:
    """The stream folded from its start up to `to_version` (the memo neither read nor fed)."""
    records = read_stream(stream_id=stream_id, to_version=to_version)
    if not records:
        return None, 0
    return folding.fold_records(records, None), records[-1].stream_version


def _fold_read(
    folding: StreamFolding[S, E],
    stream_id: UUID,
    known: Folded[S] | None,
    records: Sequence[RecordedEvent],
) -> tuple[S, int] | None:
    return folding.memo.fold_read(stream_id, known, records, folding.fold_records)
