"""Who must not meet (issue 27 §1, decision record 0057): entrants of one group (a club, a
family, a bar's team) kept apart in a draw.

The formats receive the entrants' groups (entrant -> label, None or absent: no group) and the
strength of the rule; the stream decides which rounds it applies to. Pure: no Django.

- `strict`: a same-group pairing is forbidden like nothing else is; a Swiss draw that cannot
  avoid one is refused (`NoDrawWithoutSameGroup`). It ranks above rematch avoidance.
- `soft`: as few same-group meetings as possible, after rematches (a rematch-free draw is
  never given up for fewer same-group meetings).

Round robins, knockouts and tables of three never refuse: they avoid what the field allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, permutations, product

STRICT = "strict"
SOFT = "soft"
STRENGTHS = (STRICT, SOFT)
FIRST_ROUND = "first_round"
ALWAYS = "always"
MODES = (FIRST_ROUND, ALWAYS)


@dataclass(frozen=True)
class SameGroup:
    """The groups of a field and how strictly their members are kept apart."""

    groups: Mapping[int, str | None] = field(default_factory=dict)
    strict: bool = True

    def meet(self, first: int, second: int) -> bool:
        """Whether these two entrants are of one group."""
        label = self.groups.get(first)
        return label is not None and label == self.groups.get(second)

    def count(self, tables: Iterable[Iterable[int]]) -> int:
        """Same-group pairs seated together at these tables (or pairings)."""
        return sum(
            1
            for table in tables
            for first, second in combinations(table, 2)
            if self.meet(first, second)
        )

    def matters(self, entrants: Iterable[int]) -> bool:
        """Whether any two of these entrants are of one group (else nothing is to avoid)."""
        seen: set[str] = set()
        for entrant in entrants:
            label = self.groups.get(entrant)
            if label is None:
                continue
            if label in seen:
                return True
            seen.add(label)
        return False

    def largest(self, entrants: Iterable[int]) -> int:
        """The most entrants of one group among these."""
        counts: dict[str, int] = {}
        for entrant in entrants:
            label = self.groups.get(entrant)
            if label is not None:
                counts[label] = counts.get(label, 0) + 1
        return max(counts.values(), default=0)

    @property
    def key(self) -> tuple[tuple[int, str], ...]:
        """A hashable form of the groups (for caches)."""
        return tuple(sorted((e, label) for e, label in self.groups.items() if label is not None))


class SearchExhausted(Exception):
    """The search used up its steps without an answer."""


class BudgetedPairing:
    """Pairs rank positions (bit sets of them) depth first in a preference order: `forbidden`
    pairs never, `costly` pairs at most `budget` times. A set that failed with a budget fails
    with any smaller one, so the failures are remembered with the largest budget tried."""

    def __init__(
        self,
        preferences: Callable[[int, int], Sequence[int]],
        forbidden: Sequence[set[int]],
        costly: Sequence[set[int]],
        steps: list[int],
    ) -> None:
        self.preferences = preferences
        self.forbidden = forbidden
        self.costly = costly
        self.steps = steps
        """A one-item list: the steps left, shared by every search of one draw."""
        self.failed: dict[int, int] = {}

    def search(self, remaining: int, budget: int) -> list[tuple[int, int]] | None:
        if remaining == 0:
            return []
        if self.failed.get(remaining, -1) >= budget:
            return None
        if self.steps[0] <= 0:
            raise SearchExhausted
        self.steps[0] -= 1
        top = (remaining & -remaining).bit_length() - 1
        forbidden, costly = self.forbidden[top], self.costly[top]
        for opponent in self.preferences(top, remaining):
            if opponent in forbidden:
                continue
            cost = 1 if opponent in costly else 0
            if cost > budget:
                continue
            found = self.search(remaining & ~(1 << top) & ~(1 << opponent), budget - cost)
            if found is not None:
                return [(top, opponent), *found]
        self.failed[remaining] = max(self.failed.get(remaining, -1), budget)
        return None

    def cost(self, pairs: Iterable[tuple[int, int]]) -> int:
        return sum(1 for top, opponent in pairs if opponent in self.costly[top])

    def fewest(self, remaining: int) -> list[tuple[int, int]] | None:
        """The first pairing in preference order among those with the fewest costly pairs, or
        None when no pairing avoids the forbidden ones."""
        found = self.search(remaining, remaining.bit_count())
        if found is None:
            return None
        for budget in range(self.cost(found)):
            cheaper = self.search(remaining, budget)
            if cheaper is not None:
                return cheaper
        return found


# Round robin: the circle's first round ---------------------------------------------------------


def circle_order(field: Sequence[int], rule: SameGroup | None) -> tuple[int, ...]:
    """The field reordered for the circle method so that its first round pairs as few entrants
    of one group as it can: the circle pairs the i-th with the (n-1-i)-th (with an odd field,
    the last one sits out and the rest pair so). The seed order is kept when it already does."""
    entrants = tuple(field)
    if rule is None or not rule.matters(entrants):
        return entrants
    return _circle_order(entrants, rule.key)


@lru_cache(maxsize=256)
def _circle_order(entrants: tuple[int, ...], key: tuple[tuple[int, str], ...]) -> tuple[int, ...]:
    """`circle_order`, once per field and groups (every fold of the tournament draws it)."""
    rule = SameGroup(dict(key))
    natural = _circle_pairs(entrants)
    if rule.count(natural) == 0:
        return entrants
    best = _fewest_first_round(entrants, rule)
    if best is None or best[0] >= rule.count(natural):
        return entrants
    _, pairs, sitting_out = best
    size = len(entrants)
    ordered: list[int | None] = [None] * size
    last = size - 1 if sitting_out is None else size - 2
    if sitting_out is not None:
        ordered[size - 1] = entrants[sitting_out]
    for index, (home, away) in enumerate(sorted(pairs)):
        ordered[index], ordered[last - index] = entrants[home], entrants[away]
    return tuple(entrant for entrant in ordered if entrant is not None)


def _fewest_first_round(
    entrants: Sequence[int], rule: SameGroup
) -> tuple[int, list[tuple[int, int]], int | None] | None:
    """The first round with the fewest same-group pairs: their count, the pairs (positions)
    and who sits out (an odd field), found in the circle's own order of partners."""
    size = len(entrants)
    same = [
        {j for j in range(size) if j != i and rule.meet(entrants[i], entrants[j])}
        for i in range(size)
    ]

    def preferences(top: int, remaining: int) -> list[int]:
        # The circle's own partner first: the last one left, then up.
        return [j for j in range(size - 1, top, -1) if remaining >> j & 1]

    search = BudgetedPairing(preferences, [set() for _ in range(size)], same, [20_000])
    everyone = (1 << size) - 1
    best: tuple[int, list[tuple[int, int]], int | None] | None = None
    for sitting_out in range(size - 1, -1, -1) if size % 2 else [None]:
        remaining = everyone if sitting_out is None else everyone & ~(1 << sitting_out)
        try:
            pairs = search.fewest(remaining)
        except SearchExhausted:
            break
        if pairs is None:
            continue
        cost = search.cost(pairs)
        if best is None or cost < best[0]:
            best = (cost, pairs, sitting_out)
        if cost == 0:
            break
    return best


