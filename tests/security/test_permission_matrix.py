"""Every API endpoint, called by each kind of requester, answers with exactly the status the
permissions promise (docs/decisions/0016-role-enforcement.md).

The requesters: anonymous, a player of the match, a scorer of another table, a scorer of the
match's table, an organizer of another club, and an organizer of the tournament's club. Each
cell builds its own world, so an allowed write really is carried out (2xx) against a match or a
tournament in the state the command needs. A new endpoint must join `MATRIX`: the completeness
test fails while one is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from tests.factories.api import API
from tests.security.roles import PERSONAS, World, make_world
from tests.tournaments.api.builders import (
    tournament_url,
)
from tournaments.models import Fixture


@dataclass(frozen=True)
class Cell:
    """One endpoint and method: how to call it in a fresh world, and who gets which status."""

    route: str
    method: str
    call: Callable[[World, APIClient], Any]
    expected: dict[str, int]


def statuses(*codes: int) -> dict[str, int]:
    return dict(zip(PERSONAS, codes, strict=True))


def match_url(match_id: str, *parts: object) -> str:
    return "/".join([f"{API}/matches/{match_id}", *map(str, parts)]) + "/"


def get(url: Callable[[World], str]) -> Callable[[World, APIClient], Any]:
    return lambda world, client: client.get(url(world))


def post(
    url: Callable[[World], str], body: Callable[[World], dict[str, Any]] | None = None
) -> Callable[[World, APIClient], Any]:
    return lambda world, client: client.post(url(world), body(world) if body else {}, format="json")


def patch(
    url: Callable[[World], str], body: Callable[[World], dict[str, Any]]
) -> Callable[[World, APIClient], Any]:
    return lambda world, client: client.patch(url(world), body(world), format="json")


EVERYBODY_READS = statuses(200, 200, 200, 200, 200, 200)
ORGANIZER_ONLY = statuses(401, 403, 403, 403, 403, 201)
ORGANIZER_CHANGES = statuses(401, 403, 403, 403, 403, 200)
ORGANIZER_READS = statuses(401, 403, 403, 403, 403, 200)
THIS_TABLE_SCORES = statuses(401, 403, 403, 201, 403, 201)
NOBODY_BUT_STAFF = statuses(401, 403, 403, 403, 403, 403)
MEMBERS_READ = statuses(404, 200, 200, 200, 404, 200)
"""A private tournament: its club's and its own people read it; the others are told nothing."""


FREE_STANDING = {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]}


def waiting_match(world: World) -> str:
    """A match of the world's tournament that has not started (to call to a table)."""
    return str(
        Fixture.objects.filter(tournament_id=world.tournament(), status="ready")
        .order_by("id")
        .values_list("match_id", flat=True)
        .first()
    )


def in_play(world: World) -> str:
    return match_url(world.round_started(), "rounds", 1)


def leader_plays(world: World) -> dict[str, Any]:
    match_id = world.match()
    leader = world.organizer.get(match_url(match_id, "rounds", 1)).json()["leader_seat"]
    return {"seat": leader, "card": "1C"}


