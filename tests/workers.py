"""Real Celery workers for tests: subprocesses on the test database and the test Redis.

Shared by the task tests and the page tests (a page that follows results needs the consumer
to run); a conftest makes the fixtures available with `from tests.workers import
start_worker, worker`.

Each worker is `celery -A config worker` with the prefork pool, started in its own process group
(so stopping it also ends its pool children) and pointed at the database pytest-django set up.
Tests using one need committed rows, hence `transactional_db`; the worker stops before the
tables are emptied. The test Redis database (settings.CELERY_BROKER_URL, /15 by default) is
flushed before and after, and only that database.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import kombu.pools
import pytest
import redis
from django.conf import settings
from django.db import connections

from bench._private_redis import PrivateRedis
from config.celery import app
from tournaments.tasks import publishing
from tournaments.tasks import running as running_tasks

CELERY = Path(sys.executable).with_name("celery")
PROJECT = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT = 30.0
WARM_SHUTDOWN_TIMEOUT = 5.0
EXIT_TIMEOUT = 15.0


def wait_for(
    condition: Callable[[], Any], *, timeout: float = 20.0, what: str, log: Callable[[], str]
) -> Any:
    """Poll `condition` until it returns something truthy; fail with the worker log if not."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}\n{log()}")
        time.sleep(0.05)


def database_url() -> str:
    """The URL of the database the tests run on (the test database, once it is set up)."""
    db = connections["default"].settings_dict
    credentials = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def flush_test_redis() -> None:
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        client.flushdb()
    finally:
        client.close()


PR_SET_PDEATHSIG = 1


