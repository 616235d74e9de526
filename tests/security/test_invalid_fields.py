"""Bad input, aimed at live matches and tournaments: missing fields, values of the wrong type,
strings no database can store, control characters in a device name and unknown fields are
refused with invalid_input naming them, and record nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.eventstore.models import Event
from tests.factories.api import API
from tests.games.api.builders import match_url, round_url
from tests.security.bad_input import (
    RecordsNothing,
    assert_refused,
    call_url,
    decide_url,
    send,
    write_urls,
)
from tests.security.world import World
from tests.tournaments.api.builders import entrant_url, tournament_url


def wrong_types(world: World) -> list[tuple[str, dict[str, Any], list[str]]]:
    """(URL, body, the path of the field refused) for values of another JSON type."""
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    live_round = round_url(world.live_match, 1)
    return [
        (f"{API}/matches/", {"table_size": "2", "sides": sides}, ["table_size"]),
        (f"{API}/matches/", {"table_size": 2, "sides": sides, "id": 12345}, ["id"]),
        (f"{API}/matches/", {"table_size": 2, "sides": [{"name": 1}, {"name": 2}]}, ["sides"]),
        (f"{API}/matches/", {"table_size": 2, "sides": {"name": "Rossi"}}, ["sides"]),
        (f"{API}/matches/", {"table_size": True, "sides": sides}, ["table_size"]),
        (match_url(world.fresh_match, "rounds"), {"briscola": 7}, ["briscola"]),
        (f"{live_round}plays/", {"seat": "0", "card": "1D"}, ["seat"]),
        (f"{live_round}plays/", {"seat": 0, "card": ["1D"]}, ["card"]),
        (f"{live_round}plays/", {"seat": 0.5, "card": "1D"}, ["seat"]),
        (f"{live_round}plays/0/correct/", {"card": {"rank": 1}}, ["card"]),
        (f"{live_round}plays/batch/", {"plays": [["0", "1D"]]}, ["plays"]),
        (f"{live_round}plays/batch/", {"plays": {"0": "1D"}}, ["plays"]),
        (f"{live_round}plays/batch/", {"plays": [[0, "1D", "2D"]]}, ["plays"]),
        (round_url(world.points_match, 1, "score"), {"points": ["60", "60"]}, ["points"]),
        (round_url(world.points_match, 1, "score"), {"points": [60, False]}, ["points"]),
        (round_url(world.points_match, 1, "score"), {"points": "60,60"}, ["points"]),
        (f"{live_round}undo/", {"expected_version": "5"}, ["expected_version"]),
        (f"{live_round}void/", {"reason": 12}, ["reason"]),
        (match_url(world.finished_match, "confirm"), {"side": [0]}, ["side"]),
        (match_url(world.finished_match, "dispute"), {"side": 0, "reason": ["no"]}, ["reason"]),
        (match_url(world.live_match, "forfeit"), {"side": None, "reason": "x"}, ["side"]),
        (
            f"{API}/tournaments/",
            {"name": 0.25, "format": "swiss", "table_size": 2},
            ["name"],
        ),
        (
            f"{API}/tournaments/",
            {"name": "Coppa", "format": "swiss", "table_size": 2, "third_place": "yes"},
            ["third_place"],
        ),
        (
            tournament_url(world.open_tournament, "entrants"),
            {"name": "Verdi", "players": "Verdi"},
            ["players"],
        ),
        (
            tournament_url(world.open_tournament, "entrants"),
            {"name": "Verdi", "players": [7]},
            ["players"],
        ),
        (
            tournament_url(world.open_tournament, "seed"),
            {"method": "random", "random_seed": "4"},
            ["random_seed"],
        ),
        (
            entrant_url(world.open_tournament, world.open_entrants[0], "withdraw"),
            {"reason": False},
            ["reason"],
        ),
        (
            entrant_url(world.open_tournament, world.open_entrants[0]),
            {"name": "Verdi", "reason": 5},
            ["reason"],
        ),
        (
            entrant_url(world.open_tournament, world.open_entrants[0]),
            {"players": [{"name": 7}], "reason": "typo"},
            ["players"],
        ),
        (
            entrant_url(world.open_tournament, world.open_entrants[0]),
            {"seed": "1", "reason": "typo", "confirm_duplicate_name": "yes"},
            ["confirm_duplicate_name", "seed"],
        ),
        (
            tournament_url(world.open_tournament, "seeds"),
            {"seeds": [{"entrant": str(world.open_entrants[0]), "seed": 2}], "reason": "x"},
            ["seeds"],
        ),
        (call_url(world.started_tournament, world.started_match), {"table": "1"}, ["table"]),
        (call_url(world.started_tournament, world.started_match), {"table": 1.5}, ["table"]),
        (call_url(world.started_tournament, world.started_match), {"table": [1]}, ["table"]),
        (call_url(world.started_tournament, world.started_match), {"table": 0}, ["table"]),
        (
            decide_url(world.level_tournament, world.level_match),
            {"winner": str(world.level_entrants[0]), "reason": "lot"},
            ["winner"],
        ),
        (
            decide_url(world.level_tournament, world.level_match),
            {"winner": world.level_entrants[0], "reason": ["lot"]},
            ["reason"],
        ),
        (
            decide_url(world.level_tournament, world.level_match),
            {"winner": None, "reason": "lot"},
            ["winner"],
        ),
        (
            decide_url(world.level_tournament, world.level_match),
            {"winner": True, "reason": 7},
            ["reason", "winner"],
        ),
        (
            decide_url(world.level_tournament, world.level_match),
            {"winner": {"id": world.level_entrants[0]}, "reason": "lot"},
            ["winner"],
        ),
    ]


def missing_fields(world: World) -> list[tuple[str, dict[str, Any], list[str]]]:
    """(URL, a body lacking what the command needs, the paths of the fields missing)."""
    decide = decide_url(world.level_tournament, world.level_match)
    return [
        (round_url(world.live_match, 1, "plays"), {"seat": world.next_play.seat}, ["card"]),
        (round_url(world.live_match, 1, "void"), {}, ["reason"]),
        (match_url(world.live_match, "forfeit"), {"reason": "x"}, ["side"]),
        (decide, {}, ["reason", "winner"]),
        (decide, {"reason": "lot"}, ["winner"]),
        (decide, {"winner": world.level_entrants[0]}, ["reason"]),
        (decide, {"winner": world.level_entrants[0], "reason": None}, ["reason"]),
    ]


def test_a_missing_field_is_refused_with_invalid_input_naming_it_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    with records_nothing():
        for url, body, fields in missing_fields(world):
            response = send(scorer, url, json.dumps(body), "application/json")
            refused = assert_refused(response, 400, "invalid_input")
            assert sorted(refused["fields"]) == fields, (url, body, refused)


def test_a_value_of_the_wrong_type_is_refused_with_invalid_input_naming_it_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    with records_nothing():
        for url, body, fields in wrong_types(world):
            response = send(scorer, url, json.dumps(body), "application/json")
            refused = assert_refused(response, 400, "invalid_input")
            assert sorted(refused["fields"]) == fields, (url, body, refused)


@pytest.mark.parametrize("text", ["\u0000", "a\u0000b", "\ud800", "\udfff x"])
def test_a_string_no_database_can_store_is_refused_with_invalid_input_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing, text: str
) -> None:
    """A NUL or a lone surrogate: PostgreSQL's text and JSON hold neither."""
    bodies = [
        (round_url(world.live_match, 1, "void"), {"reason": text}),
        (match_url(world.live_match, "forfeit"), {"side": 0, "reason": text}),
        (match_url(world.finished_match, "dispute"), {"side": 0, "reason": text}),
        (round_url(world.live_match, 1, "plays"), {"seat": world.next_play.seat, "card": text}),
        (f"{API}/matches/", {"table_size": 2, "sides": [{"name": text}, {"name": "B"}]}),
        (f"{API}/tournaments/", {"name": text, "format": "swiss", "table_size": 2}),
        (tournament_url(world.open_tournament, "entrants"), {"name": "x", "players": [text]}),
        (entrant_url(world.open_tournament, world.open_entrants[0]), {"name": text, "reason": "x"}),
        (
            tournament_url(world.open_tournament, "seeds"),
            {"seeds": [{"entrant": world.open_entrants[0], "seed": 7}], "reason": text},
        ),
    ]

    with records_nothing():
        for url, body in bodies:
            # ensure_ascii keeps a lone surrogate as its JSON escape, as a client would send it
            response = send(scorer, url, json.dumps(body), "application/json")
            assert_refused(response, 400, "invalid_input")


