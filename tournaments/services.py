"""Tournament services: every write is a command on the tournament's stream, decided from the
folded state by `tournaments.stream.decide` and carried out by the command pipeline
(`games.eventstore.pipeline`): appended with its actor, expected version and idempotency key,
projected inline into the tournament's rows (`tournaments.rows`), followed by the policies'
reactions on the match streams (`tournaments.policies`) and, after the commit, a signal.

Plain functions with keyword-only arguments, named `<entity>_<action>`. They raise
`TournamentError`s (codes for the API) and let the match services' errors through.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import Club, DeviceToken, Role
from accounts.selectors import roles_of
from accounts.services import (
    DeviceTokenNotFound,
    InvalidDeviceToken,
    device_token_create,
    device_token_revoke,
)
from common.actors import Actor
from games.eventstore.api import AppendResult, EventMetadata, NewEvent, RecordedEvent, read_stream
from games.eventstore.pipeline import Outcome, StreamKind, run_command
from games.matches import services as match_services
from games.models import Match
from games.rules import Table, Variant
from tournaments import folded, names, plan, reactions, rows, stream
from tournaments.errors import (
    EntrantNotFound,
    InvalidEntrant,
    InvalidGroupOrder,
    InvalidTournament,
    RegistrationClosed,
    SwissRoundNotDue,
    TooFewEntrants,
    TournamentAlreadyStarted,
    TournamentError,
    TournamentNotFound,
    TournamentNotStarted,
)
from tournaments.models import Entrant, EntrantPlayer, Fixture, Player, Tournament
from tournaments.signals import tournament_events_appended_on_commit
from tournaments.stream import (
    MATCH_SCHEDULED,
    PLAYERS_PER_ENTRANT,
    TABLE_SIZES,
    AdvanceTournament,
    AssignTable,
    CallMatch,
    CheckInEntrant,
    CloseCheckIn,
    CreateTournament,
    DecideGroupPlaces,
    DecideLevelMatch,
    OpenCheckIn,
    PublishSwissRound,
    RecordResult,
    RegisterEntrant,
    Result,
    ScheduleMatches,
    SeedEntrants,
    StartTournament,
    TournamentCommand,
    TournamentEvent,
    TournamentSettings,
    TournamentState,
    WithdrawEntrant,
    fold,
    no_show_forfeiter,
)

__all__ = [
    "PLAYERS_PER_ENTRANT",
    "TABLE_SIZES",
    "EntrantNotFound",
    "InvalidEntrant",
    "InvalidGroupOrder",
    "InvalidTournament",
    "RegistrationClosed",
    "SwissRoundNotDue",
    "TooFewEntrants",
    "TournamentAlreadyStarted",
    "TournamentError",
    "TournamentNotFound",
    "TournamentNotStarted",
]

logger = logging.getLogger(__name__)

TOURNAMENT_STREAM = "tournament"


@dataclass(frozen=True, kw_only=True)
class TournamentCommandResult(Outcome[TournamentState]):
    """What a tournament write left: the state and version after it, the events it recorded
    (for a repeated idempotency key, the first command's, with `duplicate` set)."""

    @property
    def tournament_id(self) -> UUID:
        return self.stream_id


# Loading.


def load_tournament(*, tournament_id: UUID) -> tuple[TournamentState, int]:
    state, version = load_stream(tournament_id)
    if state is None:
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )
    return state, version


def load_stream(
    tournament_id: UUID, *, to_version: int | None = None
) -> tuple[TournamentState | None, int]:
    if to_version is None:
        return load_latest(tournament_id)
    events = read_stream(stream_id=tournament_id, to_version=to_version)
    if not events:
        return None, 0
    return fold(tournament_events(events)), events[-1].stream_version


def tournament_events(events: Iterable[RecordedEvent]) -> Iterator[TournamentEvent]:
    return (TournamentEvent(e.event_type, e.payload) for e in events)


