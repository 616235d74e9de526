"""What the benchmark scripts share: bench databases, the app under gunicorn, figures and verdicts.

Everything runs on this machine and talks over loopback only: PostgreSQL at 127.0.0.1:5432 (user
postgres, trust authentication, as `make services` sets it up) and gunicorn on a free local port.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import math
import os
import platform
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
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


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def stop_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit, so `finally` blocks stop the processes this run started."""

    def handle(signum: int, frame: FrameType | None) -> None:
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


# The app under gunicorn.


@dataclass(frozen=True)
class ServerOptions:
    workers: int
    worker_class: str
    threads: int
    app: str = "config.wsgi:application"

    def describe(self) -> str:
        shape = f"{self.workers} workers"
        if self.worker_class == "gthread":
            shape += f" x {self.threads} threads"
        return f"gunicorn {self.app}, {self.worker_class}, {shape}"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Server:
    port: int
    process_group: int
    """The master's pid, which is also the process group of the master and its workers."""


@contextmanager
def gunicorn(
    options: ServerOptions,
    *,
    database: str,
    log_path: Path,
    wake_ups: bool = True,
    backends: Backends = BENCH,
    startup_seconds: float = 60,
) -> Iterator[Server]:
    """Serve the app on a free loopback port. Always stops the server and its workers."""
    port = free_port()
    command = [
        str(VENV_BIN / "gunicorn"),
        options.app,
        f"--bind={LOOPBACK}:{port}",
        f"--workers={options.workers}",
        f"--worker-class={options.worker_class}",
        f"--threads={options.threads}",
        "--timeout=60",
        "--graceful-timeout=10",
        "--keep-alive=30",
        "--log-level=warning",
    ]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        # A session of its own: the server and its workers form one process group, stopped
        # together at the end even if the master died first.
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=django_environment(database, wake_ups=wake_ups, backends=backends),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_until_healthy(server, port, log_path, startup_seconds)
        yield Server(port, server.pid)
    finally:
        stop_process_group(server)


def wait_until_healthy(
    server: subprocess.Popen[bytes], port: int, log_path: Path, timeout: float
) -> None:
    """Wait for /healthz to say the database answers (Redis is needed only for wake-ups)."""
    deadline = time.monotonic() + timeout
    last_problem = "no answer yet"
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise BenchError(
                f"gunicorn exited with status {server.returncode} before serving; its log "
                f"({log_path}) says:\n{tail(log_path)}"
            )
        try:
            status, body = http_get(port, "/healthz")
        except OSError as error:
            last_problem = str(error)
        else:
            checks = body.get("checks", {}) if isinstance(body, dict) else {}
            if status == 200 or checks.get("database") == "ok":
                if status != 200:
                    say(f"note: /healthz answered {status} ({checks}); the bench needs only the DB")
                return
            last_problem = f"/healthz answered {status}: {body}"
        time.sleep(0.2)
    raise BenchError(
        f"the app did not become healthy within {timeout:.0f} s ({last_problem}); gunicorn log "
        f"({log_path}) says:\n{tail(log_path)}"
    )


def http_get(port: int, path: str) -> tuple[int, object]:
    conn = http.client.HTTPConnection(LOOPBACK, port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        raw = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(raw)
    except ValueError:
        return response.status, raw[:200].decode(errors="replace")


def stop_process_group(process: subprocess.Popen[bytes], grace_seconds: float = 15) -> None:
    """SIGTERM to the process this run started (a group leader), then SIGKILL to its group."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace_seconds)
        except subprocess.TimeoutExpired:
            say(f"process {process.pid} ignored SIGTERM for {grace_seconds:.0f} s: killing it")
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=grace_seconds)


def tail(path: Path, lines: int = 15) -> str:
    """The distinct error lines of a log (the cause is often far above its end), then its end."""
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError as error:
        return f"(cannot read it: {error})"
    errors = [line for line in text if not line[:1].isspace() and "Error" in line.split(":")[0]]
    causes = list(dict.fromkeys(errors))[:5]
    return "\n".join([*causes, "...", *text[-lines:]] if causes else text[-lines:]) or "(empty)"


# CPU time: other processes share the cores, so rates vary between runs; CPU per append does not.

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds used while writing: by the app server (None without one), by this
    database's PostgreSQL backends, and by this process (the load generator)."""

    app: float | None
    postgres: float
    client: float

    @property
    def total(self) -> float:
        return (self.app or 0.0) + self.postgres + self.client

    def per(self, count: int) -> str:
        """Milliseconds per operation, in total and by part."""
        parts = [] if self.app is None else [f"app server {self.app / count * 1000:.2f}"]
        parts += [
            f"PostgreSQL {self.postgres / count * 1000:.2f}",
            f"load generator {self.client / count * 1000:.2f}",
        ]
        return f"{self.total / count * 1000:.2f} ms ({', '.join(parts)})"


def process_stat(pid: int) -> tuple[int, float] | None:
    """A process's group and the CPU seconds it used (user + system), from /proc (Linux)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # from field 3 (state) on
    return int(fields[2]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_group_cpu(group: int) -> float:
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = process_stat(int(entry.name))
            if stat is not None and stat[0] == group:
                total += stat[1]
    return total


class CpuMeter:
    """Measures CpuUse between `start` and `stop`. PostgreSQL backends are those connected to
    `database` (a backend that connects meanwhile counts from its start; keep connections open
    until after `stop`); the app server is gunicorn's process group, when there is one."""

    def __init__(
        self, database: str, app_group: int | None = None, *, port: int = POSTGRES_PORT
    ) -> None:
        self.database = database
        self.app_group = app_group
        self.port = port
        self.backends: dict[int, float] = {}
        self.app = 0.0
        self.client = 0.0

    def backend_cpu(self) -> dict[int, float]:
        with connect(self.database, autocommit=True, port=self.port) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'",
                [self.database],
            ).fetchall()
        used = {}
        for (pid,) in rows:
            stat = process_stat(pid)
            if stat is not None:
                used[pid] = stat[1]
        return used

    def start(self) -> None:
        self.backends = self.backend_cpu()
        self.app = 0.0 if self.app_group is None else process_group_cpu(self.app_group)
        self.client = time.process_time()

    def stop(self) -> CpuUse:
        client = time.process_time() - self.client
        app = None if self.app_group is None else process_group_cpu(self.app_group) - self.app
        postgres = sum(
            used - self.backends.get(pid, 0.0) for pid, used in self.backend_cpu().items()
        )
        return CpuUse(app, postgres, client)


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
