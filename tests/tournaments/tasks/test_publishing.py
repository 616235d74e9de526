"""Writes never wait on Redis (issue 10 §2): with the broker stopped or frozen, a card play answers
as fast as with it up, always with the API's JSON, and the consumer catches up once it returns.

Every Redis broken here is a private one (`private_redis`), never the shared server.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Match
from tests.games.api.builders import (
    create_match,
    legal_round,
    match_url,
    play_body,
    post,
    round_url,
)
from tests.tournaments.tasks.builders import ORGANIZER, fixtures, new_tournament, play
from tests.tournaments.tasks.conftest import PrivateRedis, WorkerFactory, wait_for
from tournaments import publishing, services
from tournaments.models import Tournament
from tournaments.tasks import consume_log

pytestmark = pytest.mark.django_db(transaction=True)

P99_BOUND = 0.1
"""Seconds: the issue's bound for a card play's p99 with Redis away, i.e. "never waits"."""

CATCH_UP_BOUND = 30.0
"""Seconds after Redis returns within which the consumer has caught up (beat's period)."""


def scorer_client() -> APIClient:
    user = get_user_model().objects.create_user(username="scorer")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def p99(durations: list[float]) -> float:
    """The nearest-rank 99th percentile."""
    ordered = sorted(durations)
    return ordered[math.ceil(0.99 * len(ordered)) - 1]


def timed_card_plays(client: APIClient, *, rounds: int) -> list[float]:
    """Play `rounds` whole rounds of a match card by card; every answer must be the API's JSON
    201. Returns how long each card play took."""
    match_id = create_match(client, best_of=5)["id"]
    durations = []
    for number in range(1, rounds + 1):
        briscola, plays = legal_round(dealer=(number - 1) % 2, seed=number)
        response = post(client, match_url(match_id, "rounds"), {"briscola": briscola})
        assert response.status_code == 201, response.content
        for card in plays:
            started = time.perf_counter()
            response = post(client, round_url(match_id, number, "plays"), play_body(card))
            durations.append(time.perf_counter() - started)
            assert response.status_code == 201, response.content
            assert response["Content-Type"] == "application/json"
    return durations


@pytest.fixture
def wake_ups(settings: Any) -> None:
    settings.CELERY_WAKE_UPS = True


@pytest.mark.parametrize("fault", ["stopped", "frozen"])
def test_card_plays_never_wait_on_a_redis_that_is_stopped_or_frozen(
    private_redis: PrivateRedis, wake_ups: None, fault: str
) -> None:
    client = scorer_client()
    create_match(client)  # a wake-up goes through: the sending connection is open
    assert publishing.breaker.is_open(time.monotonic()) is False

    if fault == "stopped":
        private_redis.stop()
    else:
        private_redis.freeze()
    durations = timed_card_plays(client, rounds=3)

    print(f"\nRedis {fault}: {len(durations)} card plays, p99 {p99(durations) * 1000:.1f} ms")
    assert len(durations) == 120
    assert p99(durations) < P99_BOUND
    assert publishing.breaker.is_open(time.monotonic())
    assert publishing.breaker.skipped > 0


def test_a_failed_send_opens_the_breaker_for_the_pause_and_the_next_send_after_it_closes_it(
    private_redis: PrivateRedis, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(publishing, "monotonic", lambda: clock[0])
    private_redis.stop()

    assert publishing.publish(consume_log) is False
    assert publishing.breaker.is_open(clock[0])
    clock[0] += settings.CELERY_PUBLISH_PAUSE - 1
    assert publishing.publish(consume_log) is False
    assert publishing.breaker.skipped == 1

    private_redis.start()
    clock[0] += 1
    assert publishing.publish(consume_log) is True
    assert not publishing.breaker.is_open(clock[0])


def tournament_finished(tournament_id: Any) -> Callable[[], bool]:
    return lambda: Tournament.objects.get(id=tournament_id).status == "finished"


@pytest.mark.parametrize("fault", ["stopped", "frozen"])
def test_the_consumer_catches_up_after_redis_returns(
    private_redis: PrivateRedis, start_worker: WorkerFactory, fault: str
) -> None:
    worker = start_worker(catch_up_seconds=1)
    if fault == "stopped":
        private_redis.stop()
    else:
        private_redis.freeze()

    tournament_id = new_tournament("single_elimination", 2)
    services.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (final,) = fixtures(tournament_id)
    play(final.match_id, winner=0)
    assert Match.objects.get(id=final.match_id).status == "finished"
    assert Tournament.objects.get(id=tournament_id).status == "in_progress"

    returned = time.monotonic()
    if fault == "stopped":
        private_redis.start()
    else:
        private_redis.thaw()
    wait_for(
        tournament_finished(tournament_id),
        timeout=CATCH_UP_BOUND,
        what="the consumer to record the final",
        log=worker.log,
    )
    print(f"\nRedis {fault}: caught up {time.monotonic() - returned:.1f} s after it returned")
