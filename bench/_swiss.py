"""bench/tournaments.py's Swiss section: pairing rounds of large fields, timed (issue 13 §4)."""

from __future__ import annotations

import argparse
import itertools
import random
import time

from bench._support import figure, say, verdict
from tournaments.formats.swiss import SwissEntrant, swiss_round

SWISS_TARGET_SECONDS = 2.0
"""Issue 13, section 4: a Swiss round of 4,096 or 10,000 entrants is paired within 2 s."""


def swiss_section(args: argparse.Namespace) -> None:
    for size in args.sizes:
        times = swiss_stage(size, args.rounds, random.Random(f"{args.seed}-{size}"))  # noqa: S311 - seeded benchmark entrants, not a secret
        worst = max(times, key=lambda timed: timed[1])
        verdict(
            f"swiss {size:,} entrants, worst round",
            met=worst[1] <= SWISS_TARGET_SECONDS,
            measured=f"{worst[1]:.3f} s, CPU {worst[2]:.3f} s, in round {worst[0]}",
            target=f"<= {SWISS_TARGET_SECONDS:.0f} s per round",
        )
    for size in args.sizes:
        seconds, cpu, rematches = swiss_exhausted_round(size)
        verdict(
            f"swiss {size:,} entrants, a round that exhausts the search limit",
            met=seconds <= SWISS_TARGET_SECONDS,
            measured=f"{seconds:.3f} s, CPU {cpu:.3f} s, {rematches} rematches",
            target=f"<= {SWISS_TARGET_SECONDS:.0f} s per round",
        )


def swiss_exhausted_round(size: int) -> tuple[float, float, int]:
    """Times a round where the search spends its whole limit: seconds, CPU seconds, rematches.

    The last `closed` entrants (score 0, the others 1) have all met each other: every one of
    them needs an opponent from above, which the search, pairing from the top, finds out only
    near the bottom of each branch.
    """
    closed = min(13, size - 1)
    entrants = list(range(1, size + 1))
    standings = [
        SwissEntrant(entrant, 1 if entrant <= size - closed else 0) for entrant in entrants
    ]
    past = list(itertools.combinations(entrants[size - closed :], 2))
    started, started_cpu = time.perf_counter(), time.process_time()
    round_ = swiss_round(
        rounds=closed + 1, round_number=closed, standings=standings, past_pairings=past
    )
    seconds, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    return seconds, cpu, round_.rematches


def swiss_stage(size: int, rounds: int, rng: random.Random) -> list[tuple[int, float, float]]:
    """Plays a Swiss stage of `rounds` rounds on `size` entrants; (round, seconds, CPU seconds)
    of each."""
    say(f"swiss: {size:,} entrants, {rounds} rounds")
    entrants = list(range(1, size + 1))
    seed_order = {entrant: index for index, entrant in enumerate(entrants)}

    def rank(entrant: int) -> tuple[float, int]:
        return -scores[entrant], seed_order[entrant]

    scores = dict.fromkeys(entrants, 0.0)
    met: list[tuple[int, int]] = []
    byes: list[int] = []
    times = []
    for number in range(1, rounds + 1):
        standings = [
            SwissEntrant(entrant, scores[entrant])
            for entrant in sorted(
                entrants, key=lambda entrant: (-scores[entrant], seed_order[entrant])
            )
        ]
        started, started_cpu = time.perf_counter(), time.process_time()
        round_ = swiss_round(
            rounds=rounds, round_number=number, standings=standings, past_pairings=met, byes=byes
        )
        seconds, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        times.append((number, seconds, cpu))
        figure(
            f"swiss {size:,} entrants, round {number}",
            f"{seconds:.3f} s (CPU {cpu:.3f} s), {len(round_.pairings):,} pairings, "
            f"{round_.rematches} rematches",
        )
        for pairing in round_.pairings:
            met.append((pairing.home, pairing.away))
            outcome = rng.random()
            if outcome < 0.1:
                scores[pairing.home] += 0.5
                scores[pairing.away] += 0.5
            else:
                scores[pairing.home if outcome < 0.55 else pairing.away] += 1
        if round_.bye is not None:
            byes.append(round_.bye)
            scores[round_.bye] += 1
    return times


# Reads of a big tournament under load.
