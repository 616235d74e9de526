import datetime
import uuid

import pytest
from django.db import DataError, transaction

from common.actors import Actor
from games.eventstore.api import (
    ANY_VERSION,
    EventMetadata,
    EventStoreError,
    NewEvent,
    StreamTypeMismatch,
    WrongExpectedVersion,
    append_to_stream,
    read_stream,
    stream_version,
)
from tests.games.eventstore.builders import append, card_played, cards_played, new_stream_id

pytestmark = pytest.mark.django_db


def test_appended_events_read_back_in_order_with_versions_from_one() -> None:
    stream_id = new_stream_id()

    append_to_stream(
        stream_id=stream_id,
        stream_type="match",
        events=[NewEvent("MatchStarted", {"best_of": 3}), card_played("1D", 0)],
        expected_version=0,
    )
    append_to_stream(
        stream_id=stream_id,
        stream_type="match",
        events=[card_played("3C", 1)],
        expected_version=2,
    )

    events = read_stream(stream_id=stream_id)
    assert [(e.stream_version, e.event_type) for e in events] == [
        (1, "MatchStarted"),
        (2, "CardPlayed"),
        (3, "CardPlayed"),
    ]
    assert [e.payload for e in events] == [
        {"best_of": 3},
        {"card": "1D", "seat": 0},
        {"card": "3C", "seat": 1},
    ]
    assert {e.stream_id for e in events} == {stream_id}
    assert {e.stream_type for e in events} == {"match"}
    assert {e.schema_version for e in events} == {1}


def test_the_append_result_is_what_a_later_read_returns() -> None:
    stream_id = new_stream_id()

    result = append(
        stream_id,
        cards_played("1D", "3C"),
        metadata=EventMetadata(actor_id=7, reason="scored at table 3"),
    )

    assert not result.duplicate
    assert list(result.events) == read_stream(stream_id=stream_id)
    assert (result.first_version, result.last_version) == (1, 2)
    assert result.last_position == result.events[-1].global_position


def test_the_events_of_one_append_take_increasing_positions_in_version_order() -> None:
    result = append(events=cards_played("1D", "3C", "10S", "9B", "8D"))

    positions = [event.global_position for event in result.events]
    assert positions == sorted(positions)
    assert positions == list(range(positions[0], positions[0] + 5))


def test_every_event_of_an_append_carries_its_metadata_and_a_recording_time() -> None:
    metadata = EventMetadata(
        actor_id=42,
        device="table-3-tablet",
        correlation_id="request-1",
        causation_id="command-9",
        reason="corrected a misread card",
        extra={"client_version": "1.4.2"},
    )
    before = datetime.datetime.now(tz=datetime.UTC)

    stream_id = append(events=cards_played("1D", "3C"), metadata=metadata).events[0].stream_id

    events = read_stream(stream_id=stream_id)
    assert [event.event_type for event in events] == ["CardPlayed", "CardPlayed"]
    for event in events:
        assert event.metadata == metadata
        assert event.recorded_at.tzinfo is not None
        assert event.recorded_at >= before - datetime.timedelta(seconds=5)


def test_payloads_keep_nested_values_and_unicode() -> None:
    payload = {
        "note": "Caffè, perché no? 🂡 100% l'asso",
        "cards": ["1D", "3C"],
        "nested": {"n": 1.5},
    }

    stream_id = append(events=[NewEvent("NoteTaken", payload)]).events[0].stream_id

    assert read_stream(stream_id=stream_id)[0].payload == payload


def test_an_empty_stream_accepts_expected_version_zero() -> None:
    stream_id = new_stream_id()

    result = append(stream_id, expected_version=0)

    assert result.last_version == 1


def test_a_new_stream_rejects_an_expected_version_above_zero() -> None:
    stream_id = new_stream_id()

    with pytest.raises(WrongExpectedVersion) as conflict:
        append(stream_id, expected_version=3)

    assert conflict.value.current_version == 0
    assert stream_version(stream_id=stream_id) == 0


def test_a_stale_expected_version_is_a_version_conflict_that_appends_nothing() -> None:
    stream_id = new_stream_id()
    append(stream_id, cards_played("1D", "3C", "10S"), expected_version=0)

    with pytest.raises(WrongExpectedVersion) as conflict:
        append(stream_id, [card_played("9B")], expected_version=1)

    error = conflict.value
    assert isinstance(error, EventStoreError)
    assert error.code == "version_conflict"
    assert (error.expected_version, error.current_version) == (1, 3)
    assert error.stream_id == stream_id
    assert "version 3" in error.message
    assert "expected version 1" in error.message
    assert stream_version(stream_id=stream_id) == 3


def test_an_expected_version_ahead_of_the_stream_is_a_version_conflict() -> None:
    stream_id = new_stream_id()
    append(stream_id, expected_version=0)

    with pytest.raises(WrongExpectedVersion) as conflict:
        append(stream_id, expected_version=5)

    assert conflict.value.current_version == 1


def test_any_version_appends_after_whatever_the_stream_holds() -> None:
    stream_id = new_stream_id()

    first = append(stream_id, expected_version=ANY_VERSION)
    second = append(stream_id, cards_played("1D", "3C"), expected_version=ANY_VERSION)

    assert first.last_version == 1
    assert [e.stream_version for e in second.events] == [2, 3]


