"""The arbiter's settings of the room through the API (decision record 0059): an accelerated
Swiss, and entrants at a fixed table."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import created, post
from tests.tournaments.api.builders import every_page, tournament_url

pytestmark = pytest.mark.django_db


def register_many(client: APIClient, tournament_id: str, count: int) -> list[int]:
    """Singles `Player 1`... seeded 1, 2... in one list; their ids in seed order."""
    body = {"entrants": [{"name": f"Player {n}", "seed": n} for n in range(1, count + 1)]}
    answered = created(post(client, tournament_url(tournament_id, "entrants", "bulk"), body))
    return [entrant["id"] for entrant in answered["entrants"]]


def test_an_accelerated_swiss_of_thirty_two_pairs_round_one_within_each_half(
    organizer: APIClient,
) -> None:
    tournament = ApiTournamentFactory.create(
        client=organizer, format="swiss", swiss_rounds=7, tables=None, accelerated=True
    )
    ids = register_many(organizer, tournament["id"], 32)

    started = created(post(organizer, tournament_url(tournament["id"], "start")))
    matches = every_page(organizer, tournament_url(tournament["id"], "matches"), "matches")

    assert tournament["accelerated"] is True
    assert started["accelerated"] is True
    seeds = {entrant_id: seed for seed, entrant_id in enumerate(ids, start=1)}
    paired = sorted(tuple(seeds[e] for e in match["entrants"]) for match in matches)
    # Group A (seeds 1-16) 1 v 9 ... 8 v 16, group B (17-32) 17 v 25 ... 24 v 32.
    assert paired == [(seed, seed + 8) for seed in (*range(1, 9), *range(17, 25))]


def test_acceleration_of_a_knockout_is_an_invalid_format_option(organizer: APIClient) -> None:
    response = post(
        organizer, f"{API}/tournaments/", {**ApiTournamentFactory.build(), "accelerated": True}
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_format_option"
