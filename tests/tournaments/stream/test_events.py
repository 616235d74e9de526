"""The typed tournament events (tournaments/stream/events.py): each meets the store as its type
string and payload, exactly as stored before the events were typed, and each folds."""

from typing import get_args

import pytest

from tournaments.state import Registration, Result, SwissPairing, TournamentSettings
from tournaments.stream.events import (
    EVENT_CLASSES,
    ApplicationApproved,
    ApplicationDeclined,
    ApplicationPromoted,
    ApplicationWaitlisted,
    ByeCancelled,
    ByeRequested,
    EntrantApplied,
    EntrantCorrected,
    EntrantPaused,
    EntrantRegistered,
    EntrantReturned,
    EntrantsReseeded,
    RegistrationChanged,
    TablesChanged,
    TournamentCreated,
    TournamentEvent,
    WaitingListReordered,
    decode,
    encode,
)
from tournaments.stream.fixture_events import (
    FixtureCreated,
    MatchCalled,
    MatchScheduled,
    ResultRecorded,
    SwissRoundPaired,
)

SETTINGS = TournamentSettings(format="round_robin", table_size=2)

STORED: list[tuple[TournamentEvent, str, dict[str, object]]] = [
    (
        TournamentCreated("Club", SETTINGS, club=None, public=True),
        "TournamentCreated",
        {"name": "Club", "settings": SETTINGS.to_dict(), "club": None, "public": True},
    ),
    (EntrantRegistered(7, seed=None), "EntrantRegistered", {"entrant": 7, "seed": None}),
    (
        SwissRoundPaired(SwissPairing(2, (("S2-1", (1, 4)), ("S2-2", (2, 3, 5))), bye=None)),
        "SwissRoundPaired",
        {"round": 2, "pairings": [["S2-1", 1, 4], ["S2-2", 2, 3, 5]], "bye": None},
    ),
    (
        FixtureCreated("R1-1", "m", 1, 2, "league", 1),
        "FixtureCreated",
        {"fixture": "R1-1", "match_id": "m", "home": 1, "away": 2, "stage": "league", "round": 1},
    ),
    (
        FixtureCreated("K1-1", "m", 1, 2, "knockout", 1, third=3),
        "FixtureCreated",
        {
            "fixture": "K1-1",
            "match_id": "m",
            "home": 1,
            "away": 2,
            "stage": "knockout",
            "round": 1,
            "third": 3,
        },
    ),
    (
        MatchScheduled("R1-1", 2, "2026-01-01T10:00:00+00:00"),
        "MatchScheduled",
        {
            "fixture": "R1-1",
            "table": 2,
            "scheduled_at": "2026-01-01T10:00:00+00:00",
            "deadline": None,
        },
    ),
    (
        MatchCalled("R1-1", 2, "2026-01-01T10:00:00+00:00", None, "organizer"),
        "MatchCalled",
        {
            "fixture": "R1-1",
            "table": 2,
            "called_at": "2026-01-01T10:00:00+00:00",
            "deadline": None,
            "by": "organizer",
        },
    ),
    (
        ResultRecorded("R1-1", Result(winner=1, rounds=(2, 1), points=(70, 50))),
        "ResultRecorded",
        {"fixture": "R1-1", "winner": 1, "rounds": [2, 1], "points": [70, 50], "forfeit": False},
    ),
    (
        EntrantCorrected(7, ("name",), reason="misspelled"),
        "EntrantCorrected",
        {"entrant": 7, "changed": ["name"], "reason": "misspelled"},
    ),
    (
        EntrantCorrected(7, ("players",), reason="a substitute", players=(11, 12)),
        "EntrantCorrected",
        {"entrant": 7, "changed": ["players"], "players": [11, 12], "reason": "a substitute"},
    ),
    (
        EntrantsReseeded(((7, 2), (8, None)), reason="ranking"),
        "EntrantsReseeded",
        {"seeds": [[7, 2], [8, None]], "reason": "ranking"},
    ),
    (TablesChanged(5), "TablesChanged", {"tables": 5, "by": "organizer"}),
    (TablesChanged(None), "TablesChanged", {"tables": None, "by": "organizer"}),
    (TablesChanged(4, by="first_round"), "TablesChanged", {"tables": 4, "by": "first_round"}),
    (
        EntrantRegistered(8, players=(3,), application=2),
        "EntrantRegistered",
        {"entrant": 8, "seed": None, "players": [3], "application": 2},
    ),
    (
        RegistrationChanged(Registration(open=True, cap=4, waitlist=True)),
        "RegistrationChanged",
        {
            "registration": {
                "open": True,
                "closes_at": None,
                "cap": 4,
                "waitlist": True,
                "approval": False,
            }
        },
    ),
    (EntrantApplied(2, 1), "EntrantApplied", {"application": 2, "players": 1}),
    (ApplicationApproved(2), "ApplicationApproved", {"application": 2}),
    (ApplicationDeclined(2, "full"), "ApplicationDeclined", {"application": 2, "reason": "full"}),
    (ApplicationWaitlisted(2), "ApplicationWaitlisted", {"application": 2}),
    (
        ApplicationPromoted(2, by="withdrawal"),
        "ApplicationPromoted",
        {"application": 2, "by": "withdrawal"},
    ),
    (WaitingListReordered((3, 2)), "WaitingListReordered", {"order": [3, 2]}),
    (
        EntrantRegistered(9, late=True, from_round=3, missed="bye"),
        "EntrantRegistered",
        {"entrant": 9, "seed": None, "late": True, "from_round": 3, "missed": "bye"},
    ),
    (ByeRequested(4, 2), "ByeRequested", {"entrant": 4, "round": 2, "by": "organizer"}),
    (ByeCancelled(4, 2, by="player"), "ByeCancelled", {"entrant": 4, "round": 2, "by": "player"}),
    (EntrantPaused(4, "ill"), "EntrantPaused", {"entrant": 4, "reason": "ill"}),
    (EntrantReturned(4), "EntrantReturned", {"entrant": 4}),
]


@pytest.mark.parametrize(("event", "event_type", "payload"), STORED)
def test_an_event_is_stored_as_before_and_read_back_as_itself(
    event: TournamentEvent, event_type: str, payload: dict[str, object]
) -> None:
    assert encode(event) == (event_type, payload)
    assert list(encode(event)[1]) == list(payload)  # the keys in their order too
    assert decode(event_type, payload) == event


def test_every_event_type_has_its_class_and_every_class_is_one_evolve_folds() -> None:
    # `evolve` matches `TournamentEvent` exhaustively (mypy checks its `assert_never`): every
    # class the store reads must be one of that union's.
    assert sorted(EVENT_CLASSES) == sorted(cls.type for cls in EVENT_CLASSES.values())
    assert len(EVENT_CLASSES) == 32
    assert set(get_args(TournamentEvent)) == set(EVENT_CLASSES.values())


def test_an_unknown_event_type_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tournament event 'TournamentRenamed'"):
        decode("TournamentRenamed", {})
