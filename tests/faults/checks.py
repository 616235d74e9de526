"""What every experiment holds the log and the projections against, and its figures."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg
import redis

from bench._load import LoadResult, Writer, WriterResult
from bench._support import percentile
from games.api.followers import LISTENER_NAME
from tests.faults.app import WEB_APPLICATION_NAME
from tests.faults.scorers import Scorer, acknowledged, problems, total
from tests.faults.stack import StackError, wait_until

if TYPE_CHECKING:
    from tests.faults.app import App

CATCH_UP_SECONDS = 60.0


def version_gaps(app: App, *, database: str | None = None) -> list[tuple[object, ...]]:
    """Streams whose versions do not run 1, 2, ... without a hole or a repeat."""
    return app.rows(
        "SELECT stream_id, count(*), min(stream_version), max(stream_version)"
        " FROM eventstore_event GROUP BY stream_id"
        " HAVING count(*) <> max(stream_version) OR min(stream_version) <> 1"
        " OR count(DISTINCT stream_version) <> count(*)",
        database=database,
    )


def logged_plays(app: App, match_id: str) -> list[dict[str, object]]:
    rows = app.rows(
        "SELECT payload FROM eventstore_event WHERE stream_id = %s AND event_type = 'CardPlayed'"
        " ORDER BY stream_version",
        [match_id],
    )
    return [{"seat": payload["seat"], "card": payload["card"]} for (payload,) in rows]


def log_differences(app: App, scorers: Sequence[Scorer]) -> list[str]:
    """Each match's CardPlayed events against the plays the API acknowledged, in order: every
    acknowledged card once, nothing else; each acknowledged creation once; and no trace of a
    refused command's key."""
    differences = []
    for match_id, plays in acknowledged(list(scorers)).items():
        logged = logged_plays(app, match_id)
        if logged != plays:
            differences.append(f"match {match_id}: logged {logged}, acknowledged {plays}")
    created = [match_id for scorer in scorers for match_id in scorer.ledger.matches]
    counts = dict(
        app.rows(
            "SELECT stream_id::text, count(*) FROM eventstore_event"
            " WHERE event_type = 'MatchCreated' AND stream_id = ANY(%s::uuid[])"
            " GROUP BY stream_id",
            [created],
        )
    )
    differences.extend(
        f"match {match_id}: created {counts.get(match_id, 0)} times"
        for match_id in created
        if counts.get(match_id) != 1
    )
    refused = [key for scorer in scorers for key in scorer.ledger.refused]
    if refused:
        [(kept,)] = app.rows(
            "SELECT count(*) FROM eventstore_idempotency_key WHERE key = ANY(%s)", [refused]
        )
        if kept:
            differences.append(f"{kept} refused commands' keys are in the log")
    return differences


def verify_projections(app: App, *, database: str | None = None) -> str:
    """`manage.py verify_projections`; raises (with its output) unless it exits 0."""
    return app.manage("verify_projections", "--quiet", database=database)


def wait_for_catch_up(app: App, timeout: float = CATCH_UP_SECONDS) -> float:
    """Seconds until the tournament consumer has read the whole log."""
    started = time.monotonic()
    try:
        wait_until(
            lambda: app.consumer_lag() == 0, timeout=timeout, what="the consumer to catch up"
        )
    except StackError as error:
        raise AssertionError(f"{error}\n{consumer_state(app)}") from error
    return time.monotonic() - started


