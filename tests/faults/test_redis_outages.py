"""Writes never wait on Redis (issue 10 section 2): with Redis stopped, then frozen (SIGSTOP),
every card play keeps answering the API's JSON (no retry, a 5 s client timeout that a write
blocked on Redis would reach), the Celery worker lives through it (section 3), and once Redis is
back the consumer catches up. How fast the cards answer is a figure of the report (p50, p99,
cards over 100 ms), not an assertion: a timed assertion fails on a loaded machine (CI failed so
on a p99 of 116 ms at p50 13 ms)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator

import pytest

from bench._load import WriterResult
from bench._support import percentile
from tests.faults.app import PROFILE, App
from tests.faults.checks import consumer_state, log_differences, version_gaps
from tests.faults.scorers import GaveUp, Scorer, Step, scorer_steps
from tests.faults.stack import StackError, wait_until
from tests.workers import Worker

pytestmark = pytest.mark.faults

SLOW_CARD_SECONDS = 0.100
"""The report counts the cards slower than this (the goal of issue 10: p99 under 100 ms)."""
CATCH_UP_SECONDS = 30.0
WRITES_AFTER_RETURN = 5
WARM_UP_STEPS = 10
CATCH_UP_INTERVAL = 10.0
"""After a failed send the app skips wake-ups for a while and beat's catch-up does their work
(issue 10 section 2): beat runs every 10 s here, every 30 s in production."""


class Phase:
    """Enters steps from the scorer's list and keeps the card plays' latencies."""

    def __init__(self, scorer: Scorer, feed: Iterator[Step]) -> None:
        self.scorer = scorer
        self.feed = feed
        self.result = WriterResult()

    def enter(self, count: int) -> list[float]:
        latencies: list[float] = []
        for _ in range(count):
            step = next(self.feed)
            try:
                self.scorer.enter(step, self.result)
            except GaveUp as error:
                pytest.fail(f"a write did not get the API's JSON in time: {error}")
            if step.kind == "play":
                latencies.append(self.result.latencies["play"][-1])
        return sorted(latencies)


def outage(
    app: App,
    phase: Phase,
    worker: Worker,
    *,
    name: str,
    begin: Callable[[], None],
    end: Callable[[], None],
) -> dict[str, object]:
    """Cards entered during the outage, then a few after it; the figures."""
    begin()
    try:
        latencies = phase.enter(PROFILE.redis_cards)
    finally:
        end()
    returned = time.monotonic()
    phase.enter(WRITES_AFTER_RETURN)

    def caught_up() -> bool:
        if worker.process.poll() is not None:  # kombu's restore_unacked (issue 10 section 3)
            pytest.fail(f"the Celery worker died with Redis {name}:\n{worker.log()[-3000:]}")
        return app.consumer_lag() == 0

    try:
        wait_until(caught_up, timeout=CATCH_UP_SECONDS, what=f"catch-up after Redis {name}")
    except StackError as error:
        raise AssertionError(f"{error}\n{consumer_state(app)}") from error
    assert len(latencies) >= PROFILE.redis_cards // 2, f"Redis {name}: too few card plays"
    p99 = percentile(latencies, 99)
    return {
        "cards": len(latencies),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(p99 * 1000, 1),
        "max_ms": round(latencies[-1] * 1000, 1),
        "cards_over_100_ms": sum(value > SLOW_CARD_SECONDS for value in latencies),
        "catch_up_seconds": round(time.monotonic() - returned, 1),
    }


def test_card_plays_answer_json_without_waiting_on_redis_while_it_is_stopped_or_frozen(
    app: App, report: dict[str, object]
) -> None:
    worker = app.start_worker(catch_up_seconds=CATCH_UP_INTERVAL)
    cards = 2 * (PROFILE.redis_cards + WRITES_AFTER_RETURN) + WARM_UP_STEPS
    steps = scorer_steps(scorers=1, rounds=math.ceil(cards * 1.2 / 40) + 1, seed=2020)[0]
    # No retries: the first timeout (5 s), dropped connection or answer that is not the API's
    # JSON fails the test.
    scorer = app.scorer(steps, timeout=5, patience=0)
    phase = Phase(scorer, iter(steps))
    redis = app.stack.redis
    try:
        phase.enter(WARM_UP_STEPS)
        stopped = outage(app, phase, worker, name="stopped", begin=redis.stop, end=redis.start)
        frozen = outage(app, phase, worker, name="frozen", begin=redis.freeze, end=redis.thaw)
    finally:
        scorer.close()

    assert version_gaps(app) == []
    assert log_differences(app, [scorer]) == []
    report.update(
        stopped=stopped,
        frozen=frozen,
        requests=scorer.ledger.requests,
        problems=dict(scorer.ledger.problems),
    )
