"""The shared cache (throttles, sign-in lockout) never holds a request up: after Redis failed it
is skipped for a pause instead of waited on by every request (common/cache.py, issue 10 §2).

Every Redis broken here is a private one, never the shared server.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.core.cache import cache, caches
from django.test import override_settings
from redis.exceptions import RedisError
from rest_framework.test import APIClient

from bench._private_redis import PrivateRedis
from common import cache as guarded_cache
from tests.factories.accounts import UserFactory, token_client
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import p99, timed_writes

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(tmp_path: Path) -> Iterator[PrivateRedis]:
    """The cache on a private Redis, as deployed (the test settings keep it in memory)."""
    server = PrivateRedis(tmp_path / "redis.log")
    guarded_cache.breaker.close()
    try:
        server.start()
        caches = {
            "default": {
                "BACKEND": "common.cache.RedisCache",
                "LOCATION": server.url,
                "KEY_PREFIX": "cache",
                "OPTIONS": {
                    "socket_connect_timeout": 0.1,
                    "socket_timeout": 0.1,
                    "failure_pause": 30,
                },
            }
        }
        with override_settings(CACHES=caches):
            yield server
    finally:
        server.stop()
        guarded_cache.breaker.close()


def scorer() -> APIClient:
    return token_client(UserFactory.create(username="scorer"))


def test_the_throttles_count_in_the_redis_cache_while_it_answers(
    redis_cache: PrivateRedis,
) -> None:
    client = scorer()
    ApiMatchFactory.create(client=client)

    assert any(key.startswith(b"cache:") for key in redis_keys(redis_cache))
    assert not guarded_cache.breaker.is_open(time.monotonic())


def redis_keys(server: PrivateRedis) -> list[bytes]:
    client = redis.Redis.from_url(server.url)
    try:
        return [key for key in client.keys("*") if isinstance(key, bytes)]
    finally:
        client.close()


@pytest.mark.parametrize("fault", ["stopped", "frozen"])
def test_writes_never_wait_on_a_cache_redis_that_is_stopped_or_frozen(
    redis_cache: PrivateRedis, fault: str
) -> None:
    client = scorer()
    ApiMatchFactory.create(client=client)  # the throttles counted in Redis

    redis_cache.fail(fault)
    durations = timed_writes(client, rounds=5)

    print(f"\ncache Redis {fault}: {len(durations)} writes, p99 {p99(durations) * 1000:.1f} ms")
    # How long they took is measured by bench/redis_outage.py, never asserted here: the breaker
    # opened and the writes went on without the cache.
    assert len(durations) == 1 + 5 * 41
    assert guarded_cache.breaker.is_open(time.monotonic())
    assert guarded_cache.breaker.skipped > 0


def test_the_cache_is_tried_again_after_the_pause(
    redis_cache: PrivateRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(guarded_cache, "monotonic", lambda: clock[0])
    redis_cache.stop()
    with pytest.raises(RedisError) as first:
        cache.get("key")
    assert not isinstance(first.value, guarded_cache.RedisUnavailable)
    clock[0] += 29
    with pytest.raises(guarded_cache.RedisUnavailable):
        cache.get("key")

    redis_cache.start()
    clock[0] += 1
    cache.set("key", "value")

    assert cache.get("key") == "value"
    assert not guarded_cache.breaker.is_open(clock[0])


@pytest.mark.usefixtures("redis_cache")
def test_one_redis_client_serves_every_operation_of_the_cache() -> None:
    cache.set("counted", 1)
    assert cache.get("counted") == 1
    deployed = caches["default"]
    assert isinstance(deployed, guarded_cache.RedisCache)
    shared = deployed._cache.client

    assert shared.get_client() is shared.get_client(write=True)
    assert cache.get("counted") == 1
