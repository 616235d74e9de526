"""Benchmark: championship day, scorers and a crowd of followers on one server (issue 25 §2).

Run: .venv/bin/python bench/championship.py [--tablets N] [--followers N] [--projectors N]
     [--seconds S] [--workers N] [--fresh]

Serves the app as `make run` does (uvicorn, config/asgi.py, --workers 2, a pool of 8 database
connections per process, and a Celery worker of concurrency 2 consuming the log) on the
database briscola_bench_championship, then:

1. an organizer creates a Swiss tournament of 2 x --tablets singles (best of 5) through the API
   and starts it; each of --tablets tablets (200) scores one of its round-1 matches, entering
   cards through the card API at a human pace (one card every 2 to 4 s each: about 70 cards/s
   in all), for --seconds (30): the card latencies without followers;
2. --followers followers (1,000) open the tournament's stream (as one client address: the
   per-address limit is lifted for the bench), reconnecting with Last-Event-ID when a stream
   ends, and --projectors projector screens (20) follow it as the page does
   (tournaments/static/tournaments/live.js: the stream, and the live part fetched again with
   If-None-Match after what it hears, at most once per LIVE_REFRESH_SECONDS); the tablets go on
   for --seconds: the card latencies with followers, and each event's delivery lag (its
   `recorded_at`, the append's statement time, to its receipt) on every 20th follower (parsing
   every message would take the bench's own CPU from the server on this 2-core machine). The
   followers and projectors run in a process of their own, apart from the tablets' threads,
   reading their streams in chunks: they stand for phones elsewhere, and a tablet's answer
   must not wait for the crowd's reads to be timed.

Prints the card p50/p99 without and with followers, errors, the delivery lag p50/p99, the
projectors' refreshes (full bodies and 304s), the most PostgreSQL connections to the bench
database (sampled every 0.2 s), the server's memory (the uvicorn processes' RSS) per 1,000
followers, and the server's CPU per follower-event, each target as PASS or MISS. The tablets
score with the organizer's token (a device token per table costs the same place lookup).
Figures to stdout, progress to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._load import API, ApiClient, scored_rounds
from bench._server import Server, uvicorn
from bench._streams import open_stream
from bench._support import (
    LOOPBACK,
    OUT_DIR,
    ROOT,
    VENV_BIN,
    BenchError,
    connect,
    django_environment,
    figure,
    manage,
    percentile,
    prepare_database,
    run_script,
    say,
    verdict,
)

DATABASE = "briscola_bench_championship"
ORGANIZER = "championship-organizer"
CLUB = "championship-bench"
CARD_P99_SECONDS = 0.100
CARD_P99_RATIO = 1.5
LAG_P99_SECONDS = 2.0
CONNECTIONS_MOST = 30
SAMPLED_EVERY = 20
LIVE_REFRESH_SECONDS = 2.0
"""The least time between two refreshes of a followed page's live part (live.js)."""


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=200)
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--projectors", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fresh", action="store_true", help="drop and migrate the database")
    parser.add_argument(
        "--crowd-nice",
        type=int,
        default=0,
        help="the crowd's process niceness (10: it yields the cores to the server, as phones "
        "elsewhere would take none of them)",
    )
    args = parser.parse_args()
    if args.tablets < 1 or args.followers < 0 or args.projectors < 0 or args.seconds <= 0:
        parser.error(
            "--tablets must be 1 or more, --followers and --projectors 0 or more, --seconds "
            "positive"
        )
    return args


# The tablets.


