from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from games.eventstore.api import (
    NewEvent,
    read_all,
    read_stream,
    register_upcaster,
    unregister_upcaster,
)
from games.eventstore.upcasters import UpcasterRegistry
from tests.games.eventstore.builders import append, new_stream_id

pytestmark = pytest.mark.django_db

KIND = "match"
"""The stream type `append` writes unless told otherwise."""


def card_code_from_rank_and_suit(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 stored rank and suit apart; version 2 stores the card code."""
    return {"seat": payload["seat"], "card": f"{payload.pop('rank')}{payload.pop('suit')}"}


def with_trick_number(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 3 numbers the trick; events from before it belong to an unknown trick."""
    return {**payload, "trick": None}


@pytest.fixture
def card_played_upcasters() -> Iterator[None]:
    register_upcaster(
        stream_type=KIND,
        event_type="CardPlayed",
        from_version=1,
        upcaster=card_code_from_rank_and_suit,
    )
    register_upcaster(
        stream_type=KIND, event_type="CardPlayed", from_version=2, upcaster=with_trick_number
    )
    yield
    unregister_upcaster(stream_type=KIND, event_type="CardPlayed", from_version=1)
    unregister_upcaster(stream_type=KIND, event_type="CardPlayed", from_version=2)


@pytest.mark.usefixtures("card_played_upcasters")
def test_old_events_are_read_at_the_latest_schema_version() -> None:
    stream_id = new_stream_id()
    append(
        stream_id,
        [
            NewEvent("CardPlayed", {"seat": 0, "rank": 1, "suit": "D"}, schema_version=1),
            NewEvent("CardPlayed", {"seat": 1, "card": "3C"}, schema_version=2),
            NewEvent("CardPlayed", {"seat": 0, "card": "10S", "trick": 2}, schema_version=3),
        ],
    )

    events = read_stream(stream_id=stream_id)

    assert [(e.schema_version, e.payload) for e in events] == [
        (3, {"seat": 0, "card": "1D", "trick": None}),
        (3, {"seat": 1, "card": "3C", "trick": None}),
        (3, {"seat": 0, "card": "10S", "trick": 2}),
    ]
    after = events[0].global_position - 1
    assert [e.payload for e in read_all(after=after, limit=3)] == [e.payload for e in events]


@pytest.mark.usefixtures("card_played_upcasters")
def test_the_stored_payload_is_never_rewritten() -> None:
    stream_id = new_stream_id()
    append(stream_id, [NewEvent("CardPlayed", {"seat": 0, "rank": 1, "suit": "D"})])

    read_stream(stream_id=stream_id)

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT schema_version, payload->>'rank' FROM eventstore_event WHERE stream_id = %s",
            [stream_id],
        )
        assert cursor.fetchone() == (1, "1")


@pytest.mark.usefixtures("card_played_upcasters")
def test_an_append_and_its_retry_return_upcast_events_too() -> None:
    old_event = NewEvent("CardPlayed", {"seat": 0, "rank": 1, "suit": "D"}, schema_version=1)
    stream_id = new_stream_id()

    first = append(stream_id, [old_event], idempotency_key="k")
    retry = append(stream_id, [old_event], idempotency_key="k")

    assert first.events[0].payload == {"seat": 0, "card": "1D", "trick": None}
    assert retry.events == first.events
    assert old_event.payload == {"seat": 0, "rank": 1, "suit": "D"}


def test_events_without_upcasters_come_out_as_stored() -> None:
    stream_id = new_stream_id()
    append(stream_id, [NewEvent("MatchStarted", {"best_of": 3}, schema_version=4)])

    event = read_stream(stream_id=stream_id)[0]

    assert (event.schema_version, event.payload) == (4, {"best_of": 3})


def test_two_upcasters_from_the_same_version_are_refused() -> None:
    registry = UpcasterRegistry()
    registry.register(
        stream_type=KIND, event_type="CardPlayed", from_version=1, upcaster=with_trick_number
    )

    with pytest.raises(ValueError, match="already registered"):
        registry.register(
            stream_type=KIND, event_type="CardPlayed", from_version=1, upcaster=with_trick_number
        )


def test_schema_versions_start_at_one() -> None:
    with pytest.raises(ValueError, match="start at 1"):
        UpcasterRegistry().register(
            stream_type=KIND, event_type="CardPlayed", from_version=0, upcaster=with_trick_number
        )


@pytest.mark.usefixtures("card_played_upcasters")
def test_an_upcaster_never_applies_to_another_kind_of_stream() -> None:
    stream_id = new_stream_id()
    append(
        stream_id,
        [NewEvent("CardPlayed", {"seat": 0, "rank": 1, "suit": "D"})],
        stream_type="tournament",
    )

    event = read_stream(stream_id=stream_id)[0]

    assert (event.schema_version, event.payload) == (1, {"seat": 0, "rank": 1, "suit": "D"})


def test_a_kinds_upcasters_register_once_and_refuse_another_for_the_same_version() -> None:
    registry = UpcasterRegistry()
    registry.register_kind(stream_type=KIND, upcasters={("CardPlayed", 1): with_trick_number})
    registry.register_kind(stream_type=KIND, upcasters={("CardPlayed", 1): with_trick_number})
    registry.register_kind(
        stream_type="tournament", upcasters={("CardPlayed", 1): card_code_from_rank_and_suit}
    )

    with pytest.raises(ValueError, match="already registered"):
        registry.register_kind(
            stream_type=KIND, upcasters={("CardPlayed", 1): card_code_from_rank_and_suit}
        )
    assert registry.upcast(
        stream_type=KIND, event_type="CardPlayed", schema_version=1, payload={"seat": 0}
    ) == (2, {"seat": 0, "trick": None})
