"""Tournament events carry schema versions (decision record 0063): each event type is written
at its current version, and a payload stored at any past version, as the older code wrote it,
reads back through the store as the typed event it records."""

import uuid
from typing import Any

import pytest
from django.db import connection

from common.actors import Actor
from games.eventstore.api import NewEvent, read_stream
from games.eventstore.pipeline import stored_event
from games.eventstore.upcasters import upcasters
from tests.games.eventstore.builders import append, version_upcast_to
from tests.tournaments.stream.test_events import STORED
from tournaments.services import registration, running
from tournaments.services.pipeline import TOURNAMENT_KIND, TOURNAMENT_STREAM, load_tournament
from tournaments.state import TournamentSettings
from tournaments.stream.events import (
    EVENT_CLASSES,
    ApplicationDeclined,
    ApplicationPromoted,
    ByeCancelled,
    ByeRequested,
    EntrantCorrected,
    EntrantPaused,
    EntrantRegistered,
    EntrantsReseeded,
    EntrantsSeeded,
    EntrantWithdrew,
    GroupPlacesDecided,
    TablesChanged,
    TournamentCreated,
    TournamentEvent,
    schema_version_of,
    tournament_event,
)
from tournaments.stream.fixture_events import (
    FixtureReset,
    LevelMatchDecided,
    MatchCalled,
    MatchScheduled,
)
from tournaments.stream.upcasters import UPCASTERS

SETTINGS = TournamentSettings(format="round_robin", table_size=2)
AT = "2026-01-01T10:00:00+00:00"
ORGANIZER = Actor(user_id=1)

PAST: list[tuple[str, int, dict[str, Any], TournamentEvent]] = [
    (
        "TournamentCreated",
        1,
        {"name": "Club", "settings": SETTINGS.to_dict()},
        TournamentCreated("Club", SETTINGS, club=None, public=True),
    ),
    ("EntrantRegistered", 1, {"entrant": 7}, EntrantRegistered(7, seed=None)),
    ("EntrantWithdrew", 1, {"entrant": 7}, EntrantWithdrew(7, "")),
    ("EntrantWithdrew", 1, {"entrant": 7, "reason": None}, EntrantWithdrew(7, "")),
    (
        "EntrantsSeeded",
        1,
        {"order": [2, 1], "method": "manual"},
        EntrantsSeeded((2, 1), "manual", None),
    ),
    (
        "EntrantCorrected",
        1,
        {"entrant": 7, "changed": ["name"]},
        EntrantCorrected(7, ("name",), reason=""),
    ),
    ("EntrantsReseeded", 1, {"seeds": [[7, 2]]}, EntrantsReseeded(((7, 2),), "")),
    ("GroupPlacesDecided", 1, {"group": "A", "order": [4, 1]}, GroupPlacesDecided("A", (4, 1), "")),
    ("TablesChanged", 1, {"tables": 5}, TablesChanged(5, by="organizer")),
    ("ApplicationDeclined", 1, {"application": 2}, ApplicationDeclined(2, "")),
    ("ApplicationPromoted", 1, {"application": 2}, ApplicationPromoted(2, by="organizer")),
    ("ByeRequested", 1, {"entrant": 4, "round": 2}, ByeRequested(4, 2, by="organizer")),
    ("ByeCancelled", 1, {"entrant": 4, "round": 2}, ByeCancelled(4, 2, by="organizer")),
    ("EntrantPaused", 1, {"entrant": 4}, EntrantPaused(4, "")),
    (
        "MatchScheduled",
        1,
        {"fixture": "R1-1", "table": 2, "scheduled_at": AT},
        MatchScheduled("R1-1", 2, AT, deadline=None),
    ),
    (
        "MatchCalled",
        1,
        {"fixture": "R1-1", "called_at": AT, "deadline": None},
        MatchCalled("R1-1", None, AT, None, ""),
    ),
    ("FixtureReset", 1, {"fixture": "R1-1"}, FixtureReset("R1-1", "")),
    ("LevelMatchDecided", 1, {"fixture": "K1-1", "winner": 3}, LevelMatchDecided("K1-1", 3, "")),
]
"""For each event type with past schema versions, a payload of each past version as the older
code wrote it (the fewest keys), and the event it records."""

LATER_AT_VERSION_1: list[tuple[str, dict[str, Any], TournamentEvent]] = [
    (
        "TournamentCreated",
        {"name": "Club", "settings": SETTINGS.to_dict(), "club": 3, "public": False},
        TournamentCreated("Club", SETTINGS, club=3, public=False),
    ),
    ("EntrantRegistered", {"entrant": 7, "seed": 2}, EntrantRegistered(7, seed=2)),
    ("EntrantWithdrew", {"entrant": 7, "reason": "ill"}, EntrantWithdrew(7, "ill")),
    ("ByeRequested", {"entrant": 4, "round": 2, "by": "player"}, ByeRequested(4, 2, by="player")),
    (
        "MatchCalled",
        {"fixture": "R1-1", "table": 3, "called_at": AT, "deadline": AT, "by": "auto"},
        MatchCalled("R1-1", 3, AT, AT, "auto"),
    ),
]
"""Payloads the later code wrote while every event was still recorded at version 1: every key
present, which the upcasters keep as they are."""


