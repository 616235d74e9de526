"""Small builders for format tests: fields of entrants and brackets played to the end."""

import random
from collections.abc import Callable

from tournaments.formats.bracket import Bracket
from tournaments.formats.resolution import BracketState, Occupant, SlotState, resolve

Pick = Callable[[SlotState], int]


def field(size: int, *, first_id: int = 101) -> list[int]:
    """Entrant ids in seed order; offset from the seeds so a mixed-up index shows in a test."""
    return list(range(first_id, first_id + size))


def seed_of(bracket: Bracket, entrant: int) -> int:
    return bracket.entrants.index(entrant) + 1


def higher_seed_wins(bracket: Bracket) -> Pick:
    return lambda state: min(state.entrants, key=lambda entrant: seed_of(bracket, entrant))


def random_winner(rng: random.Random) -> Pick:
    return lambda state: rng.choice(state.entrants)


def play_out(bracket: Bracket, pick: Pick) -> tuple[BracketState, dict[str, int]]:
    """Play every ready slot, round after round, until the bracket is finished."""
    results: dict[str, int] = {}
    while True:
        state = resolve(bracket, results)
        if state.finished:
            return state, results
        assert state.ready, "an unfinished bracket always has a slot ready to play"
        for slot_id in state.ready:
            results[slot_id] = pick(state.slot(slot_id))


def first_round_pairs(bracket: Bracket) -> list[tuple[int | None, int | None]]:
    """The first round as (home, away) entrants, a bye as None, in bracket order."""
    state = resolve(bracket, {})
    return [
        (_entrant(state.slot(slot_id).home), _entrant(state.slot(slot_id).away))
        for slot_id in bracket.rounds[0].slot_ids
    ]


def _entrant(side: Occupant) -> int | None:
    return side if isinstance(side, int) else None
