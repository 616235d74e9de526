"""Benchmark: championship day, scorers and a crowd of followers on one server (issue 25 §2).

Run: .venv/bin/python bench/championship.py [--tablets N] [--followers N] [--seconds S]
     [--workers N] [--fresh]

Serves the app as `make run` does (uvicorn, config/asgi.py, --workers 2, a pool of 8 database
connections per process) on the database briscola_bench_championship, then:

1. --tablets tablets (200) enter cards through the card API at a human pace (one card every 2
   to 4 s each: about 70 cards/s in all), each in a free-standing match of its own, for
   --seconds (30): the card latencies without followers;
2. --followers followers (1,000) open the match streams of the tablets' matches (round robin,
   as one client address: the per-address limit is lifted for the bench), reconnecting with
   Last-Event-ID when a stream ends, and the tablets go on for --seconds: the card latencies
   with followers, and each event's delivery lag (its `recorded_at`, the append's statement
   time, to its receipt) on every 20th follower (parsing every message would take the bench's
   own CPU from the server on this 2-core machine).

Prints the card p50/p99 without and with followers, errors, the delivery lag p50/p99, the most
PostgreSQL connections to the bench database (sampled every 0.2 s), the server's memory (the
uvicorn processes' RSS) per 1,000 followers, and the server's CPU per follower-event, each
target as PASS or MISS. Scaled from the issue's evening: the matches are free-standing (their
streams go through the same listener and shared reads as a tournament's), and the projector
pages (20 more tournament followers) are left out. Figures to stdout, progress to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._load import API, ApiClient, scored_rounds
from bench._server import Server, uvicorn
from bench._streams import open_stream
from bench._support import (
    OUT_DIR,
    BenchError,
    connect,
    figure,
    manage,
    percentile,
    prepare_database,
    run_script,
    say,
    verdict,
)
from games.rules import Table

DATABASE = "briscola_bench_championship"
USER = "championship-scorer"
CARD_P99_SECONDS = 0.100
CARD_P99_RATIO = 1.5
LAG_P99_SECONDS = 2.0
CONNECTIONS_MOST = 30
SAMPLED_EVERY = 20


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=200)
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fresh", action="store_true", help="drop and migrate the database")
    args = parser.parse_args()
    if args.tablets < 1 or args.followers < 0 or args.seconds <= 0:
        parser.error("--tablets must be 1 or more, --followers 0 or more, --seconds positive")
    return args


# The tablets.


@dataclass
class Tablet:
    """One table's scorer: a match of its own, a card every 2 to 4 s."""

    port: int
    token: str
    seed: int
    match_id: str = ""
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def create(self) -> None:
        self.client = ApiClient(self.port, self.token, idempotency_keys=True)
        sides = [{"name": f"Side {side}"} for side in range(Table(2).side_count)]
        match, _ = self.client.post(f"{API}/matches/", {"table_size": 2, "sides": sides})
        self.match_id = str(match["id"])
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


# The followers (one asyncio loop in a thread of their own).


@dataclass
class Crowd:
    events: int = 0
    lags: list[float] = field(default_factory=list)
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    connected: int = 0


async def read_stream(
    reader: asyncio.StreamReader, sampled: bool, crowd: Crowd, stop: asyncio.Event, last: str
) -> str:
    """The stream's events until it ends; the last id received."""
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            break
        if line.startswith(b"id: "):
            last = line[4:].strip().decode()
            crowd.events += 1
        elif sampled and line.startswith(b"data: "):
            recorded = json.loads(line[6:])["recorded_at"]
            crowd.lags.append(time.time() - datetime.fromisoformat(recorded).timestamp())
    return last


async def follow(
    port: int, match_id: str, sampled: bool, crowd: Crowd, stop: asyncio.Event
) -> None:
    """One follower: the match's stream, again from the last id whenever it ends."""
    last, counted = "", False
    path = f"{API}/matches/{match_id}/events/stream/"
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
            last = await read_stream(opened.reader, sampled, crowd, stop, last)
        except (OSError, ValueError, IndexError) as error:
            crowd.errors.append(str(error)[:200])
            await asyncio.sleep(1)
        finally:
            if opened is not None:
                opened.close()


def start_crowd(
    port: int, matches: list[str], followers: int
) -> tuple[Crowd, threading.Event, threading.Thread]:
    crowd = Crowd()
    stopping = threading.Event()

    def body() -> None:
        async def main() -> None:
            stop = asyncio.Event()
            tasks = [
                asyncio.create_task(
                    follow(port, matches[n % len(matches)], n % SAMPLED_EVERY == 0, crowd, stop)
                )
                for n in range(followers)
            ]
            while not stopping.is_set():
                await asyncio.sleep(0.1)
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(main())

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    return crowd, stopping, thread


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


def championship(args: argparse.Namespace) -> None:
    prepare_database(DATABASE, fresh=args.fresh)
    token = manage("issue_token", USER, database=DATABASE).strip()
    settings = {"FEED_STREAMS_PER_ADDRESS": str(args.followers + 10)}
    sampler = ConnectionSampler()
    sampler.start()
    with uvicorn(
        workers=args.workers, database=DATABASE, log_path=OUT_DIR / "uvicorn.log", settings=settings
    ) as server:
        say(f"serving on port {server.port}: uvicorn, {args.workers} workers")
        tablets = [Tablet(server.port, token, seed=n) for n in range(args.tablets)]
        for tablet in tablets:
            tablet.create()
        say(f"{args.tablets} tablets for {args.seconds:.0f} s without followers")
        cpu_before = server_cpu_seconds(server)
        alone, alone_errors = run_tablets(tablets, args.seconds)
        cpu_alone = server_cpu_seconds(server) - cpu_before
        alone_p99 = card_figures("without followers", alone, alone_errors, args.seconds)

        rss_before = server_rss_bytes(server)
        crowd, stopping, crowd_thread = start_crowd(
            server.port, [t.match_id for t in tablets], args.followers
        )
        deadline = time.monotonic() + 120
        while crowd.connected < args.followers and time.monotonic() < deadline:
            time.sleep(0.2)
        rss_with = server_rss_bytes(server)
        say(f"{crowd.connected} followers connected; the tablets go on for {args.seconds:.0f} s")
        events_before = crowd.events
        crowd.lags.clear()
        cpu_before = server_cpu_seconds(server)
        crowded, crowded_errors = run_tablets(tablets, args.seconds)
        cpu_crowded = server_cpu_seconds(server) - cpu_before
        delivered = crowd.events - events_before
        stopping.set()
        crowd_thread.join(30)
    sampler.stop.set()
    sampler.join()

    crowded_p99 = card_figures("with followers", crowded, crowded_errors, args.seconds)
    figure("followers connected", f"{crowd.connected} of {args.followers}")
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