def stored_and_read(event_type: str, schema_version: int, payload: dict[str, Any]) -> Any:
    stream_id = uuid.uuid4()
    append(
        stream_id,
        [NewEvent(event_type, payload, schema_version=schema_version)],
        stream_type=TOURNAMENT_STREAM,
    )
    [recorded] = read_stream(stream_id=stream_id)
    return recorded


def test_every_event_type_with_an_upcaster_has_a_stored_payload_of_each_past_version() -> None:
    assert {(event_type, version) for event_type, version, _, _ in PAST} == set(UPCASTERS)


@pytest.mark.django_db
@pytest.mark.parametrize(("event_type", "schema_version", "payload", "event"), PAST)
def test_a_payload_of_a_past_version_reads_back_as_the_event_it_records(
    event_type: str, schema_version: int, payload: dict[str, Any], event: TournamentEvent
) -> None:
    recorded = stored_and_read(event_type, schema_version, payload)

    assert recorded.schema_version == schema_version_of(event_type)
    assert tournament_event(recorded) == event


@pytest.mark.django_db
@pytest.mark.parametrize(("event_type", "payload", "event"), LATER_AT_VERSION_1)
def test_an_upcaster_keeps_the_keys_a_version_1_payload_has(
    event_type: str, payload: dict[str, Any], event: TournamentEvent
) -> None:
    recorded = stored_and_read(event_type, 1, payload)

    assert recorded.payload == payload
    assert tournament_event(recorded) == event


@pytest.mark.django_db
def test_a_tournament_recorded_by_the_older_code_loads() -> None:
    stream_id = uuid.uuid4()
    append(
        stream_id,
        [
            NewEvent("TournamentCreated", {"name": "Old", "settings": SETTINGS.to_dict()}),
            NewEvent("EntrantRegistered", {"entrant": 1}),
            NewEvent("EntrantRegistered", {"entrant": 2}),
            NewEvent("EntrantWithdrew", {"entrant": 2}),
        ],
        stream_type=TOURNAMENT_STREAM,
    )

    state, version = load_tournament(tournament_id=stream_id)

    assert (state.name, version) == ("Old", 4)
    assert [entrant.withdrawn for entrant in state.entrants.values()] == [False, True]


def test_every_event_type_is_at_the_version_its_upcasters_lead_to() -> None:
    for event_type in EVENT_CLASSES:
        assert schema_version_of(event_type) == version_upcast_to(TOURNAMENT_STREAM, event_type), (
            event_type
        )


@pytest.mark.parametrize(("event", "event_type", "payload"), STORED)
def test_the_pipeline_writes_each_event_at_its_current_version(
    event: TournamentEvent, event_type: str, payload: dict[str, object]
) -> None:
    written = stored_event(TOURNAMENT_KIND, event)

    assert (written.event_type, written.payload) == (event_type, payload)
    assert written.schema_version == EVENT_CLASSES[event_type].__dict__.get("schema_version", 1)


def test_the_match_streams_upcasters_never_apply_to_tournament_events() -> None:
    assert not upcasters.applies_to(
        stream_type=TOURNAMENT_STREAM, event_type="MatchCreated", schema_version=1
    )
    assert upcasters.applies_to(stream_type="match", event_type="MatchCreated", schema_version=1)


@pytest.mark.django_db
def test_a_tournament_played_by_the_services_stores_its_events_at_their_current_versions() -> None:
    tournament = registration.tournament_create(
        name="Circolo", format="round_robin", table_size=2, actor=ORGANIZER
    )
    entrants = [
        registration.registered_entrant_id(
            registration.entrant_register(
                tournament_id=tournament.id, name=name, players=[name], actor=ORGANIZER
            )
        )
        for name in ("Anna", "Bruno", "Carla")
    ]
    registration.entrant_withdraw(
        tournament_id=tournament.id, entrant_id=entrants[2], reason="ill", actor=ORGANIZER
    )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)

    stored = [(e.event_type, e.schema_version) for e in read_stream(stream_id=tournament.id)]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT event_type, schema_version FROM eventstore_event "
            "WHERE stream_id = %s ORDER BY stream_version",
            [tournament.id],
        )
        assert cursor.fetchall() == stored
    assert {"TournamentCreated", "EntrantWithdrew", "FixtureCreated"} <= {t for t, _ in stored}
    assert all(version == schema_version_of(event_type) for event_type, version in stored)
