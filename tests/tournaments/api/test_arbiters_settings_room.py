"""The arbiter's settings of the room through the API (decision record 0059): an accelerated
Swiss, and entrants at a fixed table."""

from __future__ import annotations

from uuid import UUID

import pytest
from rest_framework.test import APIClient

from games.eventstore.api import read_stream
from tests.factories.api import API
from tests.factories.tournaments import ORGANIZER, ApiTournamentFactory
from tests.games.api.builders import created, post
from tests.tournaments.api.builders import every_page, tournament_url
from tests.tournaments.builders import fixtures, win_by_points
from tests.tournaments.projections.snapshots import rebuild
from tournaments.models import Entrant
from tournaments.services.scheduling import fixture_schedule

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


def test_a_fixed_table_entrant_plays_every_round_at_its_table_and_nobody_else_does(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, format="round_robin", tables=3)[
        "id"
    ]
    others = register_many(organizer, tournament_id, 5)
    fixed = created(
        post(
            organizer, tournament_url(tournament_id, "entrants"), {"name": "Gino", "fixed_table": 2}
        )
    )
    created(post(organizer, tournament_url(tournament_id, "start")))

    assert fixed["fixed_table"] == 2
    entrants = organizer.get(tournament_url(tournament_id)).json()["entrants"]
    assert {e["id"]: e["fixed_table"] for e in entrants} == {
        **dict.fromkeys(others),
        fixed["id"]: 2,
    }
    rounds_at_two = set()
    for _ in range(10):
        fixture_schedule(tournament_id=UUID(tournament_id), actor=ORGANIZER)
        seated = fixtures(UUID(tournament_id), status="ready", table__isnull=False)
        for row in seated:
            assert (row.table == 2) == (fixed["id"] in row.entrant_ids), row
            if row.table == 2:
                rounds_at_two.add(row.round)
            win_by_points(row.match_id)
    assert not fixtures(UUID(tournament_id), status="ready")
    assert rounds_at_two == {1, 2, 3, 4, 5}


def test_a_correction_moves_the_fixed_table_and_a_taken_one_is_refused(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, tables=4)["id"]
    first, second = register_many(organizer, tournament_id, 2)
    url = tournament_url(tournament_id, "entrants", first)

    moved = organizer.patch(url, {"fixed_table": 3, "reason": "wheelchair"}, format="json")
    taken = organizer.patch(
        tournament_url(tournament_id, "entrants", second),
        {"fixed_table": 3, "reason": "same"},
        format="json",
    )
    outside = organizer.patch(url, {"fixed_table": 5, "reason": "typo"}, format="json")

    assert moved.status_code == 200
    assert moved.json()["fixed_table"] == 3
    assert taken.json()["code"] == "fixed_table_taken"
    assert outside.json()["code"] == "invalid_fixed_table"
    assert read_stream(stream_id=tournament_id)[-1].payload["fixed_table"] == 3
    # The row is a projection: emptied, the rebuild gives it back from the log.
    Entrant.objects.filter(id=first).update(fixed_table=None)
    rebuild()
    assert Entrant.objects.get(id=first).fixed_table == 3
