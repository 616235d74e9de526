"""Who may write, what an unknown tournament answers, and the status of every tournament code."""

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actors import Actor
from common.exceptions import api_exception_handler, status_for
from games.eventstore import loading
from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import post
from tests.tournaments.api.builders import entrant_url, register, tournament_url
from tournaments.formats.errors import InvalidFormatOption
from tournaments.services import registration
from tournaments.standings.errors import UnknownTiebreak

UNKNOWN = uuid.UUID("7e1d0c4a-0000-4000-8000-00000000abcd")  # fixed: part of a test id

WRITES = [
    "entrants",
    "entrants/1/check-in",
    "entrants/1/withdraw",
    "seed",
    "start",
    "next-round",
]
READS = ["", "matches", "standings", "bracket"]


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("tournament_not_found", 404),
        ("entrant_not_found", 404),
        ("tournament_started", 409),
        ("tournament_not_started", 409),
        ("registration_closed", 409),
        ("swiss_round_not_due", 409),
        ("too_few_entrants", 422),
        ("invalid_entrant", 422),
        ("invalid_tournament", 422),
        ("invalid_format_option", 422),
        ("unknown_tiebreak", 422),
    ],
)
def test_each_tournament_code_has_one_status(code: str, status: int) -> None:
    assert status_for(code) == status


@pytest.mark.parametrize(
    "error",
    [InvalidFormatOption("a round robin has one or two legs, got 3"), UnknownTiebreak("x", ("y",))],
)
def test_format_and_standings_errors_answer_their_code_and_detail(error: Exception) -> None:
    response = api_exception_handler(error, {})

    assert response is not None
    assert response.status_code == 422
    assert response.data == {"code": error.code, "detail": error.detail}  # type: ignore[attr-defined]


def test_creating_a_tournament_without_credentials_is_not_authenticated(
    anonymous: APIClient,
) -> None:
    response = post(
        anonymous, f"{API}/tournaments/", {"name": "C", "format": "swiss", "table_size": 2}
    )

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.parametrize("path", WRITES)
def test_every_tournament_write_without_credentials_is_not_authenticated(
    organizer: APIClient, anonymous: APIClient, path: str
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    register(organizer, tournament_id, "Rossi")

    response = post(anonymous, tournament_url(tournament_id, path))

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_wrong_token_is_authentication_failed(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token not-a-token")

    response = post(stranger, tournament_url(tournament_id, "start"))

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


@pytest.mark.parametrize("path", READS)
def test_every_read_of_an_unknown_tournament_is_tournament_not_found(
    anonymous: APIClient, path: str
) -> None:
    response = anonymous.get(tournament_url(UNKNOWN, path) if path else tournament_url(UNKNOWN))

    assert response.status_code == 404
    assert response.json()["code"] == "tournament_not_found"


@pytest.mark.parametrize("path", WRITES)
def test_every_write_to_an_unknown_tournament_is_tournament_not_found(
    organizer: APIClient, path: str
) -> None:
    body = {"name": "Rossi", "players": ["Rossi"]} if path == "entrants" else {}

    response = post(organizer, tournament_url(UNKNOWN, path), body)

    assert response.status_code == 404
    assert response.json()["code"] == "tournament_not_found"


@pytest.mark.parametrize("path", ["check-in", "withdraw"])
def test_an_unknown_entrant_is_entrant_not_found(organizer: APIClient, path: str) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    response = post(organizer, entrant_url(tournament_id, 10**9, path))

    assert response.status_code == 404
    assert response.json()["code"] == "entrant_not_found"


@pytest.mark.parametrize(
    "url",
    [
        f"{API}/tournaments/42/",
        f"{API}/tournaments/not-a-uuid/standings/",
        f"{API}/tournaments/{UNKNOWN}/entrants/first/check-in/",
    ],
)
def test_an_id_of_the_wrong_kind_is_not_found(anonymous: APIClient, url: str) -> None:
    response = anonymous.get(url)

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_reading_a_tournament_with_a_write_method_is_method_not_allowed(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    response = post(organizer, tournament_url(tournament_id, "bracket"))

    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


ODD_BODIES: list[Any] = [
    [],
    "text",
    None,
    {"name": "\x00", "players": ["\x00"]},
    {"name": "n" * 10_000, "players": ["p" * 10_000]},
    {"name": "Rossi", "players": [None]},
    {"name": "Rossi", "players": [{"name": "Rossi"}]},
    {"name": "Rossi", "players": ["Rossi"], "seed": 10**30},
    {"name": "Rossi", "format": ["swiss"], "table_size": 10**30},
    {"name": "Rossi", "format": "swiss", "table_size": 2, "variant": []},
    {"name": "Rossi", "format": "swiss", "table_size": 2, "group_size": -(10**30)},
    {"name": "Rossi", "format": "swiss", "table_size": 2, "tiebreaks": [None]},
    {"name": "Rossi", "format": "swiss", "table_size": 2, "automatic_rounds": "perhaps"},
    {"name": "Rossi", "format": "swiss", "table_size": 2, "no_show_minutes": 10**30},
    {"method": None, "random_seed": -1},
    {"method": "random", "random_seed": 2**70},
    {"reason": "\x00"},
    {"reason": "r" * 10_000},
]


@pytest.mark.parametrize("body", ODD_BODIES)
@pytest.mark.parametrize("path", ["create", "entrants", "seed", "withdraw"])
def test_an_odd_body_is_refused_with_a_code_never_a_server_error(
    organizer: APIClient, path: str, body: Any
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    entrant_id = register(organizer, tournament_id, "Rossi")["id"]
    url = {
        "create": f"{API}/tournaments/",
        "entrants": tournament_url(tournament_id, "entrants"),
        "seed": tournament_url(tournament_id, "seed"),
        "withdraw": entrant_url(tournament_id, entrant_id, "withdraw"),
    }[path]

    response = organizer.post(url, body, format="json")

    assert (response.status_code, response.json().get("code")) == odd_body_answer(path, body)
    if response.status_code >= 400:
        assert {"code", "detail"} <= set(response.json())


def odd_body_answer(path: str, body: Any) -> tuple[int, str | None]:
    """400 `invalid_input` for every odd body but two: a JSON `null` is no body at all, which a
    seed (by the given seeds) and a withdrawal (no reason) do not need; and minutes beyond a day
    are a format option out of its bounds."""
    if body is None and path in ("seed", "withdraw"):
        return 201, None
    if path == "create" and isinstance(body, dict) and body.get("no_show_minutes") == 10**30:
        return 422, "invalid_format_option"
    return 400, "invalid_input"


def test_a_write_that_loses_a_race_is_a_version_conflict(
    organizer: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    load = loading.load_latest

    def load_then_lose_the_race(kind: Any, stream_id: uuid.UUID, **options: Any) -> Any:
        """Read the tournament, then let another registration in before appending."""
        stale = load(kind, stream_id, **options)
        monkeypatch.setattr("games.eventstore.pipeline.load_latest", load)
        registration.entrant_register(
            tournament_id=tournament_id, name="First", players=["First"], actor=Actor()
        )
        return stale

    monkeypatch.setattr("games.eventstore.pipeline.load_latest", load_then_lose_the_race)
    response = post(
        organizer, tournament_url(tournament_id, "entrants"), {"name": "Late", "players": ["Late"]}
    )

    assert response.status_code == 409
    assert response.json()["code"] == "version_conflict"
    assert response.json()["current_version"] == 2


def test_malformed_json_is_malformed_json(organizer: APIClient) -> None:
    response = organizer.post(f"{API}/tournaments/", "{", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
