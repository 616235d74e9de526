"""Tournament services: every write appends events to the tournament's stream (and creates the
match streams its fixtures need), then updates the inline rows in the same transaction.

Plain functions with keyword-only arguments, named `<entity>_<action>`. They raise
`TournamentError`s (codes for the API) and let the match services' errors through.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
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
from games import services as match_services
from games.eventstore.api import (
    AppendResult,
    NewEvent,
    RecordedEvent,
    append_to_stream,
    find_append_by_idempotency_key,
    read_stream,
)
from games.models import Match
from games.rules import RuleViolation, Table, Variant
from games.services import Actor
from tournaments import plan
from tournaments.models import Entrant, EntrantPlayer, Fixture, FixtureStatus, Player, Tournament
from tournaments.models import Table as TableRow
from tournaments.stream import (
    ENTRANT_CHECKED_IN,
    ENTRANT_REGISTERED,
    ENTRANT_WITHDREW,
    ENTRANTS_SEEDED,
    FIXTURE_CREATED,
    FIXTURE_RESET,
    FORMATS,
    MATCH_SCHEDULED,
    RESULT_RECORDED,
    SWISS_ROUND_PAIRED,
    TOURNAMENT_CREATED,
    TOURNAMENT_FINISHED,
    TOURNAMENT_STARTED,
    Result,
    TournamentEvent,
    TournamentSettings,
    TournamentState,
    fold,
    no_show_forfeiter,
)

logger = logging.getLogger(__name__)

TOURNAMENT_STREAM = "tournament"
TEAM_TABLE_SIZES = (2, 4, 6)
PLAYERS_PER_ENTRANT = {2: 1, 4: 2, 6: 3}


class TournamentError(RuleViolation):
    """A tournament command that cannot be carried out; `code` says why."""

    code = "tournament_error"


class TournamentNotFound(TournamentError):
    code = "tournament_not_found"


class EntrantNotFound(TournamentError):
    code = "entrant_not_found"


class InvalidTournament(TournamentError):
    code = "invalid_tournament"


class RegistrationClosed(TournamentError):
    code = "registration_closed"


class TournamentAlreadyStarted(TournamentError):
    code = "tournament_started"


class TournamentNotStarted(TournamentError):
    code = "tournament_not_started"


class TooFewEntrants(TournamentError):
    code = "too_few_entrants"


class SwissRoundNotDue(TournamentError):
    code = "swiss_round_not_due"


class InvalidEntrant(TournamentError):
    code = "invalid_entrant"


# Loading and appending.


def load_tournament_for_update(*, tournament_id: UUID) -> tuple[TournamentState, int]:
    """The tournament for a command, its row locked until the transaction ends. Every command
    takes this lock before it appends anything (to its own stream or, creating matches, to
    theirs), so that all writers take the tournament's row before the log's append lock and
    never wait for each other the other way round."""
    Tournament.objects.select_for_update().filter(id=tournament_id).values_list("id").first()
    return load_tournament(tournament_id=tournament_id)


def load_tournament(*, tournament_id: UUID) -> tuple[TournamentState, int]:
    events = read_stream(stream_id=tournament_id)
    if not events:
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )
    state = fold(TournamentEvent(e.event_type, e.payload) for e in events)
    return state, events[-1].stream_version


def append(
    *,
    tournament_id: UUID,
    state: TournamentState | None,
    version: int,
    events: Sequence[TournamentEvent],
    actor: Actor,
    command: TournamentCommand | None = None,
) -> tuple[TournamentState, int]:
    """Append the events after `version` and fold them; the inline rows follow the state.

    The first append of a `command` carries its idempotency key: when a racing retry of the
    same command recorded it first, CommandAlreadyRecorded rolls this one back."""
    if not events:
        assert state is not None
        return state, version
    first = command if command is not None and command.first_append is None else None
    key = None if first is None else first.idempotency_key
    appended = append_to_stream(
        stream_id=tournament_id,
        stream_type=TOURNAMENT_STREAM,
        events=[NewEvent(event.type, event.payload) for event in events],
        expected_version=version,
        metadata=actor.metadata(),
        idempotency_key=key,
        command_fingerprint=None if first is None or key is None else first.fingerprint,
    )
    if first is not None:
        if appended.duplicate:
            raise CommandAlreadyRecorded(appended)
        first.first_append = appended
    new_state = fold(events, state)
    last = appended.events[-1]
    Tournament.objects.filter(id=tournament_id).update(
        status=new_state.status, version=last.stream_version, updated_at=last.recorded_at
    )
    from tournaments.tasks import consume_log_on_commit  # the tasks import this module

    consume_log_on_commit()
    return new_state, last.stream_version


def event(event_type: str, **payload: Any) -> TournamentEvent:
    return TournamentEvent(event_type, payload)


# Idempotency keys (decision record 0020): a command sent again with the key it was first sent
# with records nothing and is answered from what the first one left.


@dataclass(kw_only=True)
class TournamentCommand:
    """One write to a tournament stream: its idempotency key (None: the client sent none), what
    makes it the same command as another, and the events its first append recorded."""

    tournament_id: UUID
    idempotency_key: str | None
    fingerprint: str
    causation_id: str = field(default_factory=lambda: f"command:{uuid.uuid4()}")
    first_append: AppendResult | None = None


@dataclass(frozen=True, kw_only=True)
class TournamentCommandResult:
    """What a tournament write left: the state and version after its last event, the events of
    its first append (none when there was nothing to record), and whether it was a repeated
    idempotency key, answered from the first command without recording anything."""

    tournament_id: UUID
    state: TournamentState
    version: int
    events: tuple[RecordedEvent, ...] = ()
    duplicate: bool = False

    @property
    def recorded(self) -> bool:
        return bool(self.events) and not self.duplicate


class CommandAlreadyRecorded(Exception):
    """A racing retry recorded the command first: raised inside the command's transaction, so
    that the rows this attempt wrote are rolled back, and answered from the first append."""

    def __init__(self, first: AppendResult) -> None:
        super().__init__("the command was recorded by an earlier request with the same key")
        self.first = first


def command_fingerprint(tournament_id: UUID, command: str, arguments: dict[str, Any]) -> str:
    """What makes two tournament commands the same: the tournament, the command and its
    arguments (not who sends it, nor from which device)."""
    document = json.dumps(
        [str(tournament_id), command, arguments], sort_keys=True, separators=(",", ":"), default=str
    )
    return hashlib.sha256(document.encode()).hexdigest()


def run_once(
    *,
    tournament_id: UUID,
    idempotency_key: str | None,
    name: str,
    arguments: dict[str, Any],
    actor: Actor,
    carry_out: Callable[[TournamentCommand, Actor], tuple[TournamentState, int]],
) -> TournamentCommandResult:
    """Carry out a tournament command in one transaction, at most once per idempotency key.

    The key is looked up before deciding (a command that succeeded is usually no longer legal:
    a second start would be refused), and the first append of `carry_out` records it with the
    fingerprint, so that of two racing retries only one appends. A repeated key with the same
    command is answered from the first command's events; with another command it raises
    IdempotencyKeyReused. Every event of a keyed command carries its causation id, so that a
    replay knows where the first command's events ended."""
    command = TournamentCommand(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        fingerprint=command_fingerprint(tournament_id, name, arguments),
    )
    if idempotency_key is not None:
        actor = replace(actor, causation_id=command.causation_id)
    try:
        with transaction.atomic():
            if idempotency_key is not None:
                first = find_append_by_idempotency_key(
                    stream_id=tournament_id,
                    idempotency_key=idempotency_key,
                    command_fingerprint=command.fingerprint,
                )
                if first is not None:
                    return replayed_result(tournament_id, first)
            state, version = carry_out(command, actor)
    except CommandAlreadyRecorded as already:
        return replayed_result(tournament_id, already.first)
    first_events = () if command.first_append is None else command.first_append.events
    return TournamentCommandResult(
        tournament_id=tournament_id, state=state, version=version, events=first_events
    )


