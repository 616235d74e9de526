"""Benchmark: tournaments with big fields (issue 13 §4).

Run: .venv/bin/python bench/tournaments.py [--only swiss|reads] [--quick] [--fresh]
     [--sizes N,N,...] [--rounds N] [--entrants N] [--clients N] [--seconds S]

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
         of every match and tournament stream of the same log: PASS or MISS within 2x. Then
         serves bench.wsgi (the app and the bench's endpoints, bench/wsgi.py) under gunicorn,
         4 sync workers, DEBUG off, and --clients anonymous readers (50; quick 20) poll for
         --seconds each (10; quick 2): the constant GET /bench/constant/ (the baseline), then
         for each tournament the standings, the bracket and the match list (its first page),
         with full bodies and then revalidating with the ETag (If-None-Match, 304). PASS or
         MISS for each read, on the full bodies: requests/s at least 50 % of the constant GET's
         and p99 at most 100 ms. The first run takes ~2 minutes to generate the tournaments
         (full size; the rest ~3 minutes).
Figures go to stdout, progress to stderr. Targets are reported as PASS or MISS, never raised.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import platform
import random
import sys
import threading
import time
from argparse import RawDescriptionHelpFormatter as RawHelp
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any
from uuid import UUID

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._load import ApiClient, Writer, WriterResult, run_writers
from bench._support import (
    OUT_DIR,
    BenchError,
    CpuMeter,
    Progress,
    Server,
    ServerOptions,
    code_version,
    connect,
    database_exists,
    drop_database,
    figure,
    gunicorn,
    load_average,
    milliseconds,
    percentile,
    prepare_database,
    say,
    setup_django,
    stop_on_sigterm,
    verdict,
)
from tournaments.formats import SwissEntrant, swiss_round

SWISS_SIZES = (1_024, 4_096, 10_000)
SWISS_TARGET_SECONDS = 2.0
"""Issue 13, section 4: a Swiss round of 4,096 or 10,000 entrants is paired within 2 s."""

READS_DATABASE_PREFIX = "briscola_bench_tournaments_"
CONSTANT_PATH = "/bench/constant/"
READ_SHARE_TARGET = 0.50
"""Issue 13 §4: each read's requests/s against the constant GET's, same server, same clients."""
READ_P99_TARGET_SECONDS = 0.100
REBUILD_RATIO_TARGET = 2.0
"""Issue 13 §4: rebuild_projections over the generated tournaments within 2x a plain fold."""

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
    args = parser.parse_args()
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.entrants < 4 or args.clients < 1 or args.seconds <= 0 or args.workers < 1:
        parser.error("--entrants >= 4, --clients and --workers >= 1, --seconds > 0")
    return args


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


# Reads of a big tournament under load.


@dataclass(frozen=True)
class BenchTournament:
    format: str
    label: str
    id: UUID


FORMATS = (("swiss", "Swiss"), ("single_elimination", "single elimination"))


def reads_section(args: argparse.Namespace) -> None:
    figure("load average before the reads section", load_average())
    database = f"{READS_DATABASE_PREFIX}{args.entrants}"
    if args.fresh and database_exists(database):
        say(f"dropping database {database}")
        drop_database(database)
    prepare_database(database, fresh=False)
    setup_django(database)
    tournaments = generated_tournaments(args.entrants)
    figure("load average after generating", load_average())
    rebuild_against_fold(database)
    figure("load average after the rebuild", load_average())
    serve_reads(args, database, tournaments)
    figure("load average after the reads", load_average())


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
    from tournaments import projections

    consumed_at = time.perf_counter()
    processed = projections.consume()
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
    from games.services import Actor
    from tournaments.services import registration, running

    actor = Actor(device="bench")
    started = time.perf_counter()
    tournament = registration.tournament_create(
        name=tournament_name(format, entrants),
        format=format,
        table_size=2,
        best_of=1,
        tables=max(1, entrants // 2),
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
    match and tournament stream of the same log."""
    from django.core.management import call_command
    from django.db import connection

    from games.matches.stream import MatchEvent
    from games.matches.stream import evolve as evolve_match
    from tournaments.stream import TournamentEvent
    from tournaments.stream import evolve as evolve_tournament

    say(f"warm-up read: {warm_up(database):.1f} s")
    started = time.perf_counter()
    matches: dict[Any, Any] = {}
    tournaments: dict[Any, Any] = {}
    others = 0
    with connect(database) as conn, conn.cursor(name="bench_plain_fold") as cursor:
        cursor.itersize = 5000
        cursor.execute(PLAIN_READ_ALL)
        for stream_type, stream_id, event_type, payload in cursor:
            if stream_type == "match":
                matches[stream_id] = evolve_match(
                    matches.get(stream_id), MatchEvent(event_type, payload)
                )
            elif stream_type == "tournament":
                tournaments[stream_id] = evolve_tournament(
                    tournaments.get(stream_id), TournamentEvent(event_type, payload)
                )
            else:
                others += 1
    fold_seconds = time.perf_counter() - started
    figure(
        "plain fold",
        f"{fold_seconds:.2f} s: {len(matches):,} matches and {len(tournaments):,} tournaments "
        f"folded, {others:,} events of other streams read",
    )
    output = io.StringIO()
    started = time.perf_counter()
    try:
        call_command("rebuild_projections", "--quiet", stdout=output)
    finally:
        connection.close()
    rebuild_seconds = time.perf_counter() - started
    for line in output.getvalue().splitlines():
        say(f"  {line}")
    figure("rebuild_projections", f"{rebuild_seconds:.2f} s")
    ratio = rebuild_seconds / fold_seconds
    figure("ratio rebuild / plain fold (time)", f"{ratio:.2f}x")
    verdict(
        f"target rebuild within {REBUILD_RATIO_TARGET:g}x of the plain fold",
        met=ratio <= REBUILD_RATIO_TARGET,
        measured=f"{ratio:.2f}x",
        target=f"<= {REBUILD_RATIO_TARGET:g}x",
    )


