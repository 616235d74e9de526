"""The ledger folds tournament events into the results in force (pure: no database)."""

import uuid
from typing import Any

from tournaments.ratings.ledger import Ledger, RatedMatch, as_people
from tournaments.ratings.scores import scopes_of
from tournaments.stream.events import ResultsRevealed, decode

TOURNAMENT = uuid.UUID(int=7)
MATCH = "00000000-0000-0000-0000-000000000001"


def no_roster(entrant: int) -> tuple[int, ...]:
    return (100 + entrant,)


def folded(*events: tuple[str, dict[str, Any]], public: bool = True) -> Ledger:
    ledger = Ledger(no_roster)
    created = {"name": "T", "settings": {"format": "round_robin", "table_size": 2}}
    everything: list[tuple[str, dict[str, Any]]] = [
        ("TournamentCreated", created | {"club": 3, "public": public}),
        ("EntrantRegistered", {"entrant": 1, "seed": 1, "players": [11]}),
        ("EntrantRegistered", {"entrant": 2, "seed": 2}),
        (
            "FixtureCreated",
            {"fixture": "L1-1", "match_id": MATCH, "home": 1, "away": 2}
            | {"stage": "league", "round": 1},
        ),
        *events,
    ]
    for position, (event_type, payload) in enumerate(everything, start=1):
        ledger.fold(stream_id=TOURNAMENT, position=position, event=decode(event_type, payload))
    return ledger


def result(winner: int | None, **extra: Any) -> tuple[str, dict[str, Any]]:
    return (
        "ResultRecorded",
        {"fixture": "L1-1", "winner": winner, "rounds": [1, 0], "points": [80, 40]}
        | {"forfeit": False}
        | extra,
    )


def test_a_result_is_rated_between_the_entrants_players_winner_first() -> None:
    [match] = folded(result(2)).in_force()

    assert match.sides == ((11,), (102,))  # an entrant without recorded players: the roster
    assert match.ranks == (2, 1)
    assert (match.club, match.match_id, match.position) == (3, uuid.UUID(MATCH), 5)


def test_a_tie_and_a_level_match_decided_off_the_table_rank_both_first() -> None:
    assert folded(result(None)).in_force()[0].ranks == (1, 1)
    assert folded(result(1, decided_by="higher_seed")).in_force()[0].ranks == (1, 1)


def test_a_reset_withdraws_the_result_and_a_new_result_replaces_it() -> None:
    assert folded(result(1), ("FixtureReset", {"fixture": "L1-1", "reason": ""})).in_force() == []
    [replaced] = folded(result(1), result(2)).in_force()
    assert (replaced.ranks, replaced.position) == ((2, 1), 6)


def test_a_corrected_entrant_plays_with_its_new_players() -> None:
    corrected = (
        "EntrantCorrected",
        {"entrant": 1, "changed": ["players"], "players": [12], "reason": ""},
    )

    [match] = folded(corrected, result(1)).in_force()

    assert match.sides[0] == (12,)


def test_a_private_tournament_is_not_rated() -> None:
    assert folded(result(1), public=False).in_force() == []


def test_a_forfeit_counts_only_where_the_club_counts_forfeits() -> None:
    [match] = folded(result(1, forfeit=True)).in_force()

    assert scopes_of(match, forfeit_clubs=set()) == []
    assert scopes_of(match, forfeit_clubs={3}) == [3, None]


def test_one_person_on_both_sides_is_not_rated() -> None:
    match = RatedMatch(1, TOURNAMENT, None, uuid.UUID(MATCH), ((1,), (2,)), (1, 2), False)

    assert as_people(match, {2: 1}) is None
    assert as_people(match, {2: 5}) == RatedMatch(
        1, TOURNAMENT, None, uuid.UUID(MATCH), ((1,), (5,)), (1, 2), False
    )


def test_the_club_here_wins_over_the_club_an_imported_event_names() -> None:
    ledger = Ledger(no_roster, seat=lambda _tournament: (42, True))
    created = {"name": "T", "settings": {"format": "round_robin", "table_size": 2}, "club": 3}
    created["public"] = True

    ledger.fold(stream_id=TOURNAMENT, position=1, event=decode("TournamentCreated", created))

    assert ledger.books[TOURNAMENT].club == 42


def test_a_silent_round_s_result_counts_only_once_revealed_at_its_own_position() -> None:
    ledger = Ledger(no_roster)
    settings = {"format": "swiss", "table_size": 2, "swiss_rounds": 1, "silent_final_rounds": 1}
    events: list[tuple[str, dict[str, Any]]] = [
        ("TournamentCreated", {"name": "T", "settings": settings, "club": 3, "public": True}),
        ("EntrantRegistered", {"entrant": 1, "seed": 1, "players": [11]}),
        ("EntrantRegistered", {"entrant": 2, "seed": 2, "players": [12]}),
        ("TournamentStarted", {"order": [1, 2]}),
        (
            "FixtureCreated",
            {"fixture": "S1-1", "match_id": MATCH, "home": 1, "away": 2}
            | {"stage": "swiss", "round": 1},
        ),
        (
            "ResultRecorded",
            {"fixture": "S1-1", "winner": 1, "rounds": [1, 0], "points": [80, 40]}
            | {"forfeit": False},
        ),
    ]
    for position, (event_type, payload) in enumerate(events, start=1):
        ledger.fold(stream_id=TOURNAMENT, position=position, event=decode(event_type, payload))
    assert ledger.in_force() == []

    change = ledger.fold(stream_id=TOURNAMENT, position=7, event=ResultsRevealed())

    assert [match.position for match in change.revealed] == [6]
    assert [match.position for match in ledger.in_force()] == [6]
