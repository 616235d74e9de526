"""bench/tournaments.py's served reads: anonymous pollers on the tournament reads (full bodies
and ETag revalidations) against a constant GET, under one gunicorn (issue 13 §4)."""

from __future__ import annotations

import argparse
import json
import threading
from dataclasses import dataclass
from http import HTTPStatus
from uuid import UUID

from bench._cpu import CpuMeter
from bench._load import ApiClient, Writer, WriterResult, run_writers
from bench._server import Server, ServerOptions, gunicorn
from bench._support import (
    OUT_DIR,
    BenchError,
    figure,
    load_average,
    milliseconds,
    percentile,
    say,
    verdict,
)

CONSTANT_PATH = "/bench/constant/"
READ_SHARE_TARGET = 0.50
"""Issue 13 §4: each read's requests/s against the constant GET's, same server, same clients."""
READ_P99_TARGET_SECONDS = 0.100


@dataclass(frozen=True)
class BenchTournament:
    format: str
    label: str
    id: UUID


class Poller(Writer):
    """A page polling one read as an anonymous reader: GETs until told to stop. Full body, or
    with `revalidate` the ETag it got first in If-None-Match (expecting 304 Not Modified)."""

    def __init__(self, port: int, path: str, *, revalidate: bool) -> None:
        self.client = ApiClient(port, None, idempotency_keys=False)
        self.path = path
        self.revalidate = revalidate
        self.headers: dict[str, str] = {}
        self.body = b""

    def open(self) -> None:
        status, body, _seconds = self.client.send("GET", self.path)
        if status != HTTPStatus.OK:
            raise BenchError(f"GET {self.path} answered {status}: {body[:300]!r}")
        self.body = body
        etag = self.client.last_headers.get("ETag")
        if self.revalidate:
            if etag is None:
                raise BenchError(f"GET {self.path} answered without an ETag")
            self.headers = {"If-None-Match": etag}

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        expected = HTTPStatus.NOT_MODIFIED if self.revalidate else HTTPStatus.OK
        while not stop.is_set():
            status, body, seconds = self.client.send("GET", self.path, headers=self.headers)
            if status != expected:
                raise BenchError(f"GET {self.path} answered {status}: {body[:300]!r}")
            result.record("read", seconds)

    def close(self) -> None:
        self.client.close()


@dataclass(frozen=True)
class ReadFigures:
    rate: float
    p50: float
    p99: float
    body: bytes
    cpu: float
    """CPU seconds per request: the app server, PostgreSQL and the readers."""


def poll(
    args: argparse.Namespace,
    server: Server,
    database: str,
    label: str,
    path: str,
    *,
    revalidate: bool = False,
) -> ReadFigures:
    """`args.clients` pollers on one path for `args.seconds`; prints and returns the figures."""
    pollers = [Poller(server.port, path, revalidate=revalidate) for _ in range(args.clients)]
    meter = CpuMeter(database, app_group=server.process_group)
    result = run_writers(pollers, max_seconds=args.seconds, meter=meter)
    if result.errors:
        more = f" (and {len(result.errors) - 1} more)" if len(result.errors) > 1 else ""
        raise BenchError(f"{label}: {result.errors[0]}{more}")
    latencies = result.latencies("read")
    if not latencies:
        raise BenchError(f"{label}: no request was answered within {args.seconds:g} s")
    figures = ReadFigures(
        result.count() / result.seconds,
        percentile(latencies, 50),
        percentile(latencies, 99),
        pollers[0].body,
        result.cpu.total / result.count(),
    )
    figure(
        label,
        f"{figures.rate:,.0f} requests/s ({result.count():,} in {result.seconds:.1f} s), "
        f"p50 {milliseconds(figures.p50)}, p99 {milliseconds(figures.p99)}; CPU per request "
        f"{result.cpu.per(result.count())}",
    )
    return figures


def serve_reads(
    args: argparse.Namespace, database: str, tournaments: list[BenchTournament]
) -> None:
    options = ServerOptions(args.workers, "sync", 1, "bench.wsgi:application")
    say(f"reads: {options.describe()}; {args.clients} clients, {args.seconds:g} s a phase")
    with gunicorn(
        options, database=database, log_path=OUT_DIR / "gunicorn-reads.log", wake_ups=False
    ) as server:
        figure("reads server", f"{options.describe()}, DEBUG off")
        figure("reads clients", f"{args.clients} concurrent, {args.seconds:g} s a phase")
        constant = poll(args, server, database, "constant GET", CONSTANT_PATH)
        for tournament in tournaments:
            for read in READS:
                path = f"/api/v1/tournaments/{tournament.id}/{read}/"
                label = f"{tournament.label} {read}"
                full = poll(args, server, database, f"{label} full body", path)
                figure(f"{label} body", describe_body(read, full.body))
                again = poll(
                    args, server, database, f"{label} revalidating (304)", path, revalidate=True
                )
                share = full.rate / constant.rate
                verdict(
                    f"target {label}",
                    met=share >= READ_SHARE_TARGET and full.p99 <= READ_P99_TARGET_SECONDS,
                    measured=f"{share:.0%} of the constant GET, p99 {milliseconds(full.p99)}; "
                    f"revalidating {again.rate / constant.rate:.0%}, p99 "
                    f"{milliseconds(again.p99)}; by CPU per request {constant.cpu / full.cpu:.0%}, "
                    f"revalidating {constant.cpu / again.cpu:.0%}",
                    target=f">= {READ_SHARE_TARGET:.0%} of the constant GET's requests/s and "
                    f"p99 <= {milliseconds(READ_P99_TARGET_SECONDS)}, full body",
                )
            figure(f"load average after the {tournament.label} reads", load_average())


READS = ("standings", "bracket", "matches")


def describe_body(read: str, body: bytes) -> str:
    """The answer's size, and for the match list how many matches its (first) page holds."""
    size = f"{len(body) / 1024:.1f} KiB"
    if read != "matches":
        return size
    answer = json.loads(body)
    if isinstance(answer, list):
        return f"{size}, {len(answer)} matches (one unpaginated list)"
    return (
        f"{size}, {len(answer['matches'])} matches on the first page, next_after "
        f"{answer.get('next_after')!r}"
    )
