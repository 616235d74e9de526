"""The tournament stream: the facts a tournament records, the commands that record them, and the
state folded from them.

Pure (the rules core's errors and the standard library only), shaped like the match stream
(`games.matches.stream`): `decide(state, command) -> events` refuses a command with a
`TournamentError` or answers the events it records (none when there is nothing to do), and
`evolve(state, event)` folds one event. Events carry ids, never names (decision 0018). The
services (`tournaments.services`) load, decide, append and project through the one command
pipeline (`games.eventstore.pipeline`); the policies (`tournaments.policies`) react to what was
recorded (a created fixture gets its match; a withdrawn entrant forfeits).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, TypeAlias

from common.explained import gettext_noop
from tournaments import plan
from tournaments.errors import (
    CheckInClosed,
    DuplicateSeed,
    EntrantNotFound,
    GroupNotComplete,
    GroupNotFound,
    GroupNotTied,
    InvalidEntrant,
    InvalidGroupOrder,
    InvalidTournament,
    MatchNotLevel,
    ReasonRequired,
    RegistrationClosed,
    SwissRoundNotDue,
    TooFewEntrants,
    TournamentAlreadyStarted,
    TournamentNotStarted,
)
from tournaments.state import (
    FORMATS,
    CheckInWindow,
    EntrantRecord,
    Fixture,
    Result,
    SwissPairing,
    TournamentSettings,
    TournamentState,
)

__all__ = [
    "FORMATS",
    "CheckInWindow",
    "EntrantRecord",
    "Fixture",
    "Result",
    "SwissPairing",
    "TournamentSettings",
    "TournamentState",
]

TOURNAMENT_CREATED = "TournamentCreated"
ENTRANT_REGISTERED = "EntrantRegistered"
ENTRANT_CHECKED_IN = "EntrantCheckedIn"
ENTRANT_WITHDREW = "EntrantWithdrew"
ENTRANTS_SEEDED = "EntrantsSeeded"
TOURNAMENT_STARTED = "TournamentStarted"
SWISS_ROUND_PAIRED = "SwissRoundPaired"
FIXTURE_CREATED = "FixtureCreated"
MATCH_SCHEDULED = "MatchScheduled"
RESULT_RECORDED = "ResultRecorded"
FIXTURE_RESET = "FixtureReset"
TOURNAMENT_FINISHED = "TournamentFinished"
MATCH_CALLED = "MatchCalled"
CHECK_IN_OPENED = "CheckInOpened"
CHECK_IN_CLOSED = "CheckInClosed"
ENTRANT_CORRECTED = "EntrantCorrected"
"""{entrant, changed: ["name", "players"], players: [player ids in seat order] when the players
changed, reason}. A renamed player keeps their id; a replaced one gets a new id."""
ENTRANTS_RESEEDED = "EntrantsReseeded"
"""{seeds: [[entrant, seed or null], ...], reason}: the seeds that changed. A seeding order fixed
earlier (EntrantsSeeded) gives way to the seeds, its positions kept as seeds."""
LEVEL_MATCH_DECIDED = "LevelMatchDecided"
"""{fixture, winner, reason}: the organizer named the winner of a knockout match that ended
level (decision record 0029)."""
GROUP_PLACES_DECIDED = "GroupPlacesDecided"
"""{group, order, reason}: the organizer ordered the entrants of a group tied at its
qualification cut (`order`: entrant ids, best first), under the organizer's rule (decision
record 0029, amended)."""

TABLE_SIZES = (2, 3, 4, 6)
PLAYERS_PER_ENTRANT = {2: 1, 3: 1, 4: 2, 6: 3}
"""Players per entrant: one at two and three (each for himself), a pair at four, a trio at six."""
THREES_FORMATS = ("single_elimination", "round_robin", "swiss", "groups_then_knockout")
"""The formats played at tables of three (decision record 0031): no double elimination."""
SEEDING_METHODS = ("given", "random")


@dataclass(frozen=True)
class TournamentEvent:
    type: str
    payload: dict[str, Any]


def event(event_type: str, **payload: Any) -> TournamentEvent:
    return TournamentEvent(event_type, payload)


# Commands (imperative). Those that may create fixtures name the tournament: a fixture's match id
# is derived from it, so a retried command creates nothing twice.


@dataclass(frozen=True)
class CreateTournament:
    name: str
    settings: TournamentSettings
    club: int | None = None
    public: bool = True


@dataclass(frozen=True)
class RegisterEntrant:
    entrant: int
    players: int
    """How many players the entrant brings (their names stay in the name tables)."""
    seed: int | None = None


@dataclass(frozen=True)
class CheckInEntrant:
    entrant: int
    now: datetime | None = None
    """When (the check-in window is checked, and the entrant's matches at a table whose other
    side is here already are called); None: no window check, no call."""


@dataclass(frozen=True)
class OpenCheckIn:
    """Open the check-in window (again, after a close), until `closes_at` when given."""

    now: datetime
    closes_at: datetime | None = None


@dataclass(frozen=True)
class CloseCheckIn:
    now: datetime


@dataclass(frozen=True)
class WithdrawEntrant:
    entrant: int
    reason: str = ""


@dataclass(frozen=True)
class SeedEntrants:
    method: str = "given"
    random_seed: int | None = None


@dataclass(frozen=True)
class StartTournament:
    tournament: uuid.UUID
    only_checked_in: bool = False
    """Withdraw every entrant that has not checked in ("did not check in"), then start."""


@dataclass(frozen=True)
class PublishSwissRound:
    tournament: uuid.UUID


@dataclass(frozen=True)
class AdvanceTournament:
    tournament: uuid.UUID


@dataclass(frozen=True)
class RecordResult:
    """Record the result of one of the tournament's matches (a new or a changed one)."""

    tournament: uuid.UUID
    match_id: str
    result: Result


