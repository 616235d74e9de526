"""Random legal rounds, for tests and benchmarks. The only randomness here comes from a seed."""

import random
from collections.abc import Iterator

from games.rules.commands import StartRound
from games.rules.replay import legal_cards, play_card, start_round
from games.rules.round_state import RoundState
from games.rules.tables import Table
from games.rules.tricks import Play
from games.rules.variants import DEFAULT_VARIANT, Variant


def simulate_round(
    rng: random.Random, table_size: int, variant: Variant = DEFAULT_VARIANT
) -> RoundState:
    """A finished dealt round: shuffled deck, random dealer, each seat plays a random card."""
    deck = list(Table(table_size, variant).deck)
    rng.shuffle(deck)
    dealer = rng.randrange(table_size)
    state = start_round(StartRound(table_size, dealer, variant=variant, deck=tuple(deck)))
    while state.seat_on_turn is not None:
        state = play_card(state, Play(state.seat_on_turn, rng.choice(legal_cards(state))))
    return state


def simulate_rounds(
    *, table_size: int, rounds: int, seed: int, variant: Variant = DEFAULT_VARIANT
) -> Iterator[RoundState]:
    """`rounds` finished rounds, the same ones for the same seed."""
    rng = random.Random(seed)  # noqa: S311 - seeded simulation, not a secret
    for _ in range(rounds):
        yield simulate_round(rng, table_size, variant)
