"""The fault suite's stack (a private PostgreSQL cluster and Redis, with two API tokens), its
sizes (FAULTS_PROFILE), and the app a test runs on it: uvicorn and Celery workers on a database
of its own. The fixtures that make them are in tests/faults/conftest.py."""

from __future__ import annotations

import os
import re
import signal
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from bench._private_redis import PrivateRedis
from bench._server import Server, uvicorn
from bench._support import Backends, django_environment, manage
from tests.faults.scorers import Scorer, Step
from tests.faults.stack import Postgres, wait_until, web_workers
from tests.workers import Worker
from tournaments.projections.consumer import CONSUMER


@dataclass(frozen=True)
class Profile:
    name: str
    scorers: int
    """Concurrent scorers through the restarts and kills."""
    rounds: int
    """Rounds each of them enters (40 cards each at a table of 2)."""
    redis_cards: int
    """Steps entered while Redis is stopped, and again while it is frozen. At least 200, so that
    the reported p99 is not the single slowest card."""
    race_rounds: int
    """Rounds two tablets enter together, every card contested."""
    entrants: int
    """Entrants of the tournaments played through worker kills (a power of 2)."""
    followers: int
    """Followers of the live feeds in the storm, connecting and leaving at random."""
    storm_rounds: int
    """Rounds each of the storm's scorers enters while the followers come and go."""


SHORT = Profile(
    "short",
    scorers=3,
    rounds=2,
    redis_cards=200,
    race_rounds=1,
    entrants=4,
    followers=60,
    storm_rounds=1,
)
FULL = Profile(
    "full",
    scorers=12,
    rounds=6,
    redis_cards=400,
    race_rounds=4,
    entrants=16,
    followers=300,
    storm_rounds=3,
)
PROFILE = FULL if os.environ.get("FAULTS_PROFILE", "short") == "full" else SHORT

WEB_WORKERS = 2
"""uvicorn's processes, as `make run` runs them (Procfile)."""
WEB_POOL_SIZE = 8
"""The most database connections each process's pool opens (the Procfile's and the image's)."""
WEB_APPLICATION_NAME = "faults-web"
WEB_SETTINGS = {
    "DATABASE_POOL_SIZE": str(WEB_POOL_SIZE),
    # The web's connections name themselves (libpq reads PGAPPNAME; the feeds' listener is
    # briscola-feed-listener), so that an experiment counts them apart from the worker's.
    "PGAPPNAME": WEB_APPLICATION_NAME,
    # The pool closes an idle connection above its floor every minute in production: every
    # second here, so that an experiment sees it shrink back to its floor in seconds.
    "DATABASE_POOL_MAX_IDLE": "1",
    # The follower storm's followers all come from one address, each with a stream at a time.
    "FEED_STREAMS_PER_ADDRESS": str(PROFILE.followers),
    # Streams end and are resumed (Last-Event-ID) several times during a storm, say something
    # while quiet, and a follower refused waits a second.
    "FEED_STREAM_SECONDS": "3",
    "FEED_KEEPALIVE_SECONDS": "1",
    "FEED_BUSY_RETRY_SECONDS": "1",
}


LOG_ENTRY = re.compile(r"^\d{4}-\d{2}-\d{2} ")


@dataclass
class Stack:
    postgres: Postgres
    redis: PrivateRedis
    backends: Backends
    scorer_token: str
    organizer_token: str

    def ensure_up(self) -> None:
        """Bring back what an earlier test may have left stopped or frozen."""
        if self.redis.frozen:
            self.redis.thaw()
        if self.redis.process is None or self.redis.process.poll() is not None:
            self.redis.process = None
            self.redis.start()
        if not self.postgres.answers():
            self.postgres.start()
        client = redis.Redis.from_url(self.redis.url)
        try:
            client.flushall()
        finally:
            client.close()


class App:
    """The app on a test's own database: uvicorn serving it as `make run` and the image do
    (config/asgi.py, a database pool per process), Celery workers on demand."""

    def __init__(self, stack: Stack, database: str, directory: Path, exits: ExitStack) -> None:
        self.stack = stack
        self.database = database
        self.directory = directory
        self.exits = exits
        self.workers: list[Worker] = []
        self.servers: list[Server] = []
        self.server_logs: list[Path] = []

    @property
    def server(self) -> Server:
        return self.servers[0]

    @property
    def port(self) -> int:
        return self.server.port

    def serve(self, database: str | None = None) -> Server:
        """Serve `database` (this app's by default) with a uvicorn of its own."""
        database = database or self.database
        log_path = self.directory / f"uvicorn-{len(self.servers) + 1}.log"
        server = self.exits.enter_context(
            uvicorn(
                workers=WEB_WORKERS,
                database=database,
                log_path=log_path,
                settings=WEB_SETTINGS,
                backends=self.stack.backends,
            )
        )
        self.servers.append(server)
        self.server_logs.append(log_path)
        return server

    def server_log(self) -> list[str]:
        """What the servers logged (warnings and errors only), entry by entry: a line that
        begins with a date, and the lines after it that do not (a traceback)."""
        entries: list[str] = []
        for path in self.server_logs:
            for line in path.read_text().splitlines():
                if LOG_ENTRY.match(line) or not entries:
                    entries.append(line)
                else:
                    entries[-1] += "\n" + line
        return entries

    def start_worker(
        self, *, catch_up_seconds: float | None = None, concurrency: int = 2
    ) -> Worker:
        """A Celery worker on this app's database; with `catch_up_seconds`, running beat too."""
        worker = Worker(
            self.directory / f"worker-{len(self.workers) + 1}.log",
            concurrency=concurrency,
            visibility_timeout=None,
            environment=django_environment(self.database, backends=self.stack.backends),
            catch_up_seconds=catch_up_seconds,
        )
        self.workers.append(worker)
        self.exits.callback(worker.stop)
        worker.wait_until_ready()
        return worker

    def kill_web_worker(self) -> int:
        """SIGKILL one of uvicorn's worker processes (its master starts another); its pid."""
        pid = wait_until(
            lambda: web_workers(self.server.process_group),
            timeout=30,
            what="a uvicorn worker",
        )[0]
        os.kill(pid, signal.SIGKILL)
        return pid

    def manage(self, *arguments: str, database: str | None = None) -> str:
        return manage(*arguments, database=database or self.database, backends=self.stack.backends)

    def rows(self, query: str, params: Any = None, *, database: str | None = None) -> list[Any]:
        with self.stack.postgres.connect(database or self.database) as conn:
            return conn.execute(query, params).fetchall()

    def consumer_lag(self) -> int:
        """Events of the log the tournament consumer has not read yet."""
        [(head,)] = self.rows("SELECT coalesce(max(global_position), 0) FROM eventstore_event")
        checkpoint = self.rows(
            "SELECT position FROM tournaments_checkpoint WHERE name = %s", [CONSUMER]
        )
        return int(head) - (int(checkpoint[0][0]) if checkpoint else 0)

    def scorer(
        self, steps: list[Step], *, timeout: float = 10, patience: float = 120, port: int = 0
    ) -> Scorer:
        return Scorer(
            port or self.port, self.stack.scorer_token, steps, timeout=timeout, patience=patience
        )