@dataclass(frozen=True)
class ScheduleMatches:
    """Give every waiting fixture a free table, a start time and (with the no-show rule) a
    deadline. `underway`: the match ids being played already (they need no table)."""

    now: datetime
    underway: frozenset[str] = frozenset()


@dataclass(frozen=True)
class AssignTable:
    """Put a fixture's match at a table; a fixture holding it takes the mover's table."""

    match_id: str
    table: int
    now: datetime


@dataclass(frozen=True)
class CallMatch:
    """Call a fixture's match to its table (to `table` first, when given): the no-show clock
    starts now."""

    match_id: str
    now: datetime
    table: int | None = None


@dataclass(frozen=True)
class CorrectEntrant:
    """Record a correction of an entrant's name and/or players, made in the name rows (the
    event says what changed and the players' ids, never a name)."""

    entrant: int
    reason: str
    changed: tuple[str, ...] = ()
    players: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ReseedEntrants:
    """Give entrants new seeds (None: no seed) before the start, all at once."""

    seeds: tuple[tuple[int, int | None], ...]
    reason: str


@dataclass(frozen=True)
class DecideLevelMatch:
    """Name the winner (an entrant of the fixture) of a knockout match that ended level, and
    say why."""

    tournament: uuid.UUID
    match_id: str
    winner: int
    reason: str


@dataclass(frozen=True)
class DecideGroupPlaces:
    """Order the entrants of a complete group tied at its qualification cut (entrant ids, best
    first: every tied entrant once), and say why."""

    tournament: uuid.UUID
    group: str
    order: tuple[int, ...]
    reason: str


TournamentCommand: TypeAlias = (
    CreateTournament
    | RegisterEntrant
    | CheckInEntrant
    | WithdrawEntrant
    | SeedEntrants
    | StartTournament
    | PublishSwissRound
    | AdvanceTournament
    | RecordResult
    | ScheduleMatches
    | AssignTable
    | CorrectEntrant
    | ReseedEntrants
    | CallMatch
    | OpenCheckIn
    | CloseCheckIn
    | DecideLevelMatch
    | DecideGroupPlaces
)


# Deciding.


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
    if settings.tables < 1:
        raise InvalidTournament.because(gettext_noop("a tournament needs at least one table"))
    if settings.no_show_minutes is not None and settings.no_show_minutes < 0:
        raise InvalidTournament.because(
            gettext_noop("the no-show minutes cannot be negative (leave them out for no rule)")
        )
    if settings.level_knockout not in plan.LEVEL_KNOCKOUT_RULES:
        raise InvalidTournament.because(
            gettext_noop("a level knockout match is settled by one of %(rules)s, not %(rule)r"),
            rules=", ".join(plan.LEVEL_KNOCKOUT_RULES),
            rule=settings.level_knockout,
        )
    plan.check_standings_settings(settings)
    return [
        event(
            TOURNAMENT_CREATED,
            name=command.name,
            settings=settings.to_dict(),
            club=command.club,
            public=command.public,
        )
    ]


def _register(state: TournamentState, command: RegisterEntrant) -> list[TournamentEvent]:
    if state.started:
        raise RegistrationClosed.because(
            gettext_noop("the tournament has started: registration is closed")
        )
    check_player_count(state, command.players)
    check_seed_is_free(state, command.seed)
    return [event(ENTRANT_REGISTERED, entrant=command.entrant, seed=command.seed)]


def known_entrant(state: TournamentState, entrant_id: int) -> EntrantRecord:
    record = state.entrants.get(entrant_id)
    if record is None:
        raise EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s is not registered in this tournament"),
            entrant=entrant_id,
        )
    return record


def _check_in(state: TournamentState, command: CheckInEntrant) -> list[TournamentEvent]:
    if known_entrant(state, command.entrant).checked_in:
        return []
    if command.now is not None and not state.check_in.accepts(command.now):
        raise CheckInClosed.because(
            gettext_noop("check-in is closed: the organizer can open it again")
        )
    checked_in = event(ENTRANT_CHECKED_IN, entrant=command.entrant)
    if command.now is None:
        return [checked_in]
    after = evolve(state, checked_in)
    return [
        checked_in,
        *(
            called(after, fixture, now=command.now, by="check-in")
            for fixture in after.fixtures.values()
            if command.entrant in fixture.entrants and both_here(after, fixture)
        ),
    ]


