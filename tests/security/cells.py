"""The cells of the permission matrix (test_permission_matrix.py): one endpoint and method, how
to call it in a fresh world, and the status each requester gets; the statuses the permissions
promise most often, and the matches of a world the calls need."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient

from tests.factories.api import API
from tests.security.roles import ACCOUNT_PERSONAS, PLAYER_KEY, World
from tournaments.models import Fixture


@dataclass(frozen=True)
class Cell:
    """One endpoint and method: how to call it in a fresh world, and who gets which status."""

    route: str
    method: str
    call: Callable[[World, APIClient], Any]
    expected: dict[str, int]
    """What each person with an account, and anonymous, gets (`statuses`)."""
    player_key: int
    """What the player key of the world's (public) tournament gets: its own tournament's
    reads, 403 for any other action there, 404 anywhere else, as anonymous where no tournament
    is (decision record 0055)."""

    def status_of(self, persona: str) -> int:
        return self.player_key if persona == PLAYER_KEY else self.expected[persona]


def statuses(*codes: int) -> dict[str, int]:
    return dict(zip(ACCOUNT_PERSONAS, codes, strict=True))


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