MATRIX: list[Cell] = [
    # Free-standing matches: anybody signed in creates one (it is then theirs alone).
    Cell(
        "match-create",
        "post",
        post(
            lambda _w: f"{API}/matches/",
            lambda _w: {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]},
        ),
        statuses(401, 201, 201, 201, 201, 201),
    ),
    Cell("match-detail", "get", get(lambda w: match_url(w.match())), EVERYBODY_READS),
    Cell(
        "match-detail",
        "get (private)",
        get(lambda w: match_url(w.private_match())),
        MEMBERS_READ,
    ),
    Cell(
        "result-confirm",
        "post",
        post(lambda w: match_url(w.finished_match(), "confirm"), lambda _w: {"side": 0}),
        statuses(401, 201, 403, 403, 403, 201),
    ),
    Cell(
        "result-dispute",
        "post",
        post(
            lambda w: match_url(w.finished_match(), "dispute"),
            lambda _w: {"side": 0, "reason": "we had 62 points"},
        ),
        statuses(401, 201, 403, 403, 403, 201),
    ),
    Cell(
        "match-forfeit",
        "post",
        post(lambda w: match_url(w.match(), "forfeit"), lambda _w: {"side": 1, "reason": "late"}),
        ORGANIZER_ONLY,
    ),
    Cell("match-events", "get", get(lambda w: match_url(w.match(), "events")), ORGANIZER_READS),
    Cell(
        "round-start",
        "post",
        post(lambda w: match_url(w.match(), "rounds"), lambda _w: {"briscola": "7D"}),
        THIS_TABLE_SCORES,
    ),
    Cell("round-detail", "get", get(in_play), EVERYBODY_READS),
    Cell(
        "card-play",
        "post",
        post(lambda w: in_play(w) + "plays/", leader_plays),
        THIS_TABLE_SCORES,
    ),
    Cell(
        "card-play-batch",
        "post",
        post(
            lambda w: in_play(w) + "plays/batch/",
            lambda w: {"plays": [[leader_plays(w)["seat"], "1C"]]},
        ),
        THIS_TABLE_SCORES,
    ),
    Cell(
        "card-correct",
        "post",
        post(
            lambda w: match_url(w.card_played(), "rounds", 1, "plays", 0, "correct"),
            lambda _w: {"card": "2C"},
        ),
        THIS_TABLE_SCORES,
    ),
    Cell(
        "round-points-enter",
        "post",
        post(
            lambda w: match_url(w.round_started(briscola=None), "rounds", 1, "score"),
            lambda _w: {"points": [70, 50]},
        ),
        THIS_TABLE_SCORES,
    ),
    Cell(
        "play-undo",
        "post",
        post(lambda w: match_url(w.card_played(), "rounds", 1, "undo")),
        THIS_TABLE_SCORES,
    ),
    Cell(
        "round-void",
        "post",
        post(lambda w: in_play(w) + "void/", lambda _w: {"reason": "misdeal"}),
        THIS_TABLE_SCORES,
    ),
    Cell("round-replay", "get", get(lambda w: in_play(w) + "replay/"), EVERYBODY_READS),
    Cell(
        "log-events",
        "get",
        get(lambda _w: f"{API}/events/"),
        statuses(401, 403, 403, 403, 403, 403),
    ),
    # Tournaments.
    Cell(
        "tournament-create",
        "post",
        post(
            lambda _w: f"{API}/tournaments/",
            lambda _w: {"name": "Open", "format": "swiss", "table_size": 2, "club": "club-a"},
        ),
        ORGANIZER_ONLY,
    ),
    Cell("tournament-create", "get", get(lambda _w: f"{API}/tournaments/"), EVERYBODY_READS),
    Cell(
        "tournament-detail", "get", get(lambda w: tournament_url(w.tournament())), EVERYBODY_READS
    ),
    Cell(
        "tournament-detail",
        "get (private)",
        get(lambda w: tournament_url(w.tournament(public=False))),
        MEMBERS_READ,
    ),
    Cell(
        "entrant-register",
        "post",
        post(
            lambda w: tournament_url(w.in_registration(), "entrants"),
            lambda _w: {"name": "Late", "players": ["Late"]},
        ),
        ORGANIZER_ONLY,
    ),
    Cell(
        "entrant-check-in",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "entrants", w.entrant(), "check-in")),
        ORGANIZER_ONLY,
    ),
    Cell(
        "entrant-withdraw",
        "post",
        post(
            lambda w: tournament_url(w.in_registration(), "entrants", w.entrant(), "withdraw"),
            lambda _w: {"reason": "ill"},
        ),
        ORGANIZER_ONLY,
    ),
    Cell(
        "entrant-correct",
        "patch",
        patch(
            lambda w: tournament_url(w.in_registration(), "entrants", w.entrant()),
            lambda _w: {"name": "Player One", "seed": 7, "reason": "misspelled"},
        ),
        ORGANIZER_CHANGES,
    ),
    Cell(
        "entrants-reseed",
        "patch",
        patch(
            lambda w: tournament_url(w.in_registration(), "seeds"),
            lambda w: {
                "seeds": [
                    {"entrant": entrant, "seed": 3 - seed}
                    for seed, entrant in enumerate(w.entrants(), start=1)
                ],
                "reason": "swapped",
            },
        ),
        ORGANIZER_CHANGES,
    ),
    Cell(
        "tournament-seed",
        "post",
        post(
            lambda w: tournament_url(w.in_registration(), "seed"),
            lambda _w: {"method": "random", "random_seed": 7},
        ),
        ORGANIZER_ONLY,
    ),
    Cell(
        "tournament-start",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "start")),
        ORGANIZER_ONLY,
    ),
    Cell(
        "swiss-round-publish",
        "post",
        post(lambda w: tournament_url(w.swiss_round_due(), "next-round")),
        ORGANIZER_ONLY,
    ),
    Cell(
        "check-in-window",
        "get",
        get(lambda w: tournament_url(w.in_registration(), "check-in")),
        EVERYBODY_READS,
    ),
    Cell(
        "check-in-open",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "check-in/open")),
        ORGANIZER_ONLY,
    ),
    Cell(
        "check-in-close",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "check-in/close")),
        ORGANIZER_ONLY,
    ),
    Cell(
        "match-call",
        "post",
        post(lambda w: tournament_url(w.tournament(), f"matches/{waiting_match(w)}/call")),
        ORGANIZER_ONLY,
    ),
    Cell(
        "level-match-decide",
        "post",
        post(
            lambda w: tournament_url(w.level_match()[0], f"matches/{w.level_match()[1]}/decide"),
            lambda w: {"winner": w.level_match()[2], "reason": "sorteggio"},
        ),
        ORGANIZER_ONLY,
    ),
    Cell(
        "group-places-decide",
        "post",
        post(
            lambda w: tournament_url(w.tied_group()[0], "groups/A/decide"),
            lambda w: {"order": w.tied_group()[1], "reason": "sorteggio"},
        ),
        ORGANIZER_ONLY,
    ),
    Cell(
        "tournament-matches",
        "get",
        get(lambda w: tournament_url(w.tournament(), "matches")),
        EVERYBODY_READS,
    ),
    Cell(
        "tournament-matches",
        "get (private)",
        get(lambda w: tournament_url(w.tournament(public=False), "matches")),
        MEMBERS_READ,
    ),
    Cell(
        "tournament-standings",
        "get",
        get(lambda w: tournament_url(w.tournament(), "standings")),
        EVERYBODY_READS,
    ),
    Cell(
        "tournament-standings",
        "get (csv)",
        get(lambda w: tournament_url(w.tournament(), "standings") + "?format=csv"),
        EVERYBODY_READS,
    ),
    Cell(
        "tournament-standings",
        "get (csv, private)",
        get(lambda w: tournament_url(w.tournament(public=False), "standings") + "?format=csv"),
        MEMBERS_READ,
    ),
    Cell(
        "tournament-schedule",
        "get",
        get(lambda w: tournament_url(w.tournament(), "schedule")),
        EVERYBODY_READS,
    ),
    Cell(
        "tournament-schedule",
        "get (private)",
        get(lambda w: tournament_url(w.tournament(public=False), "schedule")),
        MEMBERS_READ,
    ),
    # The archive carries every event's metadata (devices, accounts): organizers only.
    Cell(
        "tournament-archive",
        "get",
        get(lambda w: tournament_url(w.tournament(), "archive")),
        ORGANIZER_READS,
    ),
    Cell(
        "tournament-bracket",
        "get",
        get(lambda w: tournament_url(w.tournament(), "bracket")),
        EVERYBODY_READS,
    ),
    Cell(
        "device-tokens",
        "get",
        get(lambda w: tournament_url(w.tournament(), "device-tokens")),
        ORGANIZER_READS,
    ),
    Cell(
        "device-tokens",
        "post",
        post(
            lambda w: tournament_url(w.tournament(), "device-tokens"),
            lambda _w: {"scorer": "scorer_this_table", "name": "tablet 3", "tables": [3]},
        ),
        ORGANIZER_ONLY,
    ),
    Cell(
        "device-token-revoke",
        "post",
        post(lambda w: revoke_url(w)),
        ORGANIZER_READS,
    ),
    Cell(
        "table-card",
        "get",
        get(lambda w: tournament_url(w.tournament(), "tables", 3, "card")),
        ORGANIZER_READS,
    ),
    # What a scorer may score: anybody signed in asks, and hears their own list.
    Cell(
        "scorer-matches",
        "get",
        get(lambda _w: f"{API}/scorer/matches/"),
        statuses(401, 200, 200, 200, 200, 200),
    ),
    # The schema and its docs are public.
    Cell("schema", "get", get(lambda _w: f"{API}/schema/"), EVERYBODY_READS),
    Cell("docs", "get", get(lambda _w: f"{API}/docs/"), EVERYBODY_READS),
]


