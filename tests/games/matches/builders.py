"""Builders for match-stream tests: matches from a few readable steps, no fixtures."""

import random
from itertools import combinations

from games.matches.stream.commands import (
    CreateMatch,
    EnterRoundPoints,
    MatchCommand,
    PlayCardInRound,
    StartNextRound,
)
from games.matches.stream.decide import decide
from games.matches.stream.events import SideRef
from games.matches.stream.evolve import fold
from games.matches.stream.state import MatchAggregate, swap_cards
from games.rules.cards import Card, parse_card
from games.rules.commands import StartRound
from games.rules.match import MatchFormat
from games.rules.replay import legal_cards, play_card, replay_round, start_command_of, start_round
from games.rules.tables import Table
from games.rules.tricks import Play
from games.rules.variants import DEFAULT_VARIANT


def run(state: MatchAggregate | None, *commands: MatchCommand) -> MatchAggregate:
    """Decide and fold each command in turn, as the service does."""
    for command in commands:
        state = fold(decide(state, command), state)
    assert state is not None
    return state


def new_match(*, table_size: int = 2, best_of: int = 3, scoring: str = "best_of") -> MatchAggregate:
    match_format = MatchFormat(scoring, best_of)  # type: ignore[arg-type]
    sides: tuple[SideRef, ...] = tuple({} for _n in range(Table(table_size).side_count))
    return run(None, CreateMatch(table_size, match_format, sides, DEFAULT_VARIANT))


def scored_round(state: MatchAggregate, *points: int) -> MatchAggregate:
    """Start the next round without a briscola and enter only its points."""
    state = run(state, StartNextRound(briscola=None))
    return run(state, EnterRoundPoints(len(state.rounds), points))


def random_plays(table_size: int, dealer: int, seed: int) -> tuple[str, list[Play]]:
    """The briscola and every play of a legal round dealt by `dealer`."""
    deck = list(Table(table_size).deck)
    rng = random.Random(seed)
    rng.shuffle(deck)
    state = start_round(StartRound(table_size, dealer, deck=tuple(deck)))
    while state.seat_on_turn is not None:
        state = play_card(state, Play(state.seat_on_turn, rng.choice(legal_cards(state))))
    return state.briscola.code, list(state.plays)


def played_round(state: MatchAggregate, *, seed: int, upto: int | None = None) -> MatchAggregate:
    """Start the next round and enter its cards (all, or the first `upto`)."""
    dealer = state.next_dealer
    briscola, plays = random_plays(state.table.size, dealer, seed)
    state = run(state, StartNextRound(briscola=parse_card(briscola)))
    number = len(state.rounds)
    commands = [PlayCardInRound(number, p.seat, p.card) for p in plays[:upto]]
    return run(state, *commands)


def shuffled_deck(table_size: int, seed: int) -> tuple[Card, ...]:
    """The table's deck in a seeded order, as the service would deal it."""
    deck = list(Table(table_size).deck)
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def dealt_round(state: MatchAggregate, *, seed: int, upto: int | None = None) -> MatchAggregate:
    """Start the next round dealt from a seeded deck and play legal cards from the hands (all of
    them, or the first `upto`), each chosen by the same seed."""
    state = run(state, StartNextRound(briscola=None, deck=shuffled_deck(state.table.size, seed)))
    number = len(state.rounds)
    rng = random.Random(seed)
    played = 0
    while upto is None or played < upto:
        cards = state.rounds[-1].cards
        assert cards is not None
        seat = cards.seat_on_turn
        if seat is None:
            break
        state = run(state, PlayCardInRound(number, seat, rng.choice(legal_cards(cards))))
        played += 1
    return state


def legal_swaps(match: MatchAggregate, number: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Each exchange of two plays' cards that leaves round `number` legal, with the points the
    round then has: (index, other index, points)."""
    cards = match.rounds[number - 1].cards
    assert cards is not None
    found = []
    for index, other in combinations(range(len(cards.plays)), 2):
        replayed = replay_round(start_command_of(cards), swap_cards(cards.plays, index, other))
        if replayed.rejection is None and replayed.state.outcome is not None:
            found.append((index, other, replayed.state.outcome.points))
    return found
