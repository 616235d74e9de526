"""Tournaments, made through the services as an organizer makes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factory.base import Factory
from rest_framework.test import APIClient
from typing_extensions import override

from common.actors import Actor
from tests.factories.api import created_by
from tournaments.models import Fixture, Tournament
from tournaments.projections import consumer
from tournaments.services import registration, running, scheduling, signup

ORGANIZER = Actor(device="test")


class TournamentFactory(Factory[Tournament]):
    """A tournament with `entrants` singles `Player 1`... seeded in that order, best of one round
    at tables of two unless told otherwise. `started`: started; `projected`: the consumer has
    then caught up (the fixtures are rows); `matches_at_tables`: its matches, in the order the
    API lists them, then given these tables (projected); `signed_up`: names that apply through
    the sign-up after the registered entrants, before the start (`registration` must let them
    in), their player keys kept as `player_keys` by name."""

    class Meta:
        model = Tournament

    name = "Circolo"
    format = "single_elimination"
    table_size = 2
    best_of = 1
    entrants = 4
    started = False
    projected = False
    matches_at_tables: Sequence[int] = ()
    signed_up: Sequence[str] = ()

    @classmethod
    @override
    def _create(
        cls,
        model_class: type[Tournament],
        *args: Any,
        entrants: int,
        started: bool,
        projected: bool,
        matches_at_tables: Sequence[int],
        signed_up: Sequence[str],
        **settings: Any,
    ) -> Tournament:
        tournament = registration.tournament_create(actor=ORGANIZER, **settings)
        for number in range(1, entrants + 1):
            registration.entrant_register(
                tournament_id=tournament.id,
                name=f"Player {number}",
                players=[f"Player {number}"],
                seed=number,
                actor=ORGANIZER,
            )
        keys = {
            name: signup.application_submit(
                tournament_id=tournament.id, name=name, actor=Actor()
            ).player_key
            for name in signed_up
        }
        if started:
            running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
        if projected:
            consumer.consume()
        if matches_at_tables:
            put_at_tables(tournament, matches_at_tables)
        tournament.refresh_from_db()
        tournament.player_keys = keys  # type: ignore[attr-defined]
        return tournament


def put_at_tables(tournament: Tournament, tables: Sequence[int]) -> None:
    """The tournament's matches, in the order the API lists them, given these tables."""
    consumer.consume()
    fixtures = Fixture.objects.filter(tournament_id=tournament.id).order_by("id")
    for table, fixture in zip(tables, fixtures, strict=True):
        scheduling.fixture_table_assign(match_id=fixture.match_id, table=table, actor=ORGANIZER)


class ThreesTournamentFactory(TournamentFactory):
    """A Swiss of five at tables of three, one round of points per match, started and
    projected."""

    format = "swiss"
    entrants = 5
    table_size = 3
    scoring = "points"
    rounds = 1
    started = True
    projected = True


class ApiTournamentFactory(Factory[dict[str, Any]]):
    """A tournament of singles in registration, best of one round, created through the API by
    `client` (an organizer): the API's answer. `build()` gives the body it would send."""

    class Meta:
        model = dict

    name = "Circolo"
    format = "single_elimination"
    table_size = 2
    best_of = 1

    @classmethod
    @override
    def _create(
        cls, model_class: type[dict[str, Any]], *args: Any, client: APIClient, **body: Any
    ) -> dict[str, Any]:
        return created_by(client, "/tournaments/", body)
