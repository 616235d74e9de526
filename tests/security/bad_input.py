"""What the bad-input tests (test_malformed_requests.py, test_invalid_fields.py,
test_unknown_ids_and_queries.py) send and expect: a URL of every write on the live world, the
method each write takes, and a refusal with a 4xx and a `{"code", "detail"}` body."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from rest_framework.test import APIClient

from tests.factories.api import API
from tests.games.api.builders import match_url, round_url
from tests.security.world import World
from tests.tournaments.api.builders import entrant_url, tournament_url

RecordsNothing = Callable[[], AbstractContextManager[None]]


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
