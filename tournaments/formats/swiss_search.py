"""The Swiss pairing search (decision record 0007): depth first over the entrants' rank
positions, in preference order, skipping rematches, within a step limit; `swiss` calls it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from tournaments.formats.rank_set import RankSet, positions_of

if TYPE_CHECKING:
    from tournaments.formats.swiss import SwissEntrant


class SearchExhausted(Exception):
    pass


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


class PairingSearch:
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
        self.left = RankSet(self.size)
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
        except SearchExhausted:
            self.loaded = None
            return None

    def _load(self, remaining: int) -> None:
        """Makes `left` hold `remaining`, by a few changes when it holds a set close to it."""
        if self.loaded is not None:
            changed = self.loaded ^ remaining
            if changed.bit_count() <= 64:
                for position in positions_of(changed):
                    if not remaining >> position & 1:
                        self.left.take(position)
                for position in positions_of(changed):
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
            raise SearchExhausted
        self.steps_left -= 1
        self._load(remaining)
        if self._dead_end():
            self.unpairable.add(remaining)
            return None
        stack = [self._frame(remaining)]
        while stack:
            frame = stack[-1]
            opponent = self._next_fresh(frame)
            if opponent < 0:
                self._give_up(stack)
                continue
            rest = frame.remaining ^ (1 << frame.top) ^ (1 << opponent)
            if rest == 0:
                self.loaded = None
                return [(each.top, each.opponent) for each in stack]
            deeper = self._enter(rest, opponent)
            if deeper is not None:
                stack.append(deeper)
        self.loaded = remaining
        return None

    def _give_up(self, stack: list[_Frame]) -> None:
        """The deepest frame found no pairing: its set is unpairable, and `left` gets back its
        top and the opponent of the frame below."""
        frame = stack.pop()
        self.unpairable.add(frame.remaining)
        self.left.put_back(frame.top)
        if stack:
            self.left.put_back(stack[-1].opponent)

    def _enter(self, rest: int, opponent: int) -> _Frame | None:
        """A frame for `rest` (the frame above paired with `opponent`), one step counted; None
        when `rest` is known or found to be unpairable."""
        if rest in self.unpairable:
            return None
        if self.steps_left <= 0:
            self.loaded = None
            raise SearchExhausted
        self.steps_left -= 1
        self.left.take(opponent)
        if self._dead_end():
            self.unpairable.add(rest)
            self.left.put_back(opponent)
            return None
        return self._frame(rest)

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
        if frame.part == _LOWER:
            return self._next_lower(frame)
        if frame.part == _DONE:
            return -1
        if frame.part == _GROUP_DOWN:
            following = self._next_down_the_group(frame)
        else:
            following = self._next_up_the_group(frame)
        return following if following >= 0 else self._first_lower(frame)

    def _next_down_the_group(self, frame: _Frame) -> int:
        """The next one from the group's half-way entrant down; past the group, the first one
        above the half-way entrant (-1 when there is none)."""
        left = self.left
        following = left.after[frame.opponent] if frame.opponent >= 0 else frame.half_way
        if following < frame.group_end:
            return following
        frame.lower = following
        frame.part = _GROUP_UP
        following = left.before[frame.half_way]
        return following if following != self.size else -1

    def _next_up_the_group(self, frame: _Frame) -> int:
        following = self.left.before[frame.opponent]
        return following if following != self.size else -1

    def _first_lower(self, frame: _Frame) -> int:
        """The first entrant of the lower groups, once the frame's group is done."""
        frame.part = _LOWER
        if frame.lower != self.size:
            return frame.lower
        frame.part = _DONE
        return -1

    def _next_lower(self, frame: _Frame) -> int:
        following = self.left.after[frame.opponent] if frame.opponent >= 0 else frame.lower
        if following != self.size:
            return following
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
            if first < 0:
                raise RuntimeError("an odd number of entrants to pair")
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
    others = [i for i in positions_of(remaining) if i != top]
    group = [i for i in others if scores[i] == scores[top]]
    lower = [i for i in others if scores[i] != scores[top]]
    half = (len(group) + 1) // 2 - 1
    # `group` excludes `top`: its half-way entrant is at `half` (1 v 3 in a group of four).
    return group[half:] + group[:half][::-1] + lower