def replayed_result(tournament_id: UUID, first: AppendResult) -> TournamentCommandResult:
    """The result the first command with this key left: the tournament folded up to that
    command's last event (its later appends carry the same causation id)."""
    causation_id = first.events[0].metadata.causation_id
    last_version = first.last_version
    for later in read_stream(stream_id=tournament_id, from_version=last_version + 1):
        if causation_id is None or later.metadata.causation_id != causation_id:
            break
        last_version = later.stream_version
    events = read_stream(stream_id=tournament_id, to_version=last_version)
    state = fold(TournamentEvent(e.event_type, e.payload) for e in events)
    return TournamentCommandResult(
        tournament_id=tournament_id,
        state=state,
        version=last_version,
        events=first.events,
        duplicate=True,
    )


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
    club: Club | None = None,
    public: bool = True,
) -> Tournament:
    """A tournament in registration, run by `club` (whose organizers organize it; may a caller
    create one there is for the permissions to say, tournaments/access.py)."""
    if format not in FORMATS:
        raise InvalidTournament.because(
            gettext_noop("format must be one of %(formats)s, not %(format)r"),
            formats=", ".join(FORMATS),
            format=format,
        )
    if table_size not in TEAM_TABLE_SIZES:
        raise InvalidTournament.because(
            gettext_noop("tournaments are played at tables of 2, 4 or 6")
        )
    if tables < 1:
        raise InvalidTournament.because(gettext_noop("a tournament needs at least one table"))
    if no_show_minutes is not None and no_show_minutes < 0:
        raise InvalidTournament.because(
            gettext_noop("the no-show minutes cannot be negative (leave them out for no rule)")
        )
    match_services.match_format_of(scoring=scoring, best_of=best_of, rounds=rounds)
    Table(table_size, Variant.from_dict(variant or {}))
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
    )
    plan.standings_config_for(settings)
    tournament_id = uuid.uuid4()
    now = timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.create(
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
        TableRow.objects.bulk_create(
            TableRow(tournament=tournament, number=number) for number in range(1, tables + 1)
        )
        append(
            tournament_id=tournament_id,
            state=None,
            version=0,
            events=[
                event(
                    TOURNAMENT_CREATED,
                    name=name,
                    settings=settings.to_dict(),
                    club=None if club is None else club.pk,
                    public=public,
                )
            ],
            actor=actor,
        )
    tournament.refresh_from_db()
    return tournament


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
    """Register before the start; a late entry is accepted until the first match is created.
    A seed another entrant holds is refused, and so is a name another entrant has unless
    `confirm_duplicate_name` (tournaments/corrections.py). The entrant's id is in the result's
    first event (`entrant_registered`)."""

    def register(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        if state.started:
            raise RegistrationClosed.because(
                gettext_noop("the tournament has started: registration is closed")
            )
        needed = PLAYERS_PER_ENTRANT[state.settings.table_size]
        if len(players) != needed:
            raise InvalidEntrant.because(
                gettext_noop(
                    "an entrant at tables of %(size)s has %(needed)s player(s), not %(given)s"
                ),
                size=state.settings.table_size,
                needed=needed,
                given=len(players),
            )
        if seed is not None and seed < 1:
            raise InvalidEntrant.because(gettext_noop("seeds start at 1"))
        from tournaments.corrections import check_new_entrant  # corrections build on this module

        check_new_entrant(
            state,
            command,
            tournament_id=tournament_id,
            name=name,
            seed=seed,
            confirm_duplicate_name=confirm_duplicate_name,
        )
        entrant = Entrant.objects.create(
            tournament_id=tournament_id, name=name, seed=seed, registered_at=timezone.now()
        )
        for position, player_name in enumerate(players):
            player = Player.objects.create(name=player_name)
            EntrantPlayer.objects.create(entrant=entrant, player=player, position=position)
        return append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=[event(ENTRANT_REGISTERED, entrant=entrant.id, seed=seed)],
            actor=actor,
            command=command,
        )

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="entrant_register",
        arguments={"name": name, "players": list(players), "seed": seed},
        actor=actor,
        carry_out=register,
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
    """Record that the entrant is at the venue; nothing is recorded when it already was."""

    def check_in(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        record = known_entrant(state, entrant_id)
        if record.checked_in:
            return state, version
        state, version = append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=[event(ENTRANT_CHECKED_IN, entrant=entrant_id)],
            actor=actor,
            command=command,
        )
        Entrant.objects.filter(id=entrant_id).update(checked_in=True)
        return state, version

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="entrant_check_in",
        arguments={"entrant": entrant_id},
        actor=actor,
        carry_out=check_in,
    )