def load_latest(tournament_id: UUID) -> tuple[TournamentState | None, int]:
    """The tournament as it stands, folding only the events this process has not folded before
    (`tournaments.folded`): the stream is read from the memo's version on, and folded again
    from the start only when the event there is not the one the memo was folded from."""
    known = folded.recall(tournament_id)
    if known is not None:
        loaded = fold_read(
            tournament_id,
            known,
            read_stream(stream_id=tournament_id, from_version=known.version),
        )
        if loaded is not None:
            return loaded
    loaded = fold_read(tournament_id, None, read_stream(stream_id=tournament_id))
    return (None, 0) if loaded is None else loaded


def fold_read(
    tournament_id: UUID,
    known: folded.Folded[TournamentState] | None,
    events: list[RecordedEvent],
) -> tuple[TournamentState, int] | None:
    """The tournament after `events` (`games.eventstore.memo.StreamMemo.fold_read`)."""
    return folded.memo.fold_read(tournament_id, known, events, fold_tournament_events)


def fold_tournament_events(
    events: Sequence[RecordedEvent], state: TournamentState | None
) -> TournamentState:
    return fold(tournament_events(events), state)


def remember(tournament_id: UUID, state: TournamentState, last: RecordedEvent) -> None:
    folded.remember_on_commit(
        tournament_id, folded.Folded(state, last.stream_version, last.global_position)
    )


def load_for_command(tournament_id: UUID) -> tuple[TournamentState | None, int]:
    """The tournament for a command, its row locked until the transaction ends. Every command
    takes this lock before it appends anything (to its own stream or, creating matches, to
    theirs), so that all writers take the tournament's row before the log's append lock and
    never wait for each other the other way round."""
    Tournament.objects.select_for_update().filter(id=tournament_id).values_list("id").first()
    try:
        return load_tournament(tournament_id=tournament_id)
    except TournamentNotFound:
        return None, 0


def replay_from(tournament_id: UUID, first: AppendResult) -> tuple[TournamentState, int]:
    """The tournament as the first command with a repeated key left it. Commands record one
    append each; a command recorded before that (several appends carrying its causation id) is
    followed to its last append."""
    causation_id = first.events[0].metadata.causation_id
    last_version = first.last_version
    for later in read_stream(stream_id=tournament_id, from_version=last_version + 1):
        if causation_id is None or later.metadata.causation_id != causation_id:
            break
        last_version = later.stream_version
    state, version = load_stream(tournament_id, to_version=last_version)
    assert state is not None
    return state, version


def notify(tournament_id: UUID, state: TournamentState, appended: AppendResult) -> None:
    remember(tournament_id, state, appended.events[-1])
    tournament_events_appended_on_commit(
        tournament_id=tournament_id,
        event_types=[e.event_type for e in appended.events],
        running=state.started and not state.finished,
    )


TOURNAMENT_KIND: StreamKind[TournamentState, TournamentEvent] = StreamKind(
    stream_type=TOURNAMENT_STREAM,
    load=load_for_command,
    fold=lambda events, state: fold(events, state),
    encode=lambda event: NewEvent(event.type, event.payload),
    replay=replay_from,
    project=rows.project_appended,
    react=reactions.react_inline,
    notify=notify,
)
"""How the command pipeline handles tournament streams."""


def command_fingerprint(tournament_id: UUID, command: str, arguments: dict[str, Any]) -> str:
    """What makes two tournament commands the same: the tournament, the command and its
    arguments (not who sends it, nor from which device)."""
    document = json.dumps(
        [str(tournament_id), command, arguments], sort_keys=True, separators=(",", ":"), default=str
    )
    return hashlib.sha256(document.encode()).hexdigest()


