"""Bad input, aimed at live matches and tournaments: unknown ids and ids that are not ids are
refused with their not-found code, and empty, repeated or out-of-range queries with
invalid_input; nothing is recorded."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories.api import API
from tests.games.api.builders import match_url, round_url
from tests.security.bad_input import RecordsNothing, assert_refused, call_url, decide_url, send
from tests.security.world import World
from tests.tournaments.api.builders import entrant_url, tournament_url

UNKNOWN = uuid.UUID("00000000-0000-4000-8000-000000000000")


def unknown_ids(world: World) -> list[tuple[str, str, dict[str, Any] | None]]:
    """(URL, the code, a body that would be valid on a thing that exists; None for a read)."""
    entrant = world.open_entrants[0]
    other_tournaments_entrant = world.started_entrants[0]
    play = {"seat": world.next_play.seat, "card": world.next_play.card.code}
    level_decision = {"winner": world.level_entrants[0], "reason": "drawn by lot"}
    return [
        (match_url(UNKNOWN), "match_not_found", None),
        (match_url(UNKNOWN, "events"), "match_not_found", None),
        (round_url(UNKNOWN, 1), "match_not_found", None),
        (round_url(world.live_match, 99), "round_not_found", None),
        (round_url(world.live_match, 10**30), "round_not_found", None),
        (round_url(world.live_match, 99, "replay"), "round_not_found", None),
        (match_url(UNKNOWN, "rounds"), "match_not_found", {"briscola": "7D"}),
        (round_url(UNKNOWN, 1, "plays"), "match_not_found", play),
        (round_url(world.live_match, 99, "plays"), "round_not_found", play),
        (round_url(world.live_match, 1, "plays", 99, "correct"), "play_not_found", {"card": "1D"}),
        (
            round_url(world.live_match, 1, "plays", 10**30, "correct"),
            "play_not_found",
            {"card": "1D"},
        ),
        (round_url(world.points_match, 2, "score"), "round_not_found", {"points": [60, 60]}),
        (round_url(world.live_match, 99, "undo"), "round_not_found", {}),
        (round_url(world.live_match, 99, "void"), "round_not_found", {"reason": "misdeal"}),
        (match_url(UNKNOWN, "confirm"), "match_not_found", {"side": 0}),
        (match_url(UNKNOWN, "dispute"), "match_not_found", {"side": 0, "reason": "wrong"}),
        (match_url(UNKNOWN, "forfeit"), "match_not_found", {"side": 0, "reason": "x"}),
        (tournament_url(UNKNOWN), "tournament_not_found", None),
        (tournament_url(UNKNOWN, "matches"), "tournament_not_found", None),
        (tournament_url(UNKNOWN, "standings"), "tournament_not_found", None),
        (tournament_url(UNKNOWN, "bracket"), "tournament_not_found", None),
        (
            tournament_url(UNKNOWN, "entrants"),
            "tournament_not_found",
            {"name": "Verdi", "players": ["Verdi"]},
        ),
        (entrant_url(UNKNOWN, entrant, "check-in"), "tournament_not_found", {}),
        (entrant_url(world.open_tournament, 10**9, "check-in"), "entrant_not_found", {}),
        (entrant_url(world.open_tournament, 10**30, "withdraw"), "entrant_not_found", {}),
        # An entrant of another tournament is not this tournament's.
        (
            entrant_url(world.open_tournament, other_tournaments_entrant, "check-in"),
            "entrant_not_found",
            {},
        ),
        (
            entrant_url(world.open_tournament, other_tournaments_entrant, "withdraw"),
            "entrant_not_found",
            {"reason": "x"},
        ),
        (entrant_url(UNKNOWN, entrant), "tournament_not_found", {"name": "X", "reason": "x"}),
        (
            entrant_url(world.open_tournament, 10**30),
            "entrant_not_found",
            {"name": "X", "reason": "x"},
        ),
        (
            entrant_url(world.open_tournament, other_tournaments_entrant),
            "entrant_not_found",
            {"seed": 9, "reason": "x"},
        ),
        (
            tournament_url(world.open_tournament, "seeds"),
            "entrant_not_found",
            {"seeds": [{"entrant": other_tournaments_entrant, "seed": 9}], "reason": "x"},
        ),
        (
            tournament_url(UNKNOWN, "seeds"),
            "tournament_not_found",
            {"seeds": [{"entrant": entrant, "seed": 9}], "reason": "x"},
        ),
        (tournament_url(UNKNOWN, "seed"), "tournament_not_found", {}),
        (tournament_url(UNKNOWN, "start"), "tournament_not_found", {}),
        (tournament_url(UNKNOWN, "next-round"), "tournament_not_found", {}),
        (call_url(UNKNOWN, world.started_match), "tournament_not_found", {}),
        (call_url(world.started_tournament, UNKNOWN), "match_not_found", {"table": 1}),
        # A match of another tournament, or a free-standing match, is not this tournament's.
        (call_url(world.open_tournament, world.started_match), "match_not_found", {}),
        (call_url(world.started_tournament, world.live_match), "match_not_found", {}),
        (call_url(world.started_tournament, world.level_match), "match_not_found", {}),
        (decide_url(UNKNOWN, world.level_match), "tournament_not_found", level_decision),
        (decide_url(world.level_tournament, UNKNOWN), "match_not_found", level_decision),
        (
            decide_url(world.started_tournament, world.level_match),
            "match_not_found",
            level_decision,
        ),
        (decide_url(world.level_tournament, world.live_match), "match_not_found", level_decision),
    ]


def test_an_unknown_id_is_refused_with_its_not_found_code_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    with records_nothing():
        for url, code, body in unknown_ids(world):
            if body is None:
                response = scorer.get(url)
            else:
                response = send(scorer, url, json.dumps(body), "application/json")
            refused = assert_refused(response, 404, code)
            assert refused["code"].endswith("_not_found"), url


NOT_IDS = ["12", "not-a-uuid", "null", "00000000-0000-4000-8000-00000000000", "%F0%9F%83%8F", "-1"]


@pytest.mark.parametrize("not_an_id", NOT_IDS)
def test_an_id_that_is_not_a_uuid_or_a_number_is_refused_with_not_found_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing, not_an_id: str
) -> None:
    urls = [
        match_url(not_an_id),
        match_url(not_an_id, "rounds"),
        tournament_url(not_an_id),
        tournament_url(not_an_id, "start"),
    ]
    if not not_an_id.isdigit():  # a number is a round, a play or an entrant id
        urls += [
            match_url(world.live_match, "rounds", not_an_id, "plays"),
            round_url(world.live_match, 1, "plays", not_an_id, "correct"),
            tournament_url(world.open_tournament, "entrants", not_an_id, "withdraw"),
        ]

    with records_nothing():
        for url in urls:
            assert_refused(scorer.get(url), 404, "not_found")
            assert_refused(send(scorer, url, "{}", "application/json"), 404, "not_found")


@pytest.mark.parametrize(
    "query",
    [
        "limit=",
        "limit=1&limit=2",
        "after=-1",
        "after=abc",
        "limit=0",
        "limit=1.5",
    ],
)
def test_a_log_query_that_is_empty_repeated_or_out_of_range_is_refused_with_invalid_input(
    scorer: APIClient, query: str
) -> None:
    assert_refused(scorer.get(f"{API}/events/?{query}"), 400, "invalid_input")


@pytest.mark.parametrize("query", ["status=", "status=ready&status=finished", "round=", "stage="])
def test_a_match_list_query_that_is_empty_or_repeated_is_refused_with_invalid_input(
    scorer: APIClient, world: World, query: str
) -> None:
    url = tournament_url(world.started_tournament, "matches")

    assert_refused(scorer.get(f"{url}?{query}"), 400, "invalid_input")


def test_a_replay_query_given_twice_is_refused_with_invalid_input(
    scorer: APIClient, world: World
) -> None:
    url = round_url(world.live_match, 1, "replay")

    assert_refused(scorer.get(f"{url}?upto=1&upto=2"), 400, "invalid_input")
    assert scorer.get(f"{url}?upto=1").status_code == 200
