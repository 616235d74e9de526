"""Creating a tournament and registering, checking in, withdrawing and seeding its entrants;
`entrants_import` registers a whole file of entrants in one transaction: all lines or none."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from accounts.models import Club
from common.actors import Actor
from games.eventstore.api import EventStoreError
from games.matches import services as match_services
from games.rules import RuleViolation, Table, Variant
from tournaments import names
from tournaments.models import Entrant, EntrantPlayer, Player, Tournament
from tournaments.ratings.seeding import rating_order
from tournaments.services.pipeline import (
    TournamentCommandResult,
    run,
)
from tournaments.state import TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CheckInEntrant,
    CloseCheckIn,
    CreateTournament,
    OpenCheckIn,
    RegisterEntrant,
    SeedEntrants,
    TournamentCommand,
    WithdrawEntrant,
)
from tournaments.stream.decide import decide as decide_command
from tournaments.stream.entrant_checks import players_or_name


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
    seeding: str | None = None,
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
        seeding=seeding,
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
) -> TournamentCommandResult:
    """Register before the start. A single's player is named as the entrant when `players` is
    None; a pair or a trio names its players. A seed another entrant holds is refused, and so is
    a name another entrant has unless `confirm_duplicate_name`. The entrant's id is in the
    result's first event (`registered_entrant_id`); its name and players go to the name tables
    only."""
    given = None if players is None else list(players)

    def register(state: TournamentState | None) -> TournamentCommand:
        # Refused before any row is written when the tournament cannot take the entrant.
        if state is None:
            raise RuntimeError("registration needs the tournament's state")
        players = players_or_name(state, name=name, players=given)
        with names.seed_holders_named(new_name=name):
            decide_command(state, RegisterEntrant(entrant=0, players=len(players), seed=seed))
        names.check_name_is_free(
            tournament_id=tournament_id, name=name, confirmed=confirm_duplicate_name
        )
        entrant = Entrant.objects.create(
            tournament_id=tournament_id, name=name, seed=seed, registered_at=timezone.now()
        )
        player_ids = []
        for position, player_name in enumerate(players):
            player = Player.objects.create(name=player_name)
            EntrantPlayer.objects.create(entrant=entrant, player=player, position=position)
            player_ids.append(player.id)
        return RegisterEntrant(
            entrant=entrant.id, players=len(players), seed=seed, player_ids=tuple(player_ids)
        )

    return run(
        tournament_id=tournament_id,
        command=register,
        actor=actor,
        idempotency_key=idempotency_key,
        name="entrant_register",
        arguments={"name": name, "players": given, "seed": seed},
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
    shuffled from a recorded random seed, or by the players' ratings (`rating`, recorded as an
    order). The order is the result state's `seeding`."""

    def seed(state: TournamentState | None) -> SeedEntrants:
        if method != "rating" or state is None:
            return SeedEntrants(method, random_seed)
        return SeedEntrants(
            method, random_seed, order=rating_order(tournament_id=tournament_id, state=state)
        )

    return run(
        tournament_id=tournament_id,
        command=seed,
        actor=actor,
        idempotency_key=idempotency_key,
        name="tournament_seed",
        arguments={"method": method, "random_seed": random_seed},
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


@dataclass(frozen=True)
class ImportedEntrant:
    """One entrant of an imported file, with the number of its line."""

    line: int
    name: str
    players: list[str]
    seed: int | None


def entrants_import(
    *,
    tournament_id: UUID,
    lines: Sequence[ImportedEntrant],
    actor: Actor,
    confirm_duplicate_names: bool = False,
) -> list[tuple[int, RuleViolation | EventStoreError]]:
    """Register every line through `entrant_register`, or none: any refusal rolls all back.
    Returns the refusals, each with its line's number."""
    refusals: list[tuple[int, RuleViolation | EventStoreError]] = []
    with transaction.atomic():
        for line in lines:
            try:
                entrant_register(
                    tournament_id=tournament_id,
                    name=line.name,
                    players=line.players,
                    seed=line.seed,
                    confirm_duplicate_name=confirm_duplicate_names,
                    actor=actor,
                )
            except (RuleViolation, EventStoreError) as exc:
                refusals.append((line.line, exc))
        if refusals:
            transaction.set_rollback(True)
    return refusals
