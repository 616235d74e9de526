"""The checks on entrants that deciding a command shares with the services: known entrants,
player counts, reasons and seeds, and the order of the entrants by seed."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from common.explained import gettext_noop
from common.text import code_point, control_character_in
from tournaments.errors import (
    DuplicateSeed,
    EntrantNotFound,
    FixedTableTaken,
    InvalidEntrant,
    InvalidFixedTable,
    InvalidName,
    InvalidTournament,
    PlayersRequired,
    ReasonRequired,
    TournamentAlreadyStarted,
)
from tournaments.state import EntrantRecord, TournamentState
from tournaments.stream.commands import PLAYERS_PER_ENTRANT
from tournaments.stream.options import MAX_TABLES


def known_entrant(state: TournamentState, entrant_id: int) -> EntrantRecord:
    record = state.entrants.get(entrant_id)
    if record is None:
        raise EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s is not registered in this tournament"),
            entrant=entrant_id,
        )
    return record


def entrant_order(
    state: TournamentState, *, method: str, random_seed: int | None
) -> tuple[int, ...]:
    """The active entrants in seed order: by the seeds given at registration (then registration
    order), or shuffled from a recorded random seed."""
    active = list(state.active_entrants)
    if method == "given":
        return tuple(sorted(active, key=lambda e: (state.entrants[e].seed or 10**9, e)))
    if method == "random":
        shuffled = sorted(active)
        random.Random(random_seed).shuffle(shuffled)  # noqa: S311 - the seed is recorded so replays draw the same
        return tuple(shuffled)
    raise InvalidTournament.because(
        gettext_noop("seeding is 'given', 'random' or 'rating', not %(method)r"), method=method
    )


def rating_seeding(state: TournamentState, order: tuple[int, ...] | None) -> tuple[int, ...]:
    """A seeding by rating: the services' order, which must hold every active entrant once."""
    if order is None or sorted(order) != sorted(state.active_entrants):
        raise ValueError("a seeding by rating orders every active entrant once")
    return tuple(order)


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


def players_or_name(
    state: TournamentState, *, name: str, players: Sequence[str] | None
) -> list[str]:
    """A new entrant's players: those given, or when none are (`None`) and the entrant is a
    single (tables of 2 or 3), one player named as the entrant. A pair or a trio names its own."""
    if players is not None:
        return list(players)
    needed = PLAYERS_PER_ENTRANT[state.settings.table_size]
    if needed != 1:
        raise PlayersRequired.because(
            gettext_noop(
                "at tables of %(size)s an entrant is a pair or a trio: give the names of its "
                "%(needed)s players"
            ),
            size=state.settings.table_size,
            needed=needed,
        )
    return [name]


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


def check_fixed_table(state: TournamentState, table: int | None, *, entrant: int | None) -> None:
    """A fixed table (decision record 0059) is one of the venue's tables (any up to the most
    a venue has while the tables go by need, before the start) and no other active entrant's:
    two entrants at one fixed table could be drawn at two tables of one round."""
    if table is None:
        return
    most = MAX_TABLES if state.settings.tables is None else state.settings.tables
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= most:
        raise InvalidFixedTable.because(
            gettext_noop("the fixed table is one of the tables, numbered 1 to %(tables)s"),
            tables=most,
        )
    holder = next(
        (
            other
            for other in state.active_entrants
            if other != entrant and state.entrants[other].fixed_table == table
        ),
        None,
    )
    if holder is not None:
        raise FixedTableTaken.because(
            gettext_noop("table %(table)s is the fixed table of entrant %(holder)s already"),
            table=table,
            holder=holder,
        )


GROUP_MAX_LENGTH = 60
"""A group label's length: a club's, a family's or a bar team's name (decision record 0057)."""


def check_group_label(label: str | None) -> str | None:
    """A group label trimmed (None or blank: no group), at most GROUP_MAX_LENGTH characters and
    one line of text (no control character), as names are (`tournaments.services.names`)."""
    if label is None or not label.strip():
        return None
    trimmed = label.strip()
    if len(trimmed) > GROUP_MAX_LENGTH:
        raise InvalidName.because(
            gettext_noop("a group is at most %(most)s characters, not %(length)s"),
            most=GROUP_MAX_LENGTH,
            length=len(trimmed),
        )
    found = control_character_in(trimmed)
    if found is not None:
        position, character = found
        raise InvalidName.because(
            gettext_noop(
                "a group cannot hold control characters such as line breaks or tabs "
                "(%(character)s at position %(position)s)"
            ),
            character=code_point(character),
            position=position,
        )
    return trimmed


def check_group_correction(state: TournamentState) -> None:
    """A group is corrected before the start only: the draws read it (decision record 0057)."""
    if state.started:
        raise TournamentAlreadyStarted.because(
            gettext_noop("groups can be changed only before the tournament starts")
        )