def _open_check_in(state: TournamentState, command: OpenCheckIn) -> list[TournamentEvent]:
    if command.closes_at is not None and command.closes_at <= command.now:
        raise InvalidTournament.because(gettext_noop("the check-in must close after it opens"))
    window = state.check_in
    open_already = window.accepts(command.now) and window.opened_at is not None
    if open_already and window.closes_at == iso(command.closes_at):
        return []
    return [
        event(CHECK_IN_OPENED, opened_at=command.now.isoformat(), closes_at=iso(command.closes_at))
    ]


def _close_check_in(state: TournamentState, command: CloseCheckIn) -> list[TournamentEvent]:
    if not state.check_in.accepts(command.now):
        return []
    return [event(CHECK_IN_CLOSED, closed_at=command.now.isoformat())]


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _withdraw(state: TournamentState, command: WithdrawEntrant) -> list[TournamentEvent]:
    if known_entrant(state, command.entrant).withdrawn:
        return []
    return [event(ENTRANT_WITHDREW, entrant=command.entrant, reason=command.reason)]


def _seed(state: TournamentState, command: SeedEntrants) -> list[TournamentEvent]:
    if state.started:
        raise TournamentAlreadyStarted.because(
            gettext_noop("seeding is fixed once the tournament starts")
        )
    order = seeding_order(state, method=command.method, random_seed=command.random_seed)
    if command.method == "random" and command.random_seed is None:
        raise InvalidTournament.because(gettext_noop("a random seeding needs its random_seed"))
    return [
        event(
            ENTRANTS_SEEDED,
            order=list(order),
            method=command.method,
            random_seed=command.random_seed,
        )
    ]


def seeding_order(
    state: TournamentState, *, method: str, random_seed: int | None
) -> tuple[int, ...]:
    """The active entrants in seed order: by the seeds given at registration (then registration
    order), or shuffled from a recorded random seed."""
    active = list(state.active_entrants)
    if method == "given":
        return tuple(sorted(active, key=lambda e: (state.entrants[e].seed or 10**9, e)))
    if method == "random":
        shuffled = sorted(active)
        random.Random(random_seed).shuffle(shuffled)
        return tuple(shuffled)
    raise InvalidTournament.because(
        gettext_noop("seeding is 'given' or 'random', not %(method)r"), method=method
    )


def _start(state: TournamentState, command: StartTournament) -> list[TournamentEvent]:
    if state.started:
        raise TournamentAlreadyStarted.because(gettext_noop("the tournament has already started"))
    given = seeding_order(state, method="given", random_seed=None)
    # A seeding fixed before a late registration: the late entrants follow, by their seeds.
    seeding = state.seeding or ()
    order = (*seeding, *(entrant for entrant in given if entrant not in seeding))
    order = tuple(entrant for entrant in order if not state.entrants[entrant].withdrawn)
    absent = (
        [entrant for entrant in order if not state.entrants[entrant].checked_in]
        if command.only_checked_in
        else []
    )
    order = tuple(entrant for entrant in order if entrant not in absent)
    if plan.at_threes(state.settings) and 2 <= len(order) < 3:
        raise TooFewEntrants.because(
            gettext_noop("a tournament at tables of three needs at least three entrants to start")
        )
    if len(order) < 2:
        if absent:
            raise TooFewEntrants.because(
                gettext_noop("fewer than two entrants have checked in: the tournament cannot start")
            )
        raise TooFewEntrants.because(
            gettext_noop("a tournament needs at least two entrants to start")
        )
    withdrawn = [
        event(ENTRANT_WITHDREW, entrant=entrant, reason="did not check in") for entrant in absent
    ]
    started = event(TOURNAMENT_STARTED, order=list(order))
    return [*withdrawn, started, *advance(fold([*withdrawn, started], state), command.tournament)]


def _publish_swiss_round(
    state: TournamentState, command: PublishSwissRound
) -> list[TournamentEvent]:
    if not state.started:
        raise TournamentNotStarted.because(gettext_noop("start the tournament first"))
    number = plan.swiss_round_due(state)
    if number is None:
        raise SwissRoundNotDue.because(
            gettext_noop(
                "no Swiss round can be paired now: the current round is still being played, "
                "all rounds were played, or this is not a Swiss tournament"
            )
        )
    paired = swiss_round_paired(state, number)
    return [paired, *advance(evolve(state, paired), command.tournament)]


def swiss_round_paired(state: TournamentState, number: int) -> TournamentEvent:
    paired = plan.next_swiss_round(state, number)
    return event(
        SWISS_ROUND_PAIRED,
        round=number,
        pairings=[[table_id, *entrants] for table_id, entrants in paired.tables],
        bye=paired.bye,
    )


