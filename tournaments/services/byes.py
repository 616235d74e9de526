"""Requested byes and pauses in a Swiss (decision record 0058): the organizer's (and, for a
requested bye, the player's) commands, each one event on the tournament's stream."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from common.actors import Actor
from tournaments.services.pipeline import TournamentCommandResult, load_tournament, run
from tournaments.stream.byes import entrant_byes, next_round
from tournaments.stream.commands import CancelBye, PauseEntrant, RequestBye, ReturnEntrant


def bye_request(
    *,
    tournament_id: UUID,
    entrant_id: int,
    round_number: int,
    actor: Actor,
    by_player: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """The entrant sits out Swiss round `round_number`, scored as a requested bye; refused for
    a round drawn already, past `max_requested_byes`, twice, or in a tournament not a Swiss."""
    return run(
        tournament_id=tournament_id,
        command=RequestBye(entrant_id, round_number, by_player=by_player),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def bye_request_next_round(
    *, tournament_id: UUID, entrant_id: int, actor: Actor
) -> TournamentCommandResult:
    """A requested bye in the next round to draw (the console's action)."""
    state, _ = load_tournament(tournament_id=tournament_id)
    return bye_request(
        tournament_id=tournament_id,
        entrant_id=entrant_id,
        round_number=next_round(state),
        actor=actor,
    )


def bye_cancel(
    *,
    tournament_id: UUID,
    entrant_id: int,
    round_number: int,
    actor: Actor,
    by_player: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Take back a requested bye before its round is drawn."""
    return run(
        tournament_id=tournament_id,
        command=CancelBye(entrant_id, round_number, by_player=by_player),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def entrant_pause(
    *,
    tournament_id: UUID,
    entrant_id: int,
    actor: Actor,
    reason: str = "",
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Leave the entrant out of the Swiss draws from the next one (absent: no points, no
    forfeit) until it returns; nothing recorded when it was paused already."""
    return run(
        tournament_id=tournament_id,
        command=PauseEntrant(entrant_id, reason=reason),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def entrant_return(
    *,
    tournament_id: UUID,
    entrant_id: int,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Draw a paused entrant again from the next round; nothing recorded when it was not."""
    return run(
        tournament_id=tournament_id,
        command=ReturnEntrant(entrant_id),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def entrant_byes_of(*, tournament_id: UUID, entrant_id: int) -> dict[str, Any]:
    state, _ = load_tournament(tournament_id=tournament_id)
    return entrant_byes(state, entrant_id)
