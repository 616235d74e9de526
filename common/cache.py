"""Django's Redis cache, but a Redis that failed is skipped for a while instead of waited on.

The cache holds the throttles' counts and the sign-in lockout, which let a request through (and
log) when Redis fails (docs/decisions/0014-throttling.md). Failing still cost each request the
socket timeout: a frozen Redis held every API request that long. Here every operation goes
through the process's `breaker`: after a `RedisError` it opens for `failure_pause` seconds (an
OPTIONS entry, 30 by default), during which operations raise `RedisUnavailable` (a `RedisError`,
which the callers already handle) without touching the network. See
docs/decisions/0021-wake-ups-never-wait-on-redis.md.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from time import monotonic
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from typing_extensions import override

from common.breaker import Breaker

logger = logging.getLogger(__name__)

DEFAULT_FAILURE_PAUSE = 30.0

breaker = Breaker()
"""This process's breaker for the cache (every thread's cache object shares it)."""


class RedisUnavailable(RedisConnectionError):
    """Raised instead of calling Redis while the breaker is open."""


class GuardedClient:
    """Django's Redis cache client, each of its operations guarded by the breaker."""

    def __init__(self, client: Any, pause: float) -> None:
        self.client = client
        self.pause = pause

    def __getattr__(self, name: str) -> Any:
        operation = getattr(self.client, name)
        if name.startswith("_") or not callable(operation):
            return operation
        return self.guarded(operation)

    def guarded(self, operation: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if breaker.is_open(monotonic()):
                breaker.skipped += 1
                raise RedisUnavailable("the cache failed recently; not tried")
            try:
                return operation(*args, **kwargs)
            except RedisError as error:
                breaker.trip(monotonic(), self.pause)
                logger.warning("the cache failed (%s); skipped for %s s", error, self.pause)
                raise

        return call


class SharedRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, with one `redis.Redis` per connection pool: Django's makes a
    new one for every operation, and its constructor was 5 % of a card's CPU (three cache
    operations a request: the throttle's two and the credentials generation). A `redis.Redis`
    is thread-safe: each command takes a connection from the pool."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    @override
    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            made = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            client = self._clients.setdefault(id(pool), made)
        return client


class RedisCache(DjangoRedisCache):
    """`django.core.cache.backends.redis.RedisCache` with the breaker; OPTIONS as Django's, plus
    `failure_pause`."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS", {}))
        self.failure_pause = float(options.pop("failure_pause", DEFAULT_FAILURE_PAUSE))
        self.client_options = options
        self.servers = re.split("[;,]", server) if isinstance(server, str) else list(server)
        super().__init__(server, {**params, "OPTIONS": options})

    @cached_property
    def _cache(self) -> Any:
        client = SharedRedisCacheClient(self.servers, **self.client_options)
        return GuardedClient(client, self.failure_pause)