def _advance(state: TournamentState, command: AdvanceTournament) -> list[TournamentEvent]:
    return advance(state, command.tournament)


def advance(state: TournamentState, tournament: uuid.UUID) -> list[TournamentEvent]:
    """What the tournament records next on its own: the next automatic Swiss round, a fixture
    for every pairing or bracket slot whose entrants became known, and the end once the format
    is done. Nothing before the start or after the end."""
    if not state.started or state.finished:
        return []
    events: list[TournamentEvent] = []

    def record(recorded: TournamentEvent) -> None:
        nonlocal state
        events.append(recorded)
        state = evolve(state, recorded)

    number = plan.swiss_round_due(state)
    if number is not None and (number == 1 or state.settings.automatic_rounds):
        record(swiss_round_paired(state, number))
    generation = state.resets
    for spec in plan.fixtures_to_create(state):
        record(
            event(
                FIXTURE_CREATED,
                fixture=spec.id,
                match_id=str(fixture_match_id(tournament, spec.id, generation)),
                home=spec.home,
                away=spec.away,
                stage=spec.stage,
                round=spec.round,
                **({} if spec.third is None else {"third": spec.third}),
            )
        )
    if plan.is_complete(state):
        record(event(TOURNAMENT_FINISHED))
    return events


def fixture_match_id(tournament: uuid.UUID, fixture_id: str, generation: int) -> uuid.UUID:
    """Stable per fixture and reset generation, so a retried advance creates nothing twice."""
    return uuid.uuid5(tournament, f"{fixture_id}#{generation}")


def _record_result(state: TournamentState, command: RecordResult) -> list[TournamentEvent]:
    fixture = state.fixture_of_match(command.match_id)
    if fixture is None:
        return []
    result = settled(state, fixture, command.result)
    if state.results.get(fixture.id) == result:
        return []
    resets = plan.resets_after(state, fixture.id, result)
    recorded = [
        event(RESULT_RECORDED, fixture=fixture.id, **result.to_dict()),
        *(
            event(FIXTURE_RESET, fixture=reset, reason=f"the result of {fixture.id} changed")
            for reset in resets
        ),
    ]
    return [*recorded, *advance(fold(recorded, state), command.tournament)]


def settled(state: TournamentState, fixture: Fixture, result: Result) -> Result:
    """A knockout match's result with its winner (decision record 0029): a level one goes to
    the higher seed under that rule, and keeps the organizer's decision while its rounds stay
    as they were. Any other result as the match says."""
    if result.winner is not None or not plan.is_knockout_fixture(state, fixture.id):
        return result
    if state.settings.level_knockout == "higher_seed":
        winner = plan.higher_seed(state, plan.level_leaders(fixture, result))
        return replace(result, winner=winner, decided_by="higher_seed")
    earlier = state.results.get(fixture.id)
    unchanged = earlier is not None and replace(earlier, winner=None, decided_by=None) == result
    if earlier is not None and earlier.decided_by == "organizer" and unchanged:
        return earlier
    return result


def _decide_level_match(state: TournamentState, command: DecideLevelMatch) -> list[TournamentEvent]:
    reason = check_reason_given(command.reason)
    fixture = live_fixture(state, command.match_id)
    if not plan.is_knockout_fixture(state, fixture.id):
        raise MatchNotLevel.because(
            gettext_noop("%(fixture)s is not a knockout match: its result stands as played"),
            fixture=fixture.id,
        )
    result = state.results.get(fixture.id)
    if result is None:
        raise MatchNotLevel.because(
            gettext_noop("%(fixture)s has no result yet: decide it once it ends level"),
            fixture=fixture.id,
        )
    if result.winner is not None:
        raise MatchNotLevel.because(
            gettext_noop("%(fixture)s has a winner already"), fixture=fixture.id
        )
    if command.winner not in fixture.entrants:
        raise EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s does not play %(fixture)s"),
            entrant=command.winner,
            fixture=fixture.id,
        )
    if command.winner not in plan.level_leaders(fixture, result):
        raise MatchNotLevel.because(
            gettext_noop("entrant %(entrant)s did not share first place at %(fixture)s"),
            entrant=command.winner,
            fixture=fixture.id,
        )
    decided = event(LEVEL_MATCH_DECIDED, fixture=fixture.id, winner=command.winner, reason=reason)
    return [decided, *advance(evolve(state, decided), command.tournament)]


def busy_tables(state: TournamentState) -> set[int]:
    """The tables held by a fixture without a result."""
    return {
        fixture.table
        for fixture in state.fixtures.values()
        if fixture.table is not None and fixture.id not in state.results
    }


def _schedule(state: TournamentState, command: ScheduleMatches) -> list[TournamentEvent]:
    busy = busy_tables(state)
    free = [t for t in range(1, state.settings.tables + 1) if t not in busy]
    waiting = sorted(
        (
            fixture
            for fixture in state.fixtures.values()
            if fixture.table is None
            and fixture.id not in state.results
            and fixture.match_id not in command.underway
        ),
        key=lambda fixture: fixture.round,
    )
    moves = [
        scheduled(fixture, table, scheduled_at=command.now)
        for fixture, table in zip(waiting, free, strict=False)
    ]
    return with_automatic_calls(state, moves, now=command.now)


