"""The plan's building blocks: a fixture whose entrants are known (`FixtureSpec`) and a stage
as readers see it (`Stage`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.formats.bracket import Bracket
from tournaments.formats.resolution import BracketState
from tournaments.formats.threes_knockout import (
    ThreesKnockout,
    ThreesKnockoutState,
)

KNOCKOUT = "knockout"


@dataclass(frozen=True)
class FixtureSpec:
    """A fixture whose entrants are known: two, or three at a table of three."""

    id: str
    home: int
    away: int
    stage: str
    round: int
    third: int | None = None

    @classmethod
    def seating(cls, id: str, entrants: Sequence[int], stage: str, round: int) -> FixtureSpec:
        home, away, *third = entrants
        return cls(id, home, away, stage, round, third[0] if third else None)

    @property
    def entrants(self) -> tuple[int, ...]:
        return (self.home, self.away) if self.third is None else (self.home, self.away, self.third)


@dataclass(frozen=True)
class Stage:
    """One stage as readers see it: its fixtures, and for brackets the resolved bracket."""

    name: str
    fixtures: tuple[FixtureSpec, ...]
    bracket: Bracket | None = None
    bracket_state: BracketState | None = None
    byes: tuple[tuple[int, int], ...] = ()
    """(round, entrant) of each bye in a league or Swiss stage."""
    complete: bool = False
    playoff_of: str | None = None
    """A group's playoff among the entrants tied at its qualification cut: the group's label."""
    threes: ThreesKnockout | None = None
    """A knockout in tables of three (decision record 0031), in place of `bracket`."""
    threes_state: ThreesKnockoutState | None = None

    def has_knockout_slot(self, fixture_id: str) -> bool:
        if self.bracket is not None:
            return self.bracket.has_slot(fixture_id)
        return self.threes is not None and fixture_id in self.threes.tables

    @property
    def is_knockout(self) -> bool:
        return self.bracket is not None or self.threes is not None
