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
from tournaments.formats.same_group import SameGroup
from tournaments.formats.swiss_groups import group_draw
from tournaments.formats.swiss_search import PairingSearch

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
    same_group: int = 0
    """Pairings of two entrants of one group (decision record 0057): zero under a strict rule."""


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
    same_group: SameGroup | None = None,
) -> SwissRound:
    """The pairings (and bye) of round `round_number` of a Swiss stage of `rounds` rounds.

    `standings` lists the active entrants in rank order, best first. Past pairings and byes that
    name entrants no longer in the standings (withdrawn) are ignored. `same_group`: entrants of
    one group kept apart in this round (`swiss_groups`, decision record 0057).
    """
    check_swiss_round(rounds, round_number)
    check_entrants(standing.entrant for standing in standings)
    check_search_limit(search_limit)

    ranked = ranked_by_score(standings)
    search = PairingSearch(ranked, past_pairings, search_limit)
    had_bye = set(byes)
    drawn = None
    if same_group is not None and same_group.matters(s.entrant for s in ranked):
        drawn = group_draw(ranked, search.met_sets, had_bye, same_group, search_limit, round_number)
    if drawn is None:
        drawn = search.pair_with_bye(had_bye) if len(ranked) % 2 else (None, search.pair(0))
    bye, pairs = drawn
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
        same_group=0 if same_group is None else same_group.count(pairings_of(pairings)),
    )


def pairings_of(pairings: Iterable[Pairing]) -> list[tuple[int, int]]:
    return [pairing.entrants for pairing in pairings]


def check_swiss_round(rounds: int, round_number: int) -> None:
    """A Swiss stage has rounds, and `round_number` is one of them."""
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


def check_search_limit(search_limit: int) -> None:
    if search_limit < 0:
        raise InvalidFormatOption.because(
            gettext_noop("the search limit cannot be negative, got %(limit)s"), limit=search_limit
        )


def ranked_by_score(standings: Sequence[SwissEntrant]) -> list[SwissEntrant]:
    """By score, best first, then in the given rank order."""
    order = {standing.entrant: index for index, standing in enumerate(standings)}
    return sorted(standings, key=lambda standing: (-standing.score, order[standing.entrant]))
