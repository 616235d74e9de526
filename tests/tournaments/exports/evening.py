"""A club evening played through the services, for the export tests: a round robin of five
(so a bye each round) at two tables, scheduled, with results, a tied round, a forfeit, a
corrected result, a renamed entrant and a withdrawal, the consumer caught up."""

from __future__ import annotations

from uuid import UUID

from accounts.services import club_create
from common.actors import Actor
from games.matches import services as match_services
from games.models import Match, Round
from tournaments.models import Entrant, Fixture
from tournaments.projections import consumer
from tournaments.services import corrections, registration, running, scheduling

ORGANIZER = Actor(device="export-test")


def consume() -> None:
    while consumer.consume():
        pass


def open_match_ids(tournament_id: UUID) -> list[UUID]:
    fixtures = Fixture.objects.filter(tournament_id=tournament_id).exclude(status="reset")
    ids = list(fixtures.order_by("id").values_list("match_id", flat=True))
    return [
        match_id
        for match_id in ids
        if Match.objects.filter(id=match_id).exclude(status="finished").exists()
    ]


def enter_round(match_id: UUID, points: list[int]) -> None:
    open_round = Round.objects.filter(match_id=match_id, status="in_progress").first()
    number = (
        open_round.number
        if open_round is not None
        else match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
        .state.rounds[-1]
        .number
    )
    match_services.round_points_enter(
        match_id=match_id, round_number=number, points=points, actor=ORGANIZER
    )


def play_to_winner(match_id: UUID, side: int) -> None:
    while Match.objects.get(id=match_id).status != "finished":
        enter_round(match_id, [80, 40] if side == 0 else [40, 80])


def club_evening(*, club_slug: str = "circolo-export") -> UUID:
    tournament = registration.tournament_create(
        name="Serata al Circolo",
        format="round_robin",
        table_size=2,
        best_of=1,
        tables=2,
        match_minutes=25,
        actor=ORGANIZER,
        club=club_create(name="Circolo dell'Export", slug=club_slug),
    )
    entrant_ids = [
        registration.registered_entrant_id(
            registration.entrant_register(
                tournament_id=tournament.id,
                name=name,
                players=[name],
                seed=seed,
                actor=ORGANIZER,
            )
        )
        for seed, name in enumerate(["Ada", "Bruno", "Carla", "Dario", "Elena"], start=1)
    ]
    for number, entrant_id in enumerate(entrant_ids[:4], start=1):
        # With idempotency keys, as a desk tablet sends them: the archive carries them.
        registration.entrant_check_in(
            tournament_id=tournament.id,
            entrant_id=entrant_id,
            actor=ORGANIZER,
            idempotency_key=f"desk-{number}",
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    first, second, *_ = open_match_ids(tournament.id)
    enter_round(first, [60, 60])  # a tied round: replayed, it does not count
    play_to_winner(first, 0)
    match_services.match_forfeit(match_id=second, side=1, reason="left early", actor=ORGANIZER)
    consume()
    # The first result was entered the wrong way round: voided and played again.
    voided = Round.objects.filter(match_id=first, result="side0").order_by("-number").first()
    assert voided is not None
    match_services.round_void(
        match_id=first, round_number=voided.number, reason="swapped", actor=ORGANIZER
    )
    play_to_winner(first, 1)
    consume()
    corrections.entrant_correct(
        tournament_id=tournament.id,
        entrant_id=entrant_ids[2],
        name="Carla B.",
        reason="typo",
        actor=ORGANIZER,
    )
    # Dario's seat is taken by another person, who is then replaced in turn: the first
    # replacement stays a player of no entrant, whom the events still name by id.
    for name in ("Davide", "Diego"):
        corrections.entrant_correct(
            tournament_id=tournament.id,
            entrant_id=entrant_ids[3],
            players=[corrections.PlayerCorrection(name, replace=True)],
            reason="a substitute",
            actor=ORGANIZER,
        )
    registration.entrant_withdraw(
        tournament_id=tournament.id, entrant_id=entrant_ids[4], reason="ill", actor=ORGANIZER
    )
    consume()
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    for match_id in open_match_ids(tournament.id)[:2]:
        play_to_winner(match_id, 0)
    consume()
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    consume()
    assert Entrant.objects.filter(tournament_id=tournament.id, withdrawn=True).count() == 1
    return tournament.id


def threes_evening(*, club_slug: str = "circolo-tre") -> UUID:
    """A Swiss evening at tables of three (decision record 0031): seven entrants (two tables
    and a bye a round), the first round played with a forfeit, the second paired and begun."""
    tournament = registration.tournament_create(
        name="Briscola a tre",
        format="swiss",
        table_size=3,
        best_of=1,
        swiss_rounds=3,
        tables=2,
        placing_scoring={"places": [3, 1, 0], "bye": 3, "forfeit": 0},
        actor=ORGANIZER,
        club=club_create(name="Circolo a Tre", slug=club_slug),
    )
    for seed, name in enumerate(["Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina"], 1):
        registration.entrant_register(
            tournament_id=tournament.id, name=name, players=[name], seed=seed, actor=ORGANIZER
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    first, second = open_match_ids(tournament.id)
    enter_round(first, [50, 50, 20])  # level at the top: 1st shared
    match_services.match_forfeit(match_id=second, side=2, reason="left early", actor=ORGANIZER)
    consume()
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    enter_round(open_match_ids(tournament.id)[0], [70, 40, 10])
    consume()
    return tournament.id
