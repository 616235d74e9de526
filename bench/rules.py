"""Benchmark: replaying rounds through the rules core against a minimal fold written here.

Run: .venv/bin/python bench/rules.py [--rounds N] [--seed S]
Simulates N seeded dealt rounds per table size, replays them through the core (decide + evolve
with every check, dealt and physical), then folds the same plays with no validation at all (trick
winners and points only), and prints plays per second for each and their ratio.
"""

import argparse
import sys
import time
from argparse import RawDescriptionHelpFormatter as RawHelp
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules.cards import Suit
from games.rules.commands import StartRound
from games.rules.replay import replay_round, start_command_of
from games.rules.simulate import simulate_rounds
from games.rules.tables import TABLE_SIZES
from games.rules.tricks import Play


@dataclass(frozen=True)
class BenchRound:
    dealt: StartRound
    physical: StartRound
    plays: tuple[Play, ...]
    points: tuple[int, ...]


def simulated(rounds: int, seed: int) -> list[BenchRound]:
    bench_rounds = []
    for table_size in TABLE_SIZES:
        for state in simulate_rounds(table_size=table_size, rounds=rounds, seed=seed):
            dealt = start_command_of(state)
            physical = StartRound(table_size, state.dealer, state.briscola, state.variant)
            bench_rounds.append(BenchRound(dealt, physical, state.plays, state.points))
    return bench_rounds


def replay_dealt(rounds: Sequence[BenchRound]) -> list[tuple[int, ...]]:
    return [replay_round(one.dealt, one.plays).state.points for one in rounds]


def replay_physical(rounds: Sequence[BenchRound]) -> list[tuple[int, ...]]:
    return [replay_round(one.physical, one.plays).state.points for one in rounds]


def minimal_fold(rounds: Sequence[BenchRound]) -> list[tuple[int, ...]]:
    """Trick winners and points only: no turn, deck, hand or briscola checks; no events."""
    return [minimal_round_points(one.dealt, one.plays) for one in rounds]


def minimal_round_points(start: StartRound, plays: Sequence[Play]) -> tuple[int, ...]:
    size = start.table_size
    trump = plays_briscola_suit(start)
    points = [0, 0, 0] if size == 3 else [0, 0]
    for first in range(0, len(plays), size):
        trick = plays[first : first + size]
        best = trick[0]
        for play in trick[1:]:
            card, top = play.card, best.card
            if card.suit == top.suit:
                if card.strength > top.strength:
                    best = play
            elif card.suit == trump:
                best = play
        side = best.seat if size == 3 else best.seat % 2
        points[side] += sum(play.card.points for play in trick)
    return tuple(points)


def plays_briscola_suit(start: StartRound) -> Suit:
    if start.deck is None:
        raise RuntimeError("the round starts from a given deck")
    return start.deck[start.table_size * start.variant.hand_size].suit


Fold = Callable[[Sequence[BenchRound]], list[tuple[int, ...]]]
FOLDS: list[tuple[str, Fold]] = [
    ("core replay, dealt", replay_dealt),
    ("core replay, physical", replay_physical),
    ("minimal fold", minimal_fold),
]


def timed(fold: Fold, rounds: list[BenchRound]) -> tuple[float, list[tuple[int, ...]]]:
    """Best of three runs, in seconds, and the points per side it computed for each round."""
    best = float("inf")
    points: list[tuple[int, ...]] = []
    for _ in range(3):
        started = time.perf_counter()
        points = fold(rounds)
        best = min(best, time.perf_counter() - started)
    return best, points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=RawHelp)
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per table size (2000)")
    parser.add_argument("--seed", type=int, default=7, help="simulation seed (7)")
    args = parser.parse_args()

    started = time.perf_counter()
    rounds = simulated(args.rounds, args.seed)
    plays = sum(len(one.plays) for one in rounds)
    seconds = time.perf_counter() - started
    print(f"rounds simulated: {len(rounds)} ({args.rounds} per table size {TABLE_SIZES})")
    print(f"card plays: {plays} (simulated in {seconds:.1f} s)")

    rates = {}
    for label, fold in FOLDS:
        seconds, points = timed(fold, rounds)
        if points != [one.points for one in rounds]:
            raise RuntimeError(f"{label} disagrees on the points")
        rates[label] = plays / seconds
        print(f"{label} plays/s: {rates[label]:,.0f} ({seconds:.3f} s, best of 3)")
    for label, _ in FOLDS[:-1]:
        ratio = rates["minimal fold"] / rates[label]
        print(f"ratio minimal fold / {label}: {ratio:.1f}x")


if __name__ == "__main__":
    main()
