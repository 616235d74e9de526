"""Deciding the entrants' commands: registration, check-in and its window, withdrawal,
seeding, and corrections (issue 11 §3: an organizer renames an entrant, changes its players, or
changes seeds before the start; the events carry ids and which fields changed, decision 0018).
"""

from __future__ import annotations

from dataclasses import replace

from common.explained import gettext_noop
from tournaments.errors import (
    CheckInNotAccepted,
    EntrantWithdrawn,
    InvalidEntrant,
    InvalidTournament,
    RegistrationClosed,
    TournamentAlreadyStarted,
)
from tournaments.state import TournamentState
from tournaments.stream.byes import late_entry_round
from tournaments.stream.commands import (
    CheckInEntrant,
    CloseCheckIn,
    CorrectEntrant,
    OpenCheckIn,
    RegisterEntrant,
    RegisterEntrants,
    ReseedEntrants,
    SeedEntrants,
    WithdrawEntrant,
)
from tournaments.stream.entrant_checks import (
    check_entrant_correction,
    check_fixed_table,
    check_group_correction,
    check_group_label,
    check_player_count,
    check_reason_given,
    check_seed_is_free,
    check_seed_is_valid,
    check_seeds_are_distinct,
    entrant_order,
    known_entrant,
    rating_seeding,
    seeds_in_force,
)
from tournaments.stream.events import (
    CheckInClosed,
    CheckInOpened,
    EntrantCheckedIn,
    EntrantCorrected,
    EntrantRegistered,
    EntrantsReseeded,
    EntrantsSeeded,
    EntrantWithdrew,
    TournamentEvent,
)
from tournaments.stream.evolve import evolve
from tournaments.stream.signup import promoted_by_withdrawal
from tournaments.stream.tables import both_here, called, iso


def check_registration_is_open(state: TournamentState) -> None:
    """Before the start; after it, while a Swiss takes late entrants (decision 0058)."""
    if state.started and late_entry_round(state) is None:
        raise RegistrationClosed.because(
            gettext_noop("the tournament has started: registration is closed")
        )


def register_entrant(state: TournamentState, command: RegisterEntrant) -> list[TournamentEvent]:
    check_registration_is_open(state)
    check_player_count(state, command.players)
    check_seed_is_free(state, command.seed)
    check_fixed_table(state, command.fixed_table, entrant=None)
    from_round = late_entry_round(state)
    return [
        EntrantRegistered(
            command.entrant,
            seed=command.seed,
            late=from_round is not None,
            players=command.player_ids,
            fixed_table=command.fixed_table,
            group=check_group_label(command.group),
            from_round=from_round,
            missed=None if from_round is None else state.settings.late_entry_points,
        )
    ]


def register_entrants(state: TournamentState, command: RegisterEntrants) -> list[TournamentEvent]:
    """Each entrant decided on the tournament with those before it registered (two of them
    never hold one seed)."""
    check_registration_is_open(state)
    registered: list[TournamentEvent] = []
    for entrant in command.entrants:
        events = register_entrant(state, entrant)
        for event in events:
            state = evolve(state, event)
        registered += events
    return registered


def check_in_entrant(state: TournamentState, command: CheckInEntrant) -> list[TournamentEvent]:
    if known_entrant(state, command.entrant).checked_in:
        return []
    if command.by_player:
        check_player_may_check_in(state, command)
    if command.now is not None and not state.check_in.accepts(command.now):
        raise CheckInNotAccepted.because(
            gettext_noop("check-in is closed: the organizer can open it again")
        )
    checked_in = EntrantCheckedIn(command.entrant)
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


def open_check_in(state: TournamentState, command: OpenCheckIn) -> list[TournamentEvent]:
    if command.closes_at is not None and command.closes_at <= command.now:
        raise InvalidTournament.because(gettext_noop("the check-in must close after it opens"))
    window = state.check_in
    open_already = window.accepts(command.now) and window.opened_at is not None
    if open_already and window.closes_at == iso(command.closes_at):
        return []
    return [CheckInOpened(opened_at=command.now.isoformat(), closes_at=iso(command.closes_at))]


def close_check_in(state: TournamentState, command: CloseCheckIn) -> list[TournamentEvent]:
    if not state.check_in.accepts(command.now):
        return []
    return [CheckInClosed(closed_at=command.now.isoformat())]


def check_player_may_check_in(state: TournamentState, command: CheckInEntrant) -> None:
    """A player checks themselves in only while the window is open (decision record 0055)."""
    if known_entrant(state, command.entrant).withdrawn:
        raise EntrantWithdrawn.because(gettext_noop("you have withdrawn from this tournament"))
    if state.check_in.opened_at is None:
        raise CheckInNotAccepted.because(
            gettext_noop("check-in has not opened yet: the organizer opens it at the venue")
        )


def withdraw_entrant(state: TournamentState, command: WithdrawEntrant) -> list[TournamentEvent]:
    if known_entrant(state, command.entrant).withdrawn:
        return []
    if command.by_player and state.started:
        raise TournamentAlreadyStarted.because(
            gettext_noop("the tournament has started: ask the organizer to withdraw you")
        )
    withdrew = EntrantWithdrew(command.entrant, reason=command.reason)
    return [withdrew, *promoted_by_withdrawal(evolve(state, withdrew), command.promoted)]


def seed_entrants(state: TournamentState, command: SeedEntrants) -> list[TournamentEvent]:
    if state.started:
        raise TournamentAlreadyStarted.because(
            gettext_noop("seeding is fixed once the tournament starts")
        )
    if command.method == "rating":
        return [EntrantsSeeded(rating_seeding(state, command.order), method="rating")]
    order = entrant_order(state, method=command.method, random_seed=command.random_seed)
    if command.method == "random" and command.random_seed is None:
        raise InvalidTournament.because(gettext_noop("a random seeding needs its random_seed"))
    return [EntrantsSeeded(order, method=command.method, random_seed=command.random_seed)]


CORRECTED_FIELDS = ("name", "players", "group", "fixed_table")


def correct_entrant(state: TournamentState, command: CorrectEntrant) -> list[TournamentEvent]:
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
    players = None
    if "players" in command.changed:
        if command.players is None:
            raise ValueError("a correction of the players records their ids")
        players = tuple(command.players)
    group = None
    if "group" in command.changed:
        check_group_correction(state)
        group = check_group_label(command.group)
    if "fixed_table" in command.changed:
        check_fixed_table(state, command.fixed_table, entrant=command.entrant)
    record = state.entrants[command.entrant]
    unchanged = {
        name
        for name, before, after in (
            ("group", record.group, group),
            ("fixed_table", record.fixed_table, command.fixed_table),
        )
        if name in command.changed and before == after
    }
    if unchanged:
        command = replace(command, changed=tuple(n for n in command.changed if n not in unchanged))
        if not command.changed:
            return []
    changed = tuple(name for name in CORRECTED_FIELDS if name in command.changed)
    fixed_table = command.fixed_table if "fixed_table" in changed else None
    return [
        EntrantCorrected(
            command.entrant,
            changed,
            reason=reason,
            players=players,
            group=group,
            fixed_table=fixed_table,
        )
    ]


def reseed_entrants(state: TournamentState, command: ReseedEntrants) -> list[TournamentEvent]:
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
    return [EntrantsReseeded(tuple(sorted(changes.items())), reason=reason)]
