"""The seasons API: a club's seasons, and a season with its standings, for anyone to read."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Role
from tests.factories.accounts import ClubFactory, UserFactory, token_client
from tests.factories.api import API
from tests.tournaments.seasons.builders import club_tournament, played_out, season_of, started
from tournaments.models import Player

pytestmark = pytest.mark.django_db

FOUR = [["Ada"], ["Bruno"], ["Carla"], ["Dario"]]


def test_a_clubs_seasons_are_listed_newest_first(anonymous: APIClient) -> None:
    club = ClubFactory.create(name="Circolo", slug="circolo")
    season_of(club, name="Primavera", points=(10, 5))
    season_of(club, name="Estate", best_n=3)

    response = anonymous.get(f"{API}/clubs/circolo/seasons/")

    assert response.status_code == 200
    assert response.json() == {
        "club": "circolo",
        "club_name": "Circolo",
        "seasons": [
            {
                "name": "Estate",
                "slug": "estate",
                "points": [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
                "participation": 0,
                "best_n": 3,
            },
            {
                "name": "Primavera",
                "slug": "primavera",
                "points": [10, 5],
                "participation": 0,
                "best_n": None,
            },
        ],
    }


def test_a_season_answers_with_its_tournaments_and_its_standings(anonymous: APIClient) -> None:
    club = ClubFactory.create(slug="circolo")
    finished = played_out(club_tournament(club, FOUR, name="Autunno"))
    running = started(club_tournament(club, FOUR, name="Inverno"))
    season_of(club, finished, running, name="Stagione", best_n=1)
    ada = Player.objects.filter(name="Ada").order_by("id").first()
    assert ada is not None

    body = anonymous.get(f"{API}/clubs/circolo/seasons/stagione/").json()

    assert body["tournaments"] == [
        {"id": str(finished.id), "name": "Autunno", "status": "finished", "counted": True},
        {"id": str(running.id), "name": "Inverno", "status": "in_progress", "counted": False},
    ]
    assert body["standings"][0] == {
        "rank": 1,
        "player": ada.id,
        "name": "Ada",
        "points": 25,
        "counted_results": 1,
        "results": [{"tournament": str(finished.id), "place": 1, "points": 25, "counted": True}],
    }
    assert [(row["rank"], row["name"], row["points"]) for row in body["standings"]] == [
        (1, "Ada", 25),
        (2, "Bruno", 18),
        (3, "Carla", 15),
        (3, "Dario", 15),
    ]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/clubs/nowhere/seasons/", "club_not_found"),
        ("/clubs/nowhere/seasons/stagione/", "club_not_found"),
        ("/clubs/circolo/seasons/nessuna/", "season_not_found"),
    ],
)
def test_an_unknown_club_or_season_is_404_with_its_code(
    anonymous: APIClient, path: str, code: str
) -> None:
    ClubFactory.create(slug="circolo")

    response = anonymous.get(f"{API}{path}")

    assert response.status_code == 404
    assert response.json()["code"] == code


def test_seasons_are_read_only_even_to_the_clubs_organizer(anonymous: APIClient) -> None:
    club = ClubFactory.create(slug="circolo")
    season_of(club, name="Stagione")
    organizer = UserFactory.create(username="organizer-of-circolo")
    services.role_grant(user=organizer, role=Role.ORGANIZER, club=club)
    url = f"{API}/clubs/circolo/seasons/stagione/"

    by_anonymous = anonymous.post(url, {}, format="json")
    by_organizer = token_client(organizer).post(url, {}, format="json")

    assert (by_anonymous.status_code, by_anonymous.json()["code"]) == (405, "method_not_allowed")
    assert (by_organizer.status_code, by_organizer.json()["code"]) == (405, "method_not_allowed")