def run(
    *,
    tournament_id: UUID,
    command: TournamentCommand | Callable[[TournamentState | None], TournamentCommand],
    actor: Actor,
    idempotency_key: str | None = None,
    name: str = "",
    arguments: dict[str, Any] | None = None,
) -> TournamentCommandResult:
    """Carry out one tournament command (decision record 0020 for idempotency keys: a command
    sent again with its key records nothing and is answered from what the first one left).
    `command` may be a function of the loaded state that writes name rows first: it runs
    after the idempotency check, in the command's transaction."""

    def decide(state: TournamentState | None) -> list[TournamentEvent]:
        if state is None and not isinstance(command, CreateTournament):
            raise TournamentNotFound.because(
                gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
            )
        decided = command(state) if callable(command) else command
        return stream.decide(state, decided)

    if idempotency_key is not None and actor.causation_id is None:
        # Every event the command causes (its matches' too) names it.
        actor = replace(actor, causation_id=f"command:{uuid.uuid4()}")
    outcome = run_command(
        TOURNAMENT_KIND,
        stream_id=tournament_id,
        decide=decide,
        metadata=EventMetadata.of(actor),
        idempotency_key=idempotency_key,
        fingerprint=None
        if idempotency_key is None
        else command_fingerprint(tournament_id, name, arguments or {}),
        # Writers take the tournament's row lock first: losing a race anyway is reported (409).
        retries=1,
    )
    return TournamentCommandResult.of(outcome)


# Creating and registering.


def tournament_create(
    *,
    name: str,
    format: str,
    table_size: int,
    actor: Actor,
    best_of: int = 3,
    scoring: str = "rounds",
    rounds: int | None = None,
    variant: dict[str, Any] | None = None,
    swiss_rounds: int | None = None,
    group_size: int | None = None,
    advance_per_group: int = 2,
    legs: int = 1,
    tables: int = 1,
    third_place: bool = False,
    grand_final_reset: bool = True,
    match_minutes: int = 30,
    no_show_minutes: int | None = None,
    automatic_rounds: bool = True,
    tiebreaks: Sequence[str] | None = None,
    level_knockout: str = "deciding_round",
    placing_scoring: dict[str, Any] | None = None,
    club: Club | None = None,
    public: bool = True,
) -> Tournament:
    """A tournament in registration, run by `club` (whose organizers organize it; may a caller
    create one there is for the permissions to say, tournaments/access.py)."""
    settings = TournamentSettings(
        format=format,
        table_size=table_size,
        best_of=best_of,
        scoring=scoring,
        rounds=rounds,
        variant=variant or {},
        swiss_rounds=swiss_rounds,
        group_size=group_size,
        advance_per_group=advance_per_group,
        legs=legs,
        tables=tables,
        third_place=third_place,
        grand_final_reset=grand_final_reset,
        match_minutes=match_minutes,
        no_show_minutes=no_show_minutes,
        automatic_rounds=automatic_rounds,
        tiebreaks=None if tiebreaks is None else tuple(tiebreaks),
        level_knockout=level_knockout,
        placing_scoring=placing_scoring,
    )
    command = CreateTournament(
        name=name, settings=settings, club=None if club is None else club.pk, public=public
    )
    stream.decide(None, command)  # refused before the match rules are checked, as it always was
    match_services.match_format_of(scoring=scoring, best_of=best_of, rounds=rounds)
    Table(table_size, Variant.from_dict(variant or {}))
    tournament_id = uuid.uuid4()
    now = timezone.now()
    with transaction.atomic():
        Tournament.objects.create(
            id=tournament_id,
            name=name,
            format=format,
            table_size=table_size,
            settings=settings.to_dict(),
            club=club,
            public=public,
            created_at=now,
            updated_at=now,
        )
        run(tournament_id=tournament_id, command=command, actor=actor)
    return Tournament.objects.get(id=tournament_id)


