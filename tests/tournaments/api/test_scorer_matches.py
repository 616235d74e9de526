"""`GET /api/v1/scorer/matches/`: the matches a tablet or a signed-in scorer may score."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories.api import API
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import score_round
from tests.security.roles import World, make_world, tournament_at_tables
from tests.tournaments.api.builders import tournament_url

URL = f"{API}/scorer/matches/"


@pytest.fixture
def world(db: None) -> World:  # noqa: ARG001 - requested for its side effect
    return make_world()


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def tablet(world: World, tournament_id: str, **body: Any) -> APIClient:
    response = world.organizer.post(
        tournament_url(tournament_id, "device-tokens"),
        {"scorer": "scorer", "name": "tablet", **body},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return client_with(response.json()["key"])


def test_a_device_token_for_table_3_lists_only_the_match_at_table_3(world: World) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)

    listed = tablet(world, tournament_id, tables=[3]).get(URL).json()

    assert [(found["id"], found["table"]) for found in listed] == [(at[3], 3)]
    assert listed[0]["tournament"]["id"] == tournament_id
    assert listed[0]["sides"] == ["Player 1", "Player 4"]
    assert listed[0]["status"] == "not_started"


def test_a_scorer_of_the_whole_tournament_lists_every_table_open_ones_first(
    world: World,
) -> None:
    _tournament, at = tournament_at_tables(world, 3, 4)
    score_round(world.organizer, at[3], 80, 40)
    scorer = get_user_model().objects.get(username="scorer")

    listed = client_with(Token.objects.create(user=scorer).key).get(URL).json()

    assert [found["id"] for found in listed] == [at[4], at[3]]
    assert [found["status"] for found in listed] == ["not_started", "finished"]


def test_a_user_lists_the_free_standing_matches_they_created_and_nobody_elses(
    world: World,
) -> None:
    mine = ApiMatchFactory.create(client=world.clients["player"])
    ApiMatchFactory.create(client=world.clients["organizer_other_club"])

    listed = world.clients["player"].get(URL).json()

    assert [(found["id"], found["table"], found["tournament"]) for found in listed] == [
        (mine["id"], None, None)
    ]


def test_an_anonymous_caller_is_asked_to_sign_in(world: World) -> None:
    response = world.clients["anonymous"].get(URL)

    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
