"""The data of an elimination bracket: slots, where their entrants come from and where they go.

A bracket is plain immutable data. Entrants are opaque integer ids. Each slot names its two
sources (a known entrant, a bye, or the winner or loser of another slot) and, derived from those,
where its winner and loser go next. Results are kept outside the bracket (slot id -> winner id)
and folded into a `BracketState` by `tournaments.formats.resolution.resolve`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import Literal, TypeVar

from common.explained import gettext_noop
from tournaments.formats.errors import UnknownSlot

Side = Literal["home", "away"]


@dataclass(frozen=True)
class Known:
    """The slot's entrant is known from the start (a seeded entrant)."""

    entrant: int


@dataclass(frozen=True)
class Bye:
    """Nobody comes from here: the other entrant advances without playing."""


BYE = Bye()


@dataclass(frozen=True)
class WinnerOf:
    slot: str


@dataclass(frozen=True)
class LoserOf:
    slot: str


Source = Known | Bye | WinnerOf | LoserOf


@dataclass(frozen=True)
class Advance:
    """Where an entrant goes next: a slot and the side of it they take."""

    slot: str
    side: Side


class Kind(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"


class Section(StrEnum):
    """The part of a bracket a round belongs to; its value prefixes the slot ids."""

    MAIN = "R"
    WINNERS = "W"
    LOSERS = "L"
    GRAND_FINAL = "GF"
    THIRD_PLACE = "3P"


@dataclass(frozen=True)
class Slot:
    """One match of a bracket.

    `winner_place` / `loser_place` is the place an entrant gets when this slot eliminates them
    (or crowns them); places are shared by everyone who goes out at the same stage (1, 2, 3, 3,
    5, 5, 5, 5). A slot with a reset (`GF` when the grand final may be replayed) awards its places
    only when the reset is not needed; its `winner_to`/`loser_to` point at the reset slot and are
    used only when it is. `reset_of` marks the reset slot itself (`GF2`): it is played only if the
    away entrant of that slot (the losers-bracket champion) wins it.
    """

    id: str
    section: Section
    round: int
    position: int
    home: Source
    away: Source
    winner_to: Advance | None = None
    loser_to: Advance | None = None
    winner_place: int | None = None
    loser_place: int | None = None
    reset_of: str | None = None

    @property
    def sources(self) -> tuple[Source, Source]:
        return (self.home, self.away)


@dataclass(frozen=True)
class Round:
    """The slots of one round of one section, in bracket order (top to bottom)."""

    id: str
    section: Section
    number: int
    slot_ids: tuple[str, ...]


@dataclass(frozen=True)
class Bracket:
    """An elimination bracket.

    `entrants` are in seed order (index 0 is seed 1). `size` is the bracket size (a power of
    two; `size - len(entrants)` byes). `slots` are in an order where every slot comes after the
    slots it draws from, which is also a sensible playing order; `rounds` group them for display.
    """

    kind: Kind
    entrants: tuple[int, ...]
    size: int
    slots: tuple[Slot, ...]
    rounds: tuple[Round, ...]
    third_place: bool = False
    grand_final_reset: bool = False

    @cached_property
    def _by_id(self) -> dict[str, Slot]:
        return {slot.id: slot for slot in self.slots}

    def slot(self, slot_id: str) -> Slot:
        return slot_of(self._by_id, slot_id)

    def has_slot(self, slot_id: str) -> bool:
        return slot_id in self._by_id

    def round(self, round_id: str) -> Round:
        for round_ in self.rounds:
            if round_.id == round_id:
                return round_
        raise KeyError(round_id)


def slot_id(section: Section, round_number: int, position: int) -> str:
    """`W1-3`: section prefix, round, position in the round (both from 1)."""
    return f"{section.value}{round_number}-{position}"


def link(slots: list[Slot]) -> tuple[Slot, ...]:
    """Fill every slot's `winner_to` and `loser_to` from the sources that name it."""
    winner_to: dict[str, Advance] = {}
    loser_to: dict[str, Advance] = {}
    for slot in slots:
        sides: tuple[tuple[Side, Source], ...] = (("home", slot.home), ("away", slot.away))
        for side, source in sides:
            if isinstance(source, WinnerOf | LoserOf):
                target = winner_to if isinstance(source, WinnerOf) else loser_to
                if source.slot in target:
                    raise RuntimeError(f"{source} feeds two slots")
                target[source.slot] = Advance(slot.id, side)
    return tuple(
        replace(slot, winner_to=winner_to.get(slot.id), loser_to=loser_to.get(slot.id))
        for slot in slots
    )


def rounds_of(slots: tuple[Slot, ...]) -> tuple[Round, ...]:
    """Group slots into rounds, in the order each round first appears among the slots."""
    grouped: dict[tuple[Section, int], list[str]] = {}
    for slot in slots:
        grouped.setdefault((slot.section, slot.round), []).append(slot.id)
    return tuple(
        Round(id=_round_id(section, number), section=section, number=number, slot_ids=tuple(ids))
        for (section, number), ids in grouped.items()
    )


def _round_id(section: Section, number: int) -> str:
    if section in (Section.GRAND_FINAL, Section.THIRD_PLACE):
        return section.value if number == 1 else f"{section.value}{number}"
    return f"{section.value}{number}"


Slotted = TypeVar("Slotted")


def slot_of(by_id: Mapping[str, Slotted], slot_id: str) -> Slotted:
    """The slot (or its state, or a table) `slot_id` names, or `UnknownSlot`."""
    try:
        return by_id[slot_id]
    except KeyError:
        raise UnknownSlot.because(
            gettext_noop("this bracket has no slot %(slot)r"), slot=slot_id
        ) from None