def _circle_pairs(entrants: Sequence[int]) -> list[tuple[int, int]]:
    playing = entrants[:-1] if len(entrants) % 2 else entrants
    return [(playing[i], playing[len(playing) - 1 - i]) for i in range(len(playing) // 2)]


# Knockouts: the first round's lines -----------------------------------------------------------

EXHAUSTIVE_ARRANGEMENTS = 5_040
"""Up to this many arrangements of the seed bands, every one is weighed; above, swaps within a
band improve the seed order until none does."""


def knockout_order(
    field: Sequence[int], line_seeds: Sequence[int], rule: SameGroup | None
) -> tuple[int, ...]:
    """The entrants (in seed order) rearranged within their seed bands (seed 1; 2; 3-4; 5-8;
    9-16; ...: the seeds a bracket's lines treat alike) so that entrants of one group could meet
    as late as the seeding allows: first as few pairs as possible that could meet in the first
    round, then in the second, and so on (entrants of a group of two in opposite halves when
    the bands allow it). The seed order itself when nothing is to avoid."""
    entrants = tuple(field)
    if rule is None or not rule.matters(entrants):
        return entrants
    return _knockout_order(entrants, tuple(line_seeds), rule.key)


@lru_cache(maxsize=256)
def _knockout_order(
    entrants: tuple[int, ...], line_seeds: tuple[int, ...], key: tuple[tuple[int, str], ...]
) -> tuple[int, ...]:
    rule = SameGroup(dict(key))
    line_of_seed = {seed: line for line, seed in enumerate(line_seeds)}
    bands = _bands(len(entrants))

    def cost(order: Sequence[int]) -> tuple[int, ...]:
        return _earliest_meetings(order, line_of_seed, rule, len(line_seeds))

    if _arrangements(bands) <= EXHAUSTIVE_ARRANGEMENTS:
        weighed = (
            tuple(entrants[index] for band in arrangement for index in band)
            for arrangement in product(*(permutations(band) for band in bands))
        )
        return min(weighed, key=cost)
    order, current = list(entrants), cost(entrants)
    improved = True
    while improved and any(current):
        improved = False
        for first, second in (pair for band in bands for pair in combinations(band, 2)):
            order[first], order[second] = order[second], order[first]
            swapped = cost(order)
            if swapped < current:
                current, improved = swapped, True
            else:
                order[first], order[second] = order[second], order[first]
    return tuple(order)


def _arrangements(bands: Sequence[tuple[int, ...]]) -> int:
    """How many orders the bands allow (counted only up to past the exhaustive limit)."""
    count = 1
    for band in bands:
        for size in range(2, len(band) + 1):
            count *= size
            if count > EXHAUSTIVE_ARRANGEMENTS:
                return count
    return count


def _bands(count: int) -> list[tuple[int, ...]]:
    """Seed indexes (from 0) that the bracket treats alike: 0; 1; 2-3; 4-7; ... (up to count)."""
    bands: list[tuple[int, ...]] = [(0,)]
    start = 1
    while start < count:
        end = min(2 * start, count)
        bands.append(tuple(range(start, end)))
        start = end
    return bands


def _earliest_meetings(
    order: Sequence[int], line_of_seed: Mapping[int, int], rule: SameGroup, lines: int
) -> tuple[int, ...]:
    """Per round, first round first, the same-group pairs that could meet in it (the final's
    are not counted: opposite halves is as far apart as a bracket goes)."""
    rounds = lines.bit_length() - 1
    counts = [0] * max(0, rounds - 1)
    for (seed_a, a), (seed_b, b) in combinations(enumerate(order, start=1), 2):
        if not rule.meet(a, b):
            continue
        meets = (line_of_seed[seed_a] ^ line_of_seed[seed_b]).bit_length()
        if meets < rounds:
            counts[meets - 1] += 1
    return tuple(counts)
