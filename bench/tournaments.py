"""Benchmark: tournaments with big fields.

Run: .venv/bin/python bench/tournaments.py [--only SECTION] [--sizes N,N,...] [--rounds N]

Sections (all by default; --only picks one):
  swiss  Swiss pairing (tournaments.formats.swiss_round, pure Python, no database): for each
         field size, plays rounds 1 to --rounds with random results (each match a win for
         either side or a tie, scored 1, 0 or 1/2 each) and times the pairing of each round
         alone. Prints each round's time (wall clock, and the CPU time of this process, which
         other work on the machine inflates less) and rematches, the worst round, and PASS or MISS
         against the target (issue 13: at most 2 s per round for 4,096 and 10,000 entrants).
         Then, for each size, a round that spends the whole search limit (the bottom 13
         entrants have all met each other, so 13 entrants from above must come down to them,
         which the depth-first search does not find in 20,000 steps): its time, PASS or MISS.
Figures go to stdout, progress to stderr. Targets are reported as PASS or MISS, never raised.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import sys
import time
from argparse import RawDescriptionHelpFormatter as RawHelp
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._support import code_version, figure, load_average, say, verdict
from tournaments.formats import SwissEntrant, swiss_round

SWISS_SIZES = (1_024, 4_096, 10_000)
SWISS_TARGET_SECONDS = 2.0
"""Issue 13, section 4: a Swiss round of 4,096 or 10,000 entrants is paired within 2 s."""


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=RawHelp)
    parser.add_argument("--only", choices=sorted(SECTIONS), help="run one section (all)")
    parser.add_argument(
        "--sizes",
        type=sizes,
        default=SWISS_SIZES,
        help="swiss: field sizes, comma separated (1024,4096,10000)",
    )
    parser.add_argument("--rounds", type=int, default=12, help="swiss: rounds played (12)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the random results (7)")
    return parser.parse_args()


def sizes(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are integers, got {text!r}") from None
    if any(value < 2 for value in values):
        raise argparse.ArgumentTypeError("a field has at least 2 entrants")
    return values


# Swiss pairing.


def swiss_section(args: argparse.Namespace) -> None:
    for size in args.sizes:
        times = swiss_stage(size, args.rounds, random.Random(f"{args.seed}-{size}"))
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


Section = Callable[[argparse.Namespace], None]
SECTIONS: dict[str, Section] = {"swiss": swiss_section}


def main() -> int:
    args = parse_arguments()
    figure(
        "machine",
        f"{os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}",
    )
    figure("code", code_version())
    figure("load average at the start", load_average())
    try:
        for name, section in SECTIONS.items():
            if args.only in (None, name):
                section(args)
    except KeyboardInterrupt:
        say("bench/tournaments.py: interrupted")
        return 130
    figure("load average at the end", load_average())
    return 0


if __name__ == "__main__":
    sys.exit(main())
