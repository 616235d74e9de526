"""Concurrent writers: scorers entering whole rounds through the HTTP API, floor clients
appending through the bench's minimal endpoint (bench/wsgi.py), and raw single-row INSERT +
COMMIT into a copy of the event table. All report every append's latency.
"""

from __future__ import annotations

import http.client
import json
import select
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

import psycopg

from bench._cpu import CpuMeter, CpuUse
from bench._support import LOOPBACK, BenchError, connect
from games.rules.match import MatchFormat, start_match
from games.rules.outcome import RoundOutcome
from games.rules.simulate import simulate_rounds
from games.rules.tables import Table
from games.rules.tricks import Play

API = "/api/v1"
REQUEST_TIMEOUT_SECONDS = 30


@dataclass(frozen=True)
class ScoredRound:
    """A legal round to enter: what a scorer sees at a physical table, and how it ends."""

    table_size: int
    dealer: int
    briscola: str
    plays: tuple[Play, ...]
    outcome: RoundOutcome


def scored_rounds(
    *, clients: int, rounds: int, table_size: int, seed: int
) -> list[list[ScoredRound]]:
    """`rounds` legal rounds for each client, the same ones for the same seed."""
    scored = []
    for client in range(clients):
        states = simulate_rounds(table_size=table_size, rounds=rounds, seed=seed + client)
        scored.append(
            [
                ScoredRound(table_size, state.dealer, state.briscola.code, state.plays, outcome)
                for state in states
                if (outcome := state.outcome) is not None
            ]
        )
    return scored


