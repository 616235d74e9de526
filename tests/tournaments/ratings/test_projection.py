import itertools

import pytest

from games.matches import services as match_services
from tests.factories.accounts import ClubFactory
from tests.factories.ratings import (
    caught_up,
    club_tournament,
    forfeited,
    live,
    play_all,
    played,
    rating_rows,
)
from tests.factories.tournaments import ORGANIZER
from tournaments.models import ClubRatingSettings, Player, PlayerRating, RatingChange
from tournaments.ratings import projection
from tournaments.ratings.services import club_rating_settings_set

pytestmark = pytest.mark.django_db


def ratings_of(club_id: int | None) -> dict[str, tuple[float, int]]:
    scoped = {"club_id": club_id} if club_id is not None else {"club__isnull": True}
    rows = PlayerRating.objects.filter(**scoped).select_related("player")
    return {row.player.name: (row.rating, row.matches) for row in rows}


def test_a_played_round_robin_rates_every_player_in_the_club_and_overall() -> None:
    club = ClubFactory.create()
    tournament = club_tournament(club=club)

    play_all(tournament)

    in_club = ratings_of(club.id)
    assert set(in_club) == {"Player 1", "Player 2", "Player 3", "Player 4"}
    assert {matches for _, matches in in_club.values()} == {3}
    ordered = sorted(in_club, key=lambda name: -in_club[name][0])
    assert ordered == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert ratings_of(None) == in_club
    assert RatingChange.objects.filter(club=club).count() == 4 * 3


def test_each_history_row_follows_on_the_players_previous_one() -> None:
    club = ClubFactory.create()
    play_all(club_tournament(club=club))

    for player in Player.objects.all():
        history = list(RatingChange.objects.filter(player=player, club=club).order_by("position"))
        for earlier, later in itertools.pairwise(history):
            assert later.mu_before == earlier.mu_after
            assert later.sigma_before == earlier.sigma_after
        current = PlayerRating.objects.get(player=player, club=club)
        assert (current.mu, current.sigma) == (history[-1].mu_after, history[-1].sigma_after)


def test_a_forfeit_changes_no_rating_unless_the_club_counts_forfeits() -> None:
    club = ClubFactory.create()
    tournament = club_tournament(club=club, entrants=2)

    forfeited(live(tournament)[0].match_id, by=1)

    assert not PlayerRating.objects.exists()
    club_rating_settings_set(club=club, count_forfeits=True)
    assert ratings_of(club.id)["Player 1"][1] == 1
    assert ratings_of(club.id)["Player 1"][0] > ratings_of(club.id)["Player 2"][0]


def test_a_forfeit_counts_as_it_happens_in_a_club_that_counts_forfeits() -> None:
    club = ClubFactory.create()
    ClubRatingSettings.objects.create(club=club, count_forfeits=True)
    tournament = club_tournament(club=club, entrants=2)

    forfeited(live(tournament)[0].match_id, by=0)

    assert ratings_of(club.id)["Player 2"][0] > ratings_of(club.id)["Player 1"][0]


def test_a_result_withdrawn_by_a_reset_no_longer_counts() -> None:
    club = ClubFactory.create()
    tournament = club_tournament(club=club, format="single_elimination", best_of=3)
    semi, other = live(tournament)
    played(semi.match_id, winner=0)
    played(semi.match_id, winner=0)
    played(other.match_id, winner=0)
    played(other.match_id, winner=0)
    final = next(f for f in live(tournament) if f.key == "R2-1")
    played(final.match_id, winner=0)
    played(final.match_id, winner=0)
    assert RatingChange.objects.filter(match_id=final.match_id).exists()

    # The semi's result changes: the final is reset, its result withdrawn.
    match_services.round_void(
        match_id=semi.match_id, round_number=2, reason="wrong count", actor=ORGANIZER
    )
    played(semi.match_id, winner=1)
    played(semi.match_id, winner=1)

    assert not RatingChange.objects.filter(match_id=final.match_id).exists()
    assert ratings_of(club.id)["Player 1"][1] == 1
    assert projection.verify_ratings() == []


def test_rebuild_gives_the_same_ratings_after_forfeits_and_resets() -> None:
    club = ClubFactory.create()
    ClubRatingSettings.objects.create(club=club, count_forfeits=True)
    first = club_tournament(club=club, entrants=4)
    fixtures = live(first)
    forfeited(fixtures[0].match_id, by=1)
    play_all(first)
    second = club_tournament(club=club, format="single_elimination", entrants=4)
    semi, other = live(second)
    played(semi.match_id, winner=0)
    played(other.match_id, winner=1)
    final = next(f for f in live(second) if f.key == "R2-1")
    played(final.match_id, winner=0)
    match_services.round_void(
        match_id=semi.match_id, round_number=1, reason="wrong count", actor=ORGANIZER
    )
    played(semi.match_id, winner=1)
    club_tournament(entrants=2)  # no club: rated overall only
    play_all(live(second)[0].tournament)
    before = rating_rows()
    assert before

    projection.rebuild_ratings()

    assert rating_rows() == before
    assert projection.verify_ratings() == []


def test_verify_names_a_tampered_rating_and_a_missing_one() -> None:
    club = ClubFactory.create()
    play_all(club_tournament(club=club, entrants=2))
    row = PlayerRating.objects.filter(club=club).first()
    assert row is not None
    PlayerRating.objects.filter(id=row.id).update(mu=row.mu + 1)
    PlayerRating.objects.filter(club__isnull=True, player_id=row.player_id).delete()

    differences = projection.verify_ratings()

    assert f"rating of player {row.player_id} (club {club.id}): differs" in differences
    assert f"rating of player {row.player_id} (overall): missing" in differences
    projection.rebuild_ratings()
    assert projection.verify_ratings() == []


def test_a_consumer_run_with_nothing_new_changes_nothing() -> None:
    club = ClubFactory.create()
    play_all(club_tournament(club=club))
    before = rating_rows()

    assert projection.consume() == 0
    caught_up()

    assert rating_rows() == before


def test_a_club_that_stops_counting_forfeits_loses_their_ratings() -> None:
    club = ClubFactory.create()
    club_rating_settings_set(club=club, count_forfeits=True)
    tournament = club_tournament(club=club, entrants=2)
    forfeited(live(tournament)[0].match_id, by=1)
    assert PlayerRating.objects.filter(club=club).count() == 2

    club_rating_settings_set(club=club, count_forfeits=False)

    assert not PlayerRating.objects.exists()
    assert not RatingChange.objects.exists()
