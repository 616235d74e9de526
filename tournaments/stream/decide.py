"""Deciding: `decide(state, command)` refuses a command with a `TournamentError` or answers the
events it records (none when there is nothing to do)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from common.explained import gettext_noop
from tournaments.errors import InvalidTournament
from tournaments.plan import knockouts, rankings
from tournaments.state import FORMATS, TournamentState
from tournaments.stream import byes, entrants, progress, signup, silence, tables
from tournaments.stream.commands import (
    TABLE_SIZES,
    THREES_FORMATS,
    AdvanceTournament,
    ApplyToPlay,
    ApproveApplication,
    AssignTable,
    CallMatch,
    CancelBye,
    ChangeRegistration,
    ChangeTables,
    CheckInEntrant,
    CloseCheckIn,
    CorrectEntrant,
    CreateTournament,
    DecideGroupPlaces,
    DecideLevelMatch,
    DeclineApplication,
    OpenCheckIn,
    PauseEntrant,
    PromoteApplication,
    PublishSwissRound,
    RecordResult,
    RegisterEntrant,
    RegisterEntrants,
    ReorderWaitingList,
    RequestBye,
    ReseedEntrants,
    ReturnEntrant,
    RevealResults,
    ScheduleMatches,
    SeedEntrants,
    StartTournament,
    TournamentCommand,
    WithdrawEntrant,
)
from tournaments.stream.events import TournamentCreated, TournamentEvent
from tournaments.stream.options import check_format_options

SEEDINGS = ("given", "rating")
"""How a tournament started without a seeding order is seeded (None: `given`)."""


def decide(state: TournamentState | None, command: TournamentCommand) -> list[TournamentEvent]:
    """The events `command` records on the tournament folded into `state` (None: no stream yet),
    or a `TournamentError` saying why it cannot be carried out."""
    if isinstance(command, CreateTournament):
        return _create(state, command)
    if state is None:
        raise InvalidTournament.because(gettext_noop("the tournament does not exist yet"))
    handler = _DECIDERS[type(command)]
    return handler(state, command)


def _create(state: TournamentState | None, command: CreateTournament) -> list[TournamentEvent]:
    if state is not None:
        raise InvalidTournament.because(gettext_noop("the tournament exists already"))
    settings = command.settings
    if settings.format not in FORMATS:
        raise InvalidTournament.because(
            gettext_noop("format must be one of %(formats)s, not %(format)r"),
            formats=", ".join(FORMATS),
            format=settings.format,
        )
    if settings.table_size not in TABLE_SIZES:
        raise InvalidTournament.because(
            gettext_noop("tournaments are played at tables of 2, 3, 4 or 6")
        )
    if settings.table_size == 3 and settings.format not in THREES_FORMATS:
        raise InvalidTournament.because(
            gettext_noop("at tables of three the format is one of %(formats)s"),
            formats=", ".join(THREES_FORMATS),
        )
    if settings.tables is not None and settings.tables < 1:
        raise InvalidTournament.because(gettext_noop("a tournament needs at least one table"))
    if settings.no_show_minutes is not None and settings.no_show_minutes < 0:
        raise InvalidTournament.because(
            gettext_noop("the no-show minutes cannot be negative (leave them out for no rule)")
        )
    if settings.level_knockout not in knockouts.LEVEL_KNOCKOUT_RULES:
        raise InvalidTournament.because(
            gettext_noop("a level knockout match is settled by one of %(rules)s, not %(rule)r"),
            rules=", ".join(knockouts.LEVEL_KNOCKOUT_RULES),
            rule=settings.level_knockout,
        )
    if settings.seeding is not None and settings.seeding not in SEEDINGS:
        raise InvalidTournament.because(
            gettext_noop("a tournament is seeded by one of %(rules)s, not %(rule)r"),
            rules=", ".join(SEEDINGS),
            rule=settings.seeding,
        )
    if settings.registration.cap is not None and settings.registration.cap < 1:
        raise InvalidTournament.because(gettext_noop("the sign-up cap is at least one entrant"))
    check_format_options(settings)
    rankings.check_standings_settings(settings)
    return [
        TournamentCreated(
            name=command.name, settings=settings, club=command.club, public=command.public
        )
    ]


Decided = TypeVar("Decided", bound=TournamentCommand)
Decider = Callable[[TournamentState, Any], list[TournamentEvent]]


def _decider(
    command_type: type[Decided],
    decider: Callable[[TournamentState, Decided], list[TournamentEvent]],
) -> tuple[type[Decided], Decider]:
    """`decider` for `command_type` (typed together, so the decider takes that command)."""
    return command_type, decider


_DECIDERS: dict[type, Decider] = dict(
    [
        _decider(RegisterEntrant, entrants.register_entrant),
        _decider(RegisterEntrants, entrants.register_entrants),
        _decider(CheckInEntrant, entrants.check_in_entrant),
        _decider(OpenCheckIn, entrants.open_check_in),
        _decider(CloseCheckIn, entrants.close_check_in),
        _decider(WithdrawEntrant, entrants.withdraw_entrant),
        _decider(SeedEntrants, entrants.seed_entrants),
        _decider(CorrectEntrant, entrants.correct_entrant),
        _decider(ReseedEntrants, entrants.reseed_entrants),
        _decider(StartTournament, progress.start_tournament),
        _decider(PublishSwissRound, progress.publish_swiss_round),
        _decider(AdvanceTournament, progress.advance_tournament),
        _decider(RecordResult, progress.record_result),
        _decider(DecideLevelMatch, progress.decide_level_match),
        _decider(DecideGroupPlaces, progress.decide_group_places),
        _decider(ScheduleMatches, tables.schedule_matches),
        _decider(AssignTable, tables.assign_table),
        _decider(CallMatch, tables.call_match),
        _decider(ChangeTables, tables.change_tables),
        _decider(ChangeRegistration, signup.change_registration),
        _decider(ApplyToPlay, signup.apply_to_play),
        _decider(ApproveApplication, signup.approve_application),
        _decider(DeclineApplication, signup.decline_application),
        _decider(PromoteApplication, signup.promote_application),
        _decider(ReorderWaitingList, signup.reorder_waiting_list),
        _decider(RequestBye, byes.request_bye),
        _decider(CancelBye, byes.cancel_bye),
        _decider(PauseEntrant, byes.pause_entrant),
        _decider(ReturnEntrant, byes.return_entrant),
        _decider(RevealResults, silence.reveal_results),
    ]
)
