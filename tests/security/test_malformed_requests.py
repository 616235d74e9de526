"""Bad input, aimed at live matches and tournaments: bodies that are not JSON, not UTF-8, too
deep, too large or not an object, and query strings with too many parameters, are refused with
a 4xx and a `{"code", "detail"}` body, and record nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from common.api.base import MAX_JSON_DEPTH
from tests.factories.api import API
from tests.security.bad_input import RecordsNothing, assert_refused, send, write_urls
from tests.security.world import World
from tests.tournaments.api.builders import entrant_url, tournament_url

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


def test_a_body_that_is_not_an_object_is_refused_with_invalid_input_and_records_nothing(
    scorer: APIClient, world: World, records_nothing: RecordsNothing
) -> None:
    with records_nothing():
        for url in write_urls(world):
            for body in ["[]", '"text"', "7", "true", "null"]:
                response = send(scorer, url, body, "application/json")
                assert_refused(response, 400, "invalid_input")