@dataclass
class Tablet:
    """One table's scorer: a match of the tournament, a card every 2 to 4 s."""

    port: int
    token: str
    seed: int
    match_id: str
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.client = ApiClient(self.port, self.token, idempotency_keys=True)
        self.rounds = iter(scored_rounds(clients=1, rounds=200, table_size=2, seed=self.seed)[0])
        self.cards: list[tuple[str, dict[str, object]]] = []

    def next_card(self) -> tuple[str, dict[str, object]]:
        if not self.cards:
            scored = next(self.rounds)
            started, _ = self.post(
                f"{API}/matches/{self.match_id}/rounds/",
                {"briscola": scored.briscola, "dealer_seat": scored.dealer},
            )
            url = f"{API}/matches/{self.match_id}/rounds/{started['number']}/plays/"
            self.cards = [(url, {"seat": p.seat, "card": p.card.code}) for p in scored.plays]
        return self.cards[0]

    def play_next_card(self) -> float:
        """Enter the next card (again on a new connection if the kept one was closed while
        the table was quiet); the request's latency."""
        url, body = self.next_card()
        _, seconds = self.post(url, body)
        self.cards.pop(0)
        return seconds

    def post(self, url: str, body: dict[str, object]) -> tuple[dict[str, object], float]:
        """POST, again on a new connection if the kept one was closed while the table was
        quiet (the server closes idle connections after a few seconds)."""
        try:
            return self.client.post(url, body)
        except (OSError, http.client.HTTPException):
            self.client.reconnect()
            return self.client.post(url, body)

    def run(self, until: float) -> None:
        pace = random.Random(self.seed)  # noqa: S311 - a pace, not a secret
        time.sleep(pace.uniform(0.0, 3.0))  # the tables do not all start at once
        while time.monotonic() < until:
            try:
                seconds = self.play_next_card()
            except (OSError, BenchError, StopIteration) as error:
                self.errors.append(str(error)[:200])
                self.client.reconnect()
                continue
            self.latencies.append(seconds)
            time.sleep(max(0.0, pace.uniform(2.0, 4.0) - seconds))


def run_tablets(tablets: list[Tablet], seconds: float) -> tuple[list[float], list[str]]:
    for tablet in tablets:
        tablet.latencies, tablet.errors = [], []
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=t.run, args=(until,), daemon=True) for t in tablets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies = sorted(s for t in tablets for s in t.latencies)
    return latencies, [e for t in tablets for e in t.errors]


def championship_tournament(port: int, token: str, tablets: int) -> tuple[str, list[str]]:
    """A Swiss tournament of 2 x `tablets` singles, best of 5, started through the API as an
    organizer would: its id and its round-1 matches (as many as tablets)."""
    client = ApiClient(port, token, idempotency_keys=True)
    tournament, _ = client.post(
        f"{API}/tournaments/",
        {
            "name": f"Championship {time.strftime('%Y-%m-%d %H:%M:%S')}",
            "format": "swiss",
            "table_size": 2,
            "best_of": 5,
            "tables": tablets,
        },
    )
    base = f"{API}/tournaments/{tournament['id']}"
    for number in range(1, 2 * tablets + 1):
        client.post(f"{base}/entrants/", {"name": f"Player {number:04d}"})
    client.post(f"{base}/start/", {})
    status, raw, _ = client.send("GET", f"{base}/matches/?limit=500")
    if status != 200:
        raise BenchError(f"the tournament's matches answered {status}: {raw[:300]!r}")
    matches = [str(match["id"]) for match in json.loads(raw)["matches"]]
    if len(matches) != tablets:
        raise BenchError(f"{len(matches)} matches drawn for {tablets} tablets")
    client.close()
    return str(tournament["id"]), matches


# The followers (one asyncio loop in a process of their own).


@dataclass
class Crowd:
    events: int = 0
    lags: list[float] = field(default_factory=list)
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    connected: int = 0
    refreshes: int = 0
    not_modified: int = 0
    refresh_latencies: list[float] = field(default_factory=list)


async def read_stream(
    reader: asyncio.StreamReader,
    sampled: bool,
    crowd: Crowd,
    stop: asyncio.Event,
    last: str,
    heard: asyncio.Event | None = None,
) -> str:
    """The stream's events until it ends; the last id received. `heard` is set on each batch.

    Read in chunks and counted by their `id:` lines, as cheaply as a client can: only a sampled
    follower decodes its events' JSON (for the delivery lag). Line by line, 1,000 followers'
    reads took a whole core of this 2-core machine from the server they measure."""
    pending = b""
    while not stop.is_set():
        chunk = await reader.read(1 << 16)
        if not chunk:
            break
        complete, separator, pending = (pending + chunk).rpartition(b"\n\n")
        if not separator:
            pending = complete + pending
            continue
        messages = b"\n" + complete
        count = messages.count(b"\nid: ")
        if not count:
            continue
        crowd.events += count
        start = messages.rfind(b"\nid: ") + 5
        end = messages.find(b"\n", start)
        last = messages[start : end if end >= 0 else len(messages)].strip().decode()
        if heard is not None:
            heard.set()
        if sampled:
            now = time.time()
            for line in messages.split(b"\n"):
                if line.startswith(b"data: "):
                    recorded = json.loads(line[6:])["recorded_at"]
                    crowd.lags.append(now - datetime.fromisoformat(recorded).timestamp())
    return last


