"""Every tournament stream read and folded once, for the projections rebuilt from them.

The tournament rows, the views and the ratings are all folds of the tournament streams. Rebuilt
one after the other, each read and folded the same events again; `rebuild_projections` now reads
them once, up to the log's head when it starts, and hands this fold to each (decision record
0066). Each projection's own rebuild, called alone, makes a fold of its own the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from games.eventstore.api import FoldedEvent, iter_all_to_fold, last_position
from tournaments.state import TournamentState
from tournaments.stream.events import TOURNAMENT_EVENTS, TournamentEvent, tournament_event
from tournaments.stream.evolve import evolve


@dataclass(frozen=True, slots=True)
class FoldedTournament:
    """One tournament stream folded: its state and where its stream stands in the log."""

    tournament_id: UUID
    state: TournamentState
    version: int
    position: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """A tournament event decoded, with its stream and position, for the folds that take the
    events themselves (the ratings' ledger)."""

    stream_id: UUID
    position: int
    event: TournamentEvent


@dataclass(frozen=True)
class TournamentLog:
    """The tournament streams folded up to `head` (the log's last position when the read
    began: an event appended during the read waits for the consumers, as it would have)."""

    head: int
    tournaments: dict[UUID, FoldedTournament]
    events: list[LoggedEvent]


def fold_tournament_log() -> TournamentLog:
    """Read every tournament event up to the log's head once, and fold each stream."""
    head = last_position()
    folding: dict[UUID, _Folding] = {}
    events: list[LoggedEvent] = []
    for recorded in iter_all_to_fold(stream_types=[TOURNAMENT_EVENTS.kind]):
        if recorded.global_position > head:
            break
        event = tournament_event(recorded)
        events.append(LoggedEvent(recorded.stream_id, recorded.global_position, event))
        stream = folding.get(recorded.stream_id)
        if stream is None:
            folding[recorded.stream_id] = _Folding(recorded, evolve(None, event))
        else:
            stream.take(recorded, event)
    tournaments = {stream_id: stream.folded(stream_id) for stream_id, stream in folding.items()}
    return TournamentLog(head=head, tournaments=tournaments, events=events)


class _Folding:
    """A stream being folded: its state so far and its first and last events."""

    __slots__ = ("first", "last", "state")

    def __init__(self, first: FoldedEvent, state: TournamentState) -> None:
        self.first = first
        self.last = first
        self.state = state

    def take(self, recorded: FoldedEvent, event: TournamentEvent) -> None:
        self.state = evolve(self.state, event)
        self.last = recorded

    def folded(self, stream_id: UUID) -> FoldedTournament:
        return FoldedTournament(
            tournament_id=stream_id,
            state=self.state,
            version=self.last.stream_version,
            position=self.last.global_position,
            created_at=self.first.recorded_at,
            updated_at=self.last.recorded_at,
        )
