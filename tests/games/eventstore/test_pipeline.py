"""The command pipeline on its own (games/eventstore/pipeline.py), with a stream kind made for
the test: a tally whose events add a number. The match and tournament kinds are tested through
their services; this module pins what the pipeline itself promises to both."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from uuid import UUID

import pytest
from django.db import transaction

from games.eventstore.api import EventMetadata, NewEvent, read_stream
from games.eventstore.errors import WrongExpectedVersion
from games.eventstore.pipeline import Reload, StreamKind, run_command
from games.eventstore.records import AppendResult
from tests.games.eventstore.builders import append, in_threads, new_stream_id

pytestmark = pytest.mark.django_db

WHO = EventMetadata(actor_id=1)


@dataclass
class Tally:
    """A kind whose state is the sum of its events' numbers, noting what the pipeline calls."""

    calls: list[str] = field(default_factory=list)
    before_load: list[int] = field(default_factory=list)
    """Numbers another writer appends just after the next loads read the stream (a lost race)."""

    def kind(self, *, transactional: bool = True) -> StreamKind[int, int]:
        return StreamKind(
            stream_type="tally",
            load=self.load,
            fold=self.fold,
            encode=lambda number: NewEvent("NumberAdded", {"number": number}),
            replay=self.replay,
            project=lambda *_: self.calls.append("project"),
            react=lambda *_: self.calls.append("react"),
            notify=lambda *_: transaction.on_commit(lambda: self.calls.append("notified")),
            transactional=transactional,
        )

    def load(self, stream_id: UUID) -> tuple[int | None, int]:
        self.calls.append("load")
        events = read_stream(stream_id=stream_id)
        state = self.fold([event.payload["number"] for event in events], None) if events else None
        if self.before_load:  # another writer, on its own connection, commits first
            number = self.before_load.pop(0)
            in_threads(lambda _: added(stream_id, number), 1)
        return state, len(events)

    def fold(self, numbers: Sequence[int], state: int | None) -> int:
        return (state or 0) + sum(numbers)

    def replay(self, stream_id: UUID, first: AppendResult) -> tuple[int, int]:
        self.calls.append("replay")
        numbers = [event.payload["number"] for event in read_stream(stream_id=stream_id)]
        return sum(numbers[: first.last_version]), first.last_version


def added(stream_id: UUID, number: int) -> None:
    """The number appended to the tally by another writer."""
    append(stream_id, [NewEvent("NumberAdded", {"number": number})], stream_type="tally")


def add(*numbers: int) -> Callable[[int | None], list[int]]:
    return lambda _state: list(numbers)


def test_a_command_records_its_events_and_answers_the_state_folded_with_them() -> None:
    tally, stream = Tally(), new_stream_id()

    run_command(tally.kind(), stream_id=stream, decide=add(2), metadata=WHO)
    outcome = run_command(tally.kind(), stream_id=stream, decide=add(3, 4), metadata=WHO)

    assert (outcome.state, outcome.version, outcome.recorded) == (9, 3, True)
    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [2, 3, 4]
    assert [event.stream_version for event in outcome.events] == [2, 3]


@pytest.mark.django_db(transaction=True)
def test_the_steps_run_in_order_and_the_notification_only_after_the_commit() -> None:
    tally = Tally()

    run_command(tally.kind(), stream_id=new_stream_id(), decide=add(1), metadata=WHO)

    assert tally.calls == ["load", "project", "react", "notified"]


@pytest.mark.django_db(transaction=True)
def test_a_refusal_in_decide_records_nothing_and_notifies_nothing() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, decide=add(1), metadata=WHO)
    tally.calls.clear()

    def refuse(_state: int | None) -> list[int]:
        raise ValueError("not now")

    with pytest.raises(ValueError, match="not now"):
        run_command(tally.kind(), stream_id=stream, decide=refuse, metadata=WHO)

    assert tally.calls == ["load"]
    assert len(read_stream(stream_id=stream)) == 1


def test_a_command_that_decides_nothing_records_nothing_and_answers_the_state_as_it_is() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, decide=add(5), metadata=WHO)

    outcome = run_command(tally.kind(), stream_id=stream, decide=add(), metadata=WHO)

    assert (outcome.state, outcome.version, outcome.recorded) == (5, 1, False)
    assert len(read_stream(stream_id=stream)) == 1


def test_a_new_stream_must_begin_with_an_event() -> None:
    with pytest.raises(ValueError, match="first event"):
        run_command(Tally().kind(), stream_id=new_stream_id(), decide=add(), metadata=WHO)


def test_an_expected_version_that_is_not_the_streams_is_refused_and_records_nothing() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, decide=add(1), metadata=WHO)

    with pytest.raises(WrongExpectedVersion) as refused:
        run_command(tally.kind(), stream_id=stream, decide=add(2), metadata=WHO, expected_version=0)

    assert (refused.value.expected_version, refused.value.current_version) == (0, 1)
    assert len(read_stream(stream_id=stream)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_race_lost_without_an_expected_version_is_tried_again_on_the_new_state() -> None:
    tally, stream = Tally(), new_stream_id()
    added(stream, 1)
    tally.before_load = [10]

    outcome = run_command(tally.kind(), stream_id=stream, decide=add(5), metadata=WHO)

    assert (outcome.state, outcome.version) == (16, 3)
    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [1, 10, 5]


@pytest.mark.django_db(transaction=True)
def test_a_race_lost_with_an_expected_version_is_refused() -> None:
    tally, stream = Tally(), new_stream_id()
    added(stream, 1)
    tally.before_load = [10]

    with pytest.raises(WrongExpectedVersion):
        run_command(tally.kind(), stream_id=stream, decide=add(5), metadata=WHO, expected_version=1)

    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [1, 10]


def test_a_repeated_idempotency_key_is_answered_from_the_first_command_and_records_nothing() -> (
    None
):
    tally, stream = Tally(), new_stream_id()
    first = run_command(
        tally.kind(),
        stream_id=stream,
        decide=add(3),
        metadata=WHO,
        idempotency_key="k",
        fingerprint="add 3",
    )
    run_command(tally.kind(), stream_id=stream, decide=add(4), metadata=WHO)

    again = run_command(
        tally.kind(),
        stream_id=stream,
        decide=add(3),
        metadata=WHO,
        idempotency_key="k",
        fingerprint="add 3",
    )

    assert (again.duplicate, again.recorded, again.state, again.version) == (True, False, 3, 1)
    assert again.events == first.events
    assert len(read_stream(stream_id=stream)) == 2


def test_an_idempotency_key_needs_the_commands_fingerprint() -> None:
    with pytest.raises(ValueError, match="fingerprint"):
        run_command(
            Tally().kind(),
            stream_id=new_stream_id(),
            decide=add(1),
            metadata=WHO,
            idempotency_key="k",
        )


def test_a_decide_that_asks_to_reload_is_run_again_on_a_state_read_afresh() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, decide=add(1), metadata=WHO)
    tally.calls.clear()
    asked: list[int | None] = []

    def once_stale(state: int | None) -> list[int]:
        asked.append(state)
        if len(asked) == 1:
            raise Reload
        return [2]

    outcome = run_command(tally.kind(), stream_id=stream, decide=once_stale, metadata=WHO)

    assert asked == [1, 1]
    assert tally.calls.count("load") == 2
    assert (outcome.state, outcome.version) == (3, 2)


def test_only_a_kind_that_writes_with_its_append_alone_may_run_outside_a_transaction() -> None:
    with pytest.raises(ValueError, match="only a kind"):
        Tally().kind(transactional=False)