def consumer_state(app: App) -> str:
    """What a consumer that did not catch up was up to: the lag, the database sessions, the
    queues in Redis and the end of each worker's log."""
    sessions = app.rows(
        "SELECT pid, state, wait_event_type, wait_event, left(query, 120) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    locks = app.rows("SELECT pid, objid, granted FROM pg_locks WHERE locktype = 'advisory'")
    client = redis.Redis.from_url(app.stack.redis.url, socket_timeout=2, decode_responses=True)
    lengths: dict[str, object] = {}
    try:
        for key in client.keys("*"):
            kind = client.type(key)
            if kind == "list":
                lengths[str(key)] = client.llen(key)
            elif kind == "hash":
                lengths[str(key)] = client.hlen(key)
    except redis.RedisError as error:
        lengths["error"] = str(error)
    finally:
        client.close()
    logs = "\n".join(worker.log()[-3000:] for worker in app.workers)
    return (
        f"lag {app.consumer_lag()} events; sessions {sessions}; advisory locks {locks}; "
        f"redis {lengths}\n{logs}"
    )


class FaultInjector(Writer):
    """Runs alongside the scorers (bench/_load.run_writers): each fault once the scorers have
    made `share` of their planned steps, and how long the fault took, by name."""

    def __init__(
        self,
        scorers: Sequence[Scorer],
        schedule: Sequence[tuple[float, str, Callable[[], object]]],
        *,
        step_timeout: float = 180,
    ) -> None:
        self.scorers = scorers
        self.schedule = schedule
        self.planned = sum(len(scorer.steps) for scorer in scorers)
        self.step_timeout = step_timeout
        self.done: list[str] = []

    def progress(self) -> int:
        return sum(scorer.steps_done for scorer in self.scorers)

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        for share, name, fault in self.schedule:

            def reached(share: float = share) -> bool:
                return stop.is_set() or self.progress() >= share * self.planned

            wait_until(
                reached,
                timeout=self.step_timeout,
                what=f"{share:.0%} of the scorers' steps before {name}",
            )
            if stop.is_set():
                return
            started = time.perf_counter()
            fault()
            result.record(name, time.perf_counter() - started)
            self.done.append(name)


def latency_figures(load: LoadResult, kinds: Sequence[str]) -> dict[str, str]:
    figures = {}
    for kind in kinds:
        values = load.latencies(kind)
        if values:
            figures[kind] = (
                f"{len(values)} acknowledged, p50 {percentile(values, 50) * 1000:.1f} ms,"
                f" p99 {percentile(values, 99) * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms"
            )
    return figures


def scorer_figures(scorers: Sequence[Scorer]) -> dict[str, object]:
    return {
        "requests": total(list(scorers), "requests"),
        "retries": total(list(scorers), "retries"),
        "problems": dict(problems(list(scorers))),
    }


SESSIONS = (
    "SELECT application_name, state, count(*) FROM pg_stat_activity"
    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    " GROUP BY application_name, state"
)


@dataclass(frozen=True)
class Connections:
    """The sessions on the app's database: the web's (its pools' and its feeds' listeners'),
    how many of those are not idle, and all of them (the workers' too)."""

    pooled: int
    listening: int
    busy: int
    everyone: int

    @property
    def web(self) -> int:
        return self.pooled + self.listening


def connections(conn: psycopg.Connection[Any]) -> Connections:
    pooled = listening = busy = everyone = 0
    for name, state, count in conn.execute(SESSIONS).fetchall():
        everyone += count
        if name == WEB_APPLICATION_NAME:
            pooled += count
        elif name == LISTENER_NAME:
            listening += count
        else:
            continue
        busy += count if state != "idle" else 0
    return Connections(pooled, listening, busy, everyone)


class ConnectionWatch:
    """The app's sessions sampled every 50 ms from `start` to `stop` (in a thread): the most
    there were at once, of the web's (`web`, `listening`) and of all (`everyone`)."""

    INTERVAL = 0.05

    def __init__(self, app: App) -> None:
        self.app = app
        self.most: dict[str, int] = {"web": 0, "listening": 0, "everyone": 0}
        self.samples = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, name="connection-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def run(self) -> None:
        with self.app.stack.postgres.connect(self.app.database) as conn:
            while not self.stopping.wait(self.INTERVAL):
                now = connections(conn)
                for kind, count in (
                    ("web", now.web),
                    ("listening", now.listening),
                    ("everyone", now.everyone),
                ):
                    self.most[kind] = max(self.most[kind], count)
                self.samples += 1

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(10)


def app_connections(app: App) -> Connections:
    with app.stack.postgres.connect(app.database) as conn:
        return connections(conn)


def left_while_waiting(entry: str) -> bool:
    """asyncio's error for a request whose client left while Django was between its
    synchronous and asynchronous middleware: Django cancels the request, asgiref cancels the
    work in progress, and nobody retrieves the cancelled future's outcome. No client waited for
    an answer from it."""
    return "Future exception was never retrieved" in entry and entry.endswith("CancelledError")


def server_errors(entries: Sequence[str]) -> list[str]:
    """The servers' log entries at ERROR or with a traceback, but for `left_while_waiting`."""
    return [
        entry
        for entry in entries
        if (" ERROR " in entry or "Traceback" in entry) and not left_while_waiting(entry)
    ]
