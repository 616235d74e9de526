"""bench/append.py's measured runs: raw INSERTs, the framework floor (bench/wsgi.py) and the
scorers through the API, each with its figures; a failed writer stops the benchmark."""

from __future__ import annotations

import argparse

from bench._cpu import CpuMeter
from bench._load import (
    FLOOR_PATH,
    FLOOR_TABLE,
    FloorClient,
    LoadResult,
    RawInserter,
    ScoredRound,
    Scorer,
    create_raw_table,
    run_writers,
    scored_rounds,
)
from bench._server import Server
from bench._support import BenchError, connect, figure, milliseconds, percentile, say

API_DATABASE = "briscola_bench"


def rate_of(result: LoadResult) -> float:
    """Operations per second: requests, appends or inserts, whatever the writers counted."""
    return result.count() / result.seconds


def floor_run(
    args: argparse.Namespace, server: Server, token: str, requests: int, when: str
) -> LoadResult:
    """The framework floor (bench/wsgi.py): as many clients as scorers, each appending to a
    stream of its own with increasing expected versions, on a fresh floor table."""
    create_raw_table(API_DATABASE, FLOOR_TABLE)
    say(f"floor ({when}): {args.clients} clients x {requests} POST {FLOOR_PATH}")
    # Untimed: a few requests per client, so every worker has connected and imported.
    warm_ups = [FloorClient(server.port, token, 10) for _ in range(args.clients)]
    check_errors(
        "floor warm-up",
        run_writers(warm_ups, max_seconds=args.max_seconds, meter=CpuMeter(API_DATABASE)),
    )
    clients = [FloorClient(server.port, token, requests) for _ in range(args.clients)]
    meter = CpuMeter(API_DATABASE, app_group=server.process_group)
    result = run_writers(clients, max_seconds=args.max_seconds, meter=meter)
    check_errors("floor", result)
    latencies = result.latencies("floor")
    p50, p99 = (milliseconds(percentile(latencies, share)) for share in (50, 99))
    figure(
        f"floor requests/s ({when})",
        f"{rate_of(result):,.0f} ({result.count():,} in {result.seconds:.1f} s; "
        f"p50 {p50}, p99 {p99})",
    )
    figure(f"floor CPU per request ({when})", result.cpu.per(result.count()))
    return result


def serve_scorers(
    args: argparse.Namespace,
    server: Server,
    token: str,
    rounds: list[list[ScoredRound]],
    *,
    batch: bool,
) -> LoadResult:
    """Scorers entering rounds through the API: card by card, or with `batch` each round's
    cards in one request (plays/batch/); checked against the log's growth."""
    before = event_count(API_DATABASE)
    way = "a round per request (plays/batch/)" if batch else "card by card"
    say(f"API: {args.clients} scorers x {args.rounds} rounds, {way}")
    keys = args.idempotency_keys
    # Untimed: one round per scorer, so every worker has connected and imported what its
    # first requests import lazily before the clock starts.
    warm_up_rounds = scored_rounds(
        clients=args.clients, rounds=1, table_size=args.table_size, seed=args.seed - 1
    )
    warm_ups = [
        Scorer(server.port, token, r, best_of=1, idempotency_keys=keys) for r in warm_up_rounds
    ]
    warm_up = run_writers(warm_ups, max_seconds=args.max_seconds, meter=CpuMeter(API_DATABASE))
    check_errors("API warm-up", warm_up)
    before += warm_up.count()
    scorers = [
        Scorer(server.port, token, r, best_of=args.best_of, idempotency_keys=keys, batch=batch)
        for r in rounds
    ]
    meter = CpuMeter(API_DATABASE, app_group=server.process_group)
    result = run_writers(scorers, max_seconds=args.max_seconds, meter=meter)
    check_errors("API", result)
    appended = event_count(API_DATABASE) - before
    answered = result.count("create") + result.count("start") + result.cards
    if appended != answered:
        raise BenchError(f"the API answered {answered} appends but the log grew {appended}")
    return result


def raw_run(args: argparse.Namespace, rows_per_writer: int, when: str) -> LoadResult:
    """Raw INSERT + COMMIT writers on a fresh copy of the event table."""
    create_raw_table(API_DATABASE)
    say(f"raw ({when}): {args.clients} writers x {rows_per_writer} single-row INSERT + COMMIT")
    writers = [RawInserter(API_DATABASE, rows_per_writer) for _ in range(args.clients)]
    result = run_writers(writers, max_seconds=args.max_seconds, meter=CpuMeter(API_DATABASE))
    check_errors("raw INSERT", result)
    rate = result.count() / result.seconds
    latencies = result.latencies("insert")
    p50, p99 = (milliseconds(percentile(latencies, share)) for share in (50, 99))
    figure(
        f"raw inserts/s ({when})",
        f"{rate:,.0f} ({result.count():,} in {result.seconds:.1f} s; p50 {p50}, p99 {p99})",
    )
    figure(f"raw CPU per insert ({when})", result.cpu.per(result.count()))
    return result


def check_errors(phase: str, result: LoadResult) -> None:
    if result.errors:
        more = f" (and {len(result.errors) - 1} more)" if len(result.errors) > 1 else ""
        raise BenchError(f"{phase} writer failed: {result.errors[0]}{more}")


def event_count(database: str) -> int:
    with connect(database) as conn:
        row = conn.execute("SELECT count(*) FROM eventstore_event").fetchone()
    return int(row[0]) if row else 0