def warm_up(database: str) -> float:
    """Read the event table once, so both timed readers find it cached."""
    started = time.perf_counter()
    with connect(database) as conn:
        conn.execute("SELECT count(*), sum(length(payload::text)) FROM eventstore_event")
    return time.perf_counter() - started


class Poller(Writer):
    """A page polling one read as an anonymous reader: GETs until told to stop. Full body, or
    with `revalidate` the ETag it got first in If-None-Match (expecting 304 Not Modified)."""

    def __init__(self, port: int, path: str, *, revalidate: bool) -> None:
        self.client = ApiClient(port, None, idempotency_keys=False)
        self.path = path
        self.revalidate = revalidate
        self.headers: dict[str, str] = {}
        self.body = b""

    def open(self) -> None:
        status, body, _seconds = self.client.send("GET", self.path)
        if status != HTTPStatus.OK:
            raise BenchError(f"GET {self.path} answered {status}: {body[:300]!r}")
        self.body = body
        etag = self.client.last_headers.get("ETag")
        if self.revalidate:
            if etag is None:
                raise BenchError(f"GET {self.path} answered without an ETag")
            self.headers = {"If-None-Match": etag}

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        expected = HTTPStatus.NOT_MODIFIED if self.revalidate else HTTPStatus.OK
        while not stop.is_set():
            status, body, seconds = self.client.send("GET", self.path, headers=self.headers)
            if status != expected:
                raise BenchError(f"GET {self.path} answered {status}: {body[:300]!r}")
            result.record("read", seconds)

    def close(self) -> None:
        self.client.close()


@dataclass(frozen=True)
class ReadFigures:
    rate: float
    p50: float
    p99: float
    body: bytes


