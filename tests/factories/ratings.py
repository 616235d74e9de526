"""Rated tournaments: a club's tournaments played through the match services, the consumers
caught up (the tournament's, then the ratings')."""

from __future__ import annotations

import uuid
from typing import Any

from games.matches import services as match_services
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments.models import Fixture, PlayerRating, RatingChange, Tournament
from tournaments.tasks import running


def caught_up() -> None:
    """Both consumers read the log to its end (as the Celery task does)."""
    running.consume_exclusively()


def club_tournament(**options: Any) -> Tournament:
    """A started round robin of four singles (Player 1 … 4, seeded so) unless told otherwise,
    its fixtures projected."""
    options.setdefault("format", "round_robin")
    tournament = TournamentFactory.create(started=True, **options)
    caught_up()
    return tournament


def live(tournament: Tournament) -> list[Fixture]:
    """The live fixtures, in key order."""
    rows = Fixture.objects.filter(tournament=tournament).exclude(status="reset")
    return list(rows.select_related("home", "away").order_by("key"))


def played(match_id: uuid.UUID, *, winner: int = 0, points: list[int] | None = None) -> None:
    """One more round of the match won by seat `winner` (80 to 40), or ending with these
    `points` per seat; the consumers catch up."""
    number = (
        match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
        .state.rounds[-1]
        .number
    )
    if points is None:
        points = [80, 40] if winner == 0 else [40, 80]
    match_services.round_points_enter(
        match_id=match_id, round_number=number, points=points, actor=ORGANIZER
    )
    caught_up()


def forfeited(match_id: uuid.UUID, *, by: int) -> None:
    match_services.match_forfeit(match_id=match_id, side=by, reason="absent", actor=ORGANIZER)
    caught_up()


def play_all(tournament: Tournament) -> None:
    """Every open match won by the better seed (the lower number), until none is left."""
    while open_ := [f for f in live(tournament) if f.status == "ready"]:
        for fixture in open_:
            home_better = (fixture.home.seed or 0) < (fixture.away.seed or 0)
            played(fixture.match_id, winner=0 if home_better else 1)


def rating_rows() -> list[tuple[Any, ...]]:
    """Every rating row and every history row, as plain values in a fixed order."""
    ratings = PlayerRating.objects.order_by("player_id", "club_id").values_list(
        "player_id", "club_id", "mu", "sigma", "rating", "matches", "position"
    )
    history = RatingChange.objects.order_by("player_id", "club_id", "position").values_list(
        "player_id",
        "club_id",
        "tournament_id",
        "match_id",
        "position",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "rating_before",
        "rating_after",
    )
    return [*ratings, *history]
