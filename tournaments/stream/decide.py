"""Deciding: `decide(state, command)` refuses a command with a `TournamentError` or answers the
events it records (none when there is nothing to do).

It matches the command on its class, as the match stream's `decide` does, and hands it to the
function of its concern (`entrants`, `progress`, `tables`, ...): mypy checks that each function
takes the command it is given and, through `assert_never`, that no command is left out."""

from __future__ import annotations

from typing import assert_never

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
    ByeCommand,
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
    EntrantCommand,
    OpenCheckIn,
    PauseEntrant,
    ProgressCommand,
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
    SignUpCommand,
    StartTournament,
    TableCommand,
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
    match command:
        case (
            RegisterEntrant()
            | RegisterEntrants()
            | CheckInEntrant()
            | OpenCheckIn()
            | CloseCheckIn()
            | WithdrawEntrant()
            | SeedEntrants()
            | CorrectEntrant()
            | ReseedEntrants()
        ):
            return _decide_on_entrants(state, command)
        case (
            StartTournament()
            | PublishSwissRound()
            | AdvanceTournament()
            | RecordResult()
            | DecideLevelMatch()
            | DecideGroupPlaces()
        ):
            return _decide_progress(state, command)
        case ScheduleMatches() | AssignTable() | CallMatch() | ChangeTables():
            return _decide_on_tables(state, command)
        case (
            ChangeRegistration()
            | ApplyToPlay()
            | ApproveApplication()
            | DeclineApplication()
            | PromoteApplication()
            | ReorderWaitingList()
        ):
            return _decide_sign_up(state, command)
        case RequestBye() | CancelBye() | PauseEntrant() | ReturnEntrant():
            return _decide_on_byes(state, command)
        case RevealResults():
            return silence.reveal_results(state, command)
        case _:
            assert_never(command)


def _decide_on_entrants(state: TournamentState, command: EntrantCommand) -> list[TournamentEvent]:
    """An entrant's command, decided by `entrants`."""
    match command:
        case RegisterEntrant():
            return entrants.register_entrant(state, command)
        case RegisterEntrants():
            return entrants.register_entrants(state, command)
        case CheckInEntrant():
            return entrants.check_in_entrant(state, command)
        case OpenCheckIn():
            return entrants.open_check_in(state, command)
        case CloseCheckIn():
            return entrants.close_check_in(state, command)
        case WithdrawEntrant():
            return entrants.withdraw_entrant(state, command)
        case SeedEntrants():
            return entrants.seed_entrants(state, command)
        case CorrectEntrant():
            return entrants.correct_entrant(state, command)
        case ReseedEntrants():
            return entrants.reseed_entrants(state, command)
        case _:
            assert_never(command)


def _decide_progress(state: TournamentState, command: ProgressCommand) -> list[TournamentEvent]:
    """A command that carries the tournament on, decided by `progress`."""
    match command:
        case StartTournament():
            return progress.start_tournament(state, command)
        case PublishSwissRound():
            return progress.publish_swiss_round(state, command)
        case AdvanceTournament():
            return progress.advance_tournament(state, command)
        case RecordResult():
            return progress.record_result(state, command)
        case DecideLevelMatch():
            return progress.decide_level_match(state, command)
        case DecideGroupPlaces():
            return progress.decide_group_places(state, command)
        case _:
            assert_never(command)


def _decide_on_tables(state: TournamentState, command: TableCommand) -> list[TournamentEvent]:
    """A command on the tables, decided by `tables`."""
    match command:
        case ScheduleMatches():
            return tables.schedule_matches(state, command)
        case AssignTable():
            return tables.assign_table(state, command)
        case CallMatch():
            return tables.call_match(state, command)
        case ChangeTables():
            return tables.change_tables(state, command)
        case _:
            assert_never(command)


def _decide_sign_up(state: TournamentState, command: SignUpCommand) -> list[TournamentEvent]:
    """A command of the sign-up, decided by `signup`."""
    match command:
        case ChangeRegistration():
            return signup.change_registration(state, command)
        case ApplyToPlay():
            return signup.apply_to_play(state, command)
        case ApproveApplication():
            return signup.approve_application(state, command)
        case DeclineApplication():
            return signup.decline_application(state, command)
        case PromoteApplication():
            return signup.promote_application(state, command)
        case ReorderWaitingList():
            return signup.reorder_waiting_list(state, command)
        case _:
            assert_never(command)


def _decide_on_byes(state: TournamentState, command: ByeCommand) -> list[TournamentEvent]:
    """A bye or a pause, decided by `byes`."""
    match command:
        case RequestBye():
            return byes.request_bye(state, command)
        case CancelBye():
            return byes.cancel_bye(state, command)
        case PauseEntrant():
            return byes.pause_entrant(state, command)
        case ReturnEntrant():
            return byes.return_entrant(state, command)
        case _:
            assert_never(command)


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