@dataclass
class WriterResult:
    """What one writer did: the latency of each append by kind, or the error that stopped it."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    error: str | None = None
    cards: int = 0
    """Cards appended (a batch request appends a round's cards at once)."""

    def record(self, kind: str, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)

    def count(self, kind: str | None = None) -> int:
        if kind is None:
            return sum(len(values) for values in self.latencies.values())
        return len(self.latencies.get(kind, []))


@dataclass
class LoadResult:
    seconds: float
    writers: list[WriterResult]
    cpu: CpuUse

    def latencies(self, kind: str) -> list[float]:
        return sorted(value for writer in self.writers for value in writer.latencies.get(kind, []))

    def count(self, kind: str | None = None) -> int:
        return sum(writer.count(kind) for writer in self.writers)

    @property
    def cards(self) -> int:
        return sum(writer.cards for writer in self.writers)

    @property
    def errors(self) -> list[str]:
        return [writer.error for writer in self.writers if writer.error is not None]


class Writer:
    """One concurrent writer: connects in `open` (before the clock starts), appends in `run`
    (timed, in a thread of its own) until done or `stop` is set, disconnects in `close`."""

    def open(self) -> None:
        pass

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


def run_writers(writers: Sequence[Writer], *, max_seconds: float, meter: CpuMeter) -> LoadResult:
    """Run every writer at once, each in a thread; at most `max_seconds` (plus a minute's grace).

    A writer that fails records its error and asks the others to stop; writers also stop
    starting new work once `stop` is set (by an error or by the time limit). `meter` measures
    the CPU used between the start and the end of the writing.
    """
    stop = threading.Event()
    results = [WriterResult() for _ in writers]
    ready = threading.Barrier(len(writers) + 1)

    def body(writer: Writer, result: WriterResult) -> None:
        ready.wait()
        try:
            writer.run(result, stop)
        except Exception as error:  # report it with the figures; the run stops cleanly
            result.error = f"{type(error).__name__}: {error}"
            stop.set()

    try:
        for writer in writers:
            writer.open()
        threads = [
            threading.Thread(target=body, args=(writer, result), daemon=True, name=f"writer-{n}")
            for n, (writer, result) in enumerate(zip(writers, results, strict=True))
        ]
        for thread in threads:
            thread.start()
        meter.start()
        ready.wait()
        started = time.perf_counter()
        timer = threading.Timer(max_seconds, stop.set)
        timer.daemon = True
        timer.start()
        try:
            for thread in threads:
                thread.join(timeout=max(0.0, started + max_seconds + 60 - time.perf_counter()))
        finally:
            timer.cancel()
            stop.set()
        seconds = time.perf_counter() - started
        if any(thread.is_alive() for thread in threads):
            raise BenchError(f"writers still busy {max_seconds + 60:.0f} s after the start")
        cpu = meter.stop()
    finally:
        for writer in writers:
            writer.close()
    return LoadResult(seconds, results, cpu)


# Scorers through the HTTP API.


def closed_while_idle(connection: http.client.HTTPConnection) -> bool:
    """Whether the server closed the kept connection since its last answer (uvicorn closes one
    idle for 5 s): an idle connection with something to read has reached its end. A client
    checks before it reuses one, as browsers and urllib3 do, rather than send into it."""
    if connection.sock is None:
        return False
    readable, _, _ = select.select([connection.sock], [], [], 0)
    return bool(readable)


class ApiClient:
    """One scorer's device: a keep-alive HTTP connection, a token, JSON in and out. Without a
    token (None), an anonymous reader."""

    def __init__(
        self,
        port: int,
        token: str | None,
        *,
        idempotency_keys: bool,
        timeout: float = REQUEST_TIMEOUT_SECONDS,
    ) -> None:
        self.port = port
        self.timeout = timeout
        self.connection = self.connect()
        self.last_headers = http.client.HTTPMessage()
        """The headers of the last answer."""
        self.headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token is not None:
            self.headers["Authorization"] = f"Token {token}"
        self.idempotency_keys = idempotency_keys

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(LOOPBACK, self.port, timeout=self.timeout)

    def reconnect(self) -> None:
        """A new connection, after one that failed (a request may have been half sent)."""
        self.connection.close()
        self.connection = self.connect()

    def send(
        self,
        method: str,
        path: str,
        body: dict[str, object] | None = None,
        *,
        idempotency_key: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, float]:
        """One request (with `headers` besides the client's own): the status, the raw answer
        and the latency in seconds. Connection errors and timeouts are raised (OSError,
        http.client.HTTPException)."""
        headers = {**self.headers, **(headers or {})}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        payload = None if body is None else json.dumps(body).encode()
        if closed_while_idle(self.connection):
            self.reconnect()
        started = time.perf_counter()
        self.connection.request(method, path, body=payload, headers=headers)
        response = self.connection.getresponse()
        raw = response.read()
        self.last_headers = response.headers
        return response.status, raw, time.perf_counter() - started

    def post(self, path: str, body: dict[str, object]) -> tuple[dict[str, object], float]:
        """POST and expect 201 Created; the answer and the request's latency in seconds."""
        key = uuid.uuid4().hex if self.idempotency_keys else None
        status, raw, seconds = self.send("POST", path, body, idempotency_key=key)
        if status != 201:
            text = raw[:500].decode(errors="replace")
            raise BenchError(f"POST {path} {body} answered {status}: {text}")
        answer = json.loads(raw)
        if not isinstance(answer, dict):
            raise BenchError(f"POST {path} answered {answer!r}, not a JSON object")
        return answer, seconds

    def close(self) -> None:
        self.connection.close()


class Scorer(Writer):
    """Enters rounds card by card into best-of-`best_of` matches: creates a match, starts and
    plays rounds until the match is over (a tied round does not count), then the next match."""

    def __init__(
        self,
        port: int,
        token: str,
        rounds: Sequence[ScoredRound],
        *,
        best_of: int,
        idempotency_keys: bool,
        batch: bool = False,
    ) -> None:
        self.client = ApiClient(port, token, idempotency_keys=idempotency_keys)
        self.rounds = rounds
        self.match_format = MatchFormat.best_of(best_of)
        self.batch = batch
        """Each round's cards in one request (plays/batch/) instead of one request a card."""

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        match_url, record = "", None
        for scored in self.rounds:
            if stop.is_set():
                return
            if record is None or record.is_finished:
                match_url = self.create_match(scored.table_size, result)
                record = start_match(table_size=scored.table_size, match_format=self.match_format)
            self.enter_round(match_url, scored, result)
            record = record.record_round(scored.outcome)

    def create_match(self, table_size: int, result: WriterResult) -> str:
        sides = [{"name": f"Side {side}"} for side in range(Table(table_size).side_count)]
        body = {"table_size": table_size, "best_of": self.match_format.rounds, "sides": sides}
        match, seconds = self.client.post(f"{API}/matches/", body)
        result.record("create", seconds)
        return f"{API}/matches/{match['id']}"

    def enter_round(self, match_url: str, scored: ScoredRound, result: WriterResult) -> None:
        client = self.client
        started, seconds = client.post(
            f"{match_url}/rounds/", {"briscola": scored.briscola, "dealer_seat": scored.dealer}
        )
        result.record("start", seconds)
        plays_url = f"{match_url}/rounds/{started['number']}/plays/"
        if self.batch:
            plays = [[play.seat, play.card.code] for play in scored.plays]
            _answer, seconds = client.post(f"{plays_url}batch/", {"plays": plays})
            result.record("batch", seconds)
            result.cards += len(plays)
            return
        for play in scored.plays:
            _answer, seconds = client.post(plays_url, {"seat": play.seat, "card": play.card.code})
            result.record("play", seconds)
            result.cards += 1

    def close(self) -> None:
        self.client.close()


# The framework floor: bench/wsgi.py's minimal authenticated append.

FLOOR_PATH = "/bench/floor/"


class FloorClient(Writer):
    """Appends `requests` CardPlayed-sized events to a stream of its own through the floor
    endpoint, each with the stream's version so far as its expected version, like a scorer's
    device on the same kind of token and over the same kind of keep-alive connection."""

    def __init__(self, port: int, token: str, requests: int) -> None:
        self.client = ApiClient(port, token, idempotency_keys=False)
        self.requests = requests

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        stream_id = str(uuid.uuid4())
        for version in range(self.requests):
            if stop.is_set():
                return
            body: dict[str, object] = {
                "stream_id": stream_id,
                "expected_version": version,
                "seat": version % 2,
                "card": "1D",
            }
            answer, seconds = self.client.post(FLOOR_PATH, body)
            if answer.get("version") != version + 1:
                raise BenchError(f"the floor answered {answer} to expected version {version}")
            result.record("floor", seconds)

    def close(self) -> None:
        self.client.close()


# Raw single-row INSERT + COMMIT.

RAW_TABLE = "bench_raw_event"
FLOOR_TABLE = "bench_floor_event"
"""The table the floor endpoint of bench/wsgi.py appends to."""

CREATE_RAW_TABLE = """
DROP TABLE IF EXISTS {table};
CREATE TABLE {table} (LIKE eventstore_event INCLUDING ALL);
ALTER TABLE {table} ALTER COLUMN chain_hash DROP NOT NULL;
"""
# LIKE copies columns, defaults, identity, constraints (the unique stream and version) and
# indexes, never triggers: without the chain trigger (migration 0004) the hash stays empty.

RAW_INSERT = f"""
INSERT INTO {RAW_TABLE} (
    stream_id, stream_type, stream_version, event_type, schema_version, payload, metadata,
    recorded_at
) VALUES (%s, 'match', %s, 'CardPlayed', 1, %s::jsonb, %s::jsonb, statement_timestamp())
"""  # noqa: S608 - constant table names; values are bound
RAW_METADATA = json.dumps({"actor_id": 1, "device": "token:0123abcd"})


def create_raw_table(database: str, table: str = RAW_TABLE) -> None:
    """A fresh, empty, trigger-less copy of the event table (RAW_TABLE or FLOOR_TABLE)."""
    if table not in (RAW_TABLE, FLOOR_TABLE):
        raise BenchError(f"not a bench table: {table!r}")
    with connect(database, autocommit=True) as conn:
        conn.execute(CREATE_RAW_TABLE.format(table=table))


class RawInserter(Writer):
    """Inserts `rows` CardPlayed-sized events into one stream, each in a transaction of its own
    (psycopg's default: BEGIN, the INSERT, prepared after a few runs, then COMMIT)."""

    def __init__(self, database: str, rows: int) -> None:
        self.database = database
        self.rows = rows
        self.connection: psycopg.Connection | None = None

    def open(self) -> None:
        self.connection = connect(self.database)

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        conn = self.connection
        if conn is None:
            raise BenchError("RawInserter.run before open")
        stream_id = uuid.uuid4()
        with conn.cursor() as cursor:
            for version in range(1, self.rows + 1):
                if stop.is_set():
                    return
                payload = json.dumps({"round": 1, "seat": version % 2, "card": "1D"})
                started = time.perf_counter()
                cursor.execute(RAW_INSERT, (stream_id, version, payload, RAW_METADATA))
                conn.commit()
                result.record("insert", time.perf_counter() - started)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