def known_entrant(state: TournamentState, entrant_id: int) -> Any:
    record = state.entrants.get(entrant_id)
    if record is None:
        raise EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s is not registered in this tournament"),
            entrant=entrant_id,
        )
    return record


def entrant_withdraw(
    *,
    tournament_id: UUID,
    entrant_id: int,
    reason: str,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Withdraw an entrant; the matches it still has to play are forfeited (as events).
    Nothing is recorded when it had withdrawn already."""

    def withdraw(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        if known_entrant(state, entrant_id).withdrawn:
            return state, version
        state, version = append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=[event(ENTRANT_WITHDREW, entrant=entrant_id, reason=reason)],
            actor=actor,
            command=command,
        )
        Entrant.objects.filter(id=entrant_id).update(withdrawn=True)
        forfeit_open_fixtures(state, entrant_id, reason=reason or "withdrawn", actor=actor)
        return state, version

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="entrant_withdraw",
        arguments={"entrant": entrant_id, "reason": reason},
        actor=actor,
        carry_out=withdraw,
    )


def forfeit_open_fixtures(
    state: TournamentState, entrant_id: int, *, reason: str, actor: Actor
) -> None:
    for fixture in state.fixtures.values():
        if entrant_id not in fixture.entrants or fixture.id in state.results:
            continue
        match = Match.objects.filter(id=fixture.match_id).first()
        if match is None or match.status == "finished":
            continue
        side = 0 if fixture.home == entrant_id else 1
        match_services.match_forfeit(
            match_id=UUID(fixture.match_id), side=side, reason=reason, actor=actor
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

    def seed(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        if state.started:
            raise TournamentAlreadyStarted.because(
                gettext_noop("seeding is fixed once the tournament starts")
            )
        order = seeding_order(state, method=method, random_seed=random_seed)
        if method == "random" and random_seed is None:
            raise InvalidTournament.because(gettext_noop("a random seeding needs its random seed"))
        state, version = append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=[
                event(ENTRANTS_SEEDED, order=list(order), method=method, random_seed=random_seed)
            ],
            actor=actor,
            command=command,
        )
        for position, entrant_id in enumerate(order, start=1):
            Entrant.objects.filter(id=entrant_id).update(seed=position)
        return state, version

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="tournament_seed",
        arguments={"method": method, "random_seed": random_seed},
        actor=actor,
        carry_out=seed,
    )


def seeding_order(
    state: TournamentState, *, method: str, random_seed: int | None
) -> tuple[int, ...]:
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


# Running the tournament.


def tournament_start(
    *, tournament_id: UUID, actor: Actor, idempotency_key: str | None = None
) -> TournamentCommandResult:
    """Close registration, fix the seeding and create the first matches."""

    def start(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        if state.started:
            raise TournamentAlreadyStarted.because(
                gettext_noop("the tournament has already started")
            )
        order = state.seeding or seeding_order(state, method="given", random_seed=None)
        order = tuple(entrant for entrant in order if not state.entrants[entrant].withdrawn)
        if len(order) < 2:
            raise TooFewEntrants.because(
                gettext_noop("a tournament needs at least two entrants to start")
            )
        state, version = append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=[event(TOURNAMENT_STARTED, order=list(order))],
            actor=actor,
            command=command,
        )
        return advance(tournament_id=tournament_id, state=state, version=version, actor=actor)

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="tournament_start",
        arguments={},
        actor=actor,
        carry_out=start,
    )


def tournament_advance(*, tournament_id: UUID, actor: Actor) -> TournamentState:
    with transaction.atomic():
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        return advance(tournament_id=tournament_id, state=state, version=version, actor=actor)[0]


def swiss_round_publish(
    *, tournament_id: UUID, actor: Actor, idempotency_key: str | None = None
) -> TournamentCommandResult:
    """Pair and publish the next Swiss round (the organizer's button when rounds are manual);
    the round is the last of the result state's `swiss_rounds`."""

    def publish(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
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
        state, version = publish_swiss_round(
            tournament_id, state, version, number, actor, command=command
        )
        return advance(tournament_id=tournament_id, state=state, version=version, actor=actor)

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="swiss_round_publish",
        arguments={},
        actor=actor,
        carry_out=publish,
    )


def publish_swiss_round(
    tournament_id: UUID,
    state: TournamentState,
    version: int,
    number: int,
    actor: Actor,
    *,
    command: TournamentCommand | None = None,
) -> tuple[TournamentState, int]:
    paired = plan.next_swiss_round(state, number)
    return append(
        tournament_id=tournament_id,
        state=state,
        version=version,
        events=[
            event(
                SWISS_ROUND_PAIRED,
                round=number,
                pairings=[[p.id, p.home, p.away] for p in paired.pairings],
                bye=paired.bye,
            )
        ],
        actor=actor,
        command=command,
    )


def advance(
    *, tournament_id: UUID, state: TournamentState, version: int, actor: Actor
) -> tuple[TournamentState, int]:
    """Create the matches of every fixture that became known, pair the next automatic Swiss
    round, and finish the tournament when its format is done. Returns the state and version
    after its appends."""
    if not state.started or state.finished:
        return state, version
    from tournaments.tasks import schedule_ready_matches_on_commit  # they import this module

    schedule_ready_matches_on_commit(tournament_id=tournament_id)
    number = plan.swiss_round_due(state)
    if number is not None and (number == 1 or state.settings.automatic_rounds):
        state, version = publish_swiss_round(tournament_id, state, version, number, actor)
    created = [
        create_fixture(tournament_id, state, spec, actor) for spec in plan.fixtures_to_create(state)
    ]
    state, version = append(
        tournament_id=tournament_id, state=state, version=version, events=created, actor=actor
    )
    for fixture_event in created:
        withdrawn = [
            e
            for e in (fixture_event.payload["home"], fixture_event.payload["away"])
            if state.entrants[e].withdrawn
        ]
        for entrant_id in withdrawn:
            forfeit_open_fixtures(state, entrant_id, reason="withdrawn", actor=actor)
    if plan.is_complete(state):
        state, version = append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=[event(TOURNAMENT_FINISHED)],
            actor=actor,
        )
    return state, version


def fixture_match_id(tournament_id: UUID, fixture_id: str, generation: int) -> UUID:
    """Stable per fixture and reset generation, so a retried advance creates nothing twice."""
    return uuid.uuid5(tournament_id, f"{fixture_id}#{generation}")


def create_fixture(
    tournament_id: UUID, state: TournamentState, spec: plan.FixtureSpec, actor: Actor
) -> TournamentEvent:
    match_id = fixture_match_id(tournament_id, spec.id, state.resets)
    rules = state.settings.match_rules
    match_services.match_create(
        match_id=match_id,
        table_size=rules["table_size"],
        best_of=rules["best_of"],
        scoring=rules["scoring"],
        rounds=rules["rounds"],
        variant=rules["variant"],
        side_refs=[{"entrant": spec.home}, {"entrant": spec.away}],
        actor=actor,
    )
    Fixture.objects.create(
        tournament_id=tournament_id,
        key=spec.id,
        match_id=match_id,
        stage=spec.stage,
        round=spec.round,
        home_id=spec.home,
        away_id=spec.away,
        status=FixtureStatus.READY,
    )
    return event(
        FIXTURE_CREATED,
        fixture=spec.id,
        match_id=str(match_id),
        home=spec.home,
        away=spec.away,
        stage=spec.stage,
        round=spec.round,
    )


def fixture_result_sync(*, match_id: UUID, actor: Actor) -> bool:
    """Bring the tournament up to date with one of its matches: record a new or changed
    result, reset what a changed result invalidates, and advance. Idempotent; returns whether
    anything was appended."""
    fixture_row = Fixture.objects.filter(match_id=match_id).exclude(status="reset").first()
    if fixture_row is None:
        return False
    tournament_id = fixture_row.tournament_id
    with transaction.atomic():
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        fixture = state.fixture_of_match(str(match_id))
        match = Match.objects.get(id=match_id)
        if fixture is None:
            return False
        if match.status != "finished":
            Fixture.objects.filter(match_id=match_id).update(
                status=FixtureStatus.IN_PROGRESS if match.status == "in_progress" else "ready"
            )
            return False
        sides = (fixture.home, fixture.away)
        new = Result(
            winner=None if match.winner is None else sides[match.winner],
            rounds=(match.round_wins[0], match.round_wins[1]),
            points=(match.total_points[0], match.total_points[1]),
            forfeit=match.forfeited_by is not None,
        )
        if state.results.get(fixture.id) == new:
            return False
        resets = plan.resets_after(state, fixture.id, new)
        events = [
            event(RESULT_RECORDED, fixture=fixture.id, **new.to_dict()),
            *(
                event(FIXTURE_RESET, fixture=reset, reason=f"the result of {fixture.id} changed")
                for reset in resets
            ),
        ]
        state, version = append(
            tournament_id=tournament_id, state=state, version=version, events=events, actor=actor
        )
        Fixture.objects.filter(match_id=match_id).update(
            status=FixtureStatus.FINISHED, winner_id=new.winner
        )
        Fixture.objects.filter(tournament_id=tournament_id, key__in=resets).exclude(
            status=FixtureStatus.RESET
        ).update(status=FixtureStatus.RESET)
        advance(tournament_id=tournament_id, state=state, version=version, actor=actor)
    return True


def fixture_schedule(
    *, tournament_id: UUID, actor: Actor, now: datetime | None = None
) -> list[Fixture]:
    """Give every unscheduled ready fixture a free table, a start time and a no-show deadline."""
    now = now or timezone.now()
    with transaction.atomic():
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        busy = {
            f.table
            for f in Fixture.objects.filter(
                tournament_id=tournament_id,
                table__isnull=False,
                status__in=[FixtureStatus.READY, FixtureStatus.IN_PROGRESS],
            )
        }
        free = [t for t in range(1, state.settings.tables + 1) if t not in busy]
        waiting = list(
            Fixture.objects.filter(
                tournament_id=tournament_id, table__isnull=True, status=FixtureStatus.READY
            ).order_by("round", "id")
        )
        scheduled: list[Fixture] = []
        events = []
        for fixture, table in zip(waiting, free, strict=False):
            deadline = no_show_deadline(state, now)
            events.append(
                event(
                    MATCH_SCHEDULED,
                    fixture=fixture.key,
                    table=table,
                    scheduled_at=now.isoformat(),
                    deadline=None if deadline is None else deadline.isoformat(),
                )
            )
            fixture.table, fixture.scheduled_at, fixture.deadline = table, now, deadline
            fixture.save(update_fields=["table", "scheduled_at", "deadline"])
            scheduled.append(fixture)
        append(
            tournament_id=tournament_id, state=state, version=version, events=events, actor=actor
        )
    return scheduled


def no_show_deadline(state: TournamentState, scheduled_at: datetime) -> datetime | None:
    """When a match scheduled at `scheduled_at` is due to have started: None with the
    tournament's no-show rule off."""
    minutes = state.settings.no_show_minutes
    return None if minutes is None else scheduled_at + timedelta(minutes=minutes)


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
    table, the two swap tables; a fixture without a table keeps (or gets) its start time and
    no-show deadline. Returns the fixtures that moved."""
    now = timezone.now()
    with transaction.atomic():
        fixture = Fixture.objects.filter(match_id=match_id).first()
        if fixture is None:
            raise InvalidTournament.because(
                gettext_noop("match %(match)s is not a match of a tournament"), match=match_id
            )
        state, version = load_tournament_for_update(tournament_id=fixture.tournament_id)
        if not 1 <= table <= state.settings.tables:
            raise InvalidTournament.because(
                gettext_noop("the tables are numbered 1 to %(tables)s"),
                tables=state.settings.tables,
            )
        live = [FixtureStatus.READY, FixtureStatus.IN_PROGRESS]
        if fixture.status not in live:
            raise InvalidTournament.because(
                gettext_noop("%(fixture)s is %(status)s: it needs no table"),
                fixture=fixture.key,
                status=fixture.status,
            )
        if fixture.table == table:
            return []
        others = Fixture.objects.filter(tournament_id=fixture.tournament_id, status__in=live)
        holder = others.filter(table=table).exclude(id=fixture.id).first()
        if holder is not None and fixture.table is None:
            raise InvalidTournament.because(
                gettext_noop(
                    "table %(table)s is in use by %(holder)s: give %(fixture)s a table first, "
                    "or pick a free one"
                ),
                table=table,
                holder=holder.key,
                fixture=fixture.key,
            )
        moves = [(fixture, table)] + ([] if holder is None else [(holder, fixture.table)])
        events = []
        for moved, new_table in moves:
            moved.table = new_table
            moved.scheduled_at = moved.scheduled_at or now
            moved.deadline = moved.deadline or no_show_deadline(state, moved.scheduled_at)
            moved.save(update_fields=["table", "scheduled_at", "deadline"])
            events.append(
                event(
                    MATCH_SCHEDULED,
                    fixture=moved.key,
                    table=new_table,
                    scheduled_at=moved.scheduled_at.isoformat(),
                    deadline=None if moved.deadline is None else moved.deadline.isoformat(),
                )
            )
        append(
            tournament_id=fixture.tournament_id,
            state=state,
            version=version,
            events=events,
            actor=actor,
        )
    return [moved for moved, _ in moves]


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
