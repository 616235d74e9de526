"""What the benchmark scripts share: bench databases, figures and verdicts, a script's run
(the app under gunicorn is bench/_server.py, CPU time bench/_cpu.py).

Everything runs on this machine and talks over loopback only: PostgreSQL at 127.0.0.1:5432 (user
postgres, trust authentication, as `make services` sets it up) and gunicorn on a free local port.
"""

from __future__ import annotations

import math
import os
import platform
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import psycopg
import redis
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
OUT_DIR = ROOT / "bench" / "out"
"""Logs and profiles of bench runs (ignored by git)."""

POSTGRES_HOST = "127.0.0.1"
POSTGRES_PORT = 5432
POSTGRES_USER = "postgres"
MAINTENANCE_DATABASE = "postgres"
LOOPBACK = "127.0.0.1"
BENCH_REDIS_URL = "redis://127.0.0.1:6379/14"
"""A Redis database of the bench's own: the app's Celery wake-ups sent during a bench run must
not reach the development worker (database 0) or the tests (15). Emptied before and after."""


@dataclass(frozen=True)
class Backends:
    """Where a run's Django processes find PostgreSQL and Redis, and the settings they get on top
    of `django_environment`'s. The bench uses the shared services (BENCH); the fault suite
    (tests/faults/) its own cluster and Redis on free ports, which it may stop and freeze."""

    postgres_port: int = POSTGRES_PORT
    redis_url: str = BENCH_REDIS_URL
    settings: Mapping[str, str] = field(default_factory=dict)


BENCH = Backends()


class BenchError(Exception):
    """The benchmark cannot go on; the message says why and, when it can, what to do."""


def say(message: str) -> None:
    """Progress and notes go to stderr, so stdout holds the figures only."""
    print(message, file=sys.stderr, flush=True)


def figure(label: str, value: str) -> None:
    print(f"{label}: {value}", flush=True)


def verdict(label: str, *, met: bool, measured: str, target: str) -> bool:
    """Print PASS or MISS against a target; a miss is reported, never raised."""
    figure(label, f"{'PASS' if met else 'MISS'} (measured {measured}, target {target})")
    return met


def percentile(sorted_values: Sequence[float], percent: float) -> float:
    """Nearest-rank percentile of values already sorted in increasing order."""
    if not sorted_values:
        raise ValueError("no values")
    rank = max(1, math.ceil(percent / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


REBUILD_RATIO_TARGET = 2.0
"""Issue 13: rebuilding the projections takes at most this many times a plain fold of the same
log (bench/append.py's match log, bench/tournaments.py's generated tournaments)."""


def rebuild_verdict(rebuild_seconds: float, fold_seconds: float) -> None:
    """The rebuild's time against the plain fold's, and PASS or MISS against the target."""
    ratio = rebuild_seconds / fold_seconds
    figure("ratio rebuild / plain fold (time)", f"{ratio:.2f}x")
    verdict(
        f"target rebuild within {REBUILD_RATIO_TARGET:g}x of the plain fold",
        met=ratio <= REBUILD_RATIO_TARGET,
        measured=f"{ratio:.2f}x",
        target=f"<= {REBUILD_RATIO_TARGET:g}x",
    )


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def stop_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit, so `finally` blocks stop the processes this run started."""

    def handle(signum: int, frame: FrameType | None) -> None:  # noqa: ARG001 - signal handlers take the frame
        say("stopping: SIGTERM")
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handle)


# The machine.


def machine_summary(postgres_version: str) -> str:
    memory_gib = memory_bytes() / 2**30
    return (
        f"{os.cpu_count()} cores, {memory_gib:.0f} GiB, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, PostgreSQL {postgres_version}"
    )


def load_average() -> str:
    """The 1, 5 and 15 minute load averages: above ~1, other processes share the 2 cores."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def memory_bytes() -> int:
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


# Databases.


def database_url(name: str, *, port: int = POSTGRES_PORT) -> str:
    return f"postgres://{POSTGRES_USER}@{POSTGRES_HOST}:{port}/{name}"


def connect(
    name: str, *, autocommit: bool = False, port: int = POSTGRES_PORT
) -> psycopg.Connection:
    try:
        return psycopg.connect(
            database_url(name, port=port), autocommit=autocommit, connect_timeout=10
        )
    except psycopg.OperationalError as error:
        raise BenchError(
            f"cannot connect to PostgreSQL database {name!r} at {POSTGRES_HOST}:{port} "
            f"as {POSTGRES_USER}: {str(error).strip()}\n"
            "Bring it up with `make services` (or start PostgreSQL 15 locally)."
        ) from error


def postgres_version() -> str:
    with connect(MAINTENANCE_DATABASE, autocommit=True) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]) if row else "unknown"


def database_exists(name: str) -> bool:
    with connect(MAINTENANCE_DATABASE, autocommit=True) as conn:
        row = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    return row is not None


