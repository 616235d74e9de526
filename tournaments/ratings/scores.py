"""The ratings of every scope (a club, or overall: None) from the matches in force, in order.

No Django: `Scores` holds, per scope, each player's rating, matches and last position, and the
change each match made; the projection writes them as rows or compares them with the rows.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from uuid import UUID

from tournaments.ratings.ledger import RatedMatch
from tournaments.ratings.maths import DEFAULT, Rating, rate

Scope = int | None
"""A club's id, or None for the overall ratings."""


@dataclass(frozen=True, slots=True)
class Standing:
    rating: Rating
    matches: int
    position: int


@dataclass(frozen=True, slots=True)
class Step:
    """One player's rating before and after one match in one scope."""

    player: int
    scope: Scope
    tournament: UUID
    match_id: UUID
    position: int
    before: Rating
    after: Rating


def scopes_of(match: RatedMatch, forfeit_clubs: Collection[int]) -> list[Scope]:
    """Where a match counts: its club's ratings and the overall ones; a forfeit only when its
    club counts forfeits (never in a tournament of no club)."""
    if match.forfeit and (match.club is None or match.club not in forfeit_clubs):
        return []
    return [None] if match.club is None else [match.club, None]


@dataclass
class Scores:
    standings: dict[tuple[int, Scope], Standing] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def rating(self, player: int, scope: Scope) -> Rating:
        standing = self.standings.get((player, scope))
        return DEFAULT if standing is None else standing.rating

    def apply(self, match: RatedMatch, scope: Scope) -> list[Step]:
        """Rate one match in one scope; returns (and keeps) its steps."""
        before = {player: self.rating(player, scope) for player in match.players}
        after = rate(match.sides, match.ranks, before)
        steps = []
        for player in match.players:
            previous = self.standings.get((player, scope))
            played = 1 if previous is None else previous.matches + 1
            self.standings[player, scope] = Standing(after[player], played, match.position)
            steps.append(
                Step(
                    player=player,
                    scope=scope,
                    tournament=match.tournament,
                    match_id=match.match_id,
                    position=match.position,
                    before=before[player],
                    after=after[player],
                )
            )
        self.steps.extend(steps)
        return steps


def scored(
    matches: Iterable[RatedMatch],
    forfeit_clubs: Collection[int],
    *,
    only: Collection[Scope] | None = None,
) -> Scores:
    """The ratings of every scope (or of the scopes `only`) from these matches, in order."""
    scores = Scores()
    for match in sorted(matches, key=lambda m: m.position):
        for scope in scopes_of(match, forfeit_clubs):
            if only is None or scope in only:
                scores.apply(match, scope)
    return scores
