"""A season's standings after tournaments played through the services (decision record 0037)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command

from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.tournaments import ORGANIZER
from tests.tournaments.seasons.builders import (
    TABLE,
    club_tournament,
    played_out,
    season_of,
    started,
)
from tournaments.errors import ClubNotFound
from tournaments.models import Player
from tournaments.seasons.selectors import club_season_lines, standings_of
from tournaments.selectors.projected import tournament_standings
from tournaments.services.erasure import player_erase, player_link

pytestmark = pytest.mark.django_db

FOUR = [["Ada"], ["Bruno"], ["Carla"], ["Dario"]]
ANYONE = AnonymousUser()


def table_of(season: object) -> list[tuple[int, str, int, int]]:
    rows = standings_of(season, reader=ANYONE).rows  # type: ignore[arg-type]
    return [(row.rank, row.name, row.points, row.counted) for row in rows]


def test_a_knockout_scores_its_winner_first_its_finals_loser_second_and_semi_losers_third() -> None:
    club = ClubFactory.create()
    knockout = played_out(club_tournament(club, FOUR))

    season = season_of(club, knockout)

    assert table_of(season) == [
        (1, "Ada", 25, 1),
        (2, "Bruno", 18, 1),
        (3, "Carla", 15, 1),
        (3, "Dario", 15, 1),
    ]


def test_the_same_name_in_two_tournaments_is_one_player_and_only_the_best_n_count() -> None:
    club = ClubFactory.create()
    first = played_out(club_tournament(club, FOUR, name="Autunno"))
    second = played_out(club_tournament(club, FOUR[::-1], name="Inverno"))

    every = season_of(club, first, second, name="Tutto", slug="tutto")
    best = season_of(club, first, second, name="Migliore", slug="migliore", best_n=1)

    assert table_of(every) == [
        (1, "Ada", 40, 2),
        (1, "Dario", 40, 2),
        (3, "Bruno", 33, 2),
        (3, "Carla", 33, 2),
    ]
    assert table_of(best) == [
        (1, "Ada", 25, 1),
        (1, "Dario", 25, 1),
        (3, "Bruno", 18, 1),
        (3, "Carla", 18, 1),
    ]
    ada = standings_of(best, reader=ANYONE).rows[0]
    assert [(r.tournament, r.points, r.counted) for r in ada.results] == [
        (str(first.id), 25, True),
        (str(second.id), 15, False),
    ]


def test_every_player_of_a_pair_earns_the_pairs_points() -> None:
    club = ClubFactory.create()
    pairs = played_out(club_tournament(club, [["Ada", "Bruno"], ["Carla", "Dario"]], table_size=4))

    assert table_of(season_of(club, pairs)) == [
        (1, "Ada", 25, 1),
        (1, "Bruno", 25, 1),
        (3, "Carla", 18, 1),
        (3, "Dario", 18, 1),
    ]


def test_a_league_scores_each_player_by_their_rank_in_its_standings() -> None:
    club = ClubFactory.create()
    league = played_out(club_tournament(club, FOUR, format="round_robin"))

    rows = standings_of(season_of(club, league), reader=ANYONE).rows

    expected = {
        row["name"]: TABLE[row["rank"] - 1] for row in tournament_standings(tournament_id=league.id)
    }
    assert {row.name: row.points for row in rows} == expected
    assert len(set(expected.values())) > 1


def test_a_table_of_three_scores_its_places() -> None:
    club = ClubFactory.create()
    threes = played_out(club_tournament(club, FOUR[:3], format="round_robin", table_size=3))

    rows = standings_of(season_of(club, threes), reader=ANYONE).rows

    expected = {
        row["name"]: TABLE[row["rank"] - 1] for row in tournament_standings(tournament_id=threes.id)
    }
    assert {row.name: row.points for row in rows} == expected
    assert sorted(expected.values(), reverse=True)[0] == 25


def test_a_running_tournament_counts_only_once_it_is_finished() -> None:
    club = ClubFactory.create()
    finished = played_out(club_tournament(club, FOUR, name="Autunno"))
    running = started(club_tournament(club, FOUR[::-1], name="Inverno"))
    season = season_of(club, finished, running)

    before = standings_of(season, reader=ANYONE)
    played_out(running)
    after = standings_of(season, reader=ANYONE)

    assert [line.counted for line in before.tournaments] == [True, False]
    assert [row.points for row in before.rows] == [25, 18, 15, 15]
    assert [line.counted for line in after.tournaments] == [True, True]
    assert [row.points for row in after.rows] == [40, 40, 33, 33]


def test_rebuilding_the_projections_leaves_the_season_standings_identical() -> None:
    club = ClubFactory.create()
    first = played_out(club_tournament(club, FOUR, name="Autunno"))
    second = played_out(club_tournament(club, FOUR[::-1], name="Inverno", format="round_robin"))
    season = season_of(club, first, second, best_n=1)
    before = standings_of(season, reader=ANYONE)

    call_command("rebuild_projections", verbosity=0)

    after = standings_of(season, reader=ANYONE)
    assert after.rows == before.rows
    assert after.tournaments == before.tournaments


def test_an_erased_player_reads_erased_player_in_the_season() -> None:
    club = ClubFactory.create()
    knockout = played_out(club_tournament(club, FOUR))
    season = season_of(club, knockout)

    player_erase(player=Player.objects.get(name="Bruno"), actor=ORGANIZER)

    assert [row.name for row in standings_of(season, reader=ANYONE).rows] == [
        "Ada",
        "erased player",
        "Carla",
        "Dario",
    ]


def test_player_rows_linked_to_one_account_are_one_player_whatever_their_names() -> None:
    club = ClubFactory.create()
    first = played_out(club_tournament(club, FOUR, name="Autunno"))
    second = played_out(club_tournament(club, [["Ada L."], *FOUR[1:]], name="Inverno"))
    UserFactory.create(username="ada")
    for player in Player.objects.filter(name__startswith="Ada"):
        player_link(player=player, username="ada")

    rows = standings_of(season_of(club, first, second), reader=ANYONE).rows

    assert (rows[0].name, rows[0].points, rows[0].counted) == ("Ada L.", 50, 2)
    assert len(rows) == 4


def test_a_clubs_season_lines_count_its_tournaments_and_say_while_one_still_runs() -> None:
    club = ClubFactory.create(name="Circolo", slug="circolo")
    other = ClubFactory.create(name="Altro", slug="altro")
    running = started(club_tournament(club, FOUR, name="Autunno"))
    season_of(club, running, club_tournament(club, FOUR, name="Inverno"), name="Stagione")
    season_of(other, name="Altrove")

    _, before = club_season_lines(club_slug="circolo")
    played_out(running)
    found, after = club_season_lines(club_slug="circolo")

    assert found == club
    assert [(line.season.name, line.tournaments, line.running) for line in before] == [
        ("Stagione", 2, True)
    ]
    assert [(line.tournaments, line.running) for line in after] == [(2, True)]  # Inverno waits
    with pytest.raises(ClubNotFound):
        club_season_lines(club_slug="nessuno")


def test_a_season_whose_tournaments_all_finished_runs_no_more() -> None:
    club = ClubFactory.create(slug="circolo")
    autumn = started(club_tournament(club, FOUR, name="Autunno"))
    season_of(club, autumn, name="Stagione")

    _, before = club_season_lines(club_slug="circolo")
    played_out(autumn)
    _, after = club_season_lines(club_slug="circolo")

    assert [line.running for line in before] == [True]
    assert [line.running for line in after] == [False]
