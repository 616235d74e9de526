"""Revealing a tournament's silent final rounds (decision record 0060)."""

from __future__ import annotations

from uuid import UUID

from common.actors import Actor
from tournaments.services.pipeline import TournamentCommandResult, run
from tournaments.stream.commands import RevealResults


def results_reveal(
    *, tournament_id: UUID, actor: Actor, idempotency_key: str | None = None
) -> TournamentCommandResult:
    """Reveal the silent final rounds' results and the standings after them to everybody
    (`ResultsRevealed`); refused (`nothing_to_reveal`) without silent rounds or a second time.
    The tournament's row says so at once; the readers' feeds carry the event."""
    return run(
        tournament_id=tournament_id,
        command=RevealResults(),
        actor=actor,
        idempotency_key=idempotency_key,
    )
