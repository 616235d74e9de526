"""The command pipeline on its own (games/eventstore/pipeline.py), with a stream kind made for
the test: a tally whose events add a number. The match and tournament kinds are tested through
their services; this module pins what the pipeline itself promises to both."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar
from uuid import UUID

import pytest
from django.db import transaction

from common.events import EventCodec
from common.explained import Explained
from games.eventstore.api import EventMetadata, NewEvent, read_stream
from games.eventstore.errors import IdempotencyKeyReused, WrongExpectedVersion
from games.eventstore.loading import Head
from games.eventstore.memo import Folded, StreamMemo
from games.eventstore.pipeline import StreamKind, run_command
from games.eventstore.records import RecordedEvent
from tests.games.eventstore.builders import append, in_threads, new_stream_id

pytestmark = pytest.mark.django_db

WHO = EventMetadata(actor_id=1)


@dataclass(frozen=True)
class Add:
    """The tally's one command: add these numbers (none: record nothing)."""

    numbers: tuple[int, ...]


def add(*numbers: int) -> Add:
    return Add(numbers)


class NoTally(Exception):
    pass


class NotNow(Explained):
    """The tally's refusal, as a kind refuses a command."""


@dataclass(frozen=True)
class NumberAdded:
    type: ClassVar[str] = "NumberAdded"
    schema_version: ClassVar[int] = 2
    number: int

    def to_payload(self) -> dict[str, Any]:
        return {"number": self.number}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> NumberAdded:
        return cls(payload["number"])


@dataclass
class Tally:
    """A kind whose state is the sum of its events' numbers, noting what the pipeline calls."""

    calls: list[str] = field(default_factory=list)
    decided_on: list[int | None] = field(default_factory=list)
    before_decide: list[int] = field(default_factory=list)
    """Numbers another writer appends just before the next decisions (a lost race)."""
    refuse: int | None = None
    """A state the tally refuses to add to."""
    broken: bool = False
    """Its decide fails as a bug would, not as a refusal."""
    memo: StreamMemo[int] = field(default_factory=lambda: StreamMemo(8))

    def kind(self, *, transactional: bool = True) -> StreamKind[int, NumberAdded, Add]:
        return StreamKind(
            stream_type="tally",
            codec=EventCodec("tally", [NumberAdded]),
            fold=self.fold,
            memo=self.memo,
            decide=self.decide,
            creates=(Add,),
            not_found=lambda _stream: NoTally("no such tally"),
            project=lambda *_: self.calls.append("project"),
            react=lambda *_: self.calls.append("react"),
            notify=lambda *_: transaction.on_commit(lambda: self.calls.append("notified")),
            transactional=transactional,
        )

    def decide(self, state: int | None, command: Add) -> list[NumberAdded]:
        self.calls.append("decide")
        self.decided_on.append(state)
        if self.before_decide:  # another writer, on its own connection, commits first
            number = self.before_decide.pop(0)
            in_threads(lambda _: added(self.stream_of_race, number), 1)
        if state is not None and state == self.refuse:
            raise NotNow("not now")
        if self.broken:
            raise RuntimeError("broken")
        return [NumberAdded(number) for number in command.numbers]

    stream_of_race: UUID = field(default_factory=new_stream_id)

    def fold(self, events: Iterable[NumberAdded], state: int | None) -> int:
        return (state or 0) + sum(event.number for event in events)


def added(stream_id: UUID, number: int) -> RecordedEvent:
    """The number appended to the tally by another writer."""
    return append(
        stream_id, [NewEvent("NumberAdded", {"number": number})], stream_type="tally"
    ).events[0]


def test_a_command_records_its_events_and_answers_the_state_folded_with_them() -> None:
    tally, stream = Tally(), new_stream_id()

    run_command(tally.kind(), stream_id=stream, command=add(2), metadata=WHO)
    outcome = run_command(tally.kind(), stream_id=stream, command=add(3, 4), metadata=WHO)

    assert (outcome.state, outcome.version, outcome.recorded) == (9, 3, True)
    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [2, 3, 4]
    assert [event.stream_version for event in outcome.events] == [2, 3]
    assert {event.schema_version for event in read_stream(stream_id=stream)} == {2}


@pytest.mark.django_db(transaction=True)
def test_the_steps_run_in_order_and_the_notification_only_after_the_commit() -> None:
    tally = Tally()

    run_command(tally.kind(), stream_id=new_stream_id(), command=add(1), metadata=WHO)

    assert tally.calls == ["decide", "project", "react", "notified"]


@pytest.mark.django_db(transaction=True)
def test_a_refusal_in_decide_records_nothing_and_notifies_nothing() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, command=add(1), metadata=WHO)
    tally.calls.clear()
    tally.refuse = 1

    with pytest.raises(NotNow, match="not now"):
        run_command(tally.kind(), stream_id=stream, command=add(2), metadata=WHO)

    assert tally.calls == ["decide"]
    assert len(read_stream(stream_id=stream)) == 1


def test_a_command_that_decides_nothing_records_nothing_and_answers_the_state_as_it_is() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, command=add(5), metadata=WHO)

    outcome = run_command(tally.kind(), stream_id=stream, command=add(), metadata=WHO)

    assert (outcome.state, outcome.version, outcome.recorded) == (5, 1, False)
    assert len(read_stream(stream_id=stream)) == 1


