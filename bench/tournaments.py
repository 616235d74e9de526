"""Benchmark: tournaments with big fields (issue 13 §4).

Run: .venv/bin/python bench/tournaments.py [--only swiss|reads|rebuild] [--quick] [--fresh]
     [--sizes N,N,...] [--rounds N] [--entrants N] [--clients N] [--seconds S] [--database D]

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
  reads  A Swiss and a single-elimination tournament of --entrants entrants (1,024; --quick 64),
         created, registered and started through tournaments.services in the database
         briscola_bench_tournaments_<entrants> (kept for the next run; --fresh makes them
         again), then projected by the tournament consumer; prints how long that takes. Then
         `manage.py rebuild_projections` (in this process) timed against a plain read and fold
         of every match and tournament stream of the same log: PASS or MISS within 2x (and the
         CPU of each, this process and PostgreSQL, which other work inflates less). Then
         serves bench.wsgi (the app and the bench's endpoints, bench/wsgi.py) under gunicorn,
         4 sync workers, DEBUG off, and --clients anonymous readers (50; quick 20) poll for
         --seconds each (10; quick 2): the constant GET /bench/constant/ (the baseline), then
         for each tournament the standings, the bracket and the match list (its first page),
         with full bodies and then revalidating with the ETag (If-None-Match, 304). PASS or
         MISS for each read, on the full bodies: requests/s at least 50 % of the constant GET's
         and p99 at most 100 ms (the share by CPU per request printed beside it). The first
         run takes ~2 minutes to generate the tournaments (full size; the rest ~3 minutes).
  rebuild  The reads section without the served reads: the two tournaments (generated when
         missing), then the rebuild against the plain fold (~15 s once generated).
Figures go to stdout, progress to stderr. Targets are reported as PASS or MISS, never raised.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import platform
import sys
import time
from argparse import RawDescriptionHelpFormatter as RawHelp
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._cpu import CpuMeter, CpuUse
from bench._reads import BenchTournament, serve_reads
from bench._support import (
    BenchError,
    Progress,
    connect,
    database_exists,
    drop_database,
    figure,
    load_average,
    prepare_database,
    rebuild_verdict,
    run_script,
    say,
    setup_django,
)
from bench._swiss import swiss_section

SWISS_SIZES = (1_024, 4_096, 10_000)
READS_DATABASE_PREFIX = "briscola_bench_tournaments_"

QUICK = {"entrants": 64, "clients": 20, "seconds": 2.0}
FULL = {"entrants": 1_024, "clients": 50, "seconds": 10.0}


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
    parser.add_argument("--quick", action="store_true", help="reads: a small smoke run")
    parser.add_argument("--entrants", type=int, help="reads: entrants per tournament (1024)")
    parser.add_argument("--clients", type=int, help="reads: concurrent readers (50)")
    parser.add_argument("--seconds", type=float, help="reads: seconds of each phase (10)")
    parser.add_argument("--workers", type=int, default=4, help="reads: gunicorn sync workers (4)")
    parser.add_argument(
        "--fresh", action="store_true", help="reads: drop and generate the bench database again"
    )
    parser.add_argument(
        "--database",
        help=f"reads: the bench database ({READS_DATABASE_PREFIX}<entrants>; the name must "
        "start with briscola_bench)",
    )
    args = parser.parse_args()
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.entrants < 4 or args.clients < 1 or args.seconds <= 0 or args.workers < 1:
        parser.error("--entrants >= 4, --clients and --workers >= 1, --seconds > 0")
    if args.database is None:
        args.database = f"{READS_DATABASE_PREFIX}{args.entrants}"
    elif not args.database.startswith("briscola_bench"):
        parser.error("--database: bench databases start with briscola_bench")
    return args


def sizes(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are integers, got {text!r}") from None
    if any(value < 2 for value in values):
        raise argparse.ArgumentTypeError("a field has at least 2 entrants")
    return values


# The reads: two generated tournaments, the rebuild against a plain fold, the served reads.


FORMATS = (("swiss", "Swiss"), ("single_elimination", "single elimination"))


def reads_section(args: argparse.Namespace, *, served: bool = True) -> None:
    figure("load average before the reads section", load_average())
    database = args.database
    if args.fresh and database_exists(database):
        say(f"dropping database {database}")
        drop_database(database)
    prepare_database(database, fresh=False)
    setup_django(database)
    tournaments = generated_tournaments(args.entrants)
    figure("load average after generating", load_average())
    rebuild_against_fold(database)
    figure("load average after the rebuild", load_average())
    if served:
        serve_reads(args, database, tournaments)
        figure("load average after the reads", load_average())


def rebuild_section(args: argparse.Namespace) -> None:
    reads_section(args, served=False)


def tournament_name(format: str, entrants: int) -> str:
    return f"Bench {format} {entrants}"


def generated_tournaments(entrants: int) -> list[BenchTournament]:
    """The bench's two tournaments of `entrants` entrants, started: found when a previous run
    made them (and the consumer projected them), else made now through the services."""
    from django.db import connection

    from tournaments.models import Tournament, TournamentView

    found = []
    for format, label in FORMATS:
        tournament = Tournament.objects.filter(name=tournament_name(format, entrants)).first()
        if tournament is None or not TournamentView.objects.filter(tournament=tournament).exists():
            break
        found.append(BenchTournament(format, label, tournament.id))
    else:
        say(f"reads: reusing the two tournaments of {entrants:,} entrants")
        return found
    if Tournament.objects.exists():
        connection.close()
        raise BenchError(
            f"{connection.settings_dict['NAME']} holds other tournaments, or half-made ones: "
            "run again with --fresh"
        )
    started = time.perf_counter()
    made = [generate_tournament(format, label, entrants) for format, label in FORMATS]
    from tournaments.projections import consumer

    consumed_at = time.perf_counter()
    processed = consumer.consume()
    seconds = time.perf_counter() - consumed_at
    say(f"  the tournament consumer read {processed:,} events ({seconds:.1f} s)")
    figure(
        "tournaments generated",
        f"2 x {entrants:,} entrants through the services in {time.perf_counter() - started:.1f} s",
    )
    connection.close()
    return made


def generate_tournament(format: str, label: str, entrants: int) -> BenchTournament:
    """Create, register `entrants` singles, start: as an organizer's console would."""
    from common.actors import Actor
    from tournaments.services import registration, running

    actor = Actor(device="bench")
    started = time.perf_counter()
    tournament = registration.tournament_create(
        name=tournament_name(format, entrants),
        format=format,
        table_size=2,
        best_of=1,
        tables=None,  # by need (decision 0049): a table for every match of the first round
        actor=actor,
    )
    progress = Progress(f"{label}: entrants registered", entrants, every=max(1, entrants // 8))
    for number in range(1, entrants + 1):
        registration.entrant_register(
            tournament_id=tournament.id,
            name=f"Entrant {number:05d}",
            players=[f"Player {number:05d}"],
            actor=actor,
        )
        progress.tick()
    start_at = time.perf_counter()
    running.tournament_start(tournament_id=tournament.id, actor=actor)
    say(f"  {label}: started ({time.perf_counter() - start_at:.1f} s)")
    figure(
        f"{label} generated",
        f"{entrants:,} entrants registered and started in {time.perf_counter() - started:.1f} s",
    )
    return BenchTournament(format, label, tournament.id)


PLAIN_READ_ALL = """
SELECT stream_type, stream_id, event_type, payload FROM eventstore_event
ORDER BY global_position
"""


def rebuild_against_fold(database: str) -> None:
    """`manage.py rebuild_projections` (in this process) against a plain read and fold of every
    match and tournament stream of the same log; each timed, and its CPU (this process and its
    PostgreSQL backend, which other work on the machine inflates less) measured."""
    from django.core.management import call_command
    from django.db import connection

    from games.matches.stream.events import match_event_from_stored
    from games.matches.stream.evolve import evolve as evolve_match
    from tournaments.stream.events import decode as decode_tournament_event
    from tournaments.stream.evolve import evolve as evolve_tournament

    say(f"warm-up read: {warm_up(database):.1f} s")
    # What generating the tournaments left alive in this process (a run that generates them)
    # would otherwise be walked by every collection the plain fold's allocations start (the
    # rebuild pauses the collector): such a run timed the plain fold twice as slow as the next.
    gc.collect()
    gc.freeze()
    matches: dict[Any, Any] = {}
    tournaments: dict[Any, Any] = {}
    others = 0
    with connect(database) as conn:
        meter = CpuMeter(database)
        meter.start()
        started = time.perf_counter()
        with conn.cursor(name="bench_plain_fold") as cursor:
            cursor.itersize = 5000
            cursor.execute(PLAIN_READ_ALL)
            for stream_type, stream_id, event_type, payload in cursor:
                if stream_type == "match":
                    matches[stream_id] = evolve_match(
                        matches.get(stream_id), match_event_from_stored(event_type, payload)
                    )
                elif stream_type == "tournament":
                    tournaments[stream_id] = evolve_tournament(
                        tournaments.get(stream_id), decode_tournament_event(event_type, payload)
                    )
                else:
                    others += 1
        fold_seconds = time.perf_counter() - started
        fold_cpu = meter.stop()
    figure(
        "plain fold",
        f"{fold_seconds:.2f} s: {len(matches):,} matches and {len(tournaments):,} tournaments "
        f"folded, {others:,} events of other streams read; CPU {cpu_seconds(fold_cpu)}",
    )
    output = io.StringIO()
    connection.ensure_connection()
    try:
        meter = CpuMeter(database)
        meter.start()
        started = time.perf_counter()
        call_command("rebuild_projections", "--quiet", stdout=output)
        rebuild_seconds = time.perf_counter() - started
        rebuild_cpu = meter.stop()
    finally:
        connection.close()
    for line in output.getvalue().splitlines():
        say(f"  {line}")
    figure("rebuild_projections", f"{rebuild_seconds:.2f} s; CPU {cpu_seconds(rebuild_cpu)}")
    figure(
        "ratio rebuild / plain fold (CPU, this process and PostgreSQL)",
        f"{rebuild_cpu.total / fold_cpu.total:.2f}x",
    )
    rebuild_verdict(rebuild_seconds, fold_seconds)


def cpu_seconds(used: CpuUse) -> str:
    return f"{used.total:.2f} s (this process {used.client:.2f}, PostgreSQL {used.postgres:.2f})"


def warm_up(database: str) -> float:
    """Read the event table once, so both timed readers find it cached."""
    started = time.perf_counter()
    with connect(database) as conn:
        conn.execute("SELECT count(*), sum(length(payload::text)) FROM eventstore_event")
    return time.perf_counter() - started


Section = Callable[[argparse.Namespace], None]
SECTIONS: dict[str, Section] = {
    "swiss": swiss_section,
    "reads": reads_section,
    "rebuild": rebuild_section,
}


def main() -> int:
    args = parse_arguments()
    return run_script(
        "bench/tournaments.py", lambda: run_sections(args), machine=machine, load_at_the_end=True
    )


def run_sections(args: argparse.Namespace) -> None:
    for name, section in SECTIONS.items():
        # The reads section times the rebuild too: a run of every section skips this one.
        if args.only == name or (args.only is None and name != "rebuild"):
            section(args)


def machine() -> str:
    return (
        f"{os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


if __name__ == "__main__":
    sys.exit(main())