def create_database(name: str) -> None:
    with connect(MAINTENANCE_DATABASE, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(name: str) -> None:
    check_bench_database_name(name)
    with connect(MAINTENANCE_DATABASE, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def check_bench_database_name(name: str) -> None:
    """Never drop anything but a bench database: not the development nor the test one."""
    if not name.startswith("briscola_bench"):
        raise BenchError(f"refusing to drop {name!r}: bench databases start with briscola_bench")


def prepare_database(name: str, *, fresh: bool) -> None:
    """Create the database if missing (or drop it first when `fresh`), then migrate it."""
    if fresh and database_exists(name):
        say(f"dropping database {name}")
        drop_database(name)
    if not database_exists(name):
        say(f"creating database {name}")
        create_database(name)
    started = time.perf_counter()
    manage("migrate", "--noinput", database=name)
    say(f"database {name} migrated ({time.perf_counter() - started:.1f} s)")


def django_environment(
    database: str, *, wake_ups: bool = True, backends: Backends = BENCH
) -> dict[str, str]:
    """The environment of every Django process of a bench run: dev settings, DEBUG off, the
    bench database and the bench's Redis database (or those of `backends`)."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(database, port=backends.postgres_port),
        "REDIS_URL": backends.redis_url,
        "CELERY_BROKER_URL": backends.redis_url,
        "CELERY_RESULT_BACKEND": backends.redis_url,
        # The cache (throttle counts, the credentials generation) beside the broker, under its
        # key prefix: by default it would take the next database, which is the tests' (15).
        "CACHE_REDIS_URL": backends.redis_url,
        "CELERY_WAKE_UPS": "true" if wake_ups else "false",
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        # The clients share one token, or as anonymous readers one address, so the deployed
        # rates would refuse them; and a rate high enough to let them through is an artifact of
        # its own: DRF's throttle keeps every request of its window in one pickled list, which
        # at the bench's rate grows to ~18,000 entries (0.7 ms of pickling and 160 KB to Redis
        # and back on every request), while at the deployed rates (1200/min, 600/min) it holds
        # at most 1,200 (~0.05 ms). So the throttles are off unless the environment says.
        "API_THROTTLE_USER": os.environ.get("API_THROTTLE_USER", "none"),
        "API_THROTTLE_ANON": os.environ.get("API_THROTTLE_ANON", "none"),
        **backends.settings,
    }


def setup_django(database: str) -> None:
    """Set Django up in this process on `database`, as the served app sees it (DEBUG off, no
    Celery wake-ups); once per process."""
    os.environ.update(django_environment(database, wake_ups=False))
    import django

    django.setup()
    from django.conf import settings

    if settings.DATABASES["default"]["NAME"] != database or settings.DEBUG:
        raise BenchError(f"Django is not set up on {database_url(database)} with DEBUG off")


def empty_bench_redis() -> int:
    """Drop the Celery messages the app queued in the bench's Redis database; how many keys."""
    client = redis.Redis.from_url(BENCH_REDIS_URL, socket_connect_timeout=5, socket_timeout=10)
    try:
        keys = int(client.dbsize())
        client.flushdb()
    except redis.RedisError as error:
        raise BenchError(
            f"cannot reach Redis at {BENCH_REDIS_URL}: {error}\n"
            "Bring it up with `make services`, or pass --no-wake-ups to leave Celery out."
        ) from error
    finally:
        client.close()
    return keys


def code_version() -> str:
    """The commit measured, and whether the working tree differs from it."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown (no git)"
    return f"{commit or 'unknown'}{' + uncommitted changes' if changed else ''}"


def manage(*arguments: str, database: str, backends: Backends = BENCH) -> str:
    """Run `manage.py` against the bench database; its stdout, or BenchError with its stderr."""
    command = [str(VENV_BIN / "python"), "manage.py", *arguments]
    result = subprocess.run(
        command,
        cwd=ROOT,
        env=django_environment(database, backends=backends),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if result.returncode != 0:
        raise BenchError(
            f"`manage.py {' '.join(arguments)}` failed ({result.returncode}):\n"
            f"{(result.stderr or result.stdout).strip()[-3000:]}"
        )
    return result.stdout


# Progress over long loops.


class Progress:
    """Counts ticks and prints a line to stderr every `every` ticks and at `total`, then the
    `then` note (what happens after the last tick); cheap enough to call once per event."""

    def __init__(self, label: str, total: int, *, every: int = 100_000, then: str = "") -> None:
        self.label = label
        self.total = total
        self.every = every
        self.then = then
        self.count = 0
        self.next_report = self.next_stop()
        self.started = time.perf_counter()

    def next_stop(self) -> int:
        following = (self.count // self.every + 1) * self.every
        return min(following, self.total) if self.count < self.total else following

    def tick(self) -> None:
        self.count += 1
        if self.count >= self.next_report:
            self.report()

    def report(self) -> None:
        seconds = time.perf_counter() - self.started
        rate = self.count / seconds if seconds > 0 else 0.0
        share = f" ({self.count / self.total:.0%})" if self.total else ""
        say(f"  {self.label}: {self.count:,}{share}, {seconds:.1f} s, {rate:,.0f}/s")
        if self.count == self.total and self.then:
            say(f"  {self.label}: {self.then}")
        self.next_report = self.next_stop()


# A script's run.


def run_script(
    script: str,
    body: Callable[[], None],
    *,
    machine: Callable[[], str] | None = None,
    load_at_the_end: bool = False,
) -> int:
    """A benchmark script's run: SIGTERM stops it, the machine (by default with PostgreSQL's
    version), the code and the load average are printed, then `body` runs; a BenchError or
    Ctrl-C ends it with a line on stderr and the exit status 1 or 130."""
    stop_on_sigterm()
    try:
        figure("machine", machine() if machine else machine_summary(postgres_version()))
        figure("code", code_version())
        figure("load average at the start", load_average())
        body()
    except BenchError as error:
        say(f"{script}: {error}")
        return 1
    except KeyboardInterrupt:
        say(f"{script}: interrupted")
        return 130
    if load_at_the_end:
        figure("load average at the end", load_average())
    return 0
