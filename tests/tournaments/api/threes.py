"""Tournaments at tables of three made and played through the API only, the consumer standing
in for the worker (decision record 0031)."""

from typing import Any

from rest_framework.test import APIClient

from tests.factories.api import API
from tests.games.api.builders import created, match_url, post, round_url
from tests.tournaments.api.builders import matches, tournament_url
from tournaments.projections import consumer

NAMES = ["Rossi", "Bianchi", "Verdi", "Neri", "Gallo", "Conti", "Ferri", "Greco", "Lupo", "Sala"]


def create(organizer: APIClient, format: str, **settings: Any) -> str:
    body = {"name": "Briscola a tre", "format": format, "table_size": 3, **settings}
    return str(created(post(organizer, f"{API}/tournaments/", body))["id"])


def register(organizer: APIClient, tournament_id: str, count: int) -> dict[int, int]:
    """Seed -> entrant id."""
    return {
        seed: created(
            post(
                organizer,
                tournament_url(tournament_id, "entrants"),
                {"name": name, "players": [name], "seed": seed},
            )
        )["id"]
        for seed, name in enumerate(NAMES[:count], start=1)
    }


def round_points(seats: int, order: list[int]) -> list[int]:
    """Card points per seat for a round whose places are `order` (seat indexes, best first)."""
    shares = [70, 40, 10] if seats == 3 else [90, 30]
    points = [0] * seats
    for share, seat in zip(shares, order, strict=False):
        points[seat] = share
    return points


def play(client: APIClient, match: dict[str, Any], ranking: list[int]) -> None:
    """Play the match by round points until it is over, the entrants finishing every round in
    the order of `ranking` (entrant ids, best first; others after)."""
    entrants = match["entrants"]
    order = sorted(
        range(len(entrants)),
        key=lambda seat: ranking.index(entrants[seat]) if entrants[seat] in ranking else 99,
    )
    while client.get(match_url(match["id"])).json()["status"] != "finished":
        number = created(post(client, match_url(match["id"], "rounds"), {"briscola": None}))[
            "number"
        ]
        points = round_points(len(entrants), order)
        created(post(client, round_url(match["id"], number, "score"), {"points": points}))


def play_out(
    organizer: APIClient, anonymous: APIClient, tournament_id: str, ranking: list[int]
) -> dict[str, Any]:
    """Every ready match played (the better seed first) until the tournament is finished."""
    consumer.consume()
    for _ in range(50):
        ready = matches(anonymous, tournament_id, status="ready")
        if not ready:
            break
        for match in ready:
            play(organizer, match, ranking)
        consumer.consume()
    tournament: dict[str, Any] = anonymous.get(tournament_url(tournament_id)).json()
    return tournament