def die_with_the_tests() -> None:
    """In the worker's process, before exec: be killed when the test process dies, so even a
    test run that is itself killed leaves no worker behind (Linux)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def death_signal() -> Callable[[], None] | None:
    """`die_with_the_tests` for a child started from the main thread; None from another thread,
    because Linux sends the signal when the thread that started the child ends, not the
    process (the fault suite starts workers from the thread that injects the faults)."""
    return die_with_the_tests if threading.current_thread() is threading.main_thread() else None


class Worker:
    """A `celery worker` subprocess; `stop()` ends it and its pool children for good."""

    def __init__(
        self,
        log_path: Path,
        *,
        concurrency: int,
        visibility_timeout: int | None,
        catch_up_seconds: float | None = None,
        environment: Mapping[str, str] | None = None,
    ):
        """A worker on the test database and Redis, or in `environment` when given (the fault
        suite's own PostgreSQL and Redis); with `catch_up_seconds`, it also runs beat."""
        self.log_path = log_path
        self.name = f"test-{uuid.uuid4().hex[:8]}"
        if environment is None:
            env = os.environ | {
                "DJANGO_SETTINGS_MODULE": "config.settings.test",
                "DATABASE_URL": database_url(),
                "TEST_CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
                "CELERY_WAKE_UPS": "on",
            }
        else:
            env = dict(environment)
        if visibility_timeout is not None:
            env["CELERY_VISIBILITY_TIMEOUT"] = str(visibility_timeout)
        beat: list[str] = []
        if catch_up_seconds is not None:
            # Beat embedded in the worker, sending the catch-up this often.
            env["CELERY_CATCH_UP_SECONDS"] = str(catch_up_seconds)
            beat = ["--beat", "--schedule", str(log_path.with_suffix(".beat"))]
        command = [
            str(CELERY),
            "-A",
            "config",
            "worker",
            "--pool",
            "prefork",
            "--concurrency",
            str(concurrency),
            "--loglevel",
            "INFO",
            "--hostname",
            f"{self.name}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            *beat,
        ]
        with log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=PROJECT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=death_signal(),
            )

    def wait_until_ready(self) -> None:
        wait_for(self.ready, timeout=STARTUP_TIMEOUT, what=f"worker {self.name}", log=self.log)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def ready(self) -> bool:
        if self.process.poll() is not None:
            pytest.fail(f"worker {self.name} exited with {self.process.returncode}\n{self.log()}")
        return f"{self.name}@" in self.log() and " ready." in self.log()

    def pool_children(self) -> list[int]:
        """The pids of the prefork pool's processes (children of the worker's main process)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]

    def kill_pool(self) -> None:
        """SIGKILL the pool's processes, as the kernel's OOM killer would; the main process
        sees its task's process die and starts a new one."""
        for pid in self.pool_children():
            os.kill(pid, signal.SIGKILL)

    def received(self, task: str) -> int:
        """How many times the worker received a task named `tournaments.tasks.<task>`."""
        return sum(
            1
            for message in self.log_messages()
            if f"Task tournaments.tasks.{task}[" in message and message.endswith("] received")
        )

    def log_messages(self) -> list[str]:
        """The worker's log, a message a line: JSON lines give their message (decision 0024),
        plain lines (LOG_FORMAT=text, Celery's banner) are taken as they are."""
        messages = []
        for line in self.log().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                messages.append(line)
                continue
            messages.append(str(record.get("message", "")) if isinstance(record, dict) else line)
        return messages

    def kill(self) -> None:
        """SIGKILL the main process and its pool: nothing gets to acknowledge or restore."""
        self._signal_group(signal.SIGKILL)
        self.process.wait(timeout=EXIT_TIMEOUT)

    def stop(self) -> None:
        """A warm shutdown (finish the running task, give back the reserved ones), then SIGKILL
        whatever is left of the process group."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=WARM_SHUTDOWN_TIMEOUT)
        self._signal_group(signal.SIGKILL)
        if self.process.poll() is None:
            self.process.wait(timeout=EXIT_TIMEOUT)

    def _signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)


WorkerFactory = Callable[..., Worker]


@pytest.fixture
def start_worker(transactional_db: None, settings: Any, tmp_path: Path) -> Iterator[WorkerFactory]:  # noqa: ARG001 - requested for its side effect
    """Start workers on demand (`start_worker(concurrency=1, visibility_timeout=2)`); every one
    is stopped at the end of the test, before the tables are emptied. Wake-ups are on in the
    test process too, so services enqueue work for the workers after their commits."""
    settings.CELERY_WAKE_UPS = True
    running_tasks.pending_wake_up.due = float("-inf")
    reset_publishing()
    flush_test_redis()
    workers: list[Worker] = []

    def start(
        *,
        concurrency: int = 2,
        visibility_timeout: int | None = None,
        catch_up_seconds: float | None = None,
    ) -> Worker:
        log_path = tmp_path / f"worker-{len(workers) + 1}.log"
        worker = Worker(
            log_path,
            concurrency=concurrency,
            visibility_timeout=visibility_timeout,
            catch_up_seconds=catch_up_seconds,
        )
        workers.append(worker)
        worker.wait_until_ready()
        return worker

    try:
        yield start
    finally:
        for worker in workers:
            worker.stop()
        flush_test_redis()


@pytest.fixture
def worker(start_worker: WorkerFactory) -> Worker:
    return start_worker()


def reset_publishing() -> None:
    """Close the breaker and drop the sending connection a previous test left behind."""
    publishing.breaker.close()
    publishing.publisher.discard()


def forget_broker_connections() -> None:
    """Close the Celery app's own broker connections and producers (what `task.delay()` sends
    through), so the next send connects to the broker in the settings now. The app makes its
    pool once, for the URL of the moment: a test that points the app at a private Redis would
    otherwise leave every later `delay()` of the process sending to a server that is gone."""
    pool = vars(app).pop("_pool", None)  # back to the class's None: made again on the next send
    if pool is not None:
        pool.force_close_all()
    if "amqp" in vars(app):
        vars(app.amqp).pop("_producer_pool", None)
    kombu.pools.reset()


@pytest.fixture(autouse=True)
def fresh_publishing() -> Iterator[None]:
    """No test inherits another's open breaker or sending connection."""
    reset_publishing()
    yield
    reset_publishing()


@pytest.fixture
def private_redis(settings: Any, tmp_path: Path) -> Iterator[PrivateRedis]:
    """A private Redis, running, that the test process sends its tasks to (and a worker
    started after this fixture consumes from); thawed and stopped at the end whatever happens.
    Request it before `start_worker`, so that it outlives the workers."""
    server = PrivateRedis(tmp_path / "redis.log")
    try:
        server.start()
        settings.CELERY_BROKER_URL = server.url
        settings.CELERY_RESULT_BACKEND = server.url
        reset_publishing()
        forget_broker_connections()
        yield server
    finally:
        if server.process is None:  # stopped by the test: the workers' teardown flushes it
            with contextlib.suppress(Exception):
                server.start()
        reset_publishing()
        forget_broker_connections()
        server.stop()
