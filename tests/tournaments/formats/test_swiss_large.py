"""Swiss pairing of big fields: the iterative search gives the same rounds as the recursive one.

`reference_swiss_round` below is a copy of our own recursive search as it was before issue 13
(tournaments/formats/swiss.py at 06bb3c7), kept here as the oracle: the iterative search must
give the very same pairings, bye and rematch count for every input, search limit exhaustion
included, so that replays and running tournaments are unaffected.
"""

import math
import random
from collections.abc import Iterable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field
from tournaments.formats.pairing import Pairing, pairing_id
from tournaments.formats.swiss import DEFAULT_SEARCH_LIMIT, SwissEntrant, SwissRound, swiss_round


def reference_swiss_round(
    *,
    round_number: int,
    standings: Sequence[SwissEntrant],
    past_pairings: Iterable[tuple[int, int]] = (),
    byes: Iterable[int] = (),
    search_limit: int = DEFAULT_SEARCH_LIMIT,
) -> SwissRound:
    """The recursive search of 06bb3c7 (the oracle), without the input checks."""
    order = {standing.entrant: index for index, standing in enumerate(standings)}
    ranked = sorted(standings, key=lambda standing: (-standing.score, order[standing.entrant]))
    search = _ReferenceSearch(ranked, past_pairings, search_limit)
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


class _ReferenceExhausted(Exception):
    pass


class _ReferenceSearch:
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
        except _ReferenceExhausted:
            return None

    def _search(self, remaining: int) -> list[tuple[int, int]] | None:
        if remaining == 0:
            return []
        if remaining in self.unpairable:
            return None
        if self.steps_left <= 0:
            raise _ReferenceExhausted
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
        others = [i for i in _positions(remaining) if i != top]
        group = [i for i in others if self.scores[i] == self.scores[top]]
        lower = [i for i in others if self.scores[i] != self.scores[top]]
        half = (len(group) + 1) // 2 - 1
        return group[half:] + group[:half][::-1] + lower


def _positions(bits: int) -> list[int]:
    positions = []
    while bits:
        low = bits & -bits
        positions.append(low.bit_length() - 1)
        bits ^= low
    return positions


def pairs(round_: SwissRound) -> list[tuple[int, int]]:
    return [(pairing.home, pairing.away) for pairing in round_.pairings]


def random_history(
    rng: random.Random, entrants: list[int], rounds: int, *, swiss: bool
) -> tuple[dict[int, float], list[tuple[int, int]], list[int]]:
    """Scores, past pairings and byes after `rounds` rounds of random results; the rounds are
    paired by the reference search (`swiss`) or at random (which makes rematches likelier)."""
    scores: dict[int, float] = dict.fromkeys(entrants, 0)
    met: list[tuple[int, int]] = []
    byes: list[int] = []
    for number in range(1, rounds + 1):
        if swiss:
            table = [
                SwissEntrant(entrant, scores[entrant])
                for entrant in sorted(entrants, key=lambda entrant: -scores[entrant])
            ]
            round_ = reference_swiss_round(
                round_number=number, standings=table, past_pairings=met, byes=byes
            )
            played, bye = pairs(round_), round_.bye
        else:
            shuffled = rng.sample(entrants, len(entrants))
            bye = shuffled.pop() if len(shuffled) % 2 else None
            played = list(zip(shuffled[::2], shuffled[1::2], strict=True))
        for home, away in played:
            met.append((home, away))
            outcome = rng.random()
            if outcome < 0.2:
                scores[home] += 0.5
                scores[away] += 0.5
            else:
                scores[home if outcome < 0.6 else away] += 1
        if bye is not None:
            byes.append(bye)
            scores[bye] += 1
    return scores, met, byes


@settings(max_examples=500, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=40),
    played=st.integers(min_value=0, max_value=8),
    swiss=st.booleans(),
    search_limit=st.sampled_from([0, 1, 2, 3, 5, 8, 13, 40, 200, DEFAULT_SEARCH_LIMIT]),
    withdrawn=st.integers(min_value=0, max_value=3),
    seed=st.integers(0, 2**32),
)
def test_the_iterative_search_pairs_exactly_like_the_recursive_one(
    size: int, played: int, swiss: bool, search_limit: int, withdrawn: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = field(size + withdrawn)
    scores, met, byes = random_history(rng, entrants, played, swiss=swiss)
    active = rng.sample(entrants, size)
    # Ties in score are broken by the given order, which need not follow the ids.
    standings = [SwissEntrant(entrant, scores[entrant]) for entrant in active]
    standings.sort(key=lambda standing: -standing.score)

    round_ = swiss_round(
        rounds=played + 1,
        round_number=played + 1,
        standings=standings,
        past_pairings=met,
        byes=byes,
        search_limit=search_limit,
    )

    assert round_ == reference_swiss_round(
        round_number=played + 1,
        standings=standings,
        past_pairings=met,
        byes=byes,
        search_limit=search_limit,
    )


@settings(max_examples=100, deadline=None)
@given(
    scores=st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, math.nan]), min_size=2, max_size=16),
    seed=st.integers(0, 2**32),
)
def test_scores_that_are_not_numbers_are_paired_like_before(scores: list[float], seed: int) -> None:
    rng = random.Random(seed)
    entrants = field(len(scores))
    standings = [
        SwissEntrant(entrant, score) for entrant, score in zip(entrants, scores, strict=True)
    ]
    past: list[tuple[int, int]] = []
    for _ in range(len(entrants)):
        first, second = rng.sample(entrants, 2)
        past.append((first, second))

    round_ = swiss_round(rounds=2, round_number=2, standings=standings, past_pairings=past)

    assert round_ == reference_swiss_round(round_number=2, standings=standings, past_pairings=past)


def test_a_field_of_4096_is_paired_in_round_5_without_rematches() -> None:
    rng = random.Random(13)
    entrants = field(4096)
    scores: dict[int, float] = dict.fromkeys(entrants, 0)
    met: list[tuple[int, int]] = []
    for number in range(1, 6):
        table = [
            SwissEntrant(entrant, scores[entrant])
            for entrant in sorted(entrants, key=lambda entrant: -scores[entrant])
        ]

        round_ = swiss_round(rounds=12, round_number=number, standings=table, past_pairings=met)

        seated = sorted(entrant for pair in pairs(round_) for entrant in pair)
        assert seated == entrants
        assert round_.bye is None
        assert round_.rematches == 0
        assert not {frozenset(pair) for pair in pairs(round_)} & {frozenset(p) for p in met}
        for home, away in pairs(round_):
            met.append((home, away))
            scores[rng.choice((home, away))] += 1


def test_a_field_too_deep_for_the_recursive_search_is_paired() -> None:
    # One score group per pair in a field of 10,001: the recursive search needed a frame per pair.
    entrants = field(10_001)
    standings = [SwissEntrant(entrant, -(index // 2)) for index, entrant in enumerate(entrants)]
    past = [(entrants[index], entrants[index + 1]) for index in range(0, 10_000, 2)]

    round_ = swiss_round(rounds=2, round_number=2, standings=standings, past_pairings=past)

    assert round_.bye == entrants[-1]
    assert round_.rematches == 0
    assert len(round_.pairings) == 5_000
