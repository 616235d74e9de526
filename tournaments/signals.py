"""Signals the tournament services send once what they recorded has committed.

The services never import the tasks (which import the services): the tasks listen here, as the
tournaments app listens to `games.signals` for match streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from django.db import transaction
from django.dispatch import Signal

from tournaments.models import Tournament
from tournaments.stream.events import TournamentEvent

tournament_events_appended = Signal()
"""Sent (by `Tournament`) once the transaction that appended events to a tournament stream has
committed, with the keyword arguments `tournament_id` and `events` (the typed events, in log
order), and
`running` (whether the tournament is under way after them: started and not finished)."""


def tournament_events_appended_on_commit(
    *, tournament_id: UUID, events: Sequence[TournamentEvent], running: bool
) -> None:
    """Send `tournament_events_appended` when the current transaction commits (never if it rolls
    back). A failing receiver is logged, not raised: the events are stored."""
    sent = tuple(events)
    transaction.on_commit(
        lambda: tournament_events_appended.send(
            sender=Tournament, tournament_id=tournament_id, events=sent, running=running
        ),
        robust=True,
    )
