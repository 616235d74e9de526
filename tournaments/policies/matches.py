"""Policies: what the tournament does when something happens elsewhere in the log.

A match of the tournament moved (a card, a result, a correction): the tournament records its
result when it has one (which resets what a changed result invalidates and advances: the next
fixtures, the next Swiss round, the end), and the fixture's row follows the match. Run by the
log's consumer (`tournaments.projections.consumer.consume`), apart from the projections that build
the views readers see; idempotent, so reading an event twice is harmless.
"""

from __future__ import annotations

from uuid import UUID

from common.actors import Actor
from tournaments.services import running

SYSTEM = Actor(device="tournament-consumer")


def match_moved(*, match_id: UUID, actor: Actor = SYSTEM) -> bool:
    """The tournament follows one of its matches; returns whether it recorded anything."""
    return running.fixture_result_sync(match_id=match_id, actor=actor)
