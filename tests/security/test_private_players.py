"""Private names stay private (issue 23 §2): every read of a player, the API's and the pages',
applies the player page's rule (`tournaments.selectors.players`). A player known only from a
private tournament is not found by outsiders, as an unknown id is not; a person who also played
in public is shown by a public row of theirs, never by the private one."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import services as accounts
from accounts.models import Club, Role, User
from tests.factories.accounts import ClubFactory, UserFactory, token_client
from tests.factories.api import API
from tests.factories.ratings import caught_up
from tests.tournaments.seasons.builders import club_tournament, played_out, season_of
from tournaments.models import Fixture, Player, Tournament

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Nights:
    """A club's private night and then its public night, both played out and rated. Anna plays
    both under one account: as `Anna B.` in private (her first row, so the person the ratings
    are kept under) and as `Anna Bianchi` in public. Carla plays only the private night."""

    club: Club
    private: Tournament
    public: Tournament
    anna_private: Player
    anna_public: Player
    carla: Player
    member: User
    """An organizer of the club: they may read the private night."""


def row(tournament: Tournament, name: str) -> Player:
    return Player.objects.get(entries__tournament=tournament, name=name)


@pytest.fixture
def nights() -> Nights:
    club = ClubFactory.create(name="Circolo", slug="circolo")
    anna = UserFactory.create(username="anna")
    private = club_tournament(
        club, [["Anna B."], ["Carla Segreta"]], name="Serata privata", public=False
    )
    public = club_tournament(club, [["Anna Bianchi"], ["Bruno"]], name="Serata aperta")
    Player.objects.filter(name__in=["Anna B.", "Anna Bianchi"]).update(user=anna)
    played_out(private)
    played_out(public)
    season_of(club, public, name="Stagione")
    caught_up()
    member = UserFactory.create(username="member")
    accounts.role_grant(user=member, role=Role.ORGANIZER, club=club)
    return Nights(
        club=club,
        private=private,
        public=public,
        anna_private=row(private, "Anna B."),
        anna_public=row(public, "Anna Bianchi"),
        carla=row(private, "Carla Segreta"),
        member=member,
    )


def signed_in_page_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_ratings_of_a_player_known_only_in_private_are_not_found_as_an_unknown_id_is_not(
    nights: Nights,
) -> None:
    outsider = APIClient().get(f"{API}/players/{nights.carla.id}/ratings/")
    unknown = APIClient().get(f"{API}/players/999999/ratings/")

    assert (outsider.status_code, outsider.json()["code"]) == (404, "player_not_found")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "player_not_found")
    assert outsider.json()["detail"] == unknown.json()["detail"].replace(
        "999999", str(nights.carla.id)
    )


def test_the_clubs_member_reads_the_ratings_of_a_private_row_as_the_player_page_shows_it(
    nights: Nights,
) -> None:
    member = token_client(nights.member)

    answer = member.get(f"{API}/players/{nights.anna_private.id}/ratings/")
    page = signed_in_page_client(nights.member).get(f"/players/{nights.anna_private.id}/")

    assert (answer.status_code, page.status_code) == (200, 200)
    assert answer.json()["name"] == "Anna B."
    assert [scope["matches"] for scope in answer.json()["ratings"]] == [1, 1]


def test_an_outsider_reads_the_ratings_of_the_public_row_of_a_person_rated_under_a_private_one(
    nights: Nights,
) -> None:
    hidden = APIClient().get(f"{API}/players/{nights.anna_private.id}/ratings/")
    shown = APIClient().get(f"{API}/players/{nights.anna_public.id}/ratings/")

    assert hidden.status_code == 404
    assert shown.status_code == 200
    assert shown.json()["name"] == "Anna Bianchi"
    assert [scope["matches"] for scope in shown.json()["ratings"]] == [1, 1]


def test_the_leaderboard_shows_an_outsider_each_person_by_a_public_row(nights: Nights) -> None:
    board = APIClient().get(f"{API}/clubs/circolo/ratings/?min_matches=0").json()
    page = Client().get("/clubs/circolo/ratings/?min_matches=0").content.decode()

    assert {(line["player"], line["name"]) for line in board} == {
        (nights.anna_public.id, "Anna Bianchi"),
        (row(nights.public, "Bruno").id, "Bruno"),
    }
    assert [line["rank"] for line in board] == [1, 2]
    assert "Anna B.<" not in page
    assert f"/players/{nights.anna_private.id}/" not in page
    assert f"/players/{nights.anna_public.id}/" in page


def test_the_leaderboard_shows_the_clubs_member_the_person_by_their_first_row(
    nights: Nights,
) -> None:
    board = token_client(nights.member).get(f"{API}/clubs/circolo/ratings/?min_matches=0").json()

    assert (nights.anna_private.id, "Anna B.") in {(line["player"], line["name"]) for line in board}


def test_the_season_links_an_outsider_to_public_rows_only(nights: Nights) -> None:
    season = APIClient().get(f"{API}/clubs/circolo/seasons/stagione/").json()
    page = Client().get("/clubs/circolo/seasons/stagione/").content.decode()

    shown = {line["player"] for line in season["standings"]}
    assert shown == {nights.anna_public.id, row(nights.public, "Bruno").id}
    linked = {int(found) for found in re.findall(r'href="/players/(\d+)/"', page)}
    assert linked == shown


def test_a_public_match_page_names_its_rated_players_by_public_rows(nights: Nights) -> None:
    [fixture] = Fixture.objects.filter(tournament=nights.public)

    page = Client().get(f"/matches/{fixture.match_id}/").content.decode()

    assert page.count("data-rating-change=") == 2
    assert f'data-rating-change="{nights.anna_public.id}"' in page
    assert "Anna B.<" not in page
    assert f"/players/{nights.anna_private.id}/" not in page


def test_a_persons_page_lists_their_private_night_to_the_clubs_member_only(nights: Nights) -> None:
    url = f"/players/{nights.anna_public.id}/"

    outsider = Client().get(url).content.decode()
    member = signed_in_page_client(nights.member).get(url).content.decode()

    assert "Serata aperta" in outsider
    assert "Serata privata" not in outsider
    assert "Serata privata" in member