def scheduled(fixture: Fixture, table: int, *, scheduled_at: datetime) -> TournamentEvent:
    """The fixture's match given a table and a start time; its no-show clock starts only when
    it is called (`MatchCalled`)."""
    return event(
        MATCH_SCHEDULED,
        fixture=fixture.id,
        table=table,
        scheduled_at=scheduled_at.isoformat(),
        deadline=None,
    )


def with_automatic_calls(
    state: TournamentState, moves: list[TournamentEvent], *, now: datetime
) -> list[TournamentEvent]:
    """`moves` (fixtures given tables), each followed by its call when both sides are here."""
    recorded: list[TournamentEvent] = []
    for move in moves:
        recorded.append(move)
        state = evolve(state, move)
        fixture = state.fixtures[move.payload["fixture"]]
        if both_here(state, fixture):
            call = called(state, fixture, now=now, by="check-in")
            recorded.append(call)
            state = evolve(state, call)
    return recorded


def both_here(state: TournamentState, fixture: Fixture) -> bool:
    """A fixture at a table, not called yet, without a result, whose two sides checked in."""
    return (
        fixture.table is not None
        and fixture.called_at is None
        and fixture.id not in state.results
        and all(state.entrants[e].checked_in for e in fixture.entrants)
    )


def called(state: TournamentState, fixture: Fixture, *, now: datetime, by: str) -> TournamentEvent:
    """The fixture's match called to its table: with the no-show rule on, its deadline."""
    deadline = no_show_deadline(state, now)
    return event(
        MATCH_CALLED,
        fixture=fixture.id,
        table=fixture.table,
        called_at=now.isoformat(),
        deadline=iso(deadline),
        by=by,
    )


def no_show_deadline(state: TournamentState, called_at: datetime) -> datetime | None:
    """When a match called at `called_at` is due to have started: None with the tournament's
    no-show rule off."""
    minutes = state.settings.no_show_minutes
    return None if minutes is None else called_at + timedelta(minutes=minutes)


def live_fixture(state: TournamentState, match_id: str) -> Fixture:
    """The live fixture of `match_id`, or why it has none (reset, or not a tournament's)."""
    fixture = state.fixture_of_match(match_id)
    if fixture is not None:
        return fixture
    retired = next((f for f in state.retired if f.match_id == match_id), None)
    if retired is not None:
        raise InvalidTournament.because(
            gettext_noop("%(fixture)s is %(status)s: it needs no table"),
            fixture=retired.id,
            status="reset",
        )
    raise InvalidTournament.because(
        gettext_noop("match %(match)s is not a match of a tournament"), match=match_id
    )


def _assign_table(state: TournamentState, command: AssignTable) -> list[TournamentEvent]:
    fixture = live_fixture(state, command.match_id)
    if not 1 <= command.table <= state.settings.tables:
        raise InvalidTournament.because(
            gettext_noop("the tables are numbered 1 to %(tables)s"),
            tables=state.settings.tables,
        )
    if fixture.id in state.results:
        raise InvalidTournament.because(
            gettext_noop("%(fixture)s is %(status)s: it needs no table"),
            fixture=fixture.id,
            status="finished",
        )
    if fixture.table == command.table:
        return []
    holder = next(
        (
            other
            for other in state.fixtures.values()
            if other.table == command.table
            and other.id != fixture.id
            and other.id not in state.results
        ),
        None,
    )
    if holder is not None and fixture.table is None:
        raise InvalidTournament.because(
            gettext_noop(
                "table %(table)s is in use by %(holder)s: give %(fixture)s a table first, "
                "or pick a free one"
            ),
            table=command.table,
            holder=holder.id,
            fixture=fixture.id,
        )
    moves = [(fixture, command.table)]
    if holder is not None and fixture.table is not None:
        moves.append((holder, fixture.table))
    recorded = [
        scheduled(
            moved,
            table,
            scheduled_at=command.now
            if moved.scheduled_at is None
            else datetime.fromisoformat(moved.scheduled_at),
        )
        for moved, table in moves
    ]
    return with_automatic_calls(state, recorded, now=command.now)


def _call(state: TournamentState, command: CallMatch) -> list[TournamentEvent]:
    moved = (
        []
        if command.table is None
        else _assign_table(state, AssignTable(command.match_id, command.table, command.now))
    )
    after = fold(moved, state)
    fixture = live_fixture(after, command.match_id)
    if fixture.id in after.results:
        raise InvalidTournament.because(
            gettext_noop("%(fixture)s is %(status)s: it needs no table"),
            fixture=fixture.id,
            status="finished",
        )
    if fixture.table is None:
        raise InvalidTournament.because(
            gettext_noop("give %(fixture)s a table before calling it"), fixture=fixture.id
        )
    if fixture.called_at is not None:
        return moved
    return [*moved, called(after, fixture, now=command.now, by="organizer")]


