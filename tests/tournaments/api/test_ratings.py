import pytest
from rest_framework.test import APIClient

from tests.factories.accounts import ClubFactory
from tests.factories.api import API
from tests.factories.ratings import club_tournament, play_all
from tests.factories.tournaments import ORGANIZER, ApiTournamentFactory
from tests.tournaments.api.builders import register_seeded, tournament_url
from tournaments.models import Player, PlayerRating, Tournament
from tournaments.services import erasure

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_club() -> str:
    club = ClubFactory.create(name="Circolo Rating", slug="circolo-rating")
    play_all(club_tournament(club=club))
    return club.slug


def test_the_leaderboard_lists_players_with_enough_matches_best_first(played_club: str) -> None:
    response = APIClient().get(f"{API}/clubs/{played_club}/ratings/?min_matches=3")

    assert response.status_code == 200
    board = response.json()
    assert [row["name"] for row in board] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert [row["rank"] for row in board] == [1, 2, 3, 4]
    first = board[0]
    assert set(first) == {"rank", "player", "name", "mu", "sigma", "rating", "matches"}
    stored = PlayerRating.objects.get(player_id=first["player"], club__slug=played_club)
    assert (first["mu"], first["sigma"], first["rating"], first["matches"]) == (
        stored.mu,
        stored.sigma,
        stored.rating,
        3,
    )


def test_the_leaderboard_leaves_out_players_under_five_matches_by_default(
    played_club: str,
) -> None:
    response = APIClient().get(f"{API}/clubs/{played_club}/ratings/")

    assert response.status_code == 200
    assert response.json() == []


def test_an_erased_player_is_listed_without_their_name(played_club: str) -> None:
    player = Player.objects.get(name="Player 4")
    erasure.player_erase(player=player, actor=ORGANIZER)

    board = APIClient().get(f"{API}/clubs/{played_club}/ratings/?min_matches=0").json()

    assert board[-1]["name"] == "erased player"
    assert board[-1]["player"] == player.id


@pytest.mark.parametrize("value", ["-1", "many"])
def test_a_bad_minimum_is_refused(played_club: str, value: str) -> None:
    response = APIClient().get(f"{API}/clubs/{played_club}/ratings/?min_matches={value}")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_an_unknown_club_is_not_found() -> None:
    response = APIClient().get(f"{API}/clubs/nowhere/ratings/")

    assert response.status_code == 404
    assert response.json()["code"] == "club_not_found"


def test_a_players_ratings_come_overall_then_per_club_with_each_match(played_club: str) -> None:
    player = Player.objects.get(name="Player 1")

    response = APIClient().get(f"{API}/players/{player.id}/ratings/")

    assert response.status_code == 200
    body = response.json()
    assert (body["player"], body["name"]) == (player.id, "Player 1")
    overall, in_club = body["ratings"]
    assert overall["club"] is None
    assert in_club["club"] == played_club
    assert in_club["club_name"] == "Circolo Rating"
    assert in_club["matches"] == len(in_club["history"]) == 3
    entry = in_club["history"][-1]
    assert set(entry) == {
        "match_id",
        "tournament",
        "tournament_name",
        "rating_before",
        "rating_after",
        "mu",
        "sigma",
    }
    assert entry["tournament_name"] == "Circolo"
    assert entry["rating_after"] == in_club["rating"]
    assert [e["rating_before"] for e in in_club["history"][1:]] == [
        e["rating_after"] for e in in_club["history"][:-1]
    ]


def test_an_unknown_player_is_not_found() -> None:
    response = APIClient().get(f"{API}/players/999999/ratings/")

    assert response.status_code == 404
    assert response.json()["code"] == "player_not_found"


def test_an_organizer_creates_a_tournament_seeded_by_rating_and_seeds_it(
    organizer: APIClient,
) -> None:
    created = ApiTournamentFactory.create(client=organizer, format="swiss", seeding="rating")
    assert created["seeding"] == "rating"
    assert Tournament.objects.get(id=created["id"]).settings["seeding"] == "rating"
    assert organizer.get(tournament_url(created["id"])).json()["seeding"] == "rating"
    plain = ApiTournamentFactory.create(client=organizer, format="swiss")
    assert plain["seeding"] is None
    register_seeded(organizer, created["id"], 2)

    response = organizer.post(
        tournament_url(created["id"], "seed"), {"method": "rating"}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["method"] == "rating"
    assert len(response.json()["order"]) == 2


def test_a_tournament_of_another_seeding_is_refused(organizer: APIClient) -> None:
    response = organizer.post(
        f"{API}/tournaments/",
        {"name": "Open", "format": "swiss", "table_size": 2, "seeding": "strongest"},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