async def follow(
    port: int,
    path: str,
    sampled: bool,
    crowd: Crowd,
    stop: asyncio.Event,
    heard: asyncio.Event | None = None,
) -> None:
    """One follower: the stream at `path`, again from the last id whenever it ends."""
    last, counted = "", False
    while not stop.is_set():
        opened = None
        try:
            opened = await open_stream(port, path, last_event_id=last)
            if opened.status != 200:
                crowd.refused += opened.status == 429
                if opened.status != 429:
                    crowd.errors.append(f"stream answered {opened.status}")
                await asyncio.sleep(1)
                continue
            if not counted:
                crowd.connected, counted = crowd.connected + 1, True
            last = await read_stream(opened.reader, sampled, crowd, stop, last, heard)
        except (OSError, ValueError, IndexError) as error:
            crowd.errors.append(str(error)[:200])
            await asyncio.sleep(1)
        finally:
            if opened is not None:
                opened.close()


async def get_live(port: int, path: str, etag: str) -> tuple[int, str]:
    """The live part as the page's htmx asks for it: its status and ETag."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        condition = f"If-None-Match: {etag}\r\n" if etag else ""
        writer.write(
            f"GET {path} HTTP/1.0\r\nHost: {LOOPBACK}\r\nHX-Request: true\r\n"
            f"{condition}\r\n".encode()
        )
        status = int((await reader.readline()).split()[1])
        found = etag
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "etag":
                found = value.strip()
        await reader.read()
        return status, found
    finally:
        writer.close()


async def project(
    port: int, tournament_id: str, crowd: Crowd, stop: asyncio.Event, offset: float
) -> None:
    """One projector screen, as live.js runs it: follows the tournament's stream and, after
    what it hears, fetches the live part again (If-None-Match), at most once per
    LIVE_REFRESH_SECONDS."""
    heard = asyncio.Event()
    stream = tournament_stream(tournament_id)
    following = asyncio.create_task(follow(port, stream, False, crowd, stop, heard))
    screen, etag = f"/tournaments/{tournament_id}/screen/", ""
    await asyncio.sleep(offset)
    try:
        while not stop.is_set():
            await heard.wait()
            heard.clear()
            started = time.perf_counter()
            try:
                status, etag = await get_live(port, screen, etag)
            except (OSError, ValueError, IndexError) as error:
                crowd.errors.append(f"projector: {error}"[:200])
                status = 0
            crowd.refresh_latencies.append(time.perf_counter() - started)
            crowd.refreshes += 1
            crowd.not_modified += status == 304
            if status not in (200, 304):
                crowd.errors.append(f"projector refresh answered {status}")
            await asyncio.sleep(LIVE_REFRESH_SECONDS)
    finally:
        following.cancel()


def wait_for_the_consumer(timeout: float = 120.0) -> None:
    """Until the worker has read the whole log: the tournament's start (its fixtures, its tables,
    its view) projected, as it is long before the players have sat down and played a card. The
    first phase would otherwise time its first cards against that work."""
    deadline = time.monotonic() + timeout
    with connect(DATABASE, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(  # the consumer's own lag (tournaments.projections.consumer)
                "SELECT NOT EXISTS (SELECT 1 FROM eventstore_event"
                " WHERE stream_type IN ('tournament', 'match') AND global_position >"
                " coalesce((SELECT position FROM tournaments_checkpoint"
                " WHERE name = 'tournaments'), 0))"
            ).fetchone()
            if row and row[0]:
                return
            time.sleep(0.2)
    raise BenchError(f"the worker had not read the log after {timeout:.0f} s")


def tournament_stream(tournament_id: str) -> str:
    """The tournament's stream from the log's position now, as the pages open it (and as a
    follower that has read the tournament first would): its history is not the bench's."""
    with connect(DATABASE) as conn:
        row = conn.execute(
            "SELECT coalesce(max(global_position), 0) FROM eventstore_event"
        ).fetchone()
    position = int(row[0]) if row else 0
    return f"{API}/tournaments/{tournament_id}/events/stream/?after={position}"