def test_the_stream_version_is_zero_for_an_unknown_stream_then_counts_its_events() -> None:
    stream_id = new_stream_id()
    assert stream_version(stream_id=stream_id) == 0

    append(stream_id, cards_played("1D", "3C"))

    assert stream_version(stream_id=stream_id) == 2


def test_streams_are_independent() -> None:
    first, second = new_stream_id(), new_stream_id()

    append(first, cards_played("1D", "3C"), expected_version=0)
    append(second, [card_played("10S")], expected_version=0)

    assert [e.payload["card"] for e in read_stream(stream_id=first)] == ["1D", "3C"]
    assert [e.payload["card"] for e in read_stream(stream_id=second)] == ["10S"]


def test_read_stream_returns_the_versions_asked_for_both_ends_included() -> None:
    stream_id = new_stream_id()
    append(stream_id, cards_played("1D", "3C", "10S", "9B", "8D"))

    assert [e.stream_version for e in read_stream(stream_id=stream_id, from_version=2)] == [
        2,
        3,
        4,
        5,
    ]
    assert [
        e.stream_version for e in read_stream(stream_id=stream_id, from_version=2, to_version=4)
    ] == [2, 3, 4]
    assert read_stream(stream_id=stream_id, from_version=6) == []


def test_reading_an_unknown_stream_gives_no_events() -> None:
    assert read_stream(stream_id=uuid.uuid4()) == []


def test_a_stream_keeps_the_type_of_its_first_event() -> None:
    stream_id = new_stream_id()
    append(stream_id, stream_type="match")

    with pytest.raises(StreamTypeMismatch):
        append(stream_id, stream_type="tournament")

    assert stream_version(stream_id=stream_id) == 1


def test_an_append_inside_a_caller_transaction_is_undone_with_it() -> None:
    stream_id = new_stream_id()

    def append_then_fail_to_update_a_projection() -> None:
        with transaction.atomic():
            append(stream_id, expected_version=0)
            raise RuntimeError("the inline projection failed")

    with pytest.raises(RuntimeError):
        append_then_fail_to_update_a_projection()

    assert stream_version(stream_id=stream_id) == 0


def test_a_version_conflict_inside_a_caller_transaction_leaves_it_usable() -> None:
    stream_id = new_stream_id()
    append(stream_id, expected_version=0)

    with transaction.atomic():
        with pytest.raises(WrongExpectedVersion):
            append(stream_id, expected_version=0)
        append(stream_id, [card_played("1D")], expected_version=1)

    assert stream_version(stream_id=stream_id) == 2


def test_a_database_error_inside_a_caller_transaction_leaves_it_usable() -> None:
    stream_id = new_stream_id()
    unstorable = NewEvent("NoteTaken", {"note": "\x00"})  # jsonb refuses the NUL character

    with transaction.atomic():
        with pytest.raises(DataError):
            append(stream_id, [unstorable], expected_version=0)
        append(stream_id, [card_played("1D")], expected_version=0)

    assert stream_version(stream_id=stream_id) == 1


def test_two_appends_in_one_caller_transaction_follow_each_other() -> None:
    stream_id = new_stream_id()

    with transaction.atomic():
        append(stream_id, expected_version=0)
        append(stream_id, expected_version=1)

    assert stream_version(stream_id=stream_id) == 2


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"events": []}, ValueError),
        ({"stream_type": ""}, ValueError),
        ({"stream_type": "x" * 51}, ValueError),
        ({"expected_version": -1}, ValueError),
        ({"expected_version": True}, TypeError),
        ({"events": [NewEvent("", {})]}, ValueError),
        ({"events": [NewEvent("CardPlayed", {}, schema_version=0)]}, ValueError),
        ({"events": [NewEvent("CardPlayed", {"at": datetime.date(2025, 1, 1)})]}, TypeError),
        ({"events": [NewEvent("CardPlayed", {"points": float("nan")})]}, ValueError),
        ({"metadata": EventMetadata(idempotency_key="k")}, ValueError),
        ({"command_fingerprint": "f"}, ValueError),
        ({"idempotency_key": ""}, ValueError),
    ],
    ids=[
        "no events",
        "empty stream type",
        "stream type too long",
        "negative expected version",
        "boolean expected version",
        "empty event type",
        "schema version zero",
        "payload not json",
        "payload with nan",
        "key in metadata",
        "fingerprint without key",
        "empty key",
    ],
)
def test_malformed_appends_are_refused_before_reaching_the_database(
    arguments: dict[str, object], error: type[Exception]
) -> None:
    stream_id = new_stream_id()
    call: dict[str, object] = {
        "stream_id": stream_id,
        "stream_type": "match",
        "events": [card_played()],
        "expected_version": ANY_VERSION,
    } | arguments

    with pytest.raises(error):
        append_to_stream(**call)  # type: ignore[arg-type]

    assert stream_version(stream_id=stream_id) == 0


def test_metadata_extras_cannot_reuse_the_named_fields() -> None:
    with pytest.raises(ValueError, match="reserved"):
        EventMetadata(extra={"actor_id": 3})


def test_the_metadata_of_an_actors_command_names_the_same_actor_for_a_reaction() -> None:
    actor = Actor(user_id=7, device="tablet 3", reason="typo", correlation_id="c", causation_id="k")

    assert EventMetadata.of(actor).actor() == actor
