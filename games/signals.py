"""Signals the games app sends to the apps built on it, which games never imports.

The tournaments app listens for appended match events to wake its consumer of the log
(docs/decisions/0009-celery-scheduling.md); games only announces that a match stream moved.
"""

from __future__ import annotations

from uuid import UUID

from django.db import transaction
from django.dispatch import Signal

from games.models import Match

match_events_appended = Signal()
"""Sent (by `Match`) once the transaction that appended events to a match stream has committed,
with the keyword argument `match_id`. Receivers run after the commit: they cannot undo it."""


def match_events_appended_on_commit(*, match_id: UUID) -> None:
    """Send `match_events_appended` when the current transaction commits (at once outside one;
    never if it rolls back). A failing receiver is logged, not raised: the events are stored."""
    transaction.on_commit(
        lambda: match_events_appended.send(sender=Match, match_id=match_id), robust=True
    )


def announce_appended(match_id: UUID, *_after: object) -> None:
    """The match command pipeline's `notify` hook (`games.matches.execution.MATCH_KIND`)."""
    match_events_appended_on_commit(match_id=match_id)
