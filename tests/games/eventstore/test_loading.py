"""The loads both stream kinds share (`games.eventstore.loading`), on a stream kind made for the
test: a list of the numbers its events carry. What is read is counted by the queries made."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar
from uuid import UUID

import pytest

from common.events import EventCodec
from games.eventstore.api import NewEvent, read_stream
from games.eventstore.loading import (
    EMPTY_STREAM,
    Head,
    Loaded,
    StreamFolding,
    load_latest,
    load_to,
)
from games.eventstore.memo import Folded, StreamMemo
from games.eventstore.records import RecordedEvent
from tests.games.eventstore.builders import append, new_stream_id

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class NumberWritten:
    type: ClassVar[str] = "NumberWritten"
    n: int

    def to_payload(self) -> dict[str, Any]:
        return {"n": self.n}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> NumberWritten:
        return cls(payload["n"])


def numbers(events: Iterable[NumberWritten], state: tuple[int, ...] | None) -> tuple[int, ...]:
    return (*(state or ()), *(event.n for event in events))


def kind() -> StreamFolding[tuple[int, ...], NumberWritten]:
    return StreamFolding(
        stream_type="numbers",
        codec=EventCodec("numbers", [NumberWritten]),
        fold=numbers,
        memo=StreamMemo(8),
    )


def written(stream_id: UUID, *values: int) -> list[RecordedEvent]:
    events = [NewEvent("NumberWritten", {"n": n}) for n in values]
    return list(append(stream_id, events, stream_type="numbers").events)


def remembered(folding: StreamFolding[tuple[int, ...], NumberWritten], stream_id: UUID) -> Head:
    """The memo holds the stream as it is now; the head a request would have seen."""
    records = read_stream(stream_id=stream_id)
    last = records[-1]
    state = folding.fold_records(records, None)
    folding.memo.remember(stream_id, Folded(state, last.stream_version, last.global_position))
    return Head(last.stream_version, last.global_position)


def test_a_stream_is_folded_from_the_log_and_remembered_once_committed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    folding, stream = kind(), new_stream_id()
    written(stream, 1, 2, 3)

    with django_capture_on_commit_callbacks(execute=True):
        loaded = load_latest(folding, stream)

    assert loaded == Loaded((1, 2, 3), 3)
    known = folding.memo.recall(stream)
    assert known is not None
    assert (known.state, known.version) == ((1, 2, 3), 3)


def test_a_stream_without_events_loads_as_nothing_at_version_zero() -> None:
    assert load_latest(kind(), new_stream_id()) == Loaded(None, 0)


def test_at_the_callers_head_the_memo_answers_without_reading_the_log(
    django_assert_num_queries: Any,
) -> None:
    folding, stream = kind(), new_stream_id()
    written(stream, 4, 5)
    head = remembered(folding, stream)

    with django_assert_num_queries(0):
        loaded = load_latest(folding, stream, head=head)

    assert loaded == Loaded((4, 5), 2, unread=True)


def test_a_head_that_brings_the_events_the_memo_lacks_is_folded_without_a_read(
    django_assert_num_queries: Any,
) -> None:
    folding, stream = kind(), new_stream_id()
    written(stream, 4)
    remembered(folding, stream)
    later = read_stream(stream_id=stream) + written(stream, 6, 7)

    with django_assert_num_queries(0):
        loaded = load_latest(
            folding,
            stream,
            head=Head(3, later[-1].global_position, tuple(later), from_version=1),
        )

    assert loaded == Loaded((4, 6, 7), 3, unread=True)


def test_without_a_head_only_the_events_after_the_memo_are_read_and_folded(
    django_assert_num_queries: Any,
) -> None:
    folding, stream = kind(), new_stream_id()
    written(stream, 1)
    remembered(folding, stream)
    written(stream, 2)

    with django_assert_num_queries(1):
        loaded = load_latest(folding, stream)

    assert loaded == Loaded((1, 2), 2)


def test_a_memo_the_log_no_longer_matches_is_folded_again_from_the_start() -> None:
    folding, stream = kind(), new_stream_id()
    first = written(stream, 1)[0]
    folding.memo.remember(stream, Folded((99,), 1, first.global_position + 10_000))

    assert load_latest(folding, stream) == Loaded((1,), 1)


def test_an_id_the_caller_just_drew_is_new_without_a_read(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        loaded = load_latest(kind(), new_stream_id(), head=EMPTY_STREAM)

    assert loaded == Loaded(None, 0, unread=True)


def test_a_stream_is_folded_up_to_a_version_without_the_memo() -> None:
    folding, stream = kind(), new_stream_id()
    written(stream, 1, 2, 3)

    assert load_to(folding, stream, 2) == ((1, 2), 2)
    assert load_to(folding, new_stream_id(), 2) == (None, 0)
    assert folding.memo.recall(stream) is None
