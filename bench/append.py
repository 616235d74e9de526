"""Benchmark: appends through the whole HTTP API against the framework floor and raw INSERTs,
and rebuilding the match projections from a large log against a plain fold of it.

Run: .venv/bin/python bench/append.py [--clients N] [--rounds N] [--events N] [--quick]
     [--only api|log]

Full size takes about 3 minutes (plus ~30 s the first time, to generate the log); --quick about
30 s. The targets are those of issue 13 §3.

1. API: serves the app plus the bench's endpoints (bench/wsgi.py) as `make run` and the image
   do: bench.asgi under uvicorn, 4 processes (`--server gunicorn`: bench.wsgi under gunicorn,
   4 sync workers, as the runs before 2026-11-29 did; sync workers keep no connection alive, so
   a scorer's cards go to any worker, whose memo is then behind), DEBUG off, on a free
   loopback port against the database briscola_bench; N scorer threads each enter whole legal
   rounds card by card (create a match, best of 1 by default, start the round, play every
   card); prints plays/s, the p50/p99 latency of the play requests and the CPU
   used per append. Then the same rounds with each round's cards in one request (plays/batch/).
   Target: p99 card latency at most 50 ms.
2. Floor: in the same server, before and after the API runs, N clients with the scorers' token
   POST to /bench/floor/ (the API's authentication and throttles, one expected-version INSERT
   into a trigger-less copy of the event table, one transaction), each to a stream of its own;
   prints requests/s, p50/p99 and CPU per request. Target: API card plays/s at least 60 % of
   the faster floor run's requests/s.
3. Raw: before and after the served phases, N threads do single-row INSERT + COMMIT into a copy
   of the event table (LIKE eventstore_event INCLUDING ALL, no triggers) in the same database;
   prints the API/raw ratio against the faster raw run. Target: batch cards/s at least 50 % of
   raw inserts/s.
4. Log: a log of at least --events match events (whole simulated matches, COPY-loaded into
   briscola_bench_log_<events>, kept for the next run), folded plainly from a server-side cursor
   and then rebuilt into the projections with games.matches.rebuilding.rebuild(); prints
   events/s of both and their ratio. Target: the rebuild within 2x of the plain fold.
Figures go to stdout, progress to stderr. Targets are reported as PASS or MISS, never raised.
The bench databases are the only ones touched; --fresh drops and recreates them.
"""

from __future__ import annotations

import argparse
import sys
import time
from argparse import RawDescriptionHelpFormatter as RawHelp
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._append_runs import (
    API_DATABASE,
    floor_run,
    rate_of,
    raw_run,
    serve_scorers,
)
from bench._load import LoadResult, scored_rounds
from bench._match_log import GENERATOR, cached_log, load_log, plain_fold, vacuum_analyze, warm_up
from bench._server import ServerOptions, serve
from bench._support import (
    OUT_DIR,
    BenchError,
    Progress,
    database_exists,
    drop_database,
    empty_bench_redis,
    figure,
    load_average,
    manage,
    milliseconds,
    percentile,
    prepare_database,
    rebuild_verdict,
    run_script,
    say,
    setup_django,
    verdict,
)

LOG_DATABASE_PREFIX = "briscola_bench_log_"
BENCH_USER = "bench-scorer"

FLOOR_SHARE_TARGET = 0.60
"""Issue 13: API card plays/s against the floor endpoint's requests/s (bench/wsgi.py)."""
CARD_P99_TARGET_SECONDS = 0.050
"""Issue 13: the 99th percentile of the card plays' latency."""
BATCH_SHARE_TARGET = 0.50
"""Issue 13: cards/s through plays/batch/, a whole round a request, against raw inserts/s."""

