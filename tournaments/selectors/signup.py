"""Reading players' applications (decision record 0053): the rows' names and contact, where each
application is as the tournament's stream says."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from tournaments.models import Application
from tournaments.services.pipeline import load_tournament
from tournaments.state import ApplicationPhase, Registration, TournamentState


@dataclass(frozen=True)
class ApplicationRow:
    id: int
    name: str
    players: list[str]
    contact: str
    status: ApplicationPhase
    position: int | None
    entrant: int | None
    applied_at: datetime


def application_rows(
    *, tournament_id: UUID, state: TournamentState | None = None
) -> list[ApplicationRow]:
    """Every application, the waiting list first in its order, then by when they came."""
    if state is None:
        state, _ = load_tournament(tournament_id=tournament_id)
    rows = []
    for application in Application.objects.filter(tournament_id=tournament_id):
        status = state.applications.get(application.id)
        if status is None:
            continue  # written by a command that was refused and rolled back: never the case
        waiting = application.id in state.waiting
        rows.append(
            ApplicationRow(
                id=application.id,
                name=str(application),
                players=list(application.players),
                contact=application.contact,
                status=status,
                position=state.waiting.index(application.id) + 1 if waiting else None,
                entrant=state.entrant_of_application.get(application.id),
                applied_at=application.applied_at,
            )
        )
    return sorted(rows, key=lambda row: (row.position is None, row.position or 0, row.id))


def registration_of(settings: dict[str, object]) -> Registration:
    """The sign-up settings of a tournament row's `settings`."""
    data = settings.get("registration")
    return Registration.from_dict(data if isinstance(data, dict) else None)