def test_a_new_stream_must_begin_with_an_event() -> None:
    with pytest.raises(ValueError, match="first event"):
        run_command(Tally().kind(), stream_id=new_stream_id(), command=add(), metadata=WHO)


def test_an_expected_version_that_is_not_the_streams_is_refused_and_records_nothing() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, command=add(1), metadata=WHO)

    with pytest.raises(WrongExpectedVersion) as refused:
        run_command(
            tally.kind(), stream_id=stream, command=add(2), metadata=WHO, expected_version=0
        )

    assert (refused.value.expected_version, refused.value.current_version) == (0, 1)
    assert len(read_stream(stream_id=stream)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_race_lost_without_an_expected_version_is_tried_again_on_the_new_state() -> None:
    tally, stream = Tally(), new_stream_id()
    added(stream, 1)
    tally.before_decide, tally.stream_of_race = [10], stream

    outcome = run_command(tally.kind(), stream_id=stream, command=add(5), metadata=WHO)

    assert (outcome.state, outcome.version) == (16, 3)
    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [1, 10, 5]


@pytest.mark.django_db(transaction=True)
def test_a_race_lost_with_an_expected_version_is_refused() -> None:
    tally, stream = Tally(), new_stream_id()
    added(stream, 1)
    tally.before_decide, tally.stream_of_race = [10], stream

    with pytest.raises(WrongExpectedVersion):
        run_command(
            tally.kind(), stream_id=stream, command=add(5), metadata=WHO, expected_version=1
        )

    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [1, 10]


def test_a_repeated_idempotency_key_is_answered_from_the_first_command_and_records_nothing() -> (
    None
):
    tally, stream = Tally(), new_stream_id()
    first = run_command(
        tally.kind(),
        stream_id=stream,
        command=add(3),
        metadata=WHO,
        idempotency_key="k",
    )
    run_command(tally.kind(), stream_id=stream, command=add(4), metadata=WHO)

    again = run_command(
        tally.kind(),
        stream_id=stream,
        command=add(3),
        metadata=WHO,
        idempotency_key="k",
    )

    assert (again.duplicate, again.recorded, again.state, again.version) == (True, False, 3, 1)
    assert again.events == first.events
    assert len(read_stream(stream_id=stream)) == 2


def test_the_same_key_with_another_command_is_refused_and_records_nothing() -> None:
    tally, stream = Tally(), new_stream_id()
    run_command(tally.kind(), stream_id=stream, command=add(3), metadata=WHO, idempotency_key="k")

    with pytest.raises(IdempotencyKeyReused):
        run_command(
            tally.kind(), stream_id=stream, command=add(4), metadata=WHO, idempotency_key="k"
        )

    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [3]


def test_a_command_refused_on_a_state_trusted_at_the_callers_head_is_decided_again_on_the_log() -> (
    None
):
    tally, stream = Tally(), new_stream_id()
    first = run_command(tally.kind(), stream_id=stream, command=add(1), metadata=WHO)
    seen = Folded(first.state, first.version, first.events[-1].global_position)
    tally.memo.remember(stream, seen)
    last = added(stream, 2)  # another process's write: this memo still holds 1
    tally.calls.clear()
    tally.refuse = 1  # the stale state refuses the command; the state read afresh takes it

    outcome = run_command(
        tally.kind(),
        stream_id=stream,
        command=add(5),
        metadata=WHO,
        head=Head(seen.version, seen.position),
    )

    assert tally.decided_on[-2:] == [1, 3]
    assert (outcome.state, outcome.version) == (8, 3)
    assert [event.payload["number"] for event in read_stream(stream_id=stream)] == [1, 2, 5]
    assert last.stream_version == 2


def test_an_error_that_is_no_refusal_is_raised_at_once_even_on_a_state_trusted_at_the_head() -> (
    None
):
    tally, stream = Tally(), new_stream_id()
    first = run_command(tally.kind(), stream_id=stream, command=add(1), metadata=WHO)
    seen = Folded(first.state, first.version, first.events[-1].global_position)
    tally.memo.remember(stream, seen)
    tally.decided_on.clear()
    tally.broken = True

    with pytest.raises(RuntimeError, match="broken"):
        run_command(
            tally.kind(),
            stream_id=stream,
            command=add(5),
            metadata=WHO,
            head=Head(seen.version, seen.position),
        )

    assert tally.decided_on == [1]
    assert len(read_stream(stream_id=stream)) == 1


def test_a_command_at_the_callers_head_reads_nothing_when_the_memo_is_there(
    django_assert_num_queries: Any,
) -> None:
    tally, stream = Tally(), new_stream_id()
    first = run_command(tally.kind(), stream_id=stream, command=add(1), metadata=WHO)
    tally.memo.remember(
        stream, Folded(first.state, first.version, first.events[-1].global_position)
    )
    head = Head(first.version, first.events[-1].global_position)

    # The savepoint, the append with its statement, the savepoint's release: no read.
    with django_assert_num_queries(3):
        outcome = run_command(
            tally.kind(), stream_id=stream, command=add(2), metadata=WHO, head=head
        )

    assert tally.decided_on[-1] == 1
    assert (outcome.state, outcome.version) == (3, 2)


def test_only_a_kind_that_writes_with_its_append_alone_may_run_outside_a_transaction() -> None:
    with pytest.raises(ValueError, match="only a kind"):
        Tally().kind(transactional=False)
