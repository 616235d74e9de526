"""Entrant corrections: rename an entrant, change its players, change seeds before the start.

Each correction is an event on the tournament's stream (`EntrantCorrected`, `EntrantsReseeded`,
tournaments/stream/events.py), recorded with the actor and a reason; the events carry ids and which
fields changed, and the names go to the Entrant, Player and EntrantPlayer rows in the same
transaction (decision 0018). The decisions are pure (`CorrectEntrant` and `ReseedEntrants` in
`tournaments.stream.entrants`); this module writes the name rows and runs the commands through
the tournament services (`services.run`).

A duplicate name (case and spacing aside, within the tournament) is a warning the organizer
confirms: refused with `duplicate_entrant_name` unless the command says
`confirm_duplicate_name`, at registration as on a rename. A duplicate seed is refused outright.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final, Literal
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext_noop

from common.actors import Actor
from tournaments.errors import (
    DuplicateEntrantName,
    DuplicateSeed,
    InvalidEntrant,
    ReasonRequired,
)
from tournaments.models import Entrant, EntrantPlayer, Player
from tournaments.ratings import projection as ratings
from tournaments.services import names
from tournaments.services.pipeline import TournamentCommandResult, run
from tournaments.state import TournamentState
from tournaments.stream.commands import CorrectEntrant, ReseedEntrants
from tournaments.stream.entrant_checks import check_entrant_correction

__all__ = [
    "DuplicateEntrantName",
    "DuplicateSeed",
    "ReasonRequired",
    "entrant_amend",
    "entrant_correct",
    "entrants_reseed",
]


@dataclass(frozen=True)
class PlayerCorrection:
    """What sits in one seat of an entrant after a correction."""

    name: str
    replace: bool = False
    """False: the same person, their name corrected (they keep their account link). True:
    another person takes the seat, as a new player."""


class Keep(Enum):
    SEED = "keep the seed"
    GROUP = "keep the group"


class KeepTable(Enum):
    FIXED_TABLE = "keep the fixed table"


KEEP_SEED: Final = Keep.SEED
KEEP_GROUP: Final = Keep.GROUP
KEEP_FIXED_TABLE = KeepTable.FIXED_TABLE


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
    group: str | Literal[Keep.GROUP] | None = KEEP_GROUP,
    fixed_table: int | Literal[KeepTable.FIXED_TABLE] | None = KEEP_FIXED_TABLE,
) -> TournamentCommandResult:
    """Rename the entrant and/or set its players, in seat order (a plain name is the same person
    renamed), and/or its group (`KEEP_GROUP`: unchanged), and/or its fixed table (None: none;
    `KEEP_FIXED_TABLE`, the default: as it is; decision record 0059). Recorded as
    `EntrantCorrected` with what changed; nothing is recorded when nothing does. Names are
    allowed at any time (they are not facts of the draw), a group before the start only
    (decision record 0057), a fixed table at any time (it counts for the matches seated from
    then on)."""
    seats = None if players is None else [as_correction(player) for player in players]

    def correct(state: TournamentState | None, _asked: CorrectEntrant) -> CorrectEntrant:
        if state is None:
            raise RuntimeError("a correction needs the tournament's state")
        # Refused before any row is written when the tournament cannot take the correction.
        check_entrant_correction(
            state,
            entrant=entrant_id,
            reason=reason,
            player_count=None if seats is None else len(seats),
        )
        entrant = Entrant.objects.select_for_update().get(id=entrant_id)
        changed = []
        if name is not None and name != entrant.name:
            names.check_name_given(name)
            names.check_name_is_free(
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
        if changed:
            names.names_changed(tournament_ids=[tournament_id])
        table = None if fixed_table is KEEP_FIXED_TABLE else fixed_table
        if fixed_table is not KEEP_FIXED_TABLE:
            changed.append("fixed_table")
        if not isinstance(group, Keep):
            changed.append("group")
        return CorrectEntrant(
            entrant=entrant_id,
            reason=reason,
            changed=tuple(changed),
            players=None if player_ids is None else tuple(player_ids),
            fixed_table=table,
            group=None if isinstance(group, Keep) else group,
        )

    asked = CorrectEntrant(
        entrant=entrant_id,
        reason=reason,
        changed=tuple(
            field
            for field, kept in (
                ("fixed_table", fixed_table is KEEP_FIXED_TABLE),
                ("group", isinstance(group, Keep)),
            )
            if not kept
        ),
        fixed_table=None if fixed_table is KEEP_FIXED_TABLE else fixed_table,
        group=None if isinstance(group, Keep) else group,
    )
    result = run(
        tournament_id=tournament_id,
        command=asked,
        names=[name, None if seats is None else [[seat.name, seat.replace] for seat in seats]],
        prepare=correct,
        actor=with_reason(actor, reason),
        idempotency_key=idempotency_key,
    )
    if seats is not None and result.recorded:
        # A renamed player may now be the same person as another row, or no longer
        # (tournaments.selectors.people): the ratings count people, so they are counted again.
        ratings.recount_everyone()
    return result


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
    with names.seed_holders_named():
        return run(
            tournament_id=tournament_id,
            command=ReseedEntrants(tuple(sorted(seeds.items())), reason),
            actor=with_reason(actor, reason),
            idempotency_key=idempotency_key,
        )


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
    fixed_table: int | Literal[KeepTable.FIXED_TABLE] | None = KEEP_FIXED_TABLE,
    group: str | Literal[Keep.GROUP] | None = KEEP_GROUP,
) -> TournamentCommandResult:
    """One organizer's edit of an entrant (the API's `PATCH`, the admin's page): its name and
    players (`entrant_correct`) and its seed (a one-entry `entrants_reseed`), both or neither.
    The result of the last command carried out; the seed's command has the idempotency key with
    SEED_KEY_SUFFIX."""
    if (
        name is None
        and players is None
        and seed is KEEP_SEED
        and group is KEEP_GROUP
        and fixed_table is KEEP_FIXED_TABLE
    ):
        raise InvalidEntrant.because(
            gettext_noop("give the name, the players, the group or the seed to correct")
        )
    result = None
    with transaction.atomic():
        if (
            name is not None
            or players is not None
            or group is not KEEP_GROUP
            or fixed_table is not KEEP_FIXED_TABLE
        ):
            result = entrant_correct(
                tournament_id=tournament_id,
                entrant_id=entrant_id,
                name=name,
                players=players,
                fixed_table=fixed_table,
                group=group,
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
    if result is None:
        raise RuntimeError("the correction was recorded")
    return result


def as_correction(player: PlayerCorrection | str) -> PlayerCorrection:
    return player if isinstance(player, PlayerCorrection) else PlayerCorrection(player)


def with_reason(actor: Actor, reason: str) -> Actor:
    """The actor as the event's metadata records it: with the command's reason (trimmed)."""
    return actor if actor.reason or not reason.strip() else replace(actor, reason=reason.strip())


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
        names.check_name_given(seat.name)
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
