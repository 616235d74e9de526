"""A real Celery worker rates the results it records: the ratings consumer runs in the same
consume task, after the tournament consumer (decision record 0036)."""

import uuid
from collections.abc import Callable

import pytest

from tests.factories.accounts import ClubFactory
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.builders import fixtures, play
from tests.workers import Worker, wait_for
from tournaments.models import Fixture, PlayerRating, RatingChange
from tournaments.ratings import projection

pytestmark = pytest.mark.django_db(transaction=True)


def ready(tournament_id: uuid.UUID) -> Callable[[], list[Fixture]]:
    return lambda: fixtures(tournament_id, status="ready")


def rated(match_id: uuid.UUID) -> Callable[[], bool]:
    return lambda: RatingChange.objects.filter(match_id=match_id).count() == 4  # 2 x 2 scopes


def test_the_worker_rates_a_played_match_in_the_club_and_overall(worker: Worker) -> None:
    club = ClubFactory.create()
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, club=club, started=True
    ).id
    (final,) = wait_for(ready(tournament_id), what="the final's row", log=worker.log)

    play(final.match_id, winner=0)

    wait_for(rated(final.match_id), what="the final rated", log=worker.log)
    winner = PlayerRating.objects.get(club=club, player__name="Player 1")
    loser = PlayerRating.objects.get(club=club, player__name="Player 2")
    assert winner.rating > loser.rating
    assert projection.verify_ratings() == []