class CrowdProcess:
    """The followers and the projectors, in a process of their own: on this 2-core machine
    they stand for phones and screens elsewhere, and in the tablets' process their reads held
    its interpreter while a tablet's answer waited to be timed. Asked over a pipe: how many
    streams are connected, mark the start of the phase measured, stop (and the figures)."""

    def __init__(
        self, port: int, tournament_id: str, followers: int, projectors: int, *, nice: int = 0
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(
            target=crowd_main,
            args=(port, tournament_id, tournament_stream(tournament_id), followers, projectors),
            kwargs={"pipe": theirs, "nice": nice},
            daemon=True,
        )
        self.process.start()

    def ask(self, question: str) -> Any:
        self.pipe.send(question)
        if not self.pipe.poll(60):
            raise BenchError(f"the crowd did not answer {question!r}")
        return self.pipe.recv()

    def connected(self) -> int:
        return int(self.ask("connected"))

    def mark(self) -> int:
        """Start the phase measured: the delivery lags so far are forgotten; the events
        received so far."""
        return int(self.ask("mark"))

    def stop(self) -> Crowd:
        crowd = Crowd(**self.ask("stop"))
        self.process.join(30)
        return crowd


def crowd_main(
    port: int,
    tournament_id: str,
    stream: str,
    followers: int,
    projectors: int,
    *,
    pipe: multiprocessing.connection.Connection,
    nice: int = 0,
) -> None:
    """The crowd's process: its followers and projectors on one asyncio loop, answering the
    bench's questions between their reads."""
    os.nice(nice)

    async def main() -> None:
        crowd, stop = Crowd(), asyncio.Event()
        tasks = [
            asyncio.create_task(follow(port, stream, n % SAMPLED_EVERY == 0, crowd, stop))
            for n in range(followers)
        ]
        tasks += [
            asyncio.create_task(
                project(port, tournament_id, crowd, stop, n * LIVE_REFRESH_SECONDS / projectors)
            )
            for n in range(projectors)
        ]
        while True:
            await asyncio.sleep(0.05)
            if not pipe.poll():
                continue
            question = pipe.recv()
            if question == "connected":
                pipe.send(crowd.connected)
            elif question == "mark":
                crowd.lags.clear()
                pipe.send(crowd.events)
            elif question == "stop":
                break
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pipe.send(asdict(crowd))

    asyncio.run(main())


# The server, seen from outside.


def group_pids(server: Server) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == server.process_group:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def server_rss_bytes(server: Server) -> int:
    total = 0
    for pid in group_pids(server):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def server_cpu_seconds(server: Server) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in group_pids(server):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


class ConnectionSampler(threading.Thread):
    """The most connections to the bench database, sampled until stopped."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.most = 0
        self.stop = threading.Event()

    def run(self) -> None:
        with connect("postgres", autocommit=True) as conn:
            while not self.stop.wait(0.2):
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DATABASE]
                ).fetchone()
                self.most = max(self.most, int(row[0]) if row else 0)


def card_figures(label: str, latencies: list[float], errors: list[str], seconds: float) -> float:
    if not latencies:
        raise BenchError(f"no card was entered {label}: {errors[:3]}")
    p99 = percentile(latencies, 99)
    figure(
        f"cards {label}",
        f"{len(latencies) / seconds:.0f}/s, p50 {percentile(latencies, 50) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, errors {len(errors)}",
    )
    return p99


@contextmanager
def celery_worker() -> Iterator[None]:
    """The worker `make run` starts beside the server (Procfile), on the bench database."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    with open(OUT_DIR / "celery.log", "wb") as log:
        worker = subprocess.Popen(
            [str(VENV_BIN / "celery"), "-A", "config", "worker", "--concurrency", "2"],
            cwd=ROOT,
            env=django_environment(DATABASE),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def championship(args: argparse.Namespace) -> None:
    prepare_database(DATABASE, fresh=args.fresh)
    token = manage(
        "issue_token", ORGANIZER, "--role", "organizer", "--club", CLUB, database=DATABASE
    ).strip()
    settings = {"FEED_STREAMS_PER_ADDRESS": str(args.followers + args.projectors + 10)}
    sampler = ConnectionSampler()
    sampler.start()
    with (
        celery_worker(),
        uvicorn(
            workers=args.workers,
            database=DATABASE,
            log_path=OUT_DIR / "uvicorn.log",
            settings=settings,
        ) as server,
    ):
        say(f"serving on port {server.port}: uvicorn, {args.workers} workers, a Celery worker")
        tournament_id, matches = championship_tournament(server.port, token, args.tablets)
        say(f"a tournament of {2 * args.tablets} entrants started: {tournament_id}")
        wait_for_the_consumer()
        tablets = [
            Tablet(server.port, token, seed=n, match_id=match_id)
            for n, match_id in enumerate(matches)
        ]
        say(f"{args.tablets} tablets for {args.seconds:.0f} s without followers")
        cpu_before = server_cpu_seconds(server)
        alone, alone_errors = run_tablets(tablets, args.seconds)
        cpu_alone = server_cpu_seconds(server) - cpu_before
        alone_p99 = card_figures("without followers", alone, alone_errors, args.seconds)

        rss_before = server_rss_bytes(server)
        crowd_process = CrowdProcess(
            server.port, tournament_id, args.followers, args.projectors, nice=args.crowd_nice
        )
        deadline = time.monotonic() + 120
        streams = args.followers + args.projectors
        while (connected := crowd_process.connected()) < streams and time.monotonic() < deadline:
            time.sleep(0.2)
        rss_with = server_rss_bytes(server)
        say(
            f"{connected} streams connected (followers and projectors); the tablets go "
            f"on for {args.seconds:.0f} s"
        )
        events_before = crowd_process.mark()
        cpu_before = server_cpu_seconds(server)
        crowded, crowded_errors = run_tablets(tablets, args.seconds)
        cpu_crowded = server_cpu_seconds(server) - cpu_before
        crowd = crowd_process.stop()
        delivered = crowd.events - events_before
    sampler.stop.set()
    sampler.join()

    crowded_p99 = card_figures("with followers", crowded, crowded_errors, args.seconds)
    figure("streams connected", f"{crowd.connected} of {streams}")
    if crowd.refreshes:
        refreshes = sorted(crowd.refresh_latencies)
        figure(
            "projector refreshes",
            f"{crowd.refreshes} ({crowd.not_modified} answered 304), "
            f"p50 {percentile(refreshes, 50) * 1000:.0f} ms, "
            f"p99 {percentile(refreshes, 99) * 1000:.0f} ms",
        )
    figure(
        "follower-events delivered",
        f"{delivered} ({crowd.refused} refusals, {len(crowd.errors)} follower errors)",
    )
    lags = sorted(crowd.lags)
    lag_p99 = percentile(lags, 99) if lags else float("inf")
    if lags:
        figure(
            "delivery lag",
            f"p50 {percentile(lags, 50) * 1000:.0f} ms, "
            f"p99 {lag_p99 * 1000:.0f} ms ({len(lags)} sampled)",
        )
    per_thousand = (rss_with - rss_before) / max(crowd.connected, 1) * 1000
    figure(
        "server memory",
        f"{rss_before / 2**20:.0f} MiB before the followers, "
        f"{per_thousand / 2**20:.1f} MiB more per 1,000 followers",
    )
    if delivered:
        figure(
            "server CPU per follower-event", f"{(cpu_crowded - cpu_alone) / delivered * 1e6:.0f} µs"
        )
    for error in dict.fromkeys([*alone_errors[:5], *crowded_errors[:5], *crowd.errors[:5]]):
        say(f"error: {error}")
    errors = len(alone_errors) + len(crowded_errors) + len(crowd.errors)
    verdict(
        f"target card p99 with followers <= {CARD_P99_RATIO}x without",
        met=crowded_p99 <= CARD_P99_RATIO * alone_p99,
        measured=f"{crowded_p99 / alone_p99:.2f}x",
        target=f"<= {CARD_P99_RATIO}x",
    )
    verdict(
        "target card p99 with followers <= 100 ms",
        met=crowded_p99 <= CARD_P99_SECONDS,
        measured=f"{crowded_p99 * 1000:.1f} ms",
        target="<= 100 ms",
    )
    verdict("target errors", met=errors == 0, measured=str(errors), target="0")
    verdict(
        "target delivery lag p99 <= 2 s",
        met=lag_p99 <= LAG_P99_SECONDS,
        measured=f"{lag_p99 * 1000:.0f} ms",
        target="<= 2000 ms",
    )
    verdict(
        f"target PostgreSQL connections <= {CONNECTIONS_MOST}",
        met=sampler.most <= CONNECTIONS_MOST,
        measured=str(sampler.most),
        target=f"<= {CONNECTIONS_MOST}",
    )


def main() -> int:
    args = parse_arguments()
    return run_script("bench/championship.py", lambda: championship(args), load_at_the_end=True)


if __name__ == "__main__":
    sys.exit(main())
