"""What a command left: the answer to a tournament write, the same when its idempotency key is
repeated later (decision record 0020). The facts come from the tournament state as the command
left it; names come from the rows (an erased name stays erased)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django.utils import timezone

from games.eventstore.api import read_stream
from games.models import MatchStatus
from tournaments.models import (
    Entrant,
    Fixture,
    Tournament,
)
from tournaments.projections import rows
from tournaments.selectors.lookup import (
    entrant_get,
    tournament_get,
)
from tournaments.services.pipeline import TournamentCommandResult, load_tournament
from tournaments.state import CheckInWindow, TournamentState


def entrant_as_left(*, result: TournamentCommandResult, entrant_id: int) -> Entrant:
    """The entrant as the command left it (not saved)."""
    entrant = entrant_get(tournament_id=result.tournament_id, entrant_id=entrant_id)
    return entrant_in_state(entrant, result.state)


def entrant_in_state(entrant: Entrant, state: TournamentState) -> Entrant:
    """The row with its seed, check-in and withdrawal as `state` has them (`rows`)."""
    for name, value in rows.expected_entrant(state, entrant.id).items():
        setattr(entrant, name, value)
    return entrant


def tournament_as_left(*, result: TournamentCommandResult) -> dict[str, Any]:
    """The tournament as the command left it, in the shape TournamentOutput reads."""
    tournament = tournament_get(tournament_id=result.tournament_id)
    (last,) = read_stream(
        stream_id=result.tournament_id, from_version=result.version, to_version=result.version
    )
    entrants = [
        entrant_in_state(entrant, result.state)
        for entrant in tournament.entrants.all()
        if entrant.id in result.state.entrants
    ]
    entrants.sort(key=lambda e: (e.seed is None, e.seed or 0, e.id))
    return {
        **{f.attname: getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields},
        "status": result.state.status,
        "version": result.version,
        "updated_at": last.recorded_at,
        "entrants": entrants,
    }


def swiss_round_as_left(*, result: TournamentCommandResult) -> dict[str, Any]:
    """The last Swiss round paired as the command left it: its number, bye and matches (just
    created: ready, or finished by a withdrawn entrant's forfeit once the consumer sees it)."""
    state = result.state
    paired = state.swiss_rounds[-1]
    keys = {pairing[0] for pairing in paired.pairings}
    match_ids = {state.fixtures[key].match_id for key in keys if key in state.fixtures}
    fixtures = (
        Fixture.objects.filter(tournament_id=result.tournament_id, match_id__in=match_ids)
        .select_related("home", "away", "third")
        .order_by("id")
    )
    return {
        "round": paired.number,
        "bye": paired.bye,
        "matches": [fixture_in_state(fixture, state) for fixture in fixtures],
    }


def fixture_in_state(fixture: Fixture, state: TournamentState) -> Fixture:
    """The row as `state` has it, its match not started yet (`rows`)."""
    recorded = state.fixtures[fixture.key]
    for name, value in rows.expected_fixture(state, recorded, MatchStatus.NOT_STARTED).items():
        setattr(fixture, name, value)
    return fixture


def check_in_window(*, tournament_id: UUID) -> CheckInWindow:
    """The tournament's check-in window, folded from its stream."""
    state, _ = load_tournament(tournament_id=tournament_id)
    return state.check_in


def check_in_window_view(window: CheckInWindow, *, now: datetime | None = None) -> dict[str, Any]:
    """The window as readers see it: open now or not, and its times."""
    return {
        "open": window.accepts(now or timezone.now()),
        "opened_at": window.opened_at,
        "closes_at": window.closes_at,
        "closed_at": window.closed_at,
    }
