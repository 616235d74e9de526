"""Running a tournament: starting it, advancing it, publishing Swiss rounds, recording match
results and the organizer's decisions on level matches and group places."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from uuid import UUID

from django.db import transaction

from common.actors import Actor
from games.models import Match, MatchStatus
from tournaments.models import Fixture
from tournaments.plan import rankings
from tournaments.projections import rows
from tournaments.ratings.seeding import rating_order_due
from tournaments.services.pipeline import (
    TournamentCommandResult,
    load_tournament,
    lock_tournament,
    run,
    tournament_of_match,
)
from tournaments.state import Result, TournamentState
from tournaments.stream.commands import (
    AdvanceTournament,
    DecideGroupPlaces,
    DecideLevelMatch,
    PublishSwissRound,
    RecordResult,
    StartTournament,
)


def tournament_start(
    *,
    tournament_id: UUID,
    actor: Actor,
    only_checked_in: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Close registration, fix the seeding and create the first matches. With
    `only_checked_in`, every entrant that has not checked in is withdrawn first."""

    def with_rating_order(state: TournamentState | None, asked: StartTournament) -> StartTournament:
        if state is None:
            return asked
        return replace(
            asked, rating_order=rating_order_due(tournament_id=tournament_id, state=state)
        )

    return run(
        tournament_id=tournament_id,
        command=StartTournament(tournament_id, only_checked_in=only_checked_in),
        prepare=with_rating_order,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def tournament_advance(*, tournament_id: UUID, actor: Actor) -> TournamentState:
    """Record whatever the tournament should record next on its own (decision by the stream's
    `advance`); normally every command that changes what comes next does it already."""
    return run(
        tournament_id=tournament_id, command=AdvanceTournament(tournament_id), actor=actor
    ).state


def swiss_round_publish(
    *,
    tournament_id: UUID,
    actor: Actor,
    idempotency_key: str | None = None,
    allow_same_group: bool = False,
) -> TournamentCommandResult:
    """Pair and publish the next Swiss round (the organizer's button when rounds are manual);
    the round is the last of the result state's `swiss_rounds`. `allow_same_group`: a round a
    strict `avoid_same_group` cannot draw is published with as few same-group pairings as it
    allows (decision record 0057)."""
    return run(
        tournament_id=tournament_id,
        command=PublishSwissRound(tournament_id, allow_same_group=allow_same_group),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def fixture_result_sync(*, match_id: UUID, actor: Actor) -> bool:
    """Bring the tournament up to date with one of its matches: record a new or changed
    result (which resets what it invalidates and advances), and the fixture's row follows its
    match. Idempotent; returns whether anything was recorded."""
    tournament_id = (
        Fixture.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    match = Match.objects.filter(id=match_id).first()
    if match is None:
        return False
    with transaction.atomic():
        if match.status == MatchStatus.FINISHED:
            outcome = run(
                tournament_id=tournament_id,
                command=RecordResult(tournament_id, str(match_id), Result(winner=None)),
                prepare=lambda state, asked: replace(asked, result=result_of(state, match)),
                actor=actor,
            )
            state, recorded = outcome.state, outcome.recorded
        else:
            # Under the tournament's row lock, as every command: a fold read without it could
            # be older than a command committing meanwhile, and its row would undo that one's.
            lock_tournament(tournament_id)
            state, recorded = load_tournament(tournament_id=tournament_id)[0], False
        rows.project_fixture_of_match(tournament_id, state, str(match_id))
    return recorded


def result_of(state: TournamentState | None, match: Match) -> Result:
    """The match's outcome as the tournament records it, home side first."""
    fixture = None if state is None else state.fixture_of_match(str(match.id))
    if state is None or fixture is None:
        return Result(winner=None)
    return rankings.result_at_table(
        state,
        fixture.entrants,
        winner=match.winner,
        forfeited_by=match.forfeited_by,
        rounds=match.round_wins,
        points=match.total_points,
    )


def fixture_level_decide(
    *,
    match_id: UUID,
    winner: int,
    reason: str,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """The organizer names the winner (an entrant id) of a knockout match that ended level,
    with the reason (decision record 0029); the bracket goes on from it."""
    tournament_id = tournament_of_match(match_id)
    return run(
        tournament_id=tournament_id,
        command=DecideLevelMatch(tournament_id, str(match_id), winner, reason),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def group_places_decide(
    *,
    tournament_id: UUID,
    group: str,
    order: Sequence[int],
    reason: str,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """The organizer orders the entrants tied at a group's qualification cut (entrant ids, best
    first), with the reason (decision record 0029, amended); the knockout is drawn from it."""
    return run(
        tournament_id=tournament_id,
        command=DecideGroupPlaces(tournament_id, group, tuple(order), reason),
        actor=actor,
        idempotency_key=idempotency_key,
    )
