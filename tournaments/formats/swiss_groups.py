"""A Swiss round drawn with entrants of one group kept apart (decision record 0057); `swiss`
calls it when the round has a rule and two entrants of one group.

Positions are rank positions (0 is the best-ranked), as in `swiss_search`; the preference order
is the plain draw's, so without groups to avoid the draw is the one `swiss_search` finds.

- strict: the bye goes to the lowest-ranked entrant who has not had one for whom the others
  can be paired with neither a same-group pairing nor a rematch; failing that, with no
  same-group pairing and the fewest rematches. None: refused (`NoDrawWithoutSameGroup`).
- soft: the bye as in the plain draw (the lowest-ranked for whom a rematch-free pairing
  exists), and among the rematch-free pairings the fewest same-group ones. When no rematch-free
  pairing exists (or none is found within the limit), the plain draw, groups aside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from common.explained import gettext_noop
from tournaments.formats.errors import NoDrawWithoutSameGroup
from tournaments.formats.same_group import BudgetedPairing, SameGroup, SearchExhausted
from tournaments.formats.swiss_search import _preferences

if TYPE_CHECKING:
    from tournaments.formats.swiss import SwissEntrant

Draw = tuple[int | None, list[tuple[int, int]]]


def group_draw(
    ranked: Sequence[SwissEntrant],
    met_sets: Sequence[set[int]],
    had_bye: set[int],
    rule: SameGroup,
    limit: int,
    round_number: int,
) -> Draw | None:
    """The bye (a position, or None) and pairs (positions, higher-ranked first); None: no soft
    draw better than the plain one."""
    size = len(ranked)
    scores = [standing.score for standing in ranked]
    entrants = [standing.entrant for standing in ranked]
    same = [
        {j for j in range(size) if j != i and rule.meet(entrants[i], entrants[j])}
        for i in range(size)
    ]
    everyone = (1 << size) - 1
    candidates: list[int | None] = [None]
    if size % 2:
        candidates = [
            index for index in range(size - 1, -1, -1) if entrants[index] not in had_bye
        ] or list(range(size - 1, -1, -1))

    def playing(candidate: int | None) -> int:
        return everyone if candidate is None else everyone & ~(1 << candidate)

    def preferences(top: int, remaining: int) -> list[int]:
        return _preferences(scores, top, remaining)

    steps = [max(limit, size)]
    try:
        if rule.strict:
            found = _strict(entrants, candidates, playing, preferences, met_sets, same, rule, steps)
        else:
            found = _soft(candidates, playing, preferences, met_sets, same, steps)
    except SearchExhausted:
        if not rule.strict:
            return None
        raise NoDrawWithoutSameGroup.because(
            gettext_noop(
                "no draw of round %(round)s keeping entrants of one group apart was found "
                "within the search limit"
            ),
            round=round_number,
        ) from None
    if found is None and rule.strict:
        raise NoDrawWithoutSameGroup.because(
            gettext_noop(
                "no draw of round %(round)s keeps entrants of one group apart: too many of them "
                "are of one group, or have met the others already"
            ),
            round=round_number,
        )
    return found


def _soft(
    candidates: Sequence[int | None],
    playing: Callable[[int | None], int],
    preferences: Callable[[int, int], Sequence[int]],
    met_sets: Sequence[set[int]],
    same: Sequence[set[int]],
    steps: list[int],
) -> Draw | None:
    search = BudgetedPairing(preferences, met_sets, same, steps)
    for candidate in candidates:
        found = search.fewest(playing(candidate))
        if found is not None:
            return candidate, found
    return None


def _strict(
    entrants: Sequence[int],
    candidates: Sequence[int | None],
    playing: Callable[[int | None], int],
    preferences: Callable[[int, int], Sequence[int]],
    met_sets: Sequence[set[int]],
    same: Sequence[set[int]],
    rule: SameGroup,
    steps: list[int],
) -> Draw | None:
    size = len(entrants)
    possible = [
        candidate
        for candidate in candidates
        if 2 * rule.largest(e for i, e in enumerate(entrants) if i != candidate)
        <= size - (candidate is not None)
    ]
    both = [met | apart for met, apart in zip(met_sets, same, strict=True)]
    clean = BudgetedPairing(preferences, both, [set() for _ in range(size)], steps)
    for candidate in possible:
        found = clean.search(playing(candidate), 0)
        if found is not None:
            return candidate, found
    apart = BudgetedPairing(preferences, same, met_sets, steps)
    for candidate in possible:
        found = apart.fewest(playing(candidate))
        if found is not None:
            return candidate, found
    return None