def no_show_forfeiter(state: TournamentState, fixture: Fixture) -> int | None:
    """The side (0 home, 1 away, 2 the third at three) that forfeits `fixture` for not showing
    up once its deadline has passed: only with the no-show rule on, and only when exactly one
    side did not check in. None when nobody forfeits (rule off, everyone present, or more than
    one absent: then the match is overdue, for the organizer to settle)."""
    if state.settings.no_show_minutes is None or fixture.deadline is None:
        return None
    if fixture.called_at is None:
        return None
    present = [state.entrants.get(e, EntrantRecord()).checked_in for e in fixture.entrants]
    absent = [side for side, here in enumerate(present) if not here]
    # One side missing, the others there: it forfeits. Otherwise the organizer settles it.
    return absent[0] if len(absent) == 1 and len(present) - len(absent) >= 1 else None


_DECIDERS: dict[type, Callable[[TournamentState, Any], list[TournamentEvent]]] = {
    RegisterEntrant: _register,
    CheckInEntrant: _check_in,
    WithdrawEntrant: _withdraw,
    SeedEntrants: _seed,
    StartTournament: _start,
    PublishSwissRound: _publish_swiss_round,
    AdvanceTournament: _advance,
    RecordResult: _record_result,
    ScheduleMatches: _schedule,
    AssignTable: _assign_table,
    CallMatch: lambda state, command: _call(state, command),
    OpenCheckIn: _open_check_in,
    CloseCheckIn: _close_check_in,
    CorrectEntrant: lambda state, command: _correct(state, command),
    ReseedEntrants: lambda state, command: _reseed(state, command),
    DecideLevelMatch: lambda state, command: _decide_level_match(state, command),
    DecideGroupPlaces: lambda state, command: _decide_group_places(state, command),
}


# Folding.


def evolve(state: TournamentState | None, event: TournamentEvent) -> TournamentState:
    payload = event.payload
    if event.type == TOURNAMENT_CREATED:
        return TournamentState(
            name=payload["name"], settings=TournamentSettings.from_dict(payload["settings"])
        )
    if state is None:
        raise ValueError(f"{event.type} before {TOURNAMENT_CREATED}")
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise ValueError(f"unknown tournament event {event.type!r}")
    return handler(state, payload)


def fold(
    events: Iterable[TournamentEvent], state: TournamentState | None = None
) -> TournamentState:
    for recorded in events:
        state = evolve(state, recorded)
    if state is None:
        raise ValueError("no events to fold")
    return state


def _with_entrant(state: TournamentState, entrant: int, **changes: Any) -> TournamentState:
    entrants = dict(state.entrants)
    entrants[entrant] = replace(entrants.get(entrant, EntrantRecord()), **changes)
    return replace(state, entrants=entrants)