QUICK = {"clients": 4, "rounds": 2, "events": 20_000, "raw_rows": 200}
FULL = {"clients": 8, "rounds": 10, "events": 1_000_000, "raw_rows": 0}


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=RawHelp)
    parser.add_argument("--quick", action="store_true", help="a small smoke run (well under 1 min)")
    parser.add_argument("--clients", type=int, help="concurrent writers (8; quick: 4)")
    parser.add_argument("--rounds", type=int, help="rounds each scorer enters (10; quick: 2)")
    parser.add_argument(
        "--events", type=int, help="match events in the log (1,000,000; quick: 20,000)"
    )
    parser.add_argument(
        "--raw-rows",
        type=int,
        help="INSERTs per raw writer (default: as many as each scorer appended; quick: 200)",
    )
    parser.add_argument("--table-size", type=int, default=2, choices=[2, 3, 4, 6], help="(2)")
    parser.add_argument(
        "--best-of",
        type=int,
        default=1,
        choices=[1, 3, 5],
        help="matches the scorers play: 1 (default) creates a match per round; with 3 or 5 the "
        "stream, read and folded for every card, grows to several rounds",
    )
    parser.add_argument(
        "--server",
        default="uvicorn",
        choices=["uvicorn", "gunicorn"],
        help="uvicorn (default): bench.asgi as make run and the image serve the app, each "
        "device's keep-alive connection served by one process; gunicorn: bench.wsgi (or "
        "--wsgi-app) under --worker-class, the server of the earlier runs in docs/benchmarks.md",
    )
    parser.add_argument("--workers", type=int, default=4, help="server processes (4)")
    parser.add_argument(
        "--worker-class", default="sync", choices=["sync", "gthread"], help="(sync)"
    )
    parser.add_argument("--threads", type=int, default=1, help="threads per gthread worker (1)")
    parser.add_argument(
        "--wsgi-app",
        default="bench.wsgi:application",
        help="the WSGI application gunicorn serves (bench.wsgi:application: the app and the "
        "floor endpoint), e.g. a variant on PYTHONPATH to compare; it must serve /bench/floor/",
    )
    parser.add_argument(
        "--no-wake-ups",
        action="store_true",
        help="CELERY_WAKE_UPS=false: no Celery message after each command (on by default)",
    )
    parser.add_argument(
        "--idempotency-keys",
        action="store_true",
        help="send an Idempotency-Key with every API write, as a retrying device would",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=300, help="time limit of each load phase (300)"
    )
    parser.add_argument("--seed", type=int, default=7, help="simulation seed (7)")
    parser.add_argument(
        "--only",
        choices=["api", "log"],
        help="run only the API, floor and raw phases, or only the log",
    )
    parser.add_argument(
        "--fresh", action="store_true", help="drop and recreate the bench databases first"
    )
    args = parser.parse_args()
    defaults = QUICK if args.quick else FULL
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    for name in ("clients", "rounds", "events", "workers", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.raw_rows < 0 or args.max_seconds <= 0:
        parser.error("--raw-rows must be 0 or more and --max-seconds positive")
    return args


# 1 to 3: the API against the framework floor and raw INSERTs.


def server_options(args: argparse.Namespace) -> ServerOptions:
    if args.server == "uvicorn":
        return ServerOptions(args.workers, "asgi", 1, "bench.asgi:application", server="uvicorn")
    return ServerOptions(args.workers, args.worker_class, args.threads, args.wsgi_app)


def write_phases(args: argparse.Namespace) -> None:
    """Raw INSERTs, then in one server the floor, the API card by card, the API by batches and
    the floor again, then raw INSERTs again. Each baseline is the faster of its two runs, so a
    transient slowdown of the machine cannot make the API look better than it is."""
    prepare_database(API_DATABASE, fresh=args.fresh)
    token = manage("issue_token", BENCH_USER, database=API_DATABASE).strip()
    if not token.isalnum():
        raise BenchError(f"`manage.py issue_token` printed {token!r}, not a token key")
    rounds = scored_rounds(
        clients=args.clients, rounds=args.rounds, table_size=args.table_size, seed=args.seed
    )
    planned = sum(len(scored.plays) + 2 for client in rounds for scored in client)
    rows = args.raw_rows or max(200, planned // args.clients)

    raw_before = raw_run(args, rows, "before the API")
    wake_ups = not args.no_wake_ups
    options = server_options(args)
    say(f"serving: {options.describe()}")
    if wake_ups:
        empty_bench_redis()
    try:
        with serve(
            options, database=API_DATABASE, log_path=OUT_DIR / "server.log", wake_ups=wake_ups
        ) as server:
            floor_before = floor_run(args, server, token, rows, "before the API")
            api = api_figures(args, serve_scorers(args, server, token, rounds, batch=False))
            batch = batch_figures(args, serve_scorers(args, server, token, rounds, batch=True))
            floor_after = floor_run(args, server, token, rows, "after the API")
    finally:
        if wake_ups:
            queued = empty_bench_redis()
            say(f"emptied the bench Redis database ({queued} keys of Celery wake-ups)")
    raw_after = raw_run(args, rows, "after the API")

    plays_rate = api.count("play") / api.seconds
    floor = max(floor_before, floor_after, key=rate_of)
    floor_rate = rate_of(floor)
    figure("floor requests/s baseline (the faster run)", f"{floor_rate:,.0f}")
    floor_share = plays_rate / floor_rate
    figure("ratio API card plays/s / floor requests/s", f"{floor_share:.1%}")
    verdict(
        f"target API card plays/s >= {FLOOR_SHARE_TARGET:.0%} of floor requests/s",
        met=floor_share >= FLOOR_SHARE_TARGET,
        measured=f"{floor_share:.1%}",
        target=f">= {FLOOR_SHARE_TARGET:.0%}",
    )
    # On a CPU-bound machine, rates are inverse to CPU per operation; CPU time is less moved
    # than rates by other processes sharing the cores.
    api_cpu = api.cpu.total / api.count()
    figure(
        "ratio by CPU cost (floor CPU per request / API CPU per append)",
        f"{floor.cpu.total / floor.count() / api_cpu:.1%}",
    )
    p99 = percentile(api.latencies("play"), 99)
    verdict(
        f"target p99 card latency <= {milliseconds(CARD_P99_TARGET_SECONDS)}",
        met=p99 <= CARD_P99_TARGET_SECONDS,
        measured=milliseconds(p99),
        target=f"<= {milliseconds(CARD_P99_TARGET_SECONDS)}",
    )

    raw = max(raw_before, raw_after, key=rate_of)
    raw_rate = rate_of(raw)
    figure("raw inserts/s baseline (the faster run)", f"{raw_rate:,.0f}")
    figure("ratio API appends / raw inserts", f"{rate_of(api) / raw_rate:.1%}")
    figure(
        "ratio by CPU cost (raw CPU per insert / API CPU per append)",
        f"{raw.cpu.total / raw.count() / api_cpu:.1%}",
    )
    batch_share = batch.cards / batch.seconds / raw_rate
    figure("ratio batch cards/s / raw inserts/s", f"{batch_share:.1%}")
    verdict(
        f"target batch cards/s >= {BATCH_SHARE_TARGET:.0%} of raw inserts/s",
        met=batch_share >= BATCH_SHARE_TARGET,
        measured=f"{batch_share:.1%}",
        target=f">= {BATCH_SHARE_TARGET:.0%}",
    )


def batch_figures(args: argparse.Namespace, result: LoadResult) -> LoadResult:
    if not result.cards:
        raise BenchError(f"no batch was played within --max-seconds {args.max_seconds:g}")
    figure("batch requests (a whole round each)", f"{result.count('batch'):,}")
    figure("batch cards", f"{result.cards:,} in {result.seconds:.1f} s")
    figure("batch cards/s", f"{result.cards / result.seconds:,.0f}")
    latencies = result.latencies("batch")
    figure("batch request latency p50", milliseconds(percentile(latencies, 50)))
    figure("batch request latency p99", milliseconds(percentile(latencies, 99)))
    appends = result.count("create") + result.count("start") + result.cards
    figure("batch CPU per card appended", result.cpu.per(appends))
    return result


def api_figures(args: argparse.Namespace, result: LoadResult) -> LoadResult:
    """The card-by-card run's figures."""
    wake_ups = not args.no_wake_ups
    options = server_options(args)

    plays = result.count("play")
    if not plays:
        raise BenchError(f"no card was played within --max-seconds {args.max_seconds:g}")
    extras = [
        "Celery wake-ups " + ("on" if wake_ups else "off"),
        *(["Idempotency-Key on every write"] if args.idempotency_keys else []),
    ]
    figure("API server", f"{options.describe()}; {', '.join(extras)}")
    figure(
        "API scorers",
        f"{args.clients} concurrent, {result.count('start')} rounds entered at tables of "
        f"{args.table_size}, {result.count('create')} best-of-{args.best_of} matches",
    )
    figure("API plays", f"{plays:,} in {result.seconds:.1f} s")
    figure("API plays/s", f"{plays / result.seconds:,.0f}")
    latencies = result.latencies("play")
    figure("API play latency p50", milliseconds(percentile(latencies, 50)))
    figure("API play latency p99", milliseconds(percentile(latencies, 99)))
    for kind in ("create", "start"):
        figure(f"API {kind} latency p50", milliseconds(percentile(result.latencies(kind), 50)))
    figure("API appends/s (every write appends one event)", f"{rate_of(result):,.0f}")
    figure("API CPU per append", result.cpu.per(result.count()))
    figure("load average after the API run", load_average())
    return result


# 3: rebuilding the projections against a plain fold.


def log_phase(args: argparse.Namespace) -> None:
    database = f"{LOG_DATABASE_PREFIX}{args.events}"
    if args.fresh and database_exists(database):
        say(f"dropping database {database}")
        drop_database(database)
    info = cached_log(database) if database_exists(database) else None
    if info is not None and (info.generator, info.target, info.seed) == (
        GENERATOR,
        args.events,
        args.seed,
    ):
        say(f"log: reusing the {info.events:,} events in {database}")
        generated = False
    else:
        if database_exists(database):
            drop_database(database)
        prepare_database(database, fresh=False)
        say(f"log: generating at least {args.events:,} match events into {database}")
        started = time.perf_counter()
        info = load_log(database, target=args.events, seed=args.seed, processes=2)
        vacuum_analyze(database)
        seconds = time.perf_counter() - started
        figure("log generated", f"{info.events:,} events in {seconds:.1f} s (COPY, vacuumed)")
        generated = True
    figure("log", f"{info.events:,} events, {info.matches:,} matches ({info.generator})")
    if not generated:
        manage("migrate", "--noinput", database=database)
    say(f"warm-up read: {warm_up(database):.1f} s")

    progress = Progress("plain fold", info.events)
    started = time.perf_counter()
    states = plain_fold(database, on_event=progress.tick)
    fold_seconds = time.perf_counter() - started
    fold_rate = info.events / fold_seconds
    figure("plain fold events/s", f"{fold_rate:,.0f} ({fold_seconds:.1f} s)")

    rebuild_seconds, written = timed_rebuild(database, info.events)
    if written != len(states):
        raise BenchError(f"the rebuild wrote {written} matches, the plain fold saw {len(states)}")
    rebuild_rate = info.events / rebuild_seconds
    figure("rebuild_projections events/s", f"{rebuild_rate:,.0f} ({rebuild_seconds:.1f} s)")
    rebuild_verdict(rebuild_seconds, fold_seconds)
    figure("load average after the log phase", load_average())


def timed_rebuild(database: str, events: int) -> tuple[float, int]:
    """games.matches.rebuilding.rebuild() in this process, with Django set up on the log
    database."""
    setup_django(database)
    from django.db import connection

    from games.matches.rebuilding import rebuild

    progress = Progress("rebuild", events, then="every event folded; writing the projection rows")
    try:
        started = time.perf_counter()
        written = rebuild(on_event=progress.tick)
        seconds = time.perf_counter() - started
    finally:
        connection.close()
    return seconds, written


def main() -> int:
    args = parse_arguments()
    return run_script("bench/append.py", lambda: run_phases(args))


def run_phases(args: argparse.Namespace) -> None:
    if args.only != "log":
        write_phases(args)
    if args.only != "api":
        log_phase(args)


if __name__ == "__main__":
    sys.exit(main())
