"""Rating maths: openskill's Plackett-Luce model behind a small, Django-free interface.

A match is a list of sides, each a tuple of player ids (a single: one player; a pair or trio:
a team of two or three; at a table of three each side is one entrant), and each side's rank
(1 best; equal ranks are a tie). `rate` returns every player's rating after the match, given
their ratings before (a player not in `ratings` starts at the model's default).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce(limit_sigma=True)
"""openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), with the uncertainty never
growing from a match (`limit_sigma`: tau still keeps the means moving). Fixed, so the numbers a
rebuild computes are the numbers the consumer computed."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative display value: mu minus three sigma (0 for a new player)."""
        return self.mu - 3 * self.sigma


DEFAULT = Rating(mu=MODEL.mu, sigma=MODEL.sigma)
"""An unrated player's rating."""


def rate(
    sides: Sequence[Sequence[int]],
    ranks: Sequence[int],
    ratings: Mapping[int, Rating],
) -> dict[int, Rating]:
    """Every player's rating after a match of `sides` finishing at `ranks`."""
    if len(sides) != len(ranks) or len(sides) < 2:
        raise ValueError("a match has two or more sides, each with its rank")
    if any(not side for side in sides):
        raise ValueError("every side has at least one player")
    teams = [
        [MODEL.rating(mu=(r := ratings.get(p, DEFAULT)).mu, sigma=r.sigma) for p in side]
        for side in sides
    ]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return {
        player: Rating(mu=after.mu, sigma=after.sigma)
        for side, team in zip(sides, rated, strict=True)
        for player, after in zip(side, team, strict=True)
    }


def team_ordinal(players: Sequence[int], ratings: Mapping[int, Rating]) -> float:
    """An entrant's rating for seeding: the mean of its players' ordinals (unrated: 0)."""
    if not players:
        return DEFAULT.ordinal
    return sum(ratings.get(p, DEFAULT).ordinal for p in players) / len(players)
