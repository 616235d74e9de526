"""Scorers for the fault suite: legal rounds (bench/_load.py) entered card by card through the
HTTP API, each command with an Idempotency-Key of its own that a retry sends again.

A scorer keeps what the API acknowledged (card plays by match, in order) and the keys of the
commands it refused, so that a test can hold the log against them afterwards.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bench._load import API, ApiClient, ScoredRound, Writer, WriterResult, scored_rounds
from games.rules.tables import Table

RETRY_BACKOFF_SECONDS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.0)


class GaveUp(Exception):
    """A command got no answer the scorer could use within its patience."""


@dataclass(frozen=True)
class Step:
    """One command of a scorer: `kind` is create, start, play or refused (an illegal play sent
    on purpose, which must be refused and leave nothing in the log)."""

    kind: str
    match_id: str
    path: str
    body: dict[str, object]
    key: str = field(default_factory=lambda: uuid.uuid4().hex)


def steps_of(rounds: list[ScoredRound], *, refused_every: int = 0) -> list[Step]:
    """Each round in a best-of-1 match of its own (a client-chosen id): create, start, plays.
    With `refused_every`, every so many rounds also try a play out of turn first."""
    steps = []
    for number, scored in enumerate(rounds):
        match_id = str(uuid.uuid4())
        url = f"{API}/matches/{match_id}"
        sides = [{"name": f"Side {side}"} for side in range(Table(scored.table_size).side_count)]
        body = {"id": match_id, "table_size": scored.table_size, "best_of": 1, "sides": sides}
        steps.append(Step("create", match_id, f"{API}/matches/", body))
        start = {"briscola": scored.briscola, "dealer_seat": scored.dealer}
        steps.append(Step("start", match_id, f"{url}/rounds/", start))
        plays_url = f"{url}/rounds/1/plays/"
        first = scored.plays[0]
        if refused_every and number % refused_every == 0:
            out_of_turn = {"seat": (first.seat + 1) % scored.table_size, "card": first.card.code}
            steps.append(Step("refused", match_id, plays_url, out_of_turn))
        for play in scored.plays:
            body = {"seat": play.seat, "card": play.card.code}
            steps.append(Step("play", match_id, plays_url, body))
    return steps


def scorer_steps(
    *, scorers: int, rounds: int, seed: int, refused_every: int = 0
) -> list[list[Step]]:
    return [
        steps_of(own, refused_every=refused_every)
        for own in scored_rounds(clients=scorers, rounds=rounds, table_size=2, seed=seed)
    ]


@dataclass
class Ledger:
    """What the API told one scorer: acknowledged plays by match, refused keys, and counts of
    what went wrong on the way (connection errors, timeouts, 5xx, answers that are not JSON)."""

    plays: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    matches: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    problems: Counter[str] = field(default_factory=Counter)
    incidents: list[tuple[str, float, float]] = field(default_factory=list)
    """Each problem, with when (time.monotonic) its request was sent and when it failed."""
    requests: int = 0
    retries: int = 0


class PatientClient:
    """An ApiClient that sends a command again, with the same key and body, after a connection
    error, a timeout or a 5xx, for at most `patience` seconds; with `patience=0` the first
    problem is raised at once (GaveUp)."""

    def __init__(
        self, port: int, token: str, ledger: Ledger, *, timeout: float, patience: float
    ) -> None:
        self.client = ApiClient(port, token, idempotency_keys=False, timeout=timeout)
        self.ledger = ledger
        self.patience = patience

    def call(
        self, method: str, path: str, body: dict[str, object] | None = None, *, key: str | None
    ) -> tuple[int, Any, float]:
        """The first answer below 500: its status, its JSON and the latency of that attempt."""
        deadline = time.monotonic() + self.patience
        attempt = 0
        while True:
            self.ledger.requests += 1
            sent = time.monotonic()
            try:
                status, raw, seconds = self.client.send(method, path, body, idempotency_key=key)
            except (OSError, http.client.HTTPException) as error:
                problem = "timeout" if isinstance(error, TimeoutError) else "connection error"
                detail = f"{type(error).__name__}: {error}"
                self.client.reconnect()
            else:
                answer = parsed(raw)
                if answer is None:
                    self.ledger.problems[f"{status} not JSON"] += 1
                if status < 500 and answer is not None:
                    return status, answer, seconds
                problem = f"{status}"
                detail = f"{status}: {raw[:300].decode(errors='replace')}"
                self.client.reconnect()
            self.ledger.problems[problem] += 1
            self.ledger.incidents.append((problem, sent, time.monotonic()))
            if time.monotonic() >= deadline:
                raise GaveUp(f"{method} {path} {body}: {detail} (attempt {attempt + 1})")
            time.sleep(RETRY_BACKOFF_SECONDS[min(attempt, len(RETRY_BACKOFF_SECONDS) - 1)])
            attempt += 1
            self.ledger.retries += 1

    def close(self) -> None:
        self.client.close()


def parsed(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


class Gate:
    """Lets scorers through step by step, or holds them between steps while the app is idle
    (`closed_while_idle`), so that a fault can find connections nobody is using."""

    def __init__(self, *, timeout: float = 120) -> None:
        self.condition = threading.Condition()
        self.closed = False
        self.inside = 0
        self.timeout = timeout

    @contextmanager
    def passage(self) -> Iterator[None]:
        with self.condition:
            if not self.condition.wait_for(lambda: not self.closed, timeout=self.timeout):
                raise GaveUp(f"the gate stayed closed for {self.timeout:.0f} s")
            self.inside += 1
        try:
            yield
        finally:
            with self.condition:
                self.inside -= 1
                self.condition.notify_all()

    @contextmanager
    def closed_while_idle(self) -> Iterator[None]:
        with self.condition:
            self.closed = True
            idle = self.condition.wait_for(lambda: self.inside == 0, timeout=self.timeout)
        try:
            if not idle:
                raise GaveUp(f"scorers still busy after {self.timeout:.0f} s")
            yield
        finally:
            with self.condition:
                self.closed = False
                self.condition.notify_all()


class Scorer(Writer):
    """Enters its steps in order; each must be acknowledged (or, for `refused`, refused with a
    4xx) before the next. `run_writers` runs several at once; `steps_done` counts them."""

    def __init__(
        self, port: int, token: str, steps: list[Step], *, timeout: float, patience: float
    ) -> None:
        self.steps = steps
        self.ledger = Ledger()
        self.client = PatientClient(port, token, self.ledger, timeout=timeout, patience=patience)
        self.steps_done = 0
        self.gate: Gate | None = None

    def run(self, result: WriterResult, stop: threading.Event) -> None:
        for step in self.steps[self.steps_done :]:
            if stop.is_set():
                return
            if self.gate is None:
                self.enter(step, result)
            else:
                with self.gate.passage():
                    self.enter(step, result)

    def enter(self, step: Step, result: WriterResult) -> None:
        status, answer, seconds = self.client.call("POST", step.path, step.body, key=step.key)
        if step.kind == "refused":
            assert status in (409, 422), f"{step}: answered {status} {answer}"
            assert isinstance(answer, dict), answer
            assert "code" in answer, answer
            self.ledger.refused.append(step.key)
        else:
            # 200: a retry of a command that was recorded, its answer lost (a card play with
            # its key, a creation with the same id and body: issue 10 section 4).
            assert status in (200, 201), f"{step}: answered {status} {answer}"
            if step.kind == "create":
                self.ledger.matches.append(step.match_id)
            elif step.kind == "play":
                self.ledger.plays.setdefault(step.match_id, []).append(step.body)
        result.record(step.kind, seconds)
        self.steps_done += 1

    def close(self) -> None:
        self.client.close()


def acknowledged(scorers: list[Scorer]) -> dict[str, list[dict[str, object]]]:
    return {match: plays for s in scorers for match, plays in s.ledger.plays.items()}


def total(scorers: list[Scorer], attribute: str) -> int:
    return sum(getattr(scorer.ledger, attribute) for scorer in scorers)


def problems(scorers: list[Scorer]) -> Counter[str]:
    counted: Counter[str] = Counter()
    for scorer in scorers:
        counted.update(scorer.ledger.problems)
    return counted
