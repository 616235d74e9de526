"""A large, legal event log of whole matches, bulk-loaded with COPY, and a plain fold of it.

Matches are played with the pure match stream (`decide` then `evolve` for every command, as the
services do), so every event is one the app could have recorded. Two worker processes simulate
matches; this process interleaves the matches of several tables (as a busy club's log looks) and
streams the events into `eventstore_event` with COPY. The append-only triggers reject UPDATE,
DELETE and TRUNCATE, not COPY; a log of another size goes into another database.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import random
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from multiprocessing.pool import AsyncResult, Pool
from typing import Any

from bench._support import BenchError, Progress, connect, say
from games.matches.stream.commands import (
    ConfirmResult,
    CreateMatch,
    MatchCommand,
    PlayCardInRound,
    StartNextRound,
    UndoLastPlay,
)
from games.matches.stream.decide import decide
from games.matches.stream.events import SideRef, match_event_from_stored, schema_version_of
from games.matches.stream.evolve import evolve
from games.matches.stream.state import MatchAggregate
from games.rules.match import MatchFormat
from games.rules.simulate import simulate_round
from games.rules.tables import TABLE_SIZES, Table
from games.rules.variants import DEFAULT_VARIANT

GENERATOR = "matches-v2"
"""Changes whenever the generated log would change; a cached log of another generator is redone."""

MATCH_STREAM = "match"
BEST_OF = 3
UNDO_EVERY = 100
"""About one card in this many is undone and entered again, as scorers do."""
OPEN_TABLES = 32
"""Matches in progress at once; their events interleave in the log."""
MATCHES_PER_TASK = 20
RECORDED_EVERY = timedelta(milliseconds=50)
FIRST_RECORDED_AT = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
METADATA = json.dumps({"actor_id": 1, "device": "token:0123abcd"})

INFO_TABLE = "bench_log_info"

COPY_EVENTS = """
COPY eventstore_event (
    stream_id, stream_type, stream_version, event_type, schema_version, payload, metadata,
    recorded_at
) FROM STDIN
"""

EncodedEvent = tuple[str, str]
"""An event type and its payload as JSON."""


@dataclass(frozen=True)
class LogInfo:
    generator: str
    target: int
    seed: int
    events: int
    matches: int


# Simulating matches (in worker processes).


def play_match(rng: random.Random, table_size: int) -> list[EncodedEvent]:
    """A whole best-of-3 match: every round card by card, a few undos, each side confirming."""
    table = Table(table_size)
    sides: tuple[SideRef, ...] = tuple({} for _side in range(table.side_count))
    events: list[EncodedEvent] = []
    state: MatchAggregate | None = None

    def run(command: MatchCommand) -> MatchAggregate:
        nonlocal state
        for event in decide(state, command):
            state = evolve(state, event)
            events.append((event.type, json.dumps(event.to_payload(), separators=(",", ":"))))
        if state is None:
            raise RuntimeError("a played match has a state")
        return state

    match = run(CreateMatch(table_size, MatchFormat.best_of(BEST_OF), sides, DEFAULT_VARIANT, 0))
    while not match.is_finished:
        dealt = simulate_round(rng, table_size)
        match = run(StartNextRound(dealt.briscola, dealt.dealer))
        number = len(match.rounds)
        last = len(dealt.plays) - 1
        for index, play in enumerate(dealt.plays):
            match = run(PlayCardInRound(number, play.seat, play.card))
            if index < last and rng.randrange(UNDO_EVERY) == 0:
                run(UndoLastPlay(number))
                match = run(PlayCardInRound(number, play.seat, play.card))
    for side in range(table.side_count):
        match = run(ConfirmResult(side))
    return events


def play_matches(task: tuple[int, int]) -> list[list[EncodedEvent]]:
    """`MATCHES_PER_TASK` matches from one seed; table sizes take turns."""
    seed, first_match = task
    rng = random.Random(seed * 1_000_003 + first_match)  # noqa: S311 - seeded synthetic matches, not a secret
    return [
        play_match(rng, TABLE_SIZES[(first_match + n) % len(TABLE_SIZES)])
        for n in range(MATCHES_PER_TASK)
    ]


def simulated_matches(pool: Pool, seed: int, ahead: int) -> Iterator[list[EncodedEvent]]:
    """Matches without end, in a fixed order; at most `ahead` tasks are simulated in advance."""
    tasks = ((seed, first) for first in itertools.count(0, MATCHES_PER_TASK))
    pending: deque[AsyncResult[list[list[EncodedEvent]]]] = deque(
        pool.apply_async(play_matches, (next(tasks),)) for _ in range(ahead)
    )
    while True:
        batch = pending.popleft().get(timeout=600)
        pending.append(pool.apply_async(play_matches, (next(tasks),)))
        yield from batch


# Loading the log.


def match_stream_id(seed: int, number: int) -> uuid.UUID:
    return uuid.UUID(int=(seed << 64) | number, version=4)


def interleaved(
    matches: Iterator[list[EncodedEvent]], target: int, seed: int
) -> Iterator[tuple[uuid.UUID, int, EncodedEvent]]:
    """Events of `OPEN_TABLES` matches at a time, one event per table in turn, until at least
    `target` events: (stream id, stream version, event). No match is cut short."""
    tables: deque[tuple[uuid.UUID, Iterator[tuple[int, EncodedEvent]]]] = deque()
    planned = 0
    started = 0
    while True:
        while len(tables) < OPEN_TABLES and planned < target:
            events = next(matches)
            planned += len(events)
            tables.append((match_stream_id(seed, started), enumerate(events, start=1)))
            started += 1
        if not tables:
            return
        stream_id, events_left = tables.popleft()
        step = next(events_left, None)
        if step is None:
            continue
        version, event = step
        yield stream_id, version, event
        tables.append((stream_id, events_left))


def load_log(database: str, *, target: int, seed: int, processes: int) -> LogInfo:
    """Generate and COPY a log of at least `target` match events into an empty event table."""
    with (
        # Fork the simulators before connecting: they need no database connection.
        multiprocessing.get_context("fork").Pool(processes) as pool,
        connect(database) as conn,
    ):
        row = conn.execute("SELECT count(*) FROM eventstore_event").fetchone()
        if row and row[0]:
            raise BenchError(f"{database} already holds {row[0]} events: drop it first")
        progress = Progress("generated and copied", target)
        streams: set[uuid.UUID] = set()
        recorded_at = FIRST_RECORDED_AT
        matches = simulated_matches(pool, seed, ahead=2 * processes)
        with conn.cursor() as cursor, cursor.copy(COPY_EVENTS) as copy:
            for stream_id, version, (event_type, payload) in interleaved(matches, target, seed):
                schema_version = schema_version_of(event_type)
                row = (
                    stream_id,
                    MATCH_STREAM,
                    version,
                    event_type,
                    schema_version,
                    payload,
                    METADATA,
                )
                copy.write_row((*row, recorded_at))
                recorded_at += RECORDED_EVERY
                streams.add(stream_id)
                progress.tick()
        info = LogInfo(GENERATOR, target, seed, progress.count, len(streams))
        conn.execute(
            f"CREATE TABLE {INFO_TABLE} (generator text, target bigint, seed integer, "
            "events bigint, matches bigint)"
        )
        conn.execute(
            f"INSERT INTO {INFO_TABLE} VALUES (%s, %s, %s, %s, %s)",  # noqa: S608 - constant table names; values are bound
            (info.generator, info.target, info.seed, info.events, info.matches),
        )
    return info


def cached_log(database: str) -> LogInfo | None:
    """The log already loaded in this database, if its info table and event count agree."""
    with connect(database) as conn:
        exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", [INFO_TABLE]).fetchone()
        if not exists or not exists[0]:
            return None
        row = conn.execute(
            f"SELECT generator, target, seed, events, matches FROM {INFO_TABLE}"  # noqa: S608 - constant table names; values are bound
        ).fetchone()
        if row is None:
            return None
        info = LogInfo(*row)
        counted = conn.execute(
            "SELECT count(*) FROM eventstore_event WHERE stream_type = %s", [MATCH_STREAM]
        ).fetchone()
    return info if counted and counted[0] == info.events else None


def vacuum_analyze(database: str) -> None:
    """Set hint bits and the visibility map once, so neither timed reader pays for it."""
    with connect(database, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE) eventstore_event")


def warm_up(database: str) -> float:
    """Read the table and its stream-type index once, so both timed readers find them cached."""
    started = time.perf_counter()
    with connect(database) as conn:
        conn.execute("SELECT count(*), sum(length(payload::text)) FROM eventstore_event")
        conn.execute("SELECT count(*) FROM eventstore_event WHERE stream_type = %s", [MATCH_STREAM])
    return time.perf_counter() - started


# The plain fold: the baseline the rebuild is compared with.

PLAIN_READ = """
SELECT stream_id, event_type, payload FROM eventstore_event
WHERE stream_type = %s
ORDER BY global_position
"""


def plain_fold(database: str, *, on_event: Callable[[], None]) -> dict[Any, MatchAggregate]:
    """Every match stream folded from a server-side cursor over the log; nothing written."""
    states: dict[Any, MatchAggregate] = {}
    with connect(database) as conn, conn.cursor(name="bench_plain_fold") as cursor:
        cursor.itersize = 5000
        cursor.execute(PLAIN_READ, [MATCH_STREAM])
        for stream_id, event_type, payload in cursor:
            states[stream_id] = evolve(
                states.get(stream_id), match_event_from_stored(event_type, payload)
            )
            on_event()
    say(f"  plain fold: {len(states):,} streams folded")
    return states