def entrant_register(
    *,
    tournament_id: UUID,
    name: str,
    players: Sequence[str],
    actor: Actor,
    seed: int | None = None,
    confirm_duplicate_name: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Register before the start. A seed another entrant holds is refused, and so is a name
    another entrant has unless `confirm_duplicate_name`. The entrant's id is in the result's
    first event (`registered_entrant_id`); its name and players go to the name tables only."""

    def register(state: TournamentState | None) -> TournamentCommand:
        # Refused before any row is written when the tournament cannot take the entrant.
        assert state is not None
        with names.seed_holders_named(new_name=name):
            stream.decide(state, RegisterEntrant(entrant=0, players=len(players), seed=seed))
        names.check_name_is_free(
            tournament_id=tournament_id, name=name, confirmed=confirm_duplicate_name
        )
        entrant = Entrant.objects.create(
            tournament_id=tournament_id, name=name, seed=seed, registered_at=timezone.now()
        )
        for position, player_name in enumerate(players):
            player = Player.objects.create(name=player_name)
            EntrantPlayer.objects.create(entrant=entrant, player=player, position=position)
        return RegisterEntrant(entrant=entrant.id, players=len(players), seed=seed)

    return run(
        tournament_id=tournament_id,
        command=register,
        actor=actor,
        idempotency_key=idempotency_key,
        name="entrant_register",
        arguments={"name": name, "players": list(players), "seed": seed},
    )


def registered_entrant_id(result: TournamentCommandResult) -> int:
    """The entrant that `entrant_register` registered (the first one, for a repeated key)."""
    entrant_id: int = result.events[0].payload["entrant"]
    return entrant_id


def entrant_check_in(
    *,
    tournament_id: UUID,
    entrant_id: int,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Record that the entrant is at the venue (refused while the check-in window is closed);
    nothing is recorded when it already was. Its matches at a table whose other side is here
    are called (`MatchCalled`)."""
    return run(
        tournament_id=tournament_id,
        command=CheckInEntrant(entrant_id, timezone.now()),
        actor=actor,
        idempotency_key=idempotency_key,
        name="entrant_check_in",
        arguments={"entrant": entrant_id},
    )


def entrant_withdraw(
    *,
    tournament_id: UUID,
    entrant_id: int,
    reason: str,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Withdraw an entrant; the matches it still has to play are forfeited (`policies`).
    Nothing is recorded when it had withdrawn already."""
    return run(
        tournament_id=tournament_id,
        command=WithdrawEntrant(entrant_id, reason),
        actor=actor,
        idempotency_key=idempotency_key,
        name="entrant_withdraw",
        arguments={"entrant": entrant_id, "reason": reason},
    )


def tournament_seed(
    *,
    tournament_id: UUID,
    actor: Actor,
    method: str = "given",
    random_seed: int | None = None,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Fix the seeding order: by the seeds given at registration (then registration order), or
    shuffled from a recorded random seed. The order is the result state's `seeding`."""
    return run(
        tournament_id=tournament_id,
        command=SeedEntrants(method, random_seed),
        actor=actor,
        idempotency_key=idempotency_key,
        name="tournament_seed",
        arguments={"method": method, "random_seed": random_seed},
    )


# Running the tournament.


def tournament_start(
    *,
    tournament_id: UUID,
    actor: Actor,
    only_checked_in: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Close registration, fix the seeding and create the first matches. With
    `only_checked_in`, every entrant that has not checked in is withdrawn first."""
    return run(
        tournament_id=tournament_id,
        command=StartTournament(tournament_id, only_checked_in=only_checked_in),
        actor=actor,
        idempotency_key=idempotency_key,
        name="tournament_start",
        arguments={"only_checked_in": True} if only_checked_in else {},
    )


def check_in_open(
    *,
    tournament_id: UUID,
    actor: Actor,
    closes_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Open the check-in window (until `closes_at` when given). A tournament that never opens
    one takes check-ins at any time."""
    return run(
        tournament_id=tournament_id,
        command=OpenCheckIn(timezone.now(), closes_at),
        actor=actor,
        idempotency_key=idempotency_key,
        name="check_in_open",
        arguments={"closes_at": closes_at},
    )


def check_in_close(
    *, tournament_id: UUID, actor: Actor, idempotency_key: str | None = None
) -> TournamentCommandResult:
    """Close the check-in window: later check-ins are refused until it opens again."""
    return run(
        tournament_id=tournament_id,
        command=CloseCheckIn(timezone.now()),
        actor=actor,
        idempotency_key=idempotency_key,
        name="check_in_close",
        arguments={},
    )


def tournament_advance(*, tournament_id: UUID, actor: Actor) -> TournamentState:
    """Record whatever the tournament should record next on its own (decision by the stream's
    `advance`); normally every command that changes what comes next does it already."""
    return run(
        tournament_id=tournament_id, command=AdvanceTournament(tournament_id), actor=actor
    ).state


def swiss_round_publish(
    *, tournament_id: UUID, actor: Actor, idempotency_key: str | None = None
) -> TournamentCommandResult:
    """Pair and publish the next Swiss round (the organizer's button when rounds are manual);
    the round is the last of the result state's `swiss_rounds`."""
    return run(
        tournament_id=tournament_id,
        command=PublishSwissRound(tournament_id),
        actor=actor,
        idempotency_key=idempotency_key,
        name="swiss_round_publish",
        arguments={},
    )


def fixture_result_sync(*, match_id: UUID, actor: Actor) -> bool:
    """Bring the tournament up to date with one of its matches: record a new or changed
    result (which resets what it invalidates and advances), and the fixture's row follows its
    match. Idempotent; returns whether anything was recorded."""
    tournament_id = (
        Fixture.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    match = Match.objects.filter(id=match_id).first()
    if match is None:
        return False
    with transaction.atomic():
        if match.status == "finished":
            outcome = run(
                tournament_id=tournament_id,
                command=lambda state: RecordResult(
                    tournament_id, str(match_id), result_of(state, match)
                ),
                actor=actor,
            )
            state, recorded = outcome.state, outcome.recorded
        else:
            # Under the tournament's row lock, as every command: a fold read without it could
            # be older than a command committing meanwhile, and its row would undo that one's.
            locked, _ = load_for_command(tournament_id)
            assert locked is not None
            state, recorded = locked, False
        rows.project_fixture_of_match(tournament_id, state, str(match_id))
    return recorded


def result_of(state: TournamentState | None, match: Match) -> Result:
    """The match's outcome as the tournament records it, home side first."""
    fixture = None if state is None else state.fixture_of_match(str(match.id))
    if fixture is None:
        return Result(winner=None)
    assert state is not None  # a fixture was found in it
    return plan.result_at_table(
        state,
        fixture.entrants,
        winner=match.winner,
        forfeited_by=match.forfeited_by,
        rounds=match.round_wins,
        points=match.total_points,
    )


def fixture_schedule(
    *, tournament_id: UUID, actor: Actor, now: datetime | None = None
) -> list[Fixture]:
    """Give every waiting fixture a free table and a start time (its no-show deadline comes
    with its call); returns the fixture rows scheduled."""
    now = now or timezone.now()

    def schedule(state: TournamentState | None) -> TournamentCommand:
        return ScheduleMatches(now=now, underway=matches_underway(state))

    outcome = run(tournament_id=tournament_id, command=schedule, actor=actor)
    return fixture_rows_of(tournament_id, outcome)


def matches_underway(state: TournamentState | None) -> frozenset[str]:
    """The tournament's matches that are being played, or finished and waiting for their
    result to be recorded: they need no table."""
    if state is None:
        return frozenset()
    ids = [UUID(f.match_id) for f in state.fixtures.values() if f.table is None]
    underway = Match.objects.filter(id__in=ids).exclude(status="not_started")
    return frozenset(str(match_id) for match_id in underway.values_list("id", flat=True))


def fixture_rows_of(tournament_id: UUID, outcome: TournamentCommandResult) -> list[Fixture]:
    """The fixture rows the outcome's events scheduled, in the order they were."""
    if outcome.duplicate:
        return []
    keys = [e.payload["fixture"] for e in outcome.events if e.event_type == MATCH_SCHEDULED]
    match_ids = {outcome.state.fixtures[key].match_id for key in keys}
    by_match = {
        str(row.match_id): row
        for row in Fixture.objects.filter(tournament_id=tournament_id, match_id__in=match_ids)
    }
    return [by_match[outcome.state.fixtures[key].match_id] for key in keys]


def fixture_forfeit_no_show(*, match_id: UUID, actor: Actor, now: datetime | None = None) -> bool:
    """Forfeit a scheduled match that has not started by its deadline, decided from the folded
    tournament (`stream.no_show_forfeiter`): only with the no-show rule on, and only the side
    that did not check in, when the other did. Both absent (or both present): nothing, the
    match is overdue. Returns whether it forfeited."""
    now = now or timezone.now()
    tournament_id = (
        Fixture.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    state, _ = load_tournament(tournament_id=tournament_id)
    fixture = state.fixture_of_match(str(match_id))
    if fixture is None or fixture.id in state.results:
        return False
    side = no_show_forfeiter(state, fixture)
    deadline = None if fixture.deadline is None else datetime.fromisoformat(fixture.deadline)
    if side is None or deadline is None or deadline > now:
        return False
    match = Match.objects.filter(id=match_id).first()
    if match is None or match.status != "not_started":
        return False
    # The version read above: a scorer who starts the match meanwhile wins, and no forfeit lands.
    match_services.match_forfeit(
        match_id=match_id,
        side=side,
        reason="no-show",
        actor=actor,
        expected_version=match.version,
    )
    return True


def fixture_table_assign(*, match_id: UUID, table: int, actor: Actor) -> list[Fixture]:
    """Put a fixture's match at `table`. When another match waiting or being played holds that
    table, the two swap tables; a fixture keeps (or gets) its start time, and its call and
    deadline stay as they were. Returns the fixture rows that moved."""
    tournament_id = tournament_of_match(match_id)
    outcome = run(
        tournament_id=tournament_id,
        command=AssignTable(str(match_id), table, timezone.now()),
        actor=actor,
    )
    return fixture_rows_of(tournament_id, outcome)


def fixture_call(
    *,
    match_id: UUID,
    actor: Actor,
    table: int | None = None,
    now: datetime | None = None,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Call a fixture's match to its table (moving it to `table` first, when given): with the
    no-show rule on, its deadline runs from now. Calling a called match again changes nothing."""
    tournament_id = tournament_of_match(match_id)
    return run(
        tournament_id=tournament_id,
        command=CallMatch(str(match_id), now or timezone.now(), table),
        actor=actor,
        idempotency_key=idempotency_key,
        name="fixture_call",
        arguments={"match": str(match_id), "table": table},
    )


def fixture_level_decide(
    *,
    match_id: UUID,
    winner: int,
    reason: str,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """The organizer names the winner (an entrant id) of a knockout match that ended level,
    with the reason (decision record 0029); the bracket goes on from it."""
    tournament_id = tournament_of_match(match_id)
    return run(
        tournament_id=tournament_id,
        command=DecideLevelMatch(tournament_id, str(match_id), winner, reason),
        actor=actor,
        idempotency_key=idempotency_key,
        name="fixture_level_decide",
        arguments={"match": str(match_id), "winner": winner, "reason": reason},
    )


def group_places_decide(
    *,
    tournament_id: UUID,
    group: str,
    order: Sequence[int],
    reason: str,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """The organizer orders the entrants tied at a group's qualification cut (entrant ids, best
    first), with the reason (decision record 0029, amended); the knockout is drawn from it."""
    return run(
        tournament_id=tournament_id,
        command=DecideGroupPlaces(tournament_id, group, tuple(order), reason),
        actor=actor,
        idempotency_key=idempotency_key,
        name="group_places_decide",
        arguments={"group": group, "order": list(order), "reason": reason},
    )


def tournament_of_match(match_id: UUID) -> UUID:
    tournament_id = (
        Fixture.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise InvalidTournament.because(
            gettext_noop("match %(match)s is not a match of a tournament"), match=match_id
        )
    return tournament_id


# Personal data (decision record 0018): names live in these tables only, so erasing a player
# changes rows here and never an event.

ERASED_PLAYER = "erased player"
TEAM_NAME_SEPARATOR = " / "


def player_display_name(player: Player) -> str:
    return ERASED_PLAYER if player.erased else player.name


def entrant_name_after_erasure(players: Sequence[Player]) -> str:
    """A single reads `erased player`; a pair or trio reads its players' names in seat order,
    `erased player` in place of each erased one. The name given at registration is not kept:
    a team's name is often made of its players' names, and nothing tells us it is not."""
    return TEAM_NAME_SEPARATOR.join(player_display_name(player) for player in players)


def player_erase(*, player: Player, actor: Actor) -> bool:
    """Erase a player's personal data: blank the name, mark the player erased, and rename each
    entrant the player belongs to. No event is appended or changed (events carry ids only), and
    every read (standings, brackets, the tournament and scorer APIs, the admin) then shows
    `erased player`. Idempotent: returns False when the player was erased already."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        newly = not locked.erased
        locked.name = ""
        locked.erased = True
        locked.user = None  # the link to an account would say who the player was
        locked.save(update_fields=["name", "erased", "user"])
        entrants = Entrant.objects.filter(players=locked).distinct()
        for entrant in entrants:
            members = [
                membership.player
                for membership in EntrantPlayer.objects.filter(entrant=entrant)
                .select_related("player")
                .order_by("position")
            ]
            entrant.name = entrant_name_after_erasure(members)
            entrant.save(update_fields=["name"])
    # Who erased whom, by ids: the log line itself must hold no personal data.
    logger.info("player %s erased by user %s (%s)", player.pk, actor.user_id, actor.device)
    player.name, player.erased = locked.name, locked.erased
    return newly


def player_link(*, player: Player, username: str) -> Player:
    """Link the player to the account they sign in with (decision 0016)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise InvalidEntrant.because(gettext_noop("there is no user %(user)r"), user=username)
    if player.erased:
        raise InvalidEntrant.because(gettext_noop("this player's personal data was erased"))
    player.user = user
    player.save(update_fields=["user"])
    return player


# Scorers' devices.


def scorer_device_token_issue(
    *,
    tournament_id: UUID,
    username: str,
    device: str,
    issued_by: Any,
    tables: Sequence[int] = (),
    expires_in: timedelta | None = None,
) -> tuple[DeviceToken, str]:
    """A device token for one of the tournament's scorers (or organizers), limited to the
    tournament and, when given, to some of its tables; the key is returned this once."""
    tournament = Tournament.objects.filter(id=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )
    scorer = get_user_model().objects.filter(username=username).first()
    if scorer is None:
        raise InvalidDeviceToken.because(gettext_noop("there is no user %(user)r"), user=username)
    held = roles_of(scorer, tournament_id=tournament_id, club_id=tournament.club_id)
    if not held & {Role.SCORER, Role.ORGANIZER}:
        raise InvalidDeviceToken.because(
            gettext_noop("%(user)s is not a scorer of this tournament: grant the role first"),
            user=username,
        )
    available = TournamentSettings.from_dict(tournament.settings).tables
    outside = sorted(number for number in tables if not 1 <= number <= available)
    if outside:
        raise InvalidDeviceToken.because(
            gettext_noop("the tournament's tables are numbered 1 to %(tables)s, not %(table)s"),
            tables=available,
            table=outside[0],
        )
    return device_token_create(
        user=scorer,
        device=device,
        created_by=issued_by,
        expires_in=expires_in,
        tournament_id=tournament_id,
        tables=tables,
    )


def scorer_device_token_revoke(*, tournament_id: UUID, token_id: int) -> DeviceToken:
    """Stop a device of the tournament from signing in, from now on (again: no change)."""
    token = DeviceToken.objects.filter(id=token_id, tournament_id=tournament_id).first()
    if token is None:
        raise DeviceTokenNotFound.because(
            gettext_noop("this tournament issued no device token %(token)s"), token=token_id
        )
    return device_token_revoke(token=token)
