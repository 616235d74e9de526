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
- A pairing that would repeat a past one is skipped, and the search backtracks (depth first on
  an explicit stack, so any field size, remembering sets of entrants that cannot be paired). The
  search is bounded by `search_limit` steps; when no rematch-free pairing is found within it
  (or none exists), the same preference order is used allowing rematches, taking non-rematches
  first, and `rematches` reports how many the round holds.
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
    met = search.met_sets
    pairings = tuple(
        Pairing(pairing_id(round_number, table), ranked[high].entrant, ranked[low].entrant)
        for table, (high, low) in enumerate(pairs, start=1)
    )
    rematches = sum(1 for high, low in pairs if low in met[high])
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


class _Remaining:
    """The set of rank positions still to pair.

    A doubly linked list in rank order (`after`, `before`, around the sentinel `size`) walks the
    set in O(1) a step; taking out and putting back in reverse order is O(1) too (the taken out
    entry keeps its links, as in dancing links). A Fenwick tree of 0/1 counts beside it gives the
    count below a position and the k-th smallest position in O(log n).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.tree = [0] * (size + 1)
        self.after = [size] * (size + 1)
        self.before = [size] * (size + 1)
        self.count = 0
        self.top_step = 1 << size.bit_length()

    def load(self, positions: Sequence[int]) -> None:
        """Holds `positions` (in increasing order) and nothing else."""
        size = self.size
        tree = [0] * (size + 1)
        for position in positions:
            tree[position + 1] = 1
        for index in range(1, size + 1):
            parent = index + (index & -index)
            if parent <= size:
                tree[parent] += tree[index]
        self.tree = tree
        self.count = len(positions)
        chain = [size, *positions, size]
        for previous, position, following in zip(chain, chain[1:], chain[2:], strict=False):
            self.before[position] = previous
            self.after[position] = following
        self.after[size] = chain[1]
        self.before[size] = chain[-2]

    def first(self) -> int:
        """The smallest position (`size` when the set is empty)."""
        return self.after[self.size]

    def positions(self) -> list[int]:
        after, size = self.after, self.size
        positions = []
        position = after[size]
        while position != size:
            positions.append(position)
            position = after[position]
        return positions

    def take(self, position: int) -> None:
        """Takes `position` out; put back what was taken in reverse order with `put_back`."""
        after, before = self.after, self.before
        after[before[position]] = after[position]
        before[after[position]] = before[position]
        self._count(position, -1)

    def put_back(self, position: int) -> None:
        """Puts back the position taken out last (among those not yet put back)."""
        after, before = self.after, self.before
        after[before[position]] = position
        before[after[position]] = position
        self._count(position, 1)

    def insert(self, position: int) -> None:
        """Puts `position` in, wherever it was taken out."""
        below = self.count_below(position)
        previous = self.kth(below) if below else self.size
        following = self.after[previous]
        self.before[position], self.after[position] = previous, following
        self.after[previous] = self.before[following] = position
        self._count(position, 1)

    def _count(self, position: int, change: int) -> None:
        tree, size = self.tree, self.size
        index = position + 1
        while index <= size:
            tree[index] += change
            index += index & -index
        self.count += change

    def count_below(self, position: int) -> int:
        """How many positions in the set are smaller than `position`."""
        tree = self.tree
        index = min(position, self.size)
        total = 0
        while index > 0:
            total += tree[index]
            index -= index & -index
        return total

    def kth(self, k: int) -> int:
        """The `k`-th smallest position in the set (`k` from 1 to `count`)."""
        tree, size = self.tree, self.size
        index = 0
        step = self.top_step
        while step:
            following = index + step
            if following <= size and tree[following] < k:
                index = following
                k -= tree[following]
            step >>= 1
        return index


_GROUP_DOWN, _GROUP_UP, _LOWER, _DONE = range(4)
"""The parts of a preference order: the score group from its half-way entrant down, the group
above that entrant upwards, the lower groups in rank order; and its end."""


class _Frame:
    """One node of the depth-first search: `top` is paired in turn with the entrants of its
    preference order among `remaining` (a bit set, `top` included); `opponent` is the current
    one, `part` the part of the order it is in."""

    __slots__ = (
        "cursor",
        "group_end",
        "half_way",
        "listed",
        "lower",
        "opponent",
        "part",
        "remaining",
        "top",
    )

    def __init__(self, remaining: int, top: int) -> None:
        self.remaining = remaining
        self.top = top
        self.opponent = -1
        self.part = _GROUP_DOWN
        self.group_end = 0
        self.half_way = -1
        """The group's half-way entrant, where the order starts (-1 when the group is empty)."""
        self.lower = -1
        """The first entrant of the lower groups (the sentinel when there is none)."""
        self.cursor = 0
        self.listed: list[int] | None = None
        """The preference order itself, when scores cannot be taken as blocks (a NaN)."""