def poll(
    args: argparse.Namespace,
    server: Server,
    database: str,
    label: str,
    path: str,
    *,
    revalidate: bool = False,
) -> ReadFigures:
    """`args.clients` pollers on one path for `args.seconds`; prints and returns the figures."""
    pollers = [Poller(server.port, path, revalidate=revalidate) for _ in range(args.clients)]
    meter = CpuMeter(database, app_group=server.process_group)
    result = run_writers(pollers, max_seconds=args.seconds, meter=meter)
    if result.errors:
        more = f" (and {len(result.errors) - 1} more)" if len(result.errors) > 1 else ""
        raise BenchError(f"{label}: {result.errors[0]}{more}")
    latencies = result.latencies("read")
    if not latencies:
        raise BenchError(f"{label}: no request was answered within {args.seconds:g} s")
    figures = ReadFigures(
        result.count() / result.seconds,
        percentile(latencies, 50),
        percentile(latencies, 99),
        pollers[0].body,
    )
    figure(
        label,
        f"{figures.rate:,.0f} requests/s ({result.count():,} in {result.seconds:.1f} s), "
        f"p50 {milliseconds(figures.p50)}, p99 {milliseconds(figures.p99)}; CPU per request "
        f"{result.cpu.per(result.count())}",
    )
    return figures


def serve_reads(
    args: argparse.Namespace, database: str, tournaments: list[BenchTournament]
) -> None:
    options = ServerOptions(args.workers, "sync", 1, "bench.wsgi:application")
    say(f"reads: {options.describe()}; {args.clients} clients, {args.seconds:g} s a phase")
    with gunicorn(
        options, database=database, log_path=OUT_DIR / "gunicorn-reads.log", wake_ups=False
    ) as server:
        figure("reads server", f"{options.describe()}, DEBUG off")
        figure("reads clients", f"{args.clients} concurrent, {args.seconds:g} s a phase")
        constant = poll(args, server, database, "constant GET", CONSTANT_PATH)
        for tournament in tournaments:
            for read in READS:
                path = f"/api/v1/tournaments/{tournament.id}/{read}/"
                label = f"{tournament.label} {read}"
                full = poll(args, server, database, f"{label} full body", path)
                figure(f"{label} body", describe_body(read, full.body))
                again = poll(
                    args, server, database, f"{label} revalidating (304)", path, revalidate=True
                )
                share = full.rate / constant.rate
                verdict(
                    f"target {label}",
                    met=share >= READ_SHARE_TARGET and full.p99 <= READ_P99_TARGET_SECONDS,
                    measured=f"{share:.0%} of the constant GET, p99 {milliseconds(full.p99)}; "
                    f"revalidating {again.rate / constant.rate:.0%}, p99 "
                    f"{milliseconds(again.p99)}",
                    target=f">= {READ_SHARE_TARGET:.0%} of the constant GET's requests/s and "
                    f"p99 <= {milliseconds(READ_P99_TARGET_SECONDS)}, full body",
                )
            figure(f"load average after the {tournament.label} reads", load_average())


READS = ("standings", "bracket", "matches")


def describe_body(read: str, body: bytes) -> str:
    """The answer's size, and for the match list how many matches its (first) page holds."""
    size = f"{len(body) / 1024:.1f} KiB"
    if read != "matches":
        return size
    answer = json.loads(body)
    if isinstance(answer, list):
        return f"{size}, {len(answer)} matches (one unpaginated list)"
    return (
        f"{size}, {len(answer['matches'])} matches on the first page, next_after "
        f"{answer.get('next_after')!r}"
    )


Section = Callable[[argparse.Namespace], None]
SECTIONS: dict[str, Section] = {"swiss": swiss_section, "reads": reads_section}


def main() -> int:
    args = parse_arguments()
    stop_on_sigterm()
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
    except BenchError as error:
        say(f"bench/tournaments.py: {error}")
        return 1
    except KeyboardInterrupt:
        say("bench/tournaments.py: interrupted")
        return 130
    figure("load average at the end", load_average())
    return 0


if __name__ == "__main__":
    sys.exit(main())
