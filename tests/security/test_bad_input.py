"""Bad input, aimed at live matches and tournaments: every request is refused with a 4xx and a
`{"code", "detail"}` body, and records nothing."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from common.api.base import MAX_JSON_DEPTH
from tests.factories.api import API
from tests.games.api.builders import match_url, round_url
from tests.security.world import World
from tests.tournaments.api.builders import entrant_url, tournament_url

RecordsNothing = Callable[[], AbstractContextManager[None]]

UNKNOWN = uuid.UUID("00000000-0000-4000-8000-000000000000")


def write_urls(world: World) -> list[str]:
    """A URL of every write, on things that exist and could take a valid command."""
    entrant = world.open_entrants[0]
    return [
        f"{API}/matches/",
        match_url(world.fresh_match, "rounds"),
        round_url(world.live_match, 1, "plays"),
        round_url(world.live_match, 1, "plays", 0, "correct"),
        round_url(world.points_match, 1, "score"),
        round_url(world.live_match, 1, "undo"),
        round_url(world.live_match, 1, "void"),
        match_url(world.finished_match, "confirm"),
        match_url(world.finished_match, "dispute"),
        match_url(world.live_match, "forfeit"),
        f"{API}/tournaments/",
        tournament_url(world.open_tournament, "entrants"),
        entrant_url(world.open_tournament, entrant, "check-in"),
        entrant_url(world.open_tournament, entrant, "withdraw"),
        entrant_url(world.open_tournament, entrant),
        tournament_url(world.open_tournament, "seed"),
        tournament_url(world.open_tournament, "seeds"),
        tournament_url(world.open_tournament, "start"),
        tournament_url(world.started_tournament, "next-round"),
        call_url(world.started_tournament, world.started_match),
        decide_url(world.level_tournament, world.level_match),
    ]


def call_url(tournament_id: str | uuid.UUID, match_id: str | uuid.UUID) -> str:
    return tournament_url(tournament_id, "matches", match_id, "call")


def decide_url(tournament_id: str | uuid.UUID, match_id: str | uuid.UUID) -> str:
    return tournament_url(tournament_id, "matches", match_id, "decide")


CHANGED_BY_PATCH = re.compile(r"/entrants/\d+/$|/seeds/$")
"""The writes that change what exists (an entrant, the seeds) take PATCH; the others POST."""


def send(client: APIClient, url: str, body: Any, content_type: str) -> Any:
    method = "PATCH" if CHANGED_BY_PATCH.search(url) else "POST"
    return client.generic(method, url, body, content_type=content_type)


def assert_refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code
    assert isinstance(body["detail"], str)
    assert body["detail"]
    return body


MALFORMED_JSON = [
    '{"seat": 0,',
    "{'seat': 0}",
    '{"seat": 0} {"seat": 1}',
    '{"reason": "\\ud800"',
    '{"points": [NaN, Infinity]}',
    "\ufeff{}",
]


@pytest.mark.parametrize("body", MALFORMED_JSON)
def test_malformed_json_is_refused_with_malformed_json_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing, body: str
) -> None:
    with records_nothing():
        for url in write_urls(world):
            assert_refused(send(scorer, url, body, "application/json"), 400, "malformed_json")


def test_a_body_that_is_not_utf_8_is_refused_with_malformed_json(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    with records_nothing():
        for url in write_urls(world):
            response = send(scorer, url, b'{"reason": "\xff"}', "application/json")
            assert_refused(response, 400, "malformed_json")


def nested_list(depth: int) -> Any:
    value: Any = 3
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000,
        '{"a":' * (MAX_JSON_DEPTH + 1) + "1" + "}" * (MAX_JSON_DEPTH + 1),
        json.dumps({"variant": {"hand_size": nested_list(MAX_JSON_DEPTH)}}),
    ],
    ids=["an array opened 100000 times", "objects one level too deep", "a deep variant"],
)
def test_json_nested_too_deeply_is_refused_as_malformed_json_not_a_server_error(
    scorer: APIClient, world: World, records_nothing: RecordsNothing, body: str
) -> None:
    with records_nothing():
        for url in write_urls(world):
            assert_refused(send(scorer, url, body, "application/json"), 400, "malformed_json")


def test_a_body_over_the_size_limit_is_refused_with_request_too_large_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"reason": "x" * limit})

    with records_nothing():
        for url in write_urls(world):
            refused = assert_refused(
                send(scorer, url, body, "application/json"), 413, "request_too_large"
            )
            assert str(limit) in refused["detail"]


def test_a_body_at_the_size_limit_is_read(scorer: APIClient, world: World) -> None:
    padding = " " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE - len('{"reason": "ill"}'))
    url = entrant_url(world.open_tournament, world.open_entrants[0], "withdraw")

    response = send(scorer, url, '{"reason": "ill"}' + padding, "application/json")

    assert response.status_code == 201, response.content


def test_a_query_string_with_too_many_parameters_is_refused_with_too_many_fields(
    scorer: APIClient, world: World
) -> None:
    many = "&".join(f"p{n}=1" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))

    for url in [f"{API}/events/", tournament_url(world.started_tournament, "matches")]:
        assert_refused(scorer.get(f"{url}?{many}"), 400, "too_many_fields")


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("reason=misdeal&side=0", "application/x-www-form-urlencoded"),
        ("--b\r\nTrue--b--\r\n", "multipart/form-data; boundary=b"),
        ('{"reason": "misdeal"}', "text/plain"),
        ('{"reason": "misdeal"}', "application/xml"),
    ],
    ids=["a form", "a garbled multipart body", "JSON sent as text", "JSON sent as XML"],
)
def test_a_body_that_is_not_json_is_refused_with_unsupported_media_type_and_records_nothing(
    scorer: APIClient,
    world: World,
    records_nothing: RecordsNothing,
    body: str,
    content_type: str,
) -> None:
    with records_nothing():
        for url in write_urls(world):
            response = send(scorer, url, body, content_type)
            assert_refused(response, 415, "unsupported_media_type")


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


def test_a_body_that_is_not_an_object_is_refused_with_invalid_input_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    with records_nothing():
        for url in write_urls(world):
            for body in ["[]", '"text"', "7", "true", "null"]:
                response = send(scorer, url, body, "application/json")
                assert_refused(response, 400, "invalid_input")


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
