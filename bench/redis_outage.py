"""Benchmark: write latency through the HTTP API with Redis up, stopped and frozen (issue 10 §2).

Run: .venv/bin/python bench/redis_outage.py [--rounds N] [--workers N] [--fresh]

Serves the app under gunicorn (DEBUG off, wake-ups on) against the database briscola_bench_redis,
with the Celery broker and the throttles' cache on a private `redis-server` that this script
starts on a free loopback port (never the shared Redis). Each phase has a fresh Redis and a
fresh server (no breaker left open by an earlier phase): one scorer enters 2 rounds with Redis up
(the connections are open, as in production), then the fault comes, then it enters --rounds
legal rounds card by card in best-of-1 matches (with idempotency keys), which are measured:

1. up: Redis answers;
2. stopped: Redis killed (connections refused);
3. frozen: Redis SIGSTOPped (connections accepted, nothing answered).

Prints, per phase, the p50, p99 and slowest of the card plays and of all writes, and whether
every answer was a 201 (any other answer stops the run). The design's bound (decision 0021) is
a p99 under 100 ms whatever Redis does; it is reported as PASS or MISS, never raised.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._load import Scorer, WriterResult, scored_rounds
from bench._private_redis import PrivateRedis
from bench._server import ServerOptions, gunicorn
from bench._support import (
    OUT_DIR,
    Backends,
    figure,
    manage,
    milliseconds,
    percentile,
    prepare_database,
    run_script,
    say,
    verdict,
)

DATABASE = "briscola_bench_redis"
BENCH_USER = "bench-redis-scorer"
P99_BOUND = 0.1


@contextmanager
def private_redis(log_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(log_path)
    try:
        server.start()
        yield server
    finally:
        server.stop()


def report(phase: str, result: WriterResult) -> None:
    plays = sorted(result.latencies.get("play", []))
    writes = sorted(value for values in result.latencies.values() for value in values)
    for label, values in (("card plays", plays), ("all writes", writes)):
        figure(
            f"Redis {phase}, {label} ({len(values)})",
            f"p50 {milliseconds(percentile(values, 50))}, "
            f"p99 {milliseconds(percentile(values, 99))}, max {milliseconds(values[-1])}",
        )
    verdict(
        f"Redis {phase}, p99 of all writes",
        met=percentile(writes, 99) < P99_BOUND,
        measured=milliseconds(percentile(writes, 99)),
        target=f"< {milliseconds(P99_BOUND)}",
    )


def phase(port: int, token: str, rounds: int, seed: int) -> WriterResult:
    (scored,) = scored_rounds(clients=1, rounds=rounds, table_size=2, seed=seed)
    scorer = Scorer(port, token, scored, best_of=1, idempotency_keys=True)
    result = WriterResult()
    try:
        scorer.run(result, threading.Event())
    finally:
        scorer.close()
    return result


def measure(fault: str, options: ServerOptions, token: str, rounds: int, seed: int) -> WriterResult:
    """A fresh Redis and a fresh server (so no breaker is open from an earlier phase), a
    warm-up match entered with Redis up, then the fault, then the measured rounds."""
    with (
        private_redis(OUT_DIR / "redis_outage.redis.log") as redis_server,
        gunicorn(
            options,
            database=DATABASE,
            log_path=OUT_DIR / "redis_outage.gunicorn.log",
            backends=Backends(redis_url=redis_server.url),
        ) as server,
    ):
        phase(server.port, token, rounds=2, seed=seed + 100)
        if fault != "up":
            redis_server.fail(fault)
        return phase(server.port, token, rounds, seed=seed)


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds per phase (40 plays each)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--fresh", action="store_true", help="drop and recreate the database")
    return parser.parse_args()


def main() -> int:
    args = parse_arguments()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    return run_script("bench/redis_outage.py", lambda: run_phases(args))


def run_phases(args: argparse.Namespace) -> None:
    prepare_database(DATABASE, fresh=args.fresh)
    token = manage("issue_token", BENCH_USER, database=DATABASE).strip()
    options = ServerOptions(workers=args.workers, worker_class="sync", threads=1)
    figure("server", options.describe())
    for number, fault in enumerate(("up", "stopped", "frozen"), start=1):
        say(f"phase {number}: Redis {fault}")
        report(fault, measure(fault, options, token, args.rounds, seed=number))


if __name__ == "__main__":
    sys.exit(main())
