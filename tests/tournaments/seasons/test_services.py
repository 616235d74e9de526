"""The season services: settings validated, only the club's public tournaments counted."""

from __future__ import annotations

import pytest

from tests.factories.accounts import ClubFactory
from tests.tournaments.seasons.builders import club_tournament, season_of
from tournaments.errors import InvalidSeason
from tournaments.models import SeasonTournament
from tournaments.seasons import services as season_services
from tournaments.standings.seasons import InvalidBestN, InvalidPointsTable

pytestmark = pytest.mark.django_db

TWO = [["Ada"], ["Bruno"]]


def test_a_season_takes_its_slug_from_its_name_and_keeps_its_settings() -> None:
    club = ClubFactory.create()

    season = season_of(club, name="Stagione d'estate", points=(10, 6, 3), participation=1, best_n=4)

    assert (season.slug, season.points, season.participation, season.best_n) == (
        "stagione-destate",
        [10, 6, 3],
        1,
        4,
    )


def test_another_clubs_tournament_is_refused_by_name() -> None:
    club, other = ClubFactory.create(name="Circolo A"), ClubFactory.create(name="Circolo B")
    season = season_of(club)
    theirs = club_tournament(other, TWO, name="Coppa di B")

    with pytest.raises(InvalidSeason) as refused:
        season_services.season_tournament_add(season=season, tournament=theirs)

    assert refused.value.detail == (
        "Coppa di B is not a tournament of Circolo A: a season counts only its club's tournaments"
    )
    assert not SeasonTournament.objects.exists()


def test_a_private_tournament_is_refused_because_the_season_is_public() -> None:
    club = ClubFactory.create()
    hidden = club_tournament(club, TWO, name="Privato", public=False)

    with pytest.raises(InvalidSeason, match="Privato is private"):
        season_of(club, hidden)


def test_a_second_season_at_the_same_slug_of_a_club_is_refused() -> None:
    club = ClubFactory.create(name="Circolo A")
    season_of(club, slug="2026")

    with pytest.raises(InvalidSeason, match="Circolo A already has a season at 2026"):
        season_of(club, slug="2026")
    assert season_of(ClubFactory.create(name="Circolo B"), slug="2026").slug == "2026"


@pytest.mark.parametrize("points", [(), (10, 12), (5, -1)])
def test_a_points_table_that_makes_no_sense_is_refused(points: tuple[int, ...]) -> None:
    with pytest.raises(InvalidPointsTable):
        season_of(ClubFactory.create(), points=points)


def test_best_n_below_one_is_refused() -> None:
    with pytest.raises(InvalidBestN):
        season_of(ClubFactory.create(), best_n=0)


def test_adding_a_tournament_twice_counts_it_once_and_removing_it_stops_counting_it() -> None:
    club = ClubFactory.create()
    tournament = club_tournament(club, TWO)
    season = season_of(club, tournament)

    again = season_services.season_tournament_add(season=season, tournament=tournament)
    removed = season_services.season_tournament_remove(season=season, tournament=tournament)

    assert (again, removed) == (False, True)
    assert not season.tournaments.exists()


def test_changing_the_settings_keeps_what_is_not_given() -> None:
    club = ClubFactory.create()
    season = season_of(club, points=(10, 5), best_n=3)

    season_services.season_change(season=season, points=(12, 8, 4))
    season_services.season_change(season=season, participation=2)
    assert (season.points, season.participation, season.best_n) == ([12, 8, 4], 2, 3)

    season_services.season_change(season=season, clear_best_n=True)
    assert season.best_n is None
