"""A set of rank positions for the Swiss search (`swiss_search`): walked in rank order, taken
out and put back in O(1), counted below a position and indexed by rank in O(log n)."""

from __future__ import annotations

from collections.abc import Sequence


class RankSet:
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


def positions_of(bits: int) -> list[int]:
    """The positions of the bits set in `bits`, lowest first."""
    positions = []
    while bits:
        low = bits & -bits
        positions.append(low.bit_length() - 1)
        bits ^= low
    return positions
