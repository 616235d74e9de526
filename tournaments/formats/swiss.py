"""Swiss pairing: pair within score groups, avoid rematches, give the bye to the lowest-ranked.

The caller gives the standings (entrants in rank order with their scores), the pairs that have
already met and who has had a bye; `swiss_round` returns the next round's pairings and bye. The
same input always gives the same pairings: the caller publishes them as events.

Method, in short (decision record 0007 has the reasons):

- Entrants are ordered by score, then by the caller's rank order (a stable sort).
- With an odd field, the bye goes to the lowest-ranked entrant who has not had one (if every
  entrant has had one, to the lowest-ranked), provided the others can then be paired without a
  rematch; otherwise to the next one up.
- The highest-ranked unpaired entrant is paired first, preferring, within its score group, the
  entrant half a group below (1 v 3, 2 v 4 in a group of four), then the ones further down,
  then the ones above; then entrants of the lower score groups in rank order (a float down). The
  odd entrant of a score group is its lowest-ranked one, who floats into the next group.
- A pairing that would repeat a past one is skipped, and the search backtracks (depth first,
  remembering sets of entrants that cannot be paired). The search is bounded by `search_limit`
  steps; when no rematch-free pairing is found within it (or none exists), the same preference
  order is used allowing rematches, taking non-rematches first, and `rematches` reports how many
  the round holds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from common.explained import gettext_noop
from tournaments.formats.entrants import check_entrants
from tournaments.formats.errors import InvalidFormatOption, SwissRoundOutOfRange
from tournaments.formats.pairing import Pairing, pairing_id

DEFAULT_SEARCH_LIMIT = 20_000


@dataclass(frozen=True)
class SwissEntrant:
    entrant: int
    score: float


@dataclass(frozen=True)
class SwissRound:
    number: int
    pairings: tuple[Pairing, ...]
    """Home is the higher-ranked entrant; tables are numbered from the top."""
    bye: int | None
    rematches: int
    """Pairings that repeat a past one: zero unless unavoidable or not found in the search limit."""


def recommended_rounds(entrant_count: int) -> int:
    """`ceil(log2(n))` rounds: enough for a single unbeaten entrant in a field of `n`."""
    return max(1, math.ceil(math.log2(entrant_count))) if entrant_count > 1 else 1


def swiss_round(
    *,
    rounds: int,
    round_number: int,
    standings: Sequence[SwissEntrant],
    past_pairings: Iterable[tuple[int, int]] = (),
    byes: Iterable[int] = (),
    search_limit: int = DEFAULT_SEARCH_LIMIT,
) -> SwissRound:
    """The pairings (and bye) of round `round_number` of a Swiss stage of `rounds` rounds.

    `standings` lists the active entrants in rank order, best first. Past pairings and byes that
    name entrants no longer in the standings (withdrawn) are ignored.
    """
    if rounds < 1:
        raise InvalidFormatOption.because(
            gettext_noop("a Swiss stage has at least one round, got %(rounds)s"), rounds=rounds
        )
    if not 1 <= round_number <= rounds:
        raise SwissRoundOutOfRange.because(
            gettext_noop(
                "this Swiss stage has rounds 1 to %(rounds)s, there is no round %(round)s"
            ),
            rounds=rounds,
            round=round_number,
        )
    check_entrants(standing.entrant for standing in standings)
    if search_limit < 0:
        raise InvalidFormatOption.because(
            gettext_noop("the search limit cannot be negative, got %(limit)s"), limit=search_limit
        )

    ranked = _rank(standings)
    search = _Search(ranked, past_pairings, search_limit)
    had_bye = set(byes)
    bye, pairs = search.pair_with_bye(had_bye) if len(ranked) % 2 else (None, search.pair(0))
    met = search.met
    pairings = tuple(
        Pairing(pairing_id(round_number, table), ranked[high].entrant, ranked[low].entrant)
        for table, (high, low) in enumerate(pairs, start=1)
    )
    rematches = sum(1 for high, low in pairs if met[high] >> low & 1)
    return SwissRound(
        number=round_number,
        pairings=pairings,
        bye=None if bye is None else ranked[bye].entrant,
        rematches=rematches,
    )


def _rank(standings: Sequence[SwissEntrant]) -> list[SwissEntrant]:
    order = {standing.entrant: index for index, standing in enumerate(standings)}
    return sorted(standings, key=lambda standing: (-standing.score, order[standing.entrant]))


class _SearchExhausted(Exception):
    pass


class _Search:
    """Pairs entrants by their rank positions; sets of positions are int bit sets."""

    def __init__(
        self, ranked: list[SwissEntrant], past_pairings: Iterable[tuple[int, int]], limit: int
    ) -> None:
        self.ranked = ranked
        self.size = len(ranked)
        self.scores = [standing.score for standing in ranked]
        position = {standing.entrant: index for index, standing in enumerate(ranked)}
        self.met = [0] * self.size
        for first, second in past_pairings:
            if first in position and second in position and first != second:
                self.met[position[first]] |= 1 << position[second]
                self.met[position[second]] |= 1 << position[first]
        everyone = (1 << self.size) - 1
        self.allowed = [everyone & ~self.met[i] & ~(1 << i) for i in range(self.size)]
        self.steps_left = limit
        self.unpairable: set[int] = set()

    def pair_with_bye(self, had_bye: set[int]) -> tuple[int, list[tuple[int, int]]]:
        everyone = (1 << self.size) - 1
        candidates = [
            index
            for index in range(self.size - 1, -1, -1)
            if self.ranked[index].entrant not in had_bye
        ] or list(range(self.size - 1, -1, -1))
        for candidate in candidates:
            pairs = self._strict(everyone & ~(1 << candidate))
            if pairs is not None:
                return candidate, pairs
        candidate = candidates[0]
        return candidate, self._permissive(everyone & ~(1 << candidate))

    def pair(self, excluded: int) -> list[tuple[int, int]]:
        remaining = ((1 << self.size) - 1) & ~excluded
        pairs = self._strict(remaining)
        return pairs if pairs is not None else self._permissive(remaining)

    def _strict(self, remaining: int) -> list[tuple[int, int]] | None:
        try:
            return self._search(remaining)
        except _SearchExhausted:
            return None

    def _search(self, remaining: int) -> list[tuple[int, int]] | None:
        if remaining == 0:
            return []
        if remaining in self.unpairable:
            return None
        if self.steps_left <= 0:
            raise _SearchExhausted
        self.steps_left -= 1
        if any(self.allowed[i] & remaining == 0 for i in _positions(remaining)):
            self.unpairable.add(remaining)
            return None
        top = (remaining & -remaining).bit_length() - 1
        for opponent in self._preferences(top, remaining):
            if not self.allowed[top] >> opponent & 1:
                continue
            rest = self._search(remaining & ~(1 << top) & ~(1 << opponent))
            if rest is not None:
                return [(top, opponent), *rest]
        self.unpairable.add(remaining)
        return None

    def _permissive(self, remaining: int) -> list[tuple[int, int]]:
        pairs: list[tuple[int, int]] = []
        while remaining:
            top = (remaining & -remaining).bit_length() - 1
            preferences = self._preferences(top, remaining)
            fresh = [q for q in preferences if self.allowed[top] >> q & 1]
            opponent = (fresh or preferences)[0]
            pairs.append((top, opponent))
            remaining &= ~(1 << top) & ~(1 << opponent)
        return pairs

    def _preferences(self, top: int, remaining: int) -> list[int]:
        """Opponents for `top` (the best-ranked unpaired entrant), most wanted first."""
        others = [i for i in _positions(remaining) if i != top]
        group = [i for i in others if self.scores[i] == self.scores[top]]
        lower = [i for i in others if self.scores[i] != self.scores[top]]
        half = (len(group) + 1) // 2 - 1
        # `group` excludes `top`: its half-way entrant is at `half` (1 v 3 in a group of four).
        return group[half:] + group[:half][::-1] + lower


def _positions(bits: int) -> list[int]:
    positions = []
    while bits:
        low = bits & -bits
        positions.append(low.bit_length() - 1)
        bits ^= low
    return positions