def _registered(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return _with_entrant(
        state, payload["entrant"], seed=payload.get("seed"), late=payload.get("late", False)
    )


def _checked_in(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return _with_entrant(state, payload["entrant"], checked_in=True)


def _withdrew(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return _with_entrant(state, payload["entrant"], withdrawn=True)


def _seeded(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return replace(state, seeding=tuple(payload["order"]), seeding_method=payload["method"])


def _started(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return replace(state, order=tuple(payload["order"]))


def _swiss_paired(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    pairing = SwissPairing(
        number=payload["round"],
        pairings=tuple((p[0], tuple(p[1:])) for p in payload["pairings"]),
        bye=payload["bye"],
    )
    return replace(state, swiss_rounds=(*state.swiss_rounds, pairing))


def _fixture_created(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture = Fixture(
        id=payload["fixture"],
        match_id=payload["match_id"],
        home=payload["home"],
        away=payload["away"],
        stage=payload["stage"],
        round=payload["round"],
        sequence=len(state.fixtures) + len(state.retired),
        third=payload.get("third"),
    )
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _scheduled(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture = replace(
        state.fixtures[payload["fixture"]],
        table=payload["table"],
        scheduled_at=payload["scheduled_at"],
    )
    if payload.get("deadline") is not None:
        # Recorded before matches were called (issue 11): the clock started at the scheduling.
        fixture = replace(fixture, called_at=payload["scheduled_at"], deadline=payload["deadline"])
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _called(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture = replace(
        state.fixtures[payload["fixture"]],
        called_at=payload["called_at"],
        deadline=payload["deadline"],
    )
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _check_in_opened(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    window = CheckInWindow(opened_at=payload["opened_at"], closes_at=payload["closes_at"])
    return replace(state, check_in=window)


def _check_in_closed(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return replace(state, check_in=replace(state.check_in, closed_at=payload["closed_at"]))


def _result_recorded(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    result = Result(
        winner=payload["winner"],
        rounds=tuple(payload["rounds"]),
        points=tuple(payload["points"]),
        forfeit=payload["forfeit"],
        decided_by=payload.get("decided_by"),
        places=None if payload.get("places") is None else tuple(payload["places"]),
        forfeited_by=payload.get("forfeited_by"),
    )
    return replace(state, results={**state.results, payload["fixture"]: result})


def _level_match_decided(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture_id = payload["fixture"]
    result = replace(state.results[fixture_id], winner=payload["winner"], decided_by="organizer")
    return replace(state, results={**state.results, fixture_id: result})


def _fixture_reset(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture_id = payload["fixture"]
    retired = state.fixtures.get(fixture_id)
    fixtures = {k: v for k, v in state.fixtures.items() if k != fixture_id}
    results = {k: v for k, v in state.results.items() if k != fixture_id}
    return replace(
        state,
        fixtures=fixtures,
        results=results,
        resets=state.resets + 1,
        retired=state.retired if retired is None else (*state.retired, retired),
    )


def _finished(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return replace(state, finished=True)


_HANDLERS: dict[str, Callable[[TournamentState, dict[str, Any]], TournamentState]] = {
    ENTRANT_REGISTERED: _registered,
    ENTRANT_CHECKED_IN: _checked_in,
    ENTRANT_WITHDREW: _withdrew,
    ENTRANTS_SEEDED: _seeded,
    TOURNAMENT_STARTED: _started,
    SWISS_ROUND_PAIRED: _swiss_paired,
    FIXTURE_CREATED: _fixture_created,
    MATCH_SCHEDULED: _scheduled,
    RESULT_RECORDED: _result_recorded,
    FIXTURE_RESET: _fixture_reset,
    TOURNAMENT_FINISHED: _finished,
    MATCH_CALLED: lambda state, payload: _called(state, payload),
    CHECK_IN_OPENED: lambda state, payload: _check_in_opened(state, payload),
    CHECK_IN_CLOSED: lambda state, payload: _check_in_closed(state, payload),
    ENTRANT_CORRECTED: lambda state, payload: _corrected(state, payload),
    ENTRANTS_RESEEDED: lambda state, payload: _reseeded(state, payload),
    LEVEL_MATCH_DECIDED: lambda state, payload: _level_match_decided(state, payload),
    GROUP_PLACES_DECIDED: lambda state, payload: _group_places_decided(state, payload),
}


# Entrant corrections (issue 11 §3): an organizer renames an entrant, changes its players, or
# changes seeds before the start; the events carry ids and which fields changed (decision 0018).

CORRECTED_FIELDS = ("name", "players")


def check_reason_given(reason: str) -> str:
    """The reason, trimmed; a correction without one is refused (the log must say why)."""
    trimmed = reason.strip()
    if not trimmed:
        raise ReasonRequired.because(
            gettext_noop("say why: the reason is recorded with the correction")
        )
    return trimmed


def check_player_count(state: TournamentState, count: int) -> None:
    needed = PLAYERS_PER_ENTRANT[state.settings.table_size]
    if count != needed:
        raise InvalidEntrant.because(
            gettext_noop(
                "an entrant at tables of %(size)s needs %(needed)s player(s); this one has "
                "%(given)s"
            ),
            size=state.settings.table_size,
            needed=needed,
            given=count,
        )


def check_seed_is_valid(seed: int | None) -> None:
    if seed is not None and seed < 1:
        raise InvalidEntrant.because(gettext_noop("seeds start at 1"))


def seeds_in_force(state: TournamentState) -> dict[int, int | None]:
    """Each entrant's seed as readers see it: its position in a seeding order fixed before the
    start, else the seed it was given (at registration or by a reseed)."""
    position = {entrant: index for index, entrant in enumerate(state.seeding or (), start=1)}
    return {
        entrant: position.get(entrant, record.seed) for entrant, record in state.entrants.items()
    }


NEW_ENTRANT = -1
"""Stands for an entrant not registered yet, among the others' seeds."""


def check_seeds_are_distinct(state: TournamentState, seeds: Mapping[int, int | None]) -> None:
    """No two active entrants hold one seed (a withdrawn entrant's seed is free)."""
    holders: dict[int, list[int]] = {}
    for entrant, seed in seeds.items():
        record = state.entrants.get(entrant)
        if seed is not None and (record is None or not record.withdrawn):
            holders.setdefault(seed, []).append(entrant)
    for seed, entrants in sorted(holders.items()):
        if len(entrants) > 1:
            refused = DuplicateSeed.because(
                gettext_noop("seed %(seed)s would be held by more than one entrant: %(entrants)s"),
                seed=seed,
                entrants=", ".join(f"#{entrant}" for entrant in entrants),
            )
            refused.entrants = tuple(entrants)
            raise refused


def check_seed_is_free(state: TournamentState, seed: int | None) -> None:
    """A new entrant's seed: valid, and held by no active entrant yet."""
    check_seed_is_valid(seed)
    if seed is not None:
        check_seeds_are_distinct(state, {**seeds_in_force(state), NEW_ENTRANT: seed})


def check_entrant_correction(
    state: TournamentState, *, entrant: int, reason: str, player_count: int | None
) -> str:
    """Whether `entrant` can be renamed or given these many players (at any time: names are
    not facts of the draw); the trimmed reason."""
    trimmed = check_reason_given(reason)
    known_entrant(state, entrant)
    if player_count is not None:
        check_player_count(state, player_count)
    return trimmed


def _correct(state: TournamentState, command: CorrectEntrant) -> list[TournamentEvent]:
    reason = check_entrant_correction(
        state,
        entrant=command.entrant,
        reason=command.reason,
        player_count=None if command.players is None else len(command.players),
    )
    unknown = set(command.changed) - set(CORRECTED_FIELDS)
    if unknown:
        raise ValueError(f"only {CORRECTED_FIELDS} are corrected, not {sorted(unknown)}")
    if not command.changed:
        return []
    payload: dict[str, Any] = {
        "entrant": command.entrant,
        "changed": [name for name in CORRECTED_FIELDS if name in command.changed],
    }
    if "players" in command.changed:
        if command.players is None:
            raise ValueError("a correction of the players records their ids")
        payload["players"] = list(command.players)
    payload["reason"] = reason
    return [TournamentEvent(ENTRANT_CORRECTED, payload)]


def _reseed(state: TournamentState, command: ReseedEntrants) -> list[TournamentEvent]:
    reason = check_reason_given(command.reason)
    if state.started:
        raise TournamentAlreadyStarted.because(
            gettext_noop("seeds can be changed only before the tournament starts")
        )
    if not command.seeds:
        raise InvalidEntrant.because(gettext_noop("give at least one entrant's seed"))
    for entrant, seed in command.seeds:
        known_entrant(state, entrant)
        check_seed_is_valid(seed)
    in_force = seeds_in_force(state)
    changes = {entrant: seed for entrant, seed in command.seeds if in_force[entrant] != seed}
    if not changes:
        return []
    check_seeds_are_distinct(state, {**in_force, **changes})
    return [
        event(
            ENTRANTS_RESEEDED,
            seeds=[[entrant, seed] for entrant, seed in sorted(changes.items())],
            reason=reason,
        )
    ]


def _corrected(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    # Names and players are rows (decision 0018): nothing the tournament folds changes.
    return state


def _reseeded(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    seeds = seeds_in_force(state) | {int(entrant): seed for entrant, seed in payload["seeds"]}
    entrants = {
        entrant: replace(record, seed=seeds.get(entrant, record.seed))
        for entrant, record in state.entrants.items()
    }
    return replace(state, entrants=entrants, seeding=None, seeding_method=None)


# Ties at a group's qualification cut under the organizer's rule (decision record 0029,
# amended): the knockout waits until the organizer orders the tied entrants.


def _decide_group_places(
    state: TournamentState, command: DecideGroupPlaces
) -> list[TournamentEvent]:
    reason = check_reason_given(command.reason)
    tie = group_tie_to_decide(state, command.group)
    if len(set(command.order)) != len(command.order) or set(command.order) != set(tie.tied):
        raise InvalidGroupOrder.because(
            gettext_noop(
                "the order must list the entrants tied at the cut of group %(group)s once each: "
                "%(entrants)s"
            ),
            group=command.group,
            entrants=", ".join(f"#{entrant}" for entrant in tie.tied),
        )
    decided = event(
        GROUP_PLACES_DECIDED, group=command.group, order=list(command.order), reason=reason
    )
    return [decided, *advance(evolve(state, decided), command.tournament)]


def group_tie_to_decide(state: TournamentState, label: str) -> plan.CutTie:
    """The tie at the cut of group `label` that waits for the organizer, or why there is none."""
    group = next((g for g in plan.group_stages_of(state) if g.name == label), None)
    if group is None:
        raise GroupNotFound.because(
            gettext_noop("this tournament has no group %(group)s"), group=label
        )
    if not group.complete:
        raise GroupNotComplete.because(
            gettext_noop("group %(group)s is still being played: decide its places once it ends"),
            group=label,
        )
    if not plan.settles_ties_at_the_cut(state.settings, "organizer"):
        raise GroupNotTied.because(
            gettext_noop(
                "the tournament's rule settles a tie at the cut of group %(group)s, not the "
                "organizer"
            ),
            group=label,
        )
    tie = plan.group_cut_tie(state, label)
    if tie is None:
        raise GroupNotTied.because(
            gettext_noop("group %(group)s has no tie at its qualification cut"), group=label
        )
    decided = state.group_places.get(label)
    if decided is not None and set(decided) == set(tie.tied):
        raise GroupNotTied.because(
            gettext_noop("the places of group %(group)s at the cut were decided already"),
            group=label,
        )
    return tie


def _group_places_decided(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    places = {**state.group_places, payload["group"]: tuple(payload["order"])}
    return replace(state, group_places=places)
