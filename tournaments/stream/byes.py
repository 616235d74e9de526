"""Deciding late entries, requested byes and pauses in a Swiss (decision record 0058).

A late entrant registered after the start enters the next round's draw; an entrant may ask to
sit out a future round (a requested bye, scored) up to `max_requested_byes`; the organizer may
pause an entrant (absent, unscored) and draw it again once it returns. The draw leaves them out
(`tournaments.plan.drawing.sitting_out`), and records who sat each round out.
"""

from __future__ import annotations

from typing import Any

from common.explained import gettext_noop
from tournaments.errors import (
    ByeAlreadyRequested,
    ByeNotRequested,
    EntrantWithdrawn,
    InvalidRound,
    NotASwiss,
    RoundAlreadyDrawn,
    TooManyByes,
)
from tournaments.plan import drawing
from tournaments.state import EntrantRecord, TournamentState
from tournaments.stream.commands import CancelBye, PauseEntrant, RequestBye, ReturnEntrant
from tournaments.stream.entrant_checks import known_entrant
from tournaments.stream.events import (
    ByeCancelled,
    ByeRequested,
    EntrantPaused,
    EntrantReturned,
    TournamentEvent,
)


def next_round(state: TournamentState) -> int:
    """The number of the next Swiss round to draw."""
    return len(state.swiss_rounds) + 1


def late_entry_round(state: TournamentState) -> int | None:
    """The round a late entrant registered now is first drawn in, or None when the tournament
    takes no late entrant now: not started, not a Swiss, no late entry, past its last round."""
    until = state.settings.late_entry_until_round
    if not state.started or state.finished or state.settings.format != "swiss" or until is None:
        return None
    number = next_round(state)
    if number > until or number > drawing.swiss_rounds_of(state):
        return None
    return number


def check_swiss(state: TournamentState) -> None:
    if state.settings.format != "swiss":
        raise NotASwiss.because(
            gettext_noop("byes and absences are for Swiss tournaments: this one is not a Swiss")
        )


def swiss_entrant(state: TournamentState, entrant: int) -> EntrantRecord:
    check_swiss(state)
    record = known_entrant(state, entrant)
    if record.withdrawn:
        raise EntrantWithdrawn.because(
            gettext_noop("entrant %(entrant)s has withdrawn"), entrant=entrant
        )
    return record


def check_round_not_drawn(state: TournamentState, number: int) -> None:
    if number <= len(state.swiss_rounds) or state.finished:
        raise RoundAlreadyDrawn.because(
            gettext_noop("round %(round)s is drawn already: the next round to draw is %(next)s"),
            round=number,
            next=next_round(state),
        )


def check_round_exists(state: TournamentState, number: int) -> None:
    """Round `number` is one the Swiss has (its count is known once it starts, or set)."""
    last = drawing.swiss_rounds_of(state) if state.started else state.settings.swiss_rounds
    if number < 1 or (last is not None and number > last):
        raise InvalidRound.because(gettext_noop("this Swiss has no round %(round)s"), round=number)


def request_bye(state: TournamentState, command: RequestBye) -> list[TournamentEvent]:
    swiss_entrant(state, command.entrant)
    check_round_exists(state, command.round)
    check_round_not_drawn(state, command.round)
    requested = state.requested_byes.get(command.entrant, ())
    if command.round in requested:
        raise ByeAlreadyRequested.because(
            gettext_noop("a bye in round %(round)s is requested already"), round=command.round
        )
    most = state.settings.max_requested_byes
    if len(requested) >= most:
        raise TooManyByes.because(
            gettext_noop("an entrant may ask for %(most)s bye(s) in this tournament"), most=most
        )
    by = "player" if command.by_player else "organizer"
    return [ByeRequested(command.entrant, command.round, by=by)]


def cancel_bye(state: TournamentState, command: CancelBye) -> list[TournamentEvent]:
    swiss_entrant(state, command.entrant)
    if command.round not in state.requested_byes.get(command.entrant, ()):
        raise ByeNotRequested.because(
            gettext_noop("no bye in round %(round)s was requested"), round=command.round
        )
    check_round_not_drawn(state, command.round)
    by = "player" if command.by_player else "organizer"
    return [ByeCancelled(command.entrant, command.round, by=by)]


def pause_entrant(state: TournamentState, command: PauseEntrant) -> list[TournamentEvent]:
    if swiss_entrant(state, command.entrant).paused:
        return []
    return [EntrantPaused(command.entrant, reason=command.reason)]


def return_entrant(state: TournamentState, command: ReturnEntrant) -> list[TournamentEvent]:
    if not swiss_entrant(state, command.entrant).paused:
        return []
    return [EntrantReturned(command.entrant)]


def entrant_byes(state: TournamentState, entrant_id: int) -> dict[str, Any]:
    """An entrant's requested byes, pause and late entry, and whether one more bye may be
    asked for the next round (what the API and the player's page show)."""
    record = known_entrant(state, entrant_id)
    requested = state.requested_byes.get(entrant_id, ())
    upcoming = next_round(state)
    swiss = state.settings.format == "swiss" and not state.finished and not record.withdrawn
    requested_now, _ = drawing.sitting_out(state, upcoming)
    return {
        "entrant": entrant_id,
        "requested_byes": list(requested),
        "paused": record.paused,
        "from_round": record.from_round,
        "next_round": upcoming if swiss else None,
        "may_request_next": swiss
        and entrant_id not in requested_now
        and len(requested) < state.settings.max_requested_byes
        and (not state.started or upcoming <= drawing.swiss_rounds_of(state)),
    }
