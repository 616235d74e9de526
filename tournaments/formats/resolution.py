"""Fold the results known so far into a bracket: who sits where, what is ready, who placed where.

`resolve` is a pure function of the bracket and the results (slot id -> winner id), so a
projection can rebuild it from the event log at any time. Byes advance on their own and are never
results. `slots_to_reset` tells the caller which played or scheduled slots a corrected result
invalidates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from common.explained import gettext_noop
from tournaments.formats.bracket import (
    BYE,
    Bracket,
    Bye,
    Known,
    Slot,
    Source,
    WinnerOf,
    slot_of,
)
from tournaments.formats.errors import (
    InvalidEntrant,
    SlotNotPlayable,
    WinnerNotInSlot,
)

Occupant = int | Bye | None
"""An entrant id, a bye, or `None` while the slot it comes from is undecided."""


class SlotStatus(StrEnum):
    PENDING = "pending"
    """At least one entrant is not known yet."""
    READY = "ready"
    """Both entrants are known and no result is in: the match can be played."""
    DONE = "done"
    WALKOVER = "walkover"
    """One side is a bye: the other entrant advances without playing."""
    EMPTY = "empty"
    """Both sides are byes: nobody plays and a bye goes on."""
    NOT_NEEDED = "not_needed"
    """A grand-final reset after the winners-bracket champion won the first grand final."""


FINAL_STATUSES = frozenset(
    {SlotStatus.DONE, SlotStatus.WALKOVER, SlotStatus.EMPTY, SlotStatus.NOT_NEEDED}
)


@dataclass(frozen=True)
class SlotState:
    slot_id: str
    status: SlotStatus
    home: Occupant
    away: Occupant
    winner: int | None = None
    loser: int | None = None

    @property
    def entrants(self) -> tuple[int, ...]:
        """The real entrants known to sit in this slot."""
        return tuple(side for side in (self.home, self.away) if isinstance(side, int))


@dataclass(frozen=True)
class Placement:
    entrant: int
    place: int


@dataclass(frozen=True)
class BracketState:
    """A bracket with its results folded in.

    `slots` follow the bracket's slot order. `placements` list every entrant whose final place
    is already known (eliminated, or the champion), best first; ties share a place. When
    `finished`, every entrant has a placement.
    """

    slots: tuple[SlotState, ...]
    placements: tuple[Placement, ...]
    finished: bool
    champion: int | None

    @cached_property
    def _by_id(self) -> dict[str, SlotState]:
        return {state.slot_id: state for state in self.slots}

    def slot(self, slot_id: str) -> SlotState:
        return slot_of(self._by_id, slot_id)

    @property
    def ready(self) -> tuple[str, ...]:
        """Slots that can be played now, in bracket order."""
        return tuple(state.slot_id for state in self.slots if state.status is SlotStatus.READY)

    @property
    def played(self) -> tuple[str, ...]:
        return tuple(state.slot_id for state in self.slots if state.status is SlotStatus.DONE)

    def place_of(self, entrant: int) -> int | None:
        for placement in self.placements:
            if placement.entrant == entrant:
                return placement.place
        return None


def resolve(bracket: Bracket, results: Mapping[str, int]) -> BracketState:
    """Seat the entrants, advance byes and apply `results` (slot id -> winner id).

    Raises `UnknownSlot` for a result on a slot the bracket lacks, `SlotNotPlayable` for a result
    on a slot that is pending, a bye or an unneeded reset, and `WinnerNotInSlot` when the winner
    is not one of the slot's two entrants.
    """
    for slot_id, winner in results.items():
        bracket.slot(slot_id)
        if not isinstance(winner, int) or isinstance(winner, bool):
            raise InvalidEntrant.because(
                gettext_noop("the winner of %(slot)s must be an entrant id, got %(winner)r"),
                slot=slot_id,
                winner=winner,
            )

    winners: dict[str, Occupant] = {}
    losers: dict[str, Occupant] = {}
    states: dict[str, SlotState] = {}

    def occupant(source: Source) -> Occupant:
        if isinstance(source, Known):
            return source.entrant
        if isinstance(source, Bye):
            return BYE
        if isinstance(source, WinnerOf):
            return winners[source.slot]
        return losers[source.slot]

    for slot in bracket.slots:
        home, away = occupant(slot.home), occupant(slot.away)
        state = _slot_state(slot, home, away, results, states)
        states[slot.id] = state
        winners[slot.id], losers[slot.id] = _outcome(state)

    ordered = tuple(states[slot.id] for slot in bracket.slots)
    placements = _placements(bracket, states)
    finished = all(state.status in FINAL_STATUSES for state in ordered)
    champion = next((p.entrant for p in placements if p.place == 1), None)
    return BracketState(slots=ordered, placements=placements, finished=finished, champion=champion)


def dependent_slots(bracket: Bracket, slot_id: str) -> tuple[str, ...]:
    """Every slot whose entrants depend, directly or not, on the outcome of `slot_id`."""
    bracket.slot(slot_id)
    found: set[str] = set()
    frontier = [slot_id]
    while frontier:
        current = bracket.slot(frontier.pop())
        for advance in (current.winner_to, current.loser_to):
            if advance is not None and advance.slot not in found:
                found.add(advance.slot)
                frontier.append(advance.slot)
    return tuple(slot.id for slot in bracket.slots if slot.id in found)


def slots_to_reset(
    bracket: Bracket, old_results: Mapping[str, int], new_results: Mapping[str, int]
) -> tuple[str, ...]:
    """The slots a change of results invalidates, in bracket order.

    A slot must be reset when it depends on a slot whose result changed (corrected, added or
    withdrawn) and, under the old results, it was already played or ready to be played. The
    caller drops those slots' results (and unschedules their matches); `new_results` may still
    hold their stale results. The old results must be valid (they were accepted before); the new
    ones, once the reset slots are dropped, are checked like `resolve` checks them, so an
    impossible correction raises the same errors.
    """
    changed = _changed_slots(bracket, old_results, new_results)
    affected: set[str] = set()
    for slot_id in changed:
        affected.update(dependent_slots(bracket, slot_id))
    before = resolve(bracket, old_results)
    live = {SlotStatus.READY, SlotStatus.DONE}
    reset = tuple(
        slot.id
        for slot in bracket.slots
        if slot.id in affected and before.slot(slot.id).status in live
    )
    resolve(bracket, {slot_id: w for slot_id, w in new_results.items() if slot_id not in reset})
    return reset


def _changed_slots(
    bracket: Bracket, old_results: Mapping[str, int], new_results: Mapping[str, int]
) -> tuple[str, ...]:
    keys: Iterable[str] = set(old_results) | set(new_results)
    for slot_id in keys:
        bracket.slot(slot_id)
    return tuple(
        slot.id for slot in bracket.slots if old_results.get(slot.id) != new_results.get(slot.id)
    )


def _slot_state(
    slot: Slot,
    home: Occupant,
    away: Occupant,
    results: Mapping[str, int],
    states: Mapping[str, SlotState],
) -> SlotState:
    if slot.reset_of is not None and _reset_not_needed(states[slot.reset_of]):
        state = SlotState(slot.id, SlotStatus.NOT_NEEDED, None, None)
    elif home is None or away is None:
        state = SlotState(slot.id, SlotStatus.PENDING, home, away)
    elif isinstance(home, Bye) and isinstance(away, Bye):
        state = SlotState(slot.id, SlotStatus.EMPTY, home, away)
    elif isinstance(home, Bye) or isinstance(away, Bye):
        advancing = home if isinstance(home, int) else away
        if not isinstance(advancing, int):
            raise RuntimeError("a walkover has one entrant")
        state = SlotState(slot.id, SlotStatus.WALKOVER, home, away, winner=advancing)
    elif slot.id in results:
        winner = results[slot.id]
        if winner not in (home, away):
            raise WinnerNotInSlot.because(
                gettext_noop("entrant %(winner)s does not play in %(slot)s (%(home)s v %(away)s)"),
                winner=winner,
                slot=slot.id,
                home=home,
                away=away,
            )
        loser = away if winner == home else home
        return SlotState(slot.id, SlotStatus.DONE, home, away, winner=winner, loser=loser)
    else:
        return SlotState(slot.id, SlotStatus.READY, home, away)
    if slot.id in results:
        raise SlotNotPlayable.because(NOT_PLAYABLE[state.status], slot=state.slot_id)
    return state


def _reset_not_needed(first_final: SlotState) -> bool:
    return first_final.status is SlotStatus.DONE and first_final.winner == first_final.home


NOT_PLAYABLE = {
    SlotStatus.PENDING: gettext_noop("%(slot)s takes no result: its entrants are not known yet"),
    SlotStatus.WALKOVER: gettext_noop("%(slot)s takes no result: one side is a bye"),
    SlotStatus.EMPTY: gettext_noop("%(slot)s takes no result: both sides are byes"),
    SlotStatus.NOT_NEEDED: gettext_noop(
        "%(slot)s takes no result: the winners-bracket champion won the grand final"
    ),
}
"""Why a slot takes no result, by its status."""


def _outcome(state: SlotState) -> tuple[Occupant, Occupant]:
    """What the slot sends on: (winner, loser); a bye goes on as a bye, undecided as None."""
    if state.status is SlotStatus.DONE:
        return state.winner, state.loser
    if state.status is SlotStatus.WALKOVER:
        return state.winner, BYE
    if state.status is SlotStatus.EMPTY:
        return BYE, BYE
    return None, None


def _placements(bracket: Bracket, states: Mapping[str, SlotState]) -> tuple[Placement, ...]:
    reset_of = {slot.reset_of: slot.id for slot in bracket.slots if slot.reset_of is not None}
    places: dict[int, int] = {}
    for slot in bracket.slots:
        state = states[slot.id]
        if state.status not in (SlotStatus.DONE, SlotStatus.WALKOVER):
            continue
        reset = reset_of.get(slot.id)
        if reset is not None and states[reset].status is not SlotStatus.NOT_NEEDED:
            continue
        if slot.winner_place is not None and state.winner is not None:
            places[state.winner] = slot.winner_place
        if slot.loser_place is not None and state.loser is not None:
            places[state.loser] = slot.loser_place
    seed = {entrant: index for index, entrant in enumerate(bracket.entrants)}
    ordered = sorted(places.items(), key=lambda item: (item[1], seed[item[0]]))
    return tuple(Placement(entrant, place) for entrant, place in ordered)
