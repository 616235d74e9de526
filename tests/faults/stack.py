"""The fault suite's own services: a PostgreSQL 15 cluster and a Redis server on free loopback
ports (tests/private_redis.py), which the experiments stop, kill and freeze, and the app on
them (uvicorn and Celery workers: bench/_server.py, tests/workers.py).

Never the shared services (5432, 6379): other test runs use those. Debian's cluster tools
(`pg_createcluster`, `pg_ctlcluster`) make and run the cluster as root; every cluster is named
with FAULTS_PREFIX and the pid of the run that made it, so a later run drops those left by a run
that was killed, and never one of a run still going.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import psycopg
import pytest
from psycopg import sql

from bench._private_redis import PrivateRedis
from bench._server import free_port
from bench._support import LOOPBACK, Backends

T = TypeVar("T")

POSTGRES_VERSION = "15"
FAULTS_PREFIX = "faults_"
COMMAND_TIMEOUT = 120.0


class StackError(Exception):
    """A service of the fault suite could not be brought up or down."""


def wait_until(condition: Callable[[], T], *, timeout: float, what: str) -> T:
    """Poll `condition` until it returns something truthy, at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise StackError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def run(*command: str) -> str:
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False
    )
    if result.returncode != 0:
        raise StackError(f"`{' '.join(command)}` failed ({result.returncode}): {result.stderr}")
    return result.stdout


def available() -> str | None:
    """Why the suite cannot run here (not root, no PostgreSQL 15 tools, no redis-server)."""
    if os.geteuid() != 0:
        return "the fault suite makes PostgreSQL clusters with Debian's tools, as root"
    for tool in ("pg_createcluster", "pg_ctlcluster", "pg_dump", "pg_restore", "redis-server"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    return None


def skip_unless_in_ci(reason: str, environ: Mapping[str, str]) -> NoReturn:
    """A machine that cannot run the fault suite skips it, but CI (`CI` set) fails with the
    reason: a CI run that passed without its fault suite would say nothing of it."""
    if environ.get("CI"):
        pytest.fail(f"the fault suite cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def drop_leftover_clusters() -> list[str]:
    """Drop the clusters of fault-suite runs that are no longer running; their names."""
    dropped = []
    for line in run("pg_lsclusters", "--no-header").splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[0] != POSTGRES_VERSION:
            continue
        name = fields[1]
        owner = name.removeprefix(FAULTS_PREFIX).split("_")[0]
        if name.startswith(FAULTS_PREFIX) and owner.isdigit() and not pid_alive(int(owner)):
            run("pg_dropcluster", "--stop", POSTGRES_VERSION, name)
            dropped.append(name)
    return dropped


class Postgres:
    """A private PostgreSQL cluster on a free port (trust authentication on loopback)."""

    def __init__(self) -> None:
        self.name = f"{FAULTS_PREFIX}{os.getpid()}_{time.monotonic_ns() % 1_000_000}"
        self.port = free_port()
        self.created = False

    def create(self) -> None:
        run(
            "pg_createcluster",
            POSTGRES_VERSION,
            self.name,
            "--port",
            str(self.port),
            # Durable against a crash of PostgreSQL (what the suite does), not of the machine.
            "-o",
            "fsync=off",
            "-o",
            "full_page_writes=off",
            "-o",
            "max_connections=200",
            "--",
            "--auth=trust",
        )
        self.created = True
        self.start()

    def start(self) -> None:
        run("pg_ctlcluster", POSTGRES_VERSION, self.name, "start")
        wait_until(self.answers, timeout=60, what=f"PostgreSQL cluster {self.name}")

    def stop_immediately(self) -> None:
        """`-m immediate`: every backend is killed, nothing is flushed; recovery on start."""
        run("pg_ctlcluster", POSTGRES_VERSION, self.name, "stop", "-m", "immediate")

    def drop(self) -> None:
        if self.created:
            run("pg_dropcluster", "--stop", POSTGRES_VERSION, self.name)
            self.created = False

    def answers(self) -> bool:
        try:
            with self.connect("postgres"):
                return True
        except psycopg.OperationalError:
            return False

    def connect(self, database: str, *, autocommit: bool = True) -> psycopg.Connection[Any]:
        return psycopg.connect(
            host=LOOPBACK,
            port=self.port,
            user="postgres",
            dbname=database,
            autocommit=autocommit,
            connect_timeout=10,
        )

    def create_database(self, name: str, *, template: str | None = None) -> None:
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template is not None:
            statement += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
        with self.connect("postgres") as conn:
            conn.execute(statement)

    def dump(self, database: str, path: Path) -> None:
        """pg_dump of `database` as it is when the dump's snapshot is taken: exported here
        before pg_dump starts, so every write acknowledged after this call began is left out,
        however quickly the writers finish while pg_dump connects."""
        with self.connect(database, autocommit=False) as holding:
            holding.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            row = holding.execute("SELECT pg_export_snapshot()").fetchone()
            assert row is not None
            run(
                "pg_dump",
                f"--host={LOOPBACK}",
                f"--port={self.port}",
                "--username=postgres",
                "--format=custom",
                f"--snapshot={row[0]}",
                f"--file={path}",
                database,
            )

    def restore(self, path: Path, database: str) -> None:
        self.create_database(database)
        run(
            "pg_restore",
            f"--host={LOOPBACK}",
            f"--port={self.port}",
            "--username=postgres",
            "--exit-on-error",
            f"--dbname={database}",
            str(path),
        )


THROTTLES_OFF = {f"API_THROTTLE_{scope}": "none" for scope in ("ANON", "USER", "LOGIN", "TOKEN")}


def backends(postgres: Postgres, redis_server: PrivateRedis) -> Backends:
    """The settings of the app's processes on the private services: throttles off (the
    scorers share a token), warnings only in the logs."""
    return Backends(
        postgres_port=postgres.port,
        redis_url=redis_server.url,
        settings={**THROTTLES_OFF, "LOG_LEVEL": "WARNING"},
    )


def web_workers(master: int) -> list[int]:
    """The pids of a uvicorn master's worker processes (not the resource tracker that
    multiprocessing starts beside them)."""
    children = Path(f"/proc/{master}/task/{master}/children")
    try:
        pids = [int(pid) for pid in children.read_text().split()]
    except OSError:
        return []
    return [pid for pid in pids if b"resource_tracker" not in command_line(pid)]


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
