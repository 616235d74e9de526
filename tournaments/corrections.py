"""Entrant corrections: rename an entrant, change its players, change seeds before the start.

Each correction is an event on the tournament's stream (`EntrantCorrected`, `EntrantsReseeded`,
tournaments/stream.py), recorded with the actor and a reason; the events carry ids and which
fields changed, and the names go to the Entrant, Player and EntrantPlayer rows in the same
transaction (decision 0018). The guards are pure, in tournaments/stream.py; this module loads,
writes the rows and appends through the tournament services' machinery (`run_once`, `append`).

A duplicate name (case and spacing aside, within the tournament) is a warning the organizer
confirms: refused with `duplicate_entrant_name` unless the command says
`confirm_duplicate_name`, at registration as on a rename. A duplicate seed is refused outright.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import Enum
from typing import Literal
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext_noop

from games.eventstore.api import find_append_by_idempotency_key
from games.services import Actor
from tournaments import stream
from tournaments.models import Entrant, EntrantPlayer, Player
from tournaments.services import (
    CommandAlreadyRecorded,
    EntrantNotFound,
    InvalidEntrant,
    TournamentAlreadyStarted,
    TournamentCommand,
    TournamentCommandResult,
    TournamentError,
    append,
    load_tournament_for_update,
    run_once,
)
from tournaments.stream import TournamentState


class DuplicateSeed(TournamentError):
    code = "duplicate_seed"


class DuplicateEntrantName(TournamentError):
    """A warning rather than a rule: the same command with `confirm_duplicate_name` goes ahead."""

    code = "duplicate_entrant_name"


class ReasonRequired(TournamentError):
    code = "reason_required"


REFUSALS: Mapping[str, type[TournamentError]] = {
    "entrant_not_found": EntrantNotFound,
    "tournament_started": TournamentAlreadyStarted,
    "duplicate_seed": DuplicateSeed,
    "reason_required": ReasonRequired,
    "invalid_entrant": InvalidEntrant,
}
"""The tournament error each code of the pure guards is raised again as."""


@dataclass(frozen=True)
class PlayerCorrection:
    """What sits in one seat of an entrant after a correction."""

    name: str
    replace: bool = False
    """False: the same person, their name corrected (they keep their account link). True:
    another person takes the seat, as a new player."""


# The guards shared with registration.


def same_name(name: str) -> str:
    """A name as the duplicate check compares it: case and spacing aside."""
    return " ".join(name.split()).casefold()


def check_name_is_free(
    *, tournament_id: UUID, name: str, confirmed: bool, entrant_id: int | None = None
) -> None:
    """Refuse a name another entrant of the tournament already has, unless confirmed."""
    if confirmed:
        return
    others = Entrant.objects.filter(tournament_id=tournament_id)
    if entrant_id is not None:
        others = others.exclude(id=entrant_id)
    wanted = same_name(name)
    for other_name in others.values_list("name", flat=True):
        if same_name(other_name) == wanted:
            raise DuplicateEntrantName.because(
                gettext_noop(
                    "another entrant of this tournament is already called %(name)s: confirm "
                    "the duplicate name to register or rename it all the same"
                ),
                name=other_name,
            )


def check_name_given(name: str) -> str:
    if not name.strip():
        raise InvalidEntrant.because(gettext_noop("a name cannot be blank"))
    return name


def check_not_recorded_meanwhile(command: TournamentCommand) -> None:
    """Called with the tournament locked: a racing retry of this command (same key) that
    recorded it while this one waited is answered from there, not refused as a duplicate name
    or seed, nor taken as a change already made."""
    if command.idempotency_key is None:
        return
    first = find_append_by_idempotency_key(
        stream_id=command.tournament_id,
        idempotency_key=command.idempotency_key,
        command_fingerprint=command.fingerprint,
    )
    if first is not None:
        raise CommandAlreadyRecorded(first)


def check_new_entrant(
    state: TournamentState,
    command: TournamentCommand,
    *,
    tournament_id: UUID,
    name: str,
    seed: int | None,
    confirm_duplicate_name: bool,
) -> None:
    """What registration checks besides the player count: a seed nobody holds, and a name
    nobody has (or the organizer's confirmation)."""
    check_not_recorded_meanwhile(command)
    with refusals_as_tournament_errors(tournament_id, new_name=name):
        stream.check_seed_is_free(state, seed)
    check_name_is_free(tournament_id=tournament_id, name=name, confirmed=confirm_duplicate_name)


@contextmanager
def refusals_as_tournament_errors(tournament_id: UUID, *, new_name: str = "") -> Iterator[None]:
    """The pure guards' refusals raised again as tournament errors (codes for the API, messages
    for the admin); two entrants wanting one seed are named, as the rows name them."""
    try:
        yield
    except stream.SeedTaken as taken:
        names = dict(Entrant.objects.filter(id__in=taken.entrants).values_list("id", "name"))
        names[stream.NEW_ENTRANT] = new_name
        raise DuplicateSeed.because(
            gettext_noop("seed %(seed)s would be held by more than one entrant: %(entrants)s"),
            seed=taken.params["seed"],
            entrants=", ".join(names.get(entrant, f"#{entrant}") for entrant in taken.entrants),
        ) from taken
    except stream.CorrectionRefused as refused:
        error_class = REFUSALS[refused.code]
        raise error_class(
            refused.detail, template=refused.template, params=refused.params
        ) from refused


# The commands.


def entrant_correct(
    *,
    tournament_id: UUID,
    entrant_id: int,
    actor: Actor,
    reason: str,
    name: str | None = None,
    players: Sequence[PlayerCorrection | str] | None = None,
    confirm_duplicate_name: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Rename the entrant and/or set its players, in seat order (a plain name is the same person
    renamed). Recorded as `EntrantCorrected` with what changed; nothing is recorded when nothing
    does. Allowed at any time: names are not facts of the draw."""
    seats = None if players is None else [as_correction(player) for player in players]

    def correct(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        check_not_recorded_meanwhile(command)
        with refusals_as_tournament_errors(tournament_id):
            why = stream.check_entrant_correction(
                state,
                entrant=entrant_id,
                reason=reason,
                player_count=None if seats is None else len(seats),
            )
        entrant = Entrant.objects.select_for_update().get(id=entrant_id)
        changed = []
        if name is not None and name != entrant.name:
            check_name_given(name)
            check_name_is_free(
                tournament_id=tournament_id,
                name=name,
                confirmed=confirm_duplicate_name,
                entrant_id=entrant_id,
            )
            entrant.name = name
            entrant.save(update_fields=["name"])
            changed.append("name")
        player_ids = None
        if seats is not None:
            player_ids, players_changed = seat_players(entrant, seats)
            if players_changed:
                changed.append("players")
        events = stream.entrant_corrected(
            entrant=entrant_id, changed=changed, players=player_ids, reason=why
        )
        return append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=events,
            actor=with_reason(actor, why),
            command=command,
        )

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="entrant_correct",
        arguments={
            "entrant": entrant_id,
            "name": name,
            "players": None if seats is None else [[seat.name, seat.replace] for seat in seats],
            "reason": reason,
        },
        actor=actor,
        carry_out=correct,
    )


def entrants_reseed(
    *,
    tournament_id: UUID,
    seeds: Mapping[int, int | None],
    actor: Actor,
    reason: str,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Give entrants new seeds (None: no seed) before the start, as one list: two entrants can
    swap. Recorded as `EntrantsReseeded` with the seeds that changed; every entrant's row then
    shows its seed as the start will use it (a seeding order fixed before gives way)."""

    def reseed(command: TournamentCommand, actor: Actor) -> tuple[TournamentState, int]:
        state, version = load_tournament_for_update(tournament_id=tournament_id)
        check_not_recorded_meanwhile(command)
        with refusals_as_tournament_errors(tournament_id):
            events = stream.decide_reseed(state, seeds=seeds, reason=reason)
        if not events:
            return state, version
        state, version = append(
            tournament_id=tournament_id,
            state=state,
            version=version,
            events=events,
            actor=with_reason(actor, str(events[0].payload["reason"])),
            command=command,
        )
        rows = list(Entrant.objects.filter(tournament_id=tournament_id))
        for row in rows:
            row.seed = state.entrants[row.id].seed if row.id in state.entrants else row.seed
        Entrant.objects.bulk_update(rows, ["seed"])
        return state, version

    return run_once(
        tournament_id=tournament_id,
        idempotency_key=idempotency_key,
        name="entrants_reseed",
        arguments={"seeds": sorted(seeds.items()), "reason": reason},
        actor=actor,
        carry_out=reseed,
    )


class Keep(Enum):
    SEED = "keep the seed"


KEEP_SEED = Keep.SEED
SEED_KEY_SUFFIX = "#seed"
"""The idempotency key of the reseed in `entrant_amend`: the request's, with this suffix."""


def entrant_amend(
    *,
    tournament_id: UUID,
    entrant_id: int,
    actor: Actor,
    reason: str,
    name: str | None = None,
    players: Sequence[PlayerCorrection | str] | None = None,
    seed: int | Literal[Keep.SEED] | None = KEEP_SEED,
    confirm_duplicate_name: bool = False,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """One organizer's edit of an entrant (the API's `PATCH`, the admin's page): its name and
    players (`entrant_correct`) and its seed (a one-entry `entrants_reseed`), both or neither.
    The result of the last command carried out; the seed's command has the idempotency key with
    SEED_KEY_SUFFIX."""
    if name is None and players is None and seed is KEEP_SEED:
        raise InvalidEntrant.because(
            gettext_noop("give the name, the players or the seed to correct")
        )
    result = None
    with transaction.atomic():
        if name is not None or players is not None:
            result = entrant_correct(
                tournament_id=tournament_id,
                entrant_id=entrant_id,
                name=name,
                players=players,
                reason=reason,
                confirm_duplicate_name=confirm_duplicate_name,
                actor=actor,
                idempotency_key=idempotency_key,
            )
        if seed is not KEEP_SEED:
            result = entrants_reseed(
                tournament_id=tournament_id,
                seeds={entrant_id: seed},
                reason=reason,
                actor=actor,
                idempotency_key=None
                if idempotency_key is None
                else idempotency_key + SEED_KEY_SUFFIX,
            )
    assert result is not None
    return result


def as_correction(player: PlayerCorrection | str) -> PlayerCorrection:
    return player if isinstance(player, PlayerCorrection) else PlayerCorrection(player)


def with_reason(actor: Actor, reason: str) -> Actor:
    """The actor as the event's metadata records it: with the command's reason."""
    return actor if actor.reason else replace(actor, reason=reason)


def seat_players(entrant: Entrant, seats: Sequence[PlayerCorrection]) -> tuple[list[int], bool]:
    """Put `seats` in the entrant's seats: a renamed player keeps their row (and id), a replaced
    one gets a new row in that seat (the old row stays, as a player of no entrant). The player
    ids in seat order, and whether anything changed."""
    memberships = {
        membership.position: membership
        for membership in EntrantPlayer.objects.filter(entrant=entrant).select_related("player")
    }
    changed = False
    ids = []
    for position, seat in enumerate(seats):
        check_name_given(seat.name)
        membership = memberships[position]
        player = membership.player
        if seat.replace:
            player = Player.objects.create(name=seat.name)
            membership.player = player
            membership.save(update_fields=["player"])
            changed = True
        elif seat.name != player.name:
            if player.erased:
                raise InvalidEntrant.because(
                    gettext_noop(
                        "the player in seat %(seat)s was erased: replace them with a new player "
                        "instead of renaming"
                    ),
                    seat=position + 1,
                )
            player.name = seat.name
            player.save(update_fields=["name"])
            changed = True
        ids.append(player.id)
    return ids, changed
