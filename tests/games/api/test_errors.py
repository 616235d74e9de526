"""The status mapping and the shape of errors, whatever a client sends."""

import json
from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

from common.exceptions import first_message, server_error, status_for
from tests.factories.api import API
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import match_url, post, round_url, start_round


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("match_not_found", 404),
        ("round_not_found", 404),
        ("play_not_found", 404),
        ("version_conflict", 409),
        ("round_in_progress", 409),
        ("match_finished", 409),
        ("round_not_latest", 409),
        ("round_voided", 409),
        ("round_ruled", 409),
        ("round_not_finished", 422),
        ("match_exists", 409),
        ("result_already_confirmed", 409),
        ("result_already_disputed", 409),
        ("reason_required", 422),
        ("match_not_finished", 422),
        ("points_already_entered", 409),
        ("invalid_input", 400),
        ("not_your_turn", 422),
        ("cards_already_entered", 422),
        ("idempotency_key_reused", 422),
    ],
)
def test_each_domain_code_has_one_status(code: str, status: int) -> None:
    assert status_for(code) == status


def test_the_detail_of_a_validation_error_says_where_it_is() -> None:
    errors = {"sides": {1: {"name": ["This field is required."]}}, "table_size": ["Too big."]}

    assert first_message(errors) == "sides.1.name: This field is required."
    assert first_message({"non_field_errors": ["Expected a dictionary."]}) == (
        "Expected a dictionary."
    )


def test_a_server_error_under_the_api_is_json() -> None:
    response = server_error(RequestFactory().get("/api/v1/matches/"))

    assert response.status_code == 500
    assert json.loads(response.content)["code"] == "server_error"


ODD_BODIES: list[Any] = [
    [],
    "text",
    None,
    {"seat": "x", "card": 7},
    {"seat": 10**30, "card": "1D" * 50},
    {"seat": True, "card": ["1D"]},
    {"points": [10**30, -(10**30)]},
    {"points": "70,50"},
    {"points": [60.5, 59.5]},
    {"briscola": {"rank": 1}},
    {"briscola": "7D", "dealer_seat": -(10**30)},
    {"expected_version": 10**30},
    {"expected_version": -1},
    {"reason": "\x00"},
    {"reason": "r" * 10_000},
    {"card": "\x00"},
    {"side": 10**30, "reason": "x", "expected_version": -1},
    {"side": None},
]

MATCH_BODIES: list[Any] = [
    {"table_size": 10**30, "sides": [{"name": "A"}, {"name": "B"}]},
    {"table_size": 2, "sides": "AB"},
    {"table_size": 2, "sides": [{"name": "\x00"}, {"name": "B"}]},
    {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}], "variant": []},
    {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}], "variant": {"hand_size": "9"}},
    {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}], "variant": {"deck_names": []}},
    {
        "table_size": 3,
        "sides": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
        "variant": {"removed_card_for_three": ["2B"]},
    },
    {
        "table_size": 2,
        "sides": [{"name": "A"}, {"name": "B"}],
        "scoring": "points",
        "rounds": 10**9,
    },
    {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}], "best_of": 10**30},
    {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}], "first_dealer": 10**30},
]


def assert_is_an_error(response: Any) -> None:
    assert 400 <= response.status_code < 500, response.content
    body = response.json()
    assert isinstance(body["code"], str)
    assert isinstance(body["detail"], str)


def test_no_odd_body_makes_a_write_fail_with_a_server_error(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"])
    urls = [
        match_url(match["id"], "rounds"),
        round_url(match["id"], 1, "plays"),
        round_url(match["id"], 1, "plays", 0, "correct"),
        round_url(match["id"], 1, "score"),
        round_url(match["id"], 1, "undo"),
        round_url(match["id"], 1, "void"),
        round_url(match["id"], 10**20, "plays"),
        match_url(match["id"], "confirm"),
        match_url(match["id"], "forfeit"),
    ]

    for url in urls:
        for body in ODD_BODIES:
            assert_is_an_error(post(scorer, url, body))
    for body in MATCH_BODIES:
        assert_is_an_error(post(scorer, f"{API}/matches/", body))