class _Search:
    """Pairs entrants by their rank positions; sets of positions are int bit sets.

    The search is depth first over an explicit stack of frames, so its depth is not bounded by
    Python's recursion limit; each frame walks its preference order lazily in `left`, which holds
    the entrants the deepest frame has still to pair (a frame's top and current opponent taken
    out while the frame below it is searched, put back when that one gives up).
    """

    def __init__(
        self, ranked: list[SwissEntrant], past_pairings: Iterable[tuple[int, int]], limit: int
    ) -> None:
        self.ranked = ranked
        self.size = len(ranked)
        self.scores = [standing.score for standing in ranked]
        position = {standing.entrant: index for index, standing in enumerate(ranked)}
        self.met_sets: list[set[int]] = [set() for _ in range(self.size)]
        for first, second in past_pairings:
            if first in position and second in position and first != second:
                self.met_sets[position[first]].add(position[second])
                self.met_sets[position[second]].add(position[first])
        self.most_met = max((len(met) for met in self.met_sets), default=0)
        # With every score equal to itself (no NaN), the ranking is sorted by score, so a score
        # group is a block of positions: `group_end[i]` is the first position past `i`'s block.
        self.blocks = all(score == score for score in self.scores)
        self.group_end = list(range(1, self.size + 1))
        for index in range(self.size - 2, -1, -1):
            if self.scores[index] == self.scores[index + 1]:
                self.group_end[index] = self.group_end[index + 1]
        self.steps_left = limit
        self.unpairable: set[int] = set()
        self.left = _Remaining(self.size)
        self.loaded: int | None = None
        """The bit set `left` holds between searches, or None when it must be loaded again."""

    @property
    def met(self) -> list[int]:
        """The past opponents of each position, as bit sets."""
        return [sum(1 << other for other in met) for met in self.met_sets]

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
            self.loaded = None
            return None

    def _load(self, remaining: int) -> None:
        """Makes `left` hold `remaining`, by a few changes when it holds a set close to it."""
        if self.loaded is not None:
            changed = self.loaded ^ remaining
            if changed.bit_count() <= 64:
                for position in _positions(changed):
                    if not remaining >> position & 1:
                        self.left.take(position)
                for position in _positions(changed):
                    if remaining >> position & 1:
                        self.left.insert(position)
                self.loaded = remaining
                return
        bits = bin(remaining)[:1:-1]
        self.left.load([index for index, bit in enumerate(bits) if bit == "1"])
        self.loaded = remaining

    def _search(self, remaining: int) -> list[tuple[int, int]] | None:
        """The first rematch-free pairing of `remaining` in preference order, or None.

        Counts one step per set entered that is neither empty nor known to be unpairable, like a
        recursive search calling itself for each opponent would (and gives the same result).
        """
        if remaining == 0:
            return []
        if remaining in self.unpairable:
            return None
        if self.steps_left <= 0:
            raise _SearchExhausted
        self.steps_left -= 1
        self._load(remaining)
        left = self.left
        if self._dead_end():
            self.unpairable.add(remaining)
            return None
        stack = [self._frame(remaining)]
        while stack:
            frame = stack[-1]
            opponent = self._next_fresh(frame)
            if opponent < 0:
                self.unpairable.add(frame.remaining)
                left.put_back(frame.top)
                stack.pop()
                if stack:
                    left.put_back(stack[-1].opponent)
                continue
            rest = frame.remaining ^ (1 << frame.top) ^ (1 << opponent)
            if rest == 0:
                self.loaded = None
                return [(each.top, each.opponent) for each in stack]
            if rest in self.unpairable:
                continue
            if self.steps_left <= 0:
                self.loaded = None
                raise _SearchExhausted
            self.steps_left -= 1
            left.take(opponent)
            if self._dead_end():
                self.unpairable.add(rest)
                left.put_back(opponent)
                continue
            stack.append(self._frame(rest))
        self.loaded = remaining
        return None

    def _dead_end(self) -> bool:
        """Whether someone in `left` has met all the others in it (so cannot be paired).

        Only someone who has met at least `count - 1` entrants can: with fewer past opponents
        than that, no check is needed; otherwise the set is small.
        """
        count = self.left.count
        if count - 1 > self.most_met:
            return False
        positions = self.left.positions()
        met_sets = self.met_sets
        return any(
            len(met_sets[i]) >= count - 1 and all(j in met_sets[i] for j in positions if j != i)
            for i in positions
        )

    def _frame(self, remaining: int) -> _Frame:
        """A frame for `remaining` (which `left` holds), its top taken out of `left`."""
        left = self.left
        top = left.first()
        left.take(top)
        frame = _Frame(remaining, top)
        if self.blocks:
            # `left` holds nothing below `top`: the group is its first `group` entrants.
            group_end = frame.group_end = self.group_end[top]
            group = left.count_below(group_end)
            if group:
                frame.half_way = left.kth((group + 1) // 2)
            else:
                frame.part = _LOWER
                frame.lower = left.first()
        return frame

    def _next(self, frame: _Frame) -> int:
        """The opponent after the frame's current one in `_preferences(frame.top,
        frame.remaining)` (its first one at the start), or -1 past its end; `left` holds the
        frame's remaining entrants but its top."""
        if not self.blocks:
            if frame.listed is None:
                frame.listed = _preferences(self.scores, frame.top, frame.remaining)
            frame.cursor += 1
            return frame.listed[frame.cursor - 1] if frame.cursor <= len(frame.listed) else -1
        left, sentinel = self.left, self.size
        if frame.part == _GROUP_DOWN:
            following = left.after[frame.opponent] if frame.opponent >= 0 else frame.half_way
            if following < frame.group_end:
                return following
            frame.lower = following
            frame.part = _GROUP_UP
            following = left.before[frame.half_way]
            if following != sentinel:
                return following
        elif frame.part == _GROUP_UP:
            following = left.before[frame.opponent]
            if following != sentinel:
                return following
        elif frame.part == _LOWER:
            following = left.after[frame.opponent] if frame.opponent >= 0 else frame.lower
            if following != sentinel:
                return following
            frame.part = _DONE
            return -1
        else:
            return -1
        frame.part = _LOWER
        if frame.lower != sentinel:
            return frame.lower
        frame.part = _DONE
        return -1

    def _next_fresh(self, frame: _Frame) -> int:
        """The frame's next opponent in preference order that `top` has not met, or -1; it
        becomes the frame's current opponent."""
        met = self.met_sets[frame.top]
        while True:
            opponent = self._next(frame)
            frame.opponent = opponent
            if opponent < 0 or opponent not in met:
                return opponent

    def _permissive(self, remaining: int) -> list[tuple[int, int]]:
        self._load(remaining)
        left = self.left
        pairs: list[tuple[int, int]] = []
        while left.count:
            frame = self._frame(remaining)
            # The first opponent not met, or else the first one.
            first = opponent = self._next(frame)
            assert first >= 0, "an odd number of entrants to pair"
            frame.opponent = first
            if first in self.met_sets[frame.top]:
                opponent = self._next_fresh(frame)
                if opponent < 0:
                    opponent = first
            left.take(opponent)
            pairs.append((frame.top, opponent))
            remaining ^= (1 << frame.top) ^ (1 << opponent)
        self.loaded = None
        return pairs


def _preferences(scores: Sequence[float], top: int, remaining: int) -> list[int]:
    """Opponents for `top` (the best-ranked unpaired entrant), most wanted first."""
    others = [i for i in _positions(remaining) if i != top]
    group = [i for i in others if scores[i] == scores[top]]
    lower = [i for i in others if scores[i] != scores[top]]
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
