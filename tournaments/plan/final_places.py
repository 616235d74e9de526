"""A finished tournament's final place per entrant (decision record 0037). Pure.

- Knockouts (single and double elimination, a knockout at tables of three, and the knockout of
  groups then knockout): the bracket's places. The winner is 1st and the final's loser 2nd;
  those out in an earlier round share the place after everyone out later (both semi-final
  losers 3rd), unless a match for 3rd place or the double elimination's losers' bracket split
  them. At tables of three, the final table's places, then each earlier round's losers.
- Entrants a bracket did not place (out in the groups of groups then knockout) come after all
  the bracket's places, in the order of the overall standings, sharing a place where the
  standings share a rank.
- Round robin and Swiss (at tables of two or three): the overall standings' rank.

Only the entrants who started count (`state.order`); a tournament not finished has no final
places yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.plan import drawing
from tournaments.state import TournamentState


def final_places(state: TournamentState) -> dict[int, int]:
    """Each entrant's final place (1 is the winner; shared places as in "1, 2, 3, 3, 5"); empty
    while the tournament is not finished."""
    if not state.finished or state.order is None:
        return {}
    placements: tuple[tuple[int, int], ...] = ()
    for stage in drawing.stages(state):
        if stage.bracket_state is not None:
            placements = tuple((p.entrant, p.place) for p in stage.bracket_state.placements)
        elif stage.threes is not None:
            placements = drawing.threes_placements(state, stage)
    ranks = tuple((row.entrant, row.rank) for row in drawing.overall_standings(state))
    return places_of(state.field_order, placements, ranks)


def places_of(
    entrants: Sequence[int],
    placements: Iterable[tuple[int, int]],
    ranks: Iterable[tuple[int, int]],
) -> dict[int, int]:
    """Every entrant's place: the bracket's `placements` first, then the others by their
    standings `ranks` (a competition ranking among themselves, after the placed ones); an
    entrant in neither comes last."""
    wanted = set(entrants)
    placed = {entrant: place for entrant, place in placements if entrant in wanted}
    rank_of = {entrant: rank for entrant, rank in ranks if entrant in wanted}
    others = [entrant for entrant in entrants if entrant not in placed]
    last = 1 + max(rank_of.values(), default=0)
    key = {entrant: rank_of.get(entrant, last) for entrant in others}
    places = dict(placed)
    for entrant in others:
        better = sum(1 for other in others if key[other] < key[entrant])
        places[entrant] = len(placed) + 1 + better
    return places