@pytest.mark.parametrize("device", ["\x00", "table\x007", "table\x1b[31m7", "\x7f"])
def test_a_device_name_with_control_characters_is_refused_with_invalid_input(
    scorer: APIClient, world: World, records_nothing: RecordsNothing, device: str
) -> None:
    """PostgreSQL's JSON cannot hold the NUL: the device name went to the log and failed there."""
    with records_nothing():
        response = scorer.generic(
            "POST",
            round_url(world.live_match, 1, "void"),
            '{"reason": "misdeal"}',
            content_type="application/json",
            HTTP_X_DEVICE=device,
        )
        assert assert_refused(response, 400, "invalid_input")["fields"] == {
            "X-Device": ["a device name cannot hold control characters"]
        }


def test_a_device_name_with_accents_and_a_tab_is_recorded(scorer: APIClient, world: World) -> None:
    device = "Sala Città\t7".encode().decode("latin-1")  # as WSGI hands a header over

    response = scorer.generic(
        "POST",
        round_url(world.live_match, 1, "void"),
        '{"reason": "misdeal"}',
        content_type="application/json",
        HTTP_X_DEVICE=device,
    )

    assert response.status_code == 201, response.content
    recorded = Event.objects.filter(stream_id=world.live_match).order_by("-stream_version")[0]
    assert (recorded.event_type, recorded.metadata["device"]) == ("RoundVoided", "Sala Città\t7")


def test_an_unknown_field_is_refused_with_invalid_input_rather_than_ignored(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    """A misspelled `expected_version` would otherwise let the card through unguarded."""
    play = {"seat": world.next_play.seat, "card": world.next_play.card.code}

    with records_nothing():
        for url in write_urls(world):
            refused = assert_refused(
                send(scorer, url, '{"expected_verison": 0}', "application/json"),
                400,
                "invalid_input",
            )
            assert "expected_verison" in refused["fields"]
        misspelled = {**play, "expected_verison": 0}
        response = send(
            scorer,
            round_url(world.live_match, 1, "plays"),
            json.dumps(misspelled),
            "application/json",
        )
        assert assert_refused(response, 400, "invalid_input")["fields"] == {
            "expected_verison": ["Unknown field: nothing was recorded (is it misspelled?)."]
        }
        nested = {"table_size": 2, "sides": [{"name": "Rossi"}, {"name": "Bianchi", "nmae": "B"}]}
        response = send(scorer, f"{API}/matches/", json.dumps(nested), "application/json")
        assert assert_refused(response, 400, "invalid_input")["fields"] == {
            "sides": {"1": {"nmae": ["Unknown field: nothing was recorded (is it misspelled?)."]}}
        }