def revoke_url(world: World) -> str:
    tournament_id, token_id = world.device_token()
    return tournament_url(tournament_id, "device-tokens", token_id, "revoke")


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("cell", MATRIX, ids=lambda cell: f"{cell.route} {cell.method}")
@pytest.mark.usefixtures("db")
def test_every_endpoint_answers_each_requester_with_the_promised_status(
    cell: Cell, persona: str
) -> None:
    world = make_world()

    response = cell.call(world, world.clients[persona])

    assert response.status_code == cell.expected[persona], getattr(response, "data", response)


@pytest.mark.parametrize(
    ("command", "body"),
    [("confirm", {"side": 1}), ("dispute", {"side": 1, "reason": "they had 50, not 40"})],
)
@pytest.mark.usefixtures("db")
def test_a_player_confirms_or_disputes_for_their_own_side_only(
    command: str, body: dict[str, Any]
) -> None:
    world = make_world()
    match_id = world.finished_match()
    url = match_url(match_id, command)
    version = world.organizer.get(match_url(match_id)).json()["version"]

    refused = world.clients["player"].post(url, body, format="json")
    by_the_organizer = world.organizer.post(url, body, format="json")

    assert refused.status_code == 403
    assert refused.json() == {
        "code": "permission_denied",
        "detail": "You do not play for side 1 of this match.",
    }
    assert by_the_organizer.status_code == 201
    assert by_the_organizer.json()["version"] == version + 1


def api_routes() -> set[tuple[str, str]]:
    """Every (route name, HTTP method) under /api/v1/ that a view answers."""
    found: set[tuple[str, str]] = set()
    [api] = [
        entry
        for entry in get_resolver().url_patterns
        if isinstance(entry, URLResolver) and entry.namespace == "api-v1"
    ]

    def walk(patterns: list[URLPattern | URLResolver]) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns)
                continue
            view = getattr(entry.callback, "view_class", None) or getattr(
                entry.callback, "cls", None
            )
            for method in ("get", "post", "put", "patch", "delete"):
                if view is not None and hasattr(view, method):
                    found.add((str(entry.name), method))

    walk(api.url_patterns)
    return found


def test_the_matrix_covers_every_endpoint_and_method_of_the_api() -> None:
    covered = {(cell.route, cell.method.split()[0]) for cell in MATRIX}

    missing = api_routes() - covered

    assert not missing, f"endpoints missing from the permission matrix: {sorted(missing)}"
    assert covered <= api_routes(), "the matrix names endpoints that do not exist"
