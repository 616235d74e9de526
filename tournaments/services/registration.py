"""Creating a tournament and registering, checking in, withdrawing and seeding its entrants;
`entrants_register` registers a list of entrants (pasted, a file, a bulk request) in one
command: all its lines or none."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import Club
from common.actors import Actor
from games.matches import services as match_services
from games.rules.tables import Table
from games.rules.variants import Variant
from tournaments.errors import EntrantsRefused, TournamentError
from tournaments.models import Application, Entrant, EntrantPlayer, Player, Tournament
from tournaments.ratings.seeding import rating_order
from tournaments.services import names
from tournaments.services.pipeline import (
    TournamentCommandResult,
    load_tournament,
    run,
)
from tournaments.state import Registration, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CheckInEntrant,
    CloseCheckIn,
    CreateTournament,
    OpenCheckIn,
    PreparedEntrant,
    RegisterEntrant,
    RegisterEntrants,
    SeedEntrants,
    TournamentCommand,
    WithdrawEntrant,
)
from tournaments.stream.decide import decide as decide_command
from tournaments.stream.entrant_checks import NEW_ENTRANT, check_group_label, players_or_name
from tournaments.stream.entrants import check_registration_is_open
from tournaments.stream.events import EntrantRegistered, tournament_event
from tournaments.stream.evolve import evolve
from tournaments.stream.signup import first_promoted_by_withdrawal


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
    tables: int | None = 1,
    third_place: bool = False,
    grand_final_reset: bool = True,
    match_minutes: int = 30,
    no_show_minutes: int | None = None,
    automatic_rounds: bool = True,
    tiebreaks: Sequence[str] | None = None,
    level_knockout: str = "deciding_round",
    placing_scoring: dict[str, Any] | None = None,
    seeding: str | None = None,
    club: Club | None = None,
    public: bool = True,
    registration: Registration | None = None,
    accelerated: bool = False,
    avoid_same_group: str | None = None,
    avoid_same_group_strength: str = "strict",
    late_entry_until_round: int | None = None,
    late_entry_points: str = "zero",
    max_requested_byes: int = 1,
    requested_bye_points: int | None = None,
    silent_final_rounds: int = 0,
) -> Tournament:
    """A tournament in registration, run by `club` (whose organizers organize it; may a caller
    create one there is for the permissions to say, tournaments/selectors/access.py)."""
    names.check_name_readable(name)
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
        seeding=seeding,
        registration=registration or Registration(),
        accelerated=accelerated,
        avoid_same_group=avoid_same_group,
        avoid_same_group_strength=avoid_same_group_strength,
        late_entry_until_round=late_entry_until_round,
        late_entry_points=late_entry_points,
        max_requested_byes=max_requested_byes,
        requested_bye_points=requested_bye_points,
        silent_final_rounds=silent_final_rounds,
    )
    command = CreateTournament(
        name=name, settings=settings, club=None if club is None else club.pk, public=public
    )
    decide_command(None, command)  # refused before the match rules are checked, as it always was
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
    actor: Actor,
    players: Sequence[str] | None = None,
    seed: int | None = None,
    confirm_duplicate_name: bool = False,
    idempotency_key: str | None = None,
    group: str | None = None,
    fixed_table: int | None = None,
) -> TournamentCommandResult:
    """Register before the start, in `group` when given (decision record 0057), at a fixed
    table when given (0059). A single's player is named as the entrant when `players` is None; a
    pair or a trio names its players. A seed another entrant holds is refused, and so is a name
    another entrant has unless `confirm_duplicate_name`. The entrant's id is in the result's
    first event (`registered_entrant_id`); its name and players go to the name tables only."""
    given = None if players is None else list(players)
    for given_name in (name, *(given or ())):
        names.check_name_given(given_name)
    group = check_group_label(group)

    def register(state: TournamentState | None, _asked: RegisterEntrant) -> TournamentCommand:
        # Refused before any row is written when the tournament cannot take the entrant.
        if state is None:
            raise RuntimeError("registration needs the tournament's state")
        seated = players_or_name(state, name=name, players=given)
        with names.seed_holders_named(new_name=name):
            decide_command(
                state,
                RegisterEntrant(entrant=0, players=len(seated), seed=seed, fixed_table=fixed_table),
            )
        names.check_name_is_free(
            tournament_id=tournament_id, name=name, confirmed=confirm_duplicate_name
        )
        return entrant_rows(
            tournament_id=tournament_id,
            name=name,
            players=seated,
            seed=seed,
            group=group,
            fixed_table=fixed_table,
        )

    return run(
        tournament_id=tournament_id,
        command=RegisterEntrant(
            NEW_ENTRANT, len(given or ()), seed, fixed_table=fixed_table, group=group
        ),
        names=[name, given],
        prepare=register,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def entrant_rows(
    *,
    tournament_id: UUID,
    name: str,
    players: Sequence[str],
    seed: int | None,
    fixed_table: int | None = None,
    group: str | None = None,
) -> RegisterEntrant:
    """The name rows of a new entrant and its players; the command that registers it."""
    entrant = Entrant.objects.create(
        tournament_id=tournament_id, name=name, seed=seed, registered_at=timezone.now()
    )
    player_ids = []
    for position, player_name in enumerate(players):
        player = Player.objects.create(name=player_name)
        EntrantPlayer.objects.create(entrant=entrant, player=player, position=position)
        player_ids.append(player.id)
    names.names_changed(tournament_ids=[tournament_id])
    return RegisterEntrant(
        entrant=entrant.id,
        players=len(players),
        seed=seed,
        player_ids=tuple(player_ids),
        fixed_table=fixed_table,
        group=group,
    )


def prepared_entrant(application: Application) -> PreparedEntrant:
    """The entrant rows of a player's application that enters now, linked to it (decision
    record 0053)."""
    given = list(application.players) or [application.name]
    command = entrant_rows(
        tournament_id=application.tournament_id, name=application.name, players=given, seed=None
    )
    application.entrant_id = command.entrant
    application.save(update_fields=["entrant"])
    return PreparedEntrant(command.entrant, command.player_ids)


def registered_entrant_id(result: TournamentCommandResult) -> int:
    """The entrant that `entrant_register` registered (the first one, for a repeated key)."""
    return registered_entrant_ids(result)[0]


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
    Nothing is recorded when it had withdrawn already. Before the start, the first application
    on the waiting list enters the place it frees (decision record 0053)."""

    return run(
        tournament_id=tournament_id,
        command=WithdrawEntrant(entrant_id, reason),
        prepare=with_promotion(tournament_id),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def with_promotion(
    tournament_id: UUID,
) -> Callable[[TournamentState | None, WithdrawEntrant], WithdrawEntrant]:
    """The withdrawal completed on the tournament as it stands: before the start, with the
    entrant rows of the first on the waiting list, who enters in the place it frees."""

    def withdraw(state: TournamentState | None, asked: WithdrawEntrant) -> WithdrawEntrant:
        first = None if state is None else first_promoted_by_withdrawal(state, asked.entrant)
        if first is None:
            return asked
        application = Application.objects.get(tournament_id=tournament_id, id=first)
        return replace(asked, promoted=prepared_entrant(application))

    return withdraw


def tournament_seed(
    *,
    tournament_id: UUID,
    actor: Actor,
    method: str = "given",
    random_seed: int | None = None,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Fix the seeding order: by the seeds given at registration (then registration order), or
    shuffled from a recorded random seed, or by the players' ratings (`rating`, recorded as an
    order). The order is the result state's `seeding`."""

    def by_rating(state: TournamentState | None, asked: SeedEntrants) -> SeedEntrants:
        if asked.method != "rating" or state is None:
            return asked
        return replace(asked, order=rating_order(tournament_id=tournament_id, state=state))

    return run(
        tournament_id=tournament_id,
        command=SeedEntrants(method, random_seed),
        prepare=by_rating,
        actor=actor,
        idempotency_key=idempotency_key,
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
    )


@dataclass(frozen=True)
class ImportedEntrant:
    """One entrant of a list registered at once (a pasted line, a file's line, an item of a
    bulk request), with the number of its line; `players` None: a single named as the entrant."""

    line: int
    name: str
    players: list[str] | None
    seed: int | None
    group: str | None = None
    """Its group label (decision record 0057); None: none."""
    fixed_table: int | None = None


def entrants_register(
    *,
    tournament_id: UUID,
    lines: Sequence[ImportedEntrant],
    actor: Actor,
    confirm_duplicate_names: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Register every line in one command (`RegisterEntrants`: an `EntrantRegistered` each), or
    none: a line the tournament cannot take (with the lines before it registered) refuses them
    all with `EntrantsRefused`, which names each such line and why. The entrants' ids are the
    result's (`registered_entrant_ids`)."""

    def register(state: TournamentState | None, _asked: RegisterEntrants) -> TournamentCommand:
        if state is None:
            raise RuntimeError("registration needs the tournament's state")
        check_registration_is_open(state)
        seated, refusals = checked_lines(
            state, tournament_id=tournament_id, lines=lines, confirmed=confirm_duplicate_names
        )
        if refusals:
            raise entrants_refused(refusals, total=len(lines))
        return RegisterEntrants(
            tuple(
                entrant_rows(
                    tournament_id=tournament_id,
                    name=line.name,
                    players=players,
                    seed=line.seed,
                    fixed_table=line.fixed_table,
                    group=check_group_label(line.group),
                )
                for line, players in zip(lines, seated, strict=True)
            )
        )

    asked = RegisterEntrants(
        tuple(
            RegisterEntrant(
                NEW_ENTRANT,
                len(line.players or ()),
                line.seed,
                fixed_table=line.fixed_table,
                group=line.group,
            )
            for line in lines
        )
    )
    return run(
        tournament_id=tournament_id,
        command=asked,
        names=[[line.name, line.players] for line in lines],
        prepare=register,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def entrants_check(
    *,
    tournament_id: UUID,
    lines: Sequence[ImportedEntrant],
    confirm_duplicate_names: bool = False,
) -> list[tuple[int, TournamentError]]:
    """What `entrants_register` would refuse now, each with its line's number (the preview of a
    pasted list); nothing is written. A tournament that has started refuses the whole list."""
    state, _ = load_tournament(tournament_id=tournament_id)
    check_registration_is_open(state)
    _, refusals = checked_lines(
        state, tournament_id=tournament_id, lines=lines, confirmed=confirm_duplicate_names
    )
    return refusals


def registered_entrant_ids(result: TournamentCommandResult) -> list[int]:
    """The entrants that `entrants_register` registered, in the order of its lines."""
    events = map(tournament_event, result.events)
    return [event.entrant for event in events if isinstance(event, EntrantRegistered)]


def checked_lines(
    state: TournamentState,
    *,
    tournament_id: UUID,
    lines: Sequence[ImportedEntrant],
    confirmed: bool,
) -> tuple[list[list[str]], list[tuple[int, TournamentError]]]:
    """The players of each line the tournament can take, with the lines before it registered,
    and the refusal of each other line (its number, and why)."""
    seated: list[list[str]] = []
    refusals: list[tuple[int, TournamentError]] = []
    pending: dict[int, str] = {}
    first_line_named: dict[str, int] = {}
    for index, line in enumerate(lines):
        stand_in = NEW_ENTRANT - 1 - index  # stands for the line's entrant among the others
        try:
            players = players_or_name(state, name=line.name, players=line.players)
            for given_name in (line.name, *players):
                names.check_name_given(given_name)
            check_group_label(line.group)
            with names.seed_holders_named(new_name=line.name, pending=pending):
                events = decide_command(
                    state,
                    RegisterEntrant(
                        entrant=stand_in,
                        players=len(players),
                        seed=line.seed,
                        fixed_table=line.fixed_table,
                    ),
                )
            names.check_name_is_free(
                tournament_id=tournament_id, name=line.name, confirmed=confirmed
            )
            first = first_line_named.setdefault(names.same_name(line.name), line.line)
            if first != line.line and not confirmed:
                raise names.duplicate_in_list(name=line.name, line=first)
        except TournamentError as refused:
            refusals.append((line.line, refused))
            continue
        for event in events:
            state = evolve(state, event)
        pending[stand_in] = line.name
        seated.append(players)
    return seated, refusals


def entrants_refused(refusals: list[tuple[int, TournamentError]], *, total: int) -> EntrantsRefused:
    """One error for a list, its refused lines (each with its `line`) in the body."""
    refused = EntrantsRefused.because(
        gettext_noop("%(refused)s of the %(total)s entrants were refused: none was registered"),
        refused=len(refusals),
        total=total,
    )
    refused.refusals = tuple(refusals)
    return refused.at(lines=[error.at(line=line) for line, error in refusals])
