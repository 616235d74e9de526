"""Builders for tournament API tests: tournaments made and played through the API itself."""

from typing import Any
from uuid import UUID

from rest_framework.test import APIClient

from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import created, post, score_round
from tournaments.projections import consumer


def tournament_url(tournament_id: str | UUID, *parts: object) -> str:
    return "/".join([f"{API}/tournaments/{tournament_id}", *map(str, parts)]) + "/"


def entrant_url(tournament_id: str | UUID, entrant_id: int, *parts: object) -> str:
    return tournament_url(tournament_id, "entrants", entrant_id, *parts)


def register(
    client: APIClient,
    tournament_id: str,
    name: str,
    players: list[str] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    body = {"name": name, "players": players if players is not None else [name], **fields}
    return created(post(client, tournament_url(tournament_id, "entrants"), body))


def register_seeded(client: APIClient, tournament_id: str, count: int) -> list[int]:
    """Entrants `Player 1`... seeded 1, 2...; their ids in seed order."""
    return [
        register(client, tournament_id, f"Player {n}", seed=n)["id"] for n in range(1, count + 1)
    ]


def started_tournament(client: APIClient, entrants: int, **fields: Any) -> tuple[str, list[int]]:
    """A started tournament with `entrants` seeded singles: its id and the entrant ids."""
    tournament_id = ApiTournamentFactory.create(client=client, **fields)["id"]
    entrant_ids = register_seeded(client, tournament_id, entrants)
    created(post(client, tournament_url(tournament_id, "start")))
    return tournament_id, entrant_ids


def every_page(client: APIClient, url: str, rows: str, **query: Any) -> list[dict[str, Any]]:
    """The whole list at `url`: its pages followed by their `next_after` to the last."""
    listed: list[dict[str, Any]] = []
    after: dict[str, str] = {}
    while True:
        response = client.get(url, {**query, **after})
        assert response.status_code == 200, response.json()
        page = response.json()
        listed += page[rows]
        if page["next_after"] is None:
            return listed
        after = {"after": page["next_after"]}


def matches(client: APIClient, tournament_id: str | UUID, **query: Any) -> list[dict[str, Any]]:
    """The tournament's matches (every page), as the API lists them."""
    return every_page(client, tournament_url(tournament_id, "matches"), "matches", **query)


def tournaments(client: APIClient, **query: Any) -> list[dict[str, Any]]:
    """The tournaments the client may read (every page), as the API lists them."""
    return every_page(client, f"{API}/tournaments/", "tournaments", **query)


def win(client: APIClient, match: dict[str, Any], winner: int) -> None:
    """Score the match's deciding round by points for the entrant `winner` (best of one)."""
    home_wins = winner == match["entrants"][0]
    score_round(client, match["id"], *((80, 40) if home_wins else (40, 80)))


def play_round(client: APIClient, tournament_id: str, winner_of: Any) -> list[dict[str, Any]]:
    """Play every ready match, `winner_of(match)` winning, then let the consumer catch up."""
    ready = matches(client, tournament_id, status="ready")
    for match in ready:
        win(client, match, winner_of(match))
    consumer.consume()
    return ready


def home_wins(match: dict[str, Any]) -> int:
    winner: int = match["entrants"][0]
    return winner


def silent_round_drawn(client: APIClient) -> str:
    """A Swiss of four over two rounds, the second silent (decision record 0060): round 1
    played, so the silent round is drawn and its results may be revealed. Its id."""
    tournament_id, _ = started_tournament(
        client, 4, format="swiss", swiss_rounds=2, silent_final_rounds=1
    )
    play_round(client, tournament_id, home_wins)
    return tournament_id


def level_knockout_match(client: APIClient, **fields: Any) -> tuple[str, dict[str, Any]]:
    """A final of two scored by points (one round) that ended 60-60, under the organizer's
    rule for level knockout matches: the tournament's id and the match as listed."""
    options = {"scoring": "points", "rounds": 1, "level_knockout": "organizer", **fields}
    tournament_id, _ = started_tournament(client, 2, **options)
    [match] = matches(client, tournament_id)
    score_round(client, match["id"], 60, 60)
    consumer.consume()
    [level] = matches(client, tournament_id)
    return tournament_id, level


def groups_tied_at_the_cut(client: APIClient, **fields: Any) -> tuple[str, list[int]]:
    """Groups then knockout of four (groups A: seeds 1 and 4, B: seeds 2 and 3, one qualifier
    each), ranked by match points only, every group match ended 60-60: both groups tied at
    the cut, under the organizer's rule unless `fields` say otherwise. Its id and the entrant
    ids in seed order."""
    options = {
        "format": "groups_then_knockout",
        "group_size": 2,
        "advance_per_group": 1,
        "tiebreaks": ["match_points"],
        "scoring": "points",
        "rounds": 1,
        "level_knockout": "organizer",
        **fields,
    }
    tournament_id, entrants = started_tournament(client, 4, **options)
    for match in matches(client, tournament_id, status="ready"):
        score_round(client, match["id"], 60, 60)
    consumer.consume()
    return tournament_id, entrants


def four_started(client: APIClient) -> str:
    """A single elimination of four singles, started and consumed: its two matches ready."""
    tournament = created(
        post(
            client,
            f"{API}/tournaments/",
            {"name": "Serata", "format": "single_elimination", "table_size": 2, "best_of": 1},
        )
    )
    for seed, name in enumerate(["Rossi", "Bianchi", "Verdi", "Neri"], start=1):
        entrant = {"name": name, "players": [name], "seed": seed}
        created(post(client, tournament_url(tournament["id"], "entrants"), entrant))
    created(post(client, tournament_url(tournament["id"], "start")))
    consumer.consume()
    return str(tournament["id"])


def read(client: APIClient, tournament_id: str, what: str, **headers: Any) -> Any:
    return client.get(tournament_url(tournament_id, what), **headers)
