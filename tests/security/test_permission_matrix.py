"""Every API endpoint, called by each kind of requester, answers with exactly the status the
permissions promise (docs/decisions/0016-role-enforcement.md).

The requesters: anonymous, a player of the match, the player key of the world's tournament's
other entrant (no account: decision record 0055), a scorer of another table, a scorer of the
match's table, an organizer of another club, and an organizer of the tournament's club. Each
cell builds its own world, so an allowed write really is carried out (2xx) against a match or a
tournament in the state the command needs. A new endpoint must join `MATRIX`: the completeness
test fails while one is missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.security.cells import Cell, match_url
from tests.security.match_cells import MATCH_CELLS
from tests.security.roles import PERSONAS, make_world
from tests.security.tournament_cells import TOURNAMENT_CELLS

MATRIX: list[Cell] = [*MATCH_CELLS, *TOURNAMENT_CELLS]
"""Every endpoint and method of the API, with the status each requester gets."""


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("cell", MATRIX, ids=lambda cell: f"{cell.route} {cell.method}")
@pytest.mark.usefixtures("db")
def test_every_endpoint_answers_each_requester_with_the_promised_status(
    cell: Cell, persona: str
) -> None:
    world = make_world()

    response = cell.call(world, world.clients[persona])
    response.close()  # a stream's answer gives its slot back (decision 0051)

    assert response.status_code == cell.status_of(persona), getattr(response, "data", response)


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
