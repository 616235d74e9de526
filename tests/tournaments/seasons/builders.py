"""What the season tests play: tournaments of a club, run to their end through the services
(every match won by its first seat), and seasons made by the service."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import Club
from tests.factories.tournaments import ORGANIZER
from tests.tournaments.builders import win_by_points
from tournaments.models import Fixture, FixtureStatus, Season, Tournament, TournamentStatus
from tournaments.projections import consumer
from tournaments.seasons import services as season_services
from tournaments.services import registration, running

TABLE = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
FIRST_SEAT_WINS = {2: (80, 40), 3: (70, 40, 10)}


def consume() -> None:
    while consumer.consume():
        pass


def club_tournament(
    club: Club,
    entrants: Sequence[Sequence[str]],
    *,
    name: str = "Serata",
    format: str = "single_elimination",
    table_size: int = 2,
    public: bool = True,
    **settings: Any,
) -> Tournament:
    """A tournament of `club` with these entrants (each a list of players' names), seeded in
    that order, not started."""
    if table_size == 3:
        settings.setdefault("scoring", "points")
        settings.setdefault("rounds", 1)
    else:
        settings.setdefault("best_of", 1)
    tournament = registration.tournament_create(
        name=name,
        format=format,
        table_size=table_size,
        club=club,
        public=public,
        actor=ORGANIZER,
        **settings,
    )
    for seed, players in enumerate(entrants, start=1):
        registration.entrant_register(
            tournament_id=tournament.id,
            name=" & ".join(players),
            players=list(players),
            seed=seed,
            actor=ORGANIZER,
        )
    return tournament


def started(tournament: Tournament) -> Tournament:
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    consume()
    return tournament


def played_out(tournament: Tournament, *, rounds: int = 20) -> Tournament:
    """Started (unless it was) and played to its end, each match won by its first seat."""
    tournament.refresh_from_db()
    if tournament.status == TournamentStatus.REGISTRATION:
        started(tournament)
    points = FIRST_SEAT_WINS[3 if tournament.table_size == 3 else 2]
    for _round in range(rounds):
        consume()
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return tournament
        ready = Fixture.objects.filter(tournament=tournament, status=FixtureStatus.READY)
        assert ready.exists(), "the tournament waits on nothing the test plays"
        for fixture in ready.order_by("id"):
            win_by_points(fixture.match_id, points[: len(fixture.entrant_ids)])
    raise AssertionError("the tournament did not finish")


def season_of(club: Club, *tournaments: Tournament, **settings: Any) -> Season:
    settings.setdefault("points", TABLE)
    settings.setdefault("name", "Stagione 2026")
    return season_services.season_create(club=club, tournaments=tournaments, **settings)
