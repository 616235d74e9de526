"""Pairs and tables of three rated through the whole path: every player of a side rated, a
table of three ranked by its places."""

import pytest

from tests.factories.accounts import ClubFactory
from tests.factories.ratings import caught_up, live, played
from tests.factories.tournaments import ORGANIZER, ThreesTournamentFactory
from tournaments.models import Entrant, PlayerRating, RatingChange
from tournaments.services import registration, running

pytestmark = pytest.mark.django_db


def rating_of(name: str, club_id: int) -> float:
    return PlayerRating.objects.get(player__name=name, club_id=club_id).rating


def test_both_players_of_a_pair_share_their_sides_result() -> None:
    club = ClubFactory.create()
    tournament = registration.tournament_create(
        name="Coppie", format="round_robin", table_size=4, best_of=1, club=club, actor=ORGANIZER
    )
    for pair in (("Anna", "Bruno"), ("Carla", "Dario")):
        registration.entrant_register(
            tournament_id=tournament.id, name=" & ".join(pair), players=pair, actor=ORGANIZER
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    caught_up()
    [fixture] = live(tournament)

    played(fixture.match_id, winner=0 if fixture.home.name == "Anna & Bruno" else 1)

    assert rating_of("Anna", club.id) == rating_of("Bruno", club.id)
    assert rating_of("Carla", club.id) == rating_of("Dario", club.id)
    assert rating_of("Anna", club.id) > rating_of("Carla", club.id)
    assert RatingChange.objects.filter(match_id=fixture.match_id, club=club).count() == 4


def test_a_table_of_three_ranks_its_players_by_their_places() -> None:
    club = ClubFactory.create()
    tournament = ThreesTournamentFactory.create(club=club, entrants=3)
    caught_up()
    [table] = [f for f in live(tournament) if f.third_id is not None]
    seated = [Entrant.objects.get(id=e).name for e in table.entrant_ids]

    played(table.match_id, points=[20, 70, 30])

    second_seat, third_seat, first_seat = (
        rating_of(seated[1], club.id),
        rating_of(seated[2], club.id),
        rating_of(seated[0], club.id),
    )
    assert second_seat > third_seat > first_seat
